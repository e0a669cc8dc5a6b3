//! `baseline-serde`: the floor. The least an MCP stdio server can do for the
//! `echo` tool: read a line, parse it with serde_json, write the answer.
//!
//! It answers `initialize`, `ping`, `tools/list` and `tools/call` (`echo`)
//! correctly and nothing else. Its I/O loop is the one `mcp-wit serve` uses
//! (64 KiB buffers; output flushed once no more input is waiting), so the gap
//! between the two is what the protocol core and the WebAssembly guest cost.

use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, BufWriter, Write};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// Revisions answered as asked; any other gets the newest of them.
const REVISIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

const TOOLS: &str = r#"{"tools":[{"name":"echo","description":"Echoes its text argument","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]}"#;

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow)]
    params: Option<&'a RawValue>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct InitializeParams<'a> {
    #[serde(borrow)]
    protocol_version: Cow<'a, str>,
}

#[derive(Deserialize)]
struct CallParams<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow)]
    arguments: Option<EchoArguments<'a>>,
}

#[derive(Deserialize)]
struct EchoArguments<'a> {
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
}

#[derive(Serialize)]
struct CallResult<'a> {
    content: [TextContent<'a>; 1],
    #[serde(rename = "isError", skip_serializing_if = "std::ops::Not::not")]
    is_error: bool,
}

#[derive(Serialize)]
struct TextContent<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    text: &'a str,
}

fn main() -> io::Result<()> {
    let mut reader = BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let mut writer = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut line = Vec::with_capacity(4096);
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let message = line.trim_ascii();
        if !message.is_empty() {
            handle(message, &mut writer)?;
        }
        // Flush only when no more input is waiting: pipelined requests get
        // their answers in one write.
        if reader.buffer().is_empty() {
            writer.flush()?;
        }
    }
    writer.flush()
}

/// Answers one message (requests only; notifications and responses need none).
fn handle(message: &[u8], out: &mut impl Write) -> io::Result<()> {
    let Ok(message) = serde_json::from_slice::<Message>(message) else {
        return error(out, None, -32700, "Parse error");
    };
    let (Some(id), Some(method)) = (message.id, message.method) else {
        return Ok(());
    };
    let params = message.params.map_or("{}", RawValue::get);
    match method.as_ref() {
        "initialize" => match serde_json::from_str::<InitializeParams>(params) {
            Ok(p) => {
                let version = REVISIONS.iter().find(|v| **v == p.protocol_version).unwrap_or(&REVISIONS[3]);
                let result = serde_json::json!({
                    "protocolVersion": version,
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "baseline-serde", "version": env!("CARGO_PKG_VERSION")},
                });
                result_raw(out, id, &result.to_string())
            }
            Err(_) => error(out, Some(id), -32602, "Invalid params"),
        },
        "ping" => result_raw(out, id, "{}"),
        "tools/list" => result_raw(out, id, TOOLS),
        "tools/call" => match serde_json::from_str::<CallParams>(params) {
            Ok(p) if p.name != "echo" => error(out, Some(id), -32602, "Unknown tool"),
            Ok(p) => {
                let (text, is_error) = match p.arguments.and_then(|a| a.text) {
                    Some(text) => (text, false),
                    None => (Cow::Borrowed("`text` must be a string"), true),
                };
                write!(out, r#"{{"jsonrpc":"2.0","id":{},"result":"#, id.get())?;
                let result = CallResult { content: [TextContent { kind: "text", text: &text }], is_error };
                serde_json::to_writer(&mut *out, &result)?;
                out.write_all(b"}\n")
            }
            Err(_) => error(out, Some(id), -32602, "Invalid params"),
        },
        _ => error(out, Some(id), -32601, "Method not found"),
    }
}

fn result_raw(out: &mut impl Write, id: &RawValue, result: &str) -> io::Result<()> {
    writeln!(out, r#"{{"jsonrpc":"2.0","id":{},"result":{result}}}"#, id.get())
}

fn error(out: &mut impl Write, id: Option<&RawValue>, code: i32, message: &str) -> io::Result<()> {
    let id = id.map_or("null", RawValue::get);
    writeln!(out, r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":"{message}"}}}}"#)
}
