//! What the floors share (`baseline-serde`, `baseline-wasm-router`): the
//! least an MCP server does around its `echo` tool, over stdio and over
//! Streamable HTTP. What answers the tool is the binary's ([`Tools`]):
//! serde_json alone, or a WebAssembly router on one instance.
//!
//! Over stdio: read a line, parse it with serde_json, write the answer. It
//! answers `initialize`, `ping`, `tools/list` and `tools/call` correctly and
//! nothing else. Its I/O loop is the one `mcp-wit serve` uses (64 KiB
//! buffers; output flushed once no more input is waiting, or after 8
//! messages).
//!
//! Over HTTP: hyper's HTTP/1.1 server on a multi-threaded Tokio runtime (as
//! `mcp-wit` and the rmcp baseline run), one task per connection, and one
//! [`Tools`] per connection, made when it opens. Every `POST /mcp` body is
//! parsed with serde_json and answered with one `application/json` body;
//! `initialize` opens a session (a random `Mcp-Session-Id`, kept in a set),
//! every later message must name a live session (else 404), notifications
//! get 202. That is the least any Streamable HTTP server with sessions must
//! do: parse HTTP, check the session, parse the JSON-RPC message, write the
//! answer. It streams nothing (no SSE, no per-request task or channel), keeps
//! no per-session state but the id, and checks no `Origin`/`Host`.
//!
//! A POST with `MCP-Protocol-Version: 2026-07-28` is a modern request: no
//! session is needed or made; its `Mcp-Method` header must name the body's
//! method (else 400), and the echo result carries `resultType`. That is the
//! least a stateless 2026-07-28 server must do.

use std::borrow::Cow;
use std::collections::HashSet;
use std::convert::Infallible;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderName, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// What answers `tools/list` and `tools/call` for a floor.
pub trait Tools {
    /// The `arguments` of a `tools/call`, as the tool reads them: parsed
    /// with the request's params, in the same pass.
    type Arguments<'a>: Deserialize<'a>;

    /// The `tools/list` result, as JSON.
    fn list(&self) -> &str;

    /// Answers a call of tool `name`: its text and whether it is an error,
    /// or `None` for a tool it does not have.
    fn call<'a>(&self, name: &str, arguments: Option<Self::Arguments<'a>>) -> Option<(Cow<'a, str>, bool)>;
}

/// Revisions answered as asked; any other gets the newest of them.
const REVISIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

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
#[serde(bound = "A: Deserialize<'de>")]
struct CallParams<'a, A> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    arguments: Option<A>,
}

#[derive(Serialize)]
struct CallResult<'a> {
    #[serde(rename = "resultType", skip_serializing_if = "Option::is_none")]
    result_type: Option<&'static str>,
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

/// Serves `tools` on stdin and stdout until stdin ends; `name` is the
/// server's name in `initialize`.
pub fn serve_stdio(tools: &impl Tools, name: &str) -> io::Result<()> {
    let mut reader = BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let mut writer = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut line = Vec::with_capacity(4096);
    let mut unflushed = 0;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let message = line.trim_ascii();
        if !message.is_empty() {
            match serde_json::from_slice::<Message>(message) {
                Ok(message) => answer(tools, name, message, false, &mut writer)?,
                Err(_) => error(&mut writer, None, -32700, "Parse error")?,
            }
        }
        // Flush when no more input is waiting, or after 8 messages, as
        // `mcp-wit serve` does: pipelined requests get their answers in few
        // writes, and the client reads the first while the rest are made.
        unflushed += 1;
        if unflushed >= 8 || reader.buffer().is_empty() {
            writer.flush()?;
            unflushed = 0;
        }
    }
    writer.flush()
}

/// Answers one parsed message (requests only; notifications and responses
/// need none); `modern` ones (2026-07-28) with `resultType`.
fn answer(tools: &impl Tools, name: &str, message: Message<'_>, modern: bool, out: &mut impl Write) -> io::Result<()> {
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
                    "serverInfo": {"name": name, "version": env!("CARGO_PKG_VERSION")},
                });
                result_raw(out, id, &result.to_string())
            }
            Err(_) => error(out, Some(id), -32602, "Invalid params"),
        },
        "ping" => result_raw(out, id, "{}"),
        "tools/list" => result_raw(out, id, tools.list()),
        "tools/call" => match serde_json::from_str::<CallParams<_>>(params) {
            Ok(p) => match tools.call(&p.name, p.arguments) {
                Some((text, is_error)) => {
                    write!(out, r#"{{"jsonrpc":"2.0","id":{},"result":"#, id.get())?;
                    let result = CallResult {
                        result_type: modern.then_some("complete"),
                        content: [TextContent { kind: "text", text: &text }],
                        is_error,
                    };
                    serde_json::to_writer(&mut *out, &result)?;
                    out.write_all(b"}\n")
                }
                None => error(out, Some(id), -32602, "Unknown tool"),
            },
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

const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");

/// The revision served without sessions.
const MODERN: &str = "2026-07-28";

/// The live sessions' ids.
type Sessions = Mutex<HashSet<Vec<u8>>>;

/// What a connection's requests share: its tools, the server's sessions and
/// name. One `Arc` of it is cloned a request.
struct Connection<T> {
    tools: T,
    sessions: Arc<Sessions>,
    name: Arc<str>,
}

/// Serves Streamable HTTP on `addr` until killed, with the tools
/// `connected` makes for each connection as it opens.
pub fn serve_http<T, F>(addr: &str, name: &str, connected: F) -> io::Result<()>
where
    T: Tools + Send + Sync + 'static,
    F: Fn() -> T + Send + 'static,
{
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let name: Arc<str> = name.into();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let sessions: Arc<Sessions> = Arc::default();
        loop {
            let (stream, _) = listener.accept().await?;
            stream.set_nodelay(true)?;
            let connection =
                Arc::new(Connection { tools: connected(), sessions: sessions.clone(), name: name.clone() });
            tokio::spawn(async move {
                let service = service_fn(move |request| answer_http(request, connection.clone()));
                let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
            });
        }
    })
}

/// Answers one HTTP request.
async fn answer_http<T: Tools>(
    request: Request<Incoming>,
    connection: Arc<Connection<T>>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let Connection { tools, sessions, name } = &*connection;
    if request.uri().path() != "/mcp" {
        return Ok(status(StatusCode::NOT_FOUND));
    }
    if request.method() != Method::POST {
        return Ok(status(StatusCode::METHOD_NOT_ALLOWED));
    }
    let modern = request.headers().get(PROTOCOL_VERSION).is_some_and(|v| v == MODERN);
    let named_method = request.headers().get(MCP_METHOD).cloned();
    // `Some(live)` when the request names a session.
    let session = request.headers().get(SESSION_ID).map(|id| lock(sessions).contains(id.as_bytes()));
    let Ok(body) = request.into_body().collect().await.map(|body| body.to_bytes()) else {
        return Ok(status(StatusCode::BAD_REQUEST));
    };
    let mut out = Vec::with_capacity(256);
    let Ok(message) = serde_json::from_slice::<Message>(&body) else {
        let _ = error(&mut out, None, -32700, "Parse error");
        return Ok(json(StatusCode::BAD_REQUEST, out));
    };
    let initialize = message.method.as_deref() == Some("initialize");
    let request = message.id.is_some();
    if modern {
        // No session: the request stands alone.
        return Ok(match (request, named_method) {
            (false, _) => status(StatusCode::ACCEPTED),
            (true, Some(named)) if message.method.as_deref().is_some_and(|m| named == m) => {
                let _ = answer(tools, name, message, true, &mut out);
                json(StatusCode::OK, out)
            }
            (true, _) => status(StatusCode::BAD_REQUEST),
        });
    }
    match session {
        None if initialize => {
            let _ = answer(tools, name, message, false, &mut out);
            let id = new_session_id();
            let value = HeaderValue::from_str(&id).expect("hex digits");
            lock(sessions).insert(id.into_bytes());
            let mut response = json(StatusCode::OK, out);
            response.headers_mut().insert(SESSION_ID, value);
            Ok(response)
        }
        None => Ok(status(StatusCode::BAD_REQUEST)),
        Some(false) => Ok(status(StatusCode::NOT_FOUND)),
        Some(true) if !request => Ok(status(StatusCode::ACCEPTED)),
        Some(true) => {
            let _ = answer(tools, name, message, false, &mut out);
            Ok(json(StatusCode::OK, out))
        }
    }
}

fn lock(sessions: &Sessions) -> std::sync::MutexGuard<'_, HashSet<Vec<u8>>> {
    sessions.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn status(status: StatusCode) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::default());
    *response.status_mut() = status;
    response
}

fn json(status: StatusCode, mut body: Vec<u8>) -> Response<Full<Bytes>> {
    if body.last() == Some(&b'\n') {
        body.pop();
    }
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// 128 bits from the OS's random generator, as 32 hex digits.
fn new_session_id() -> String {
    let mut bytes = [0u8; 16];
    // SAFETY: getrandom writes at most `bytes.len()` bytes into the buffer.
    let filled = unsafe { libc::getrandom(bytes.as_mut_ptr().cast(), bytes.len(), 0) };
    assert_eq!(filled, bytes.len() as isize, "the OS random number generator is unavailable");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
