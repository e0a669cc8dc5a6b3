//! An MCP server that knows nothing of mcp-wit: newline-delimited JSON-RPC
//! on stdin and stdout, as a stdio server compiled for `wasm32-wasip2` is
//! (a `wasi:cli/run` command). It keeps a count across its session's calls,
//! logs to stderr, and can exit or panic when asked, so that the tests see
//! how a host serves it.

use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn main() {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    let mut count = 0u64;
    let modern_only = std::env::var_os("MODERN_ONLY").is_some();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(message) = serde_json::from_str::<Value>(&line) else { continue };
        let Some(id) = message.get("id").cloned() else { continue };
        let method = message["method"].as_str().unwrap_or_default();
        eprintln!("stdio-server: {method}");
        let revision = message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"].as_str();
        let answer = match method {
            "initialize" if modern_only => Err((-32022, "Unsupported protocol version: serves 2026-07-28".to_string())),
            "server/discover" if modern_only => Ok(json!({
                "resultType": "complete",
                "supportedVersions": ["2026-07-28"],
                "capabilities": { "tools": {} },
                "instructions": "Counts and echoes over stdio, 2026-07-28 only.",
                "ttlMs": 0,
                "cacheScope": "private",
                "_meta": { "io.modelcontextprotocol/serverInfo": { "name": "stdio-server-modern", "version": "1.0.0" } },
            })),
            _ if modern_only && revision != Some("2026-07-28") => {
                Err((-32600, "Invalid Request: a 2026-07-28 request carries its revision in _meta".to_string()))
            }
            "initialize" => Ok(json!({
                "protocolVersion": message["params"]["protocolVersion"].as_str().unwrap_or("2025-06-18"),
                "capabilities": { "tools": {} },
                "serverInfo": { "name": "stdio-server", "version": "1.0.0" },
                "instructions": "Counts and echoes over stdio.",
            })),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({ "tools": [
                { "name": "echo", "description": "Says its text back",
                  "inputSchema": { "type": "object", "properties": { "text": { "type": "string" } }, "required": ["text"] } },
                { "name": "count", "description": "Counts its calls in this session",
                  "inputSchema": { "type": "object", "properties": {} } },
                { "name": "exit", "description": "Exits the process", "inputSchema": { "type": "object", "properties": {} } },
                { "name": "panic", "description": "Panics", "inputSchema": { "type": "object", "properties": {} } },
                { "name": "spin", "description": "Never answers", "inputSchema": { "type": "object", "properties": {} } },
            ]})),
            "tools/call" => {
                let arguments = &message["params"]["arguments"];
                match message["params"]["name"].as_str().unwrap_or_default() {
                    "echo" => Ok(text(arguments["text"].as_str().unwrap_or_default())),
                    "count" => {
                        count += 1;
                        Ok(text(&count.to_string()))
                    }
                    "exit" => std::process::exit(3),
                    "panic" => panic!("asked to panic"),
                    "spin" => loop {
                        std::hint::spin_loop();
                    },
                    other => Err((-32602, format!("Unknown tool: {other}"))),
                }
            }
            other => Err((-32601, format!("Method not found: {other}"))),
        };
        let reply = match answer {
            Ok(mut result) => {
                if modern_only {
                    result["resultType"] = json!("complete");
                }
                json!({ "jsonrpc": "2.0", "id": id, "result": result })
            }
            Err((code, message)) => {
                json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
            }
        };
        let _ = writeln!(stdout, "{reply}");
        let _ = stdout.flush();
    }
}

fn text(text: &str) -> Value {
    json!({ "content": [{ "type": "text", "text": text }] })
}
