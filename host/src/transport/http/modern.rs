//! Modern (MCP 2026-07-28) POSTs on `/mcp`: stateless, one message each.
//!
//! A request whose body carries the 2026-07-28 envelope is served on a
//! session of its own, never stored: no `Mcp-Session-Id` is minted or read,
//! and any replica can answer it. Before the guest sees it, the request goes
//! through the spec's validation ladder, each rung with its own status:
//! envelope (400, -32602), header against body (400, -32020), revision
//! (400, -32022), standard headers present (400, -32020), method served
//! (404, -32601), `Mcp-Param-*` against the tool's `x-mcp-header` arguments
//! (400, -32020). Errors of the handler itself (an unknown tool, a guest
//! failure) are answered in-band with 200.
//!
//! The client closing the response stream cancels the request.
//! `subscriptions/listen` answers with an SSE stream that stays open (with
//! keep-alive comments) until the client leaves or the server shuts down,
//! when it gets its final result.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::http::{HeaderMap, HeaderName, StatusCode};
use axum::response::Response;
use base64::Engine as _;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use super::ServerState;
use super::sse;
use super::streamable::{Target, answer};
use super::wire::{self, PROTOCOL_VERSION};
use mcp_wit_protocol::jsonrpc::{self, Message, RpcError, code};
use mcp_wit_protocol::modern::{self, Envelope};
use mcp_wit_protocol::{Canceller, Method, ProtocolVersion};

use crate::Session;

/// `Mcp-Method`.
pub const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
/// `Mcp-Name`.
pub const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");
/// Prefix of the `Mcp-Param-{Name}` headers.
const MCP_PARAM_PREFIX: &str = "mcp-param-";

/// Whether the `MCP-Protocol-Version` header names a modern revision.
pub fn header_is_modern(headers: &HeaderMap) -> bool {
    headers
        .get(PROTOCOL_VERSION)
        .and_then(|v| v.to_str().ok())
        .and_then(ProtocolVersion::parse)
        .is_some_and(ProtocolVersion::is_modern)
}

/// Whether a notification or response POST belongs to the modern era (it is
/// then accepted and dropped: 2026-07-28 defines no client notifications
/// over HTTP, a closed stream being the cancellation).
pub fn is_modern_message(headers: &HeaderMap, message: &Message) -> bool {
    let params = match message {
        Message::Notification { params, .. } => params.as_deref(),
        _ => None,
    };
    header_is_modern(headers) || matches!(Envelope::read(params), Ok(Some(_)))
}

/// Serves `message` (a request) if it is modern traffic; gives it back to
/// the legacy transport if not.
pub async fn serve(
    server: &Arc<ServerState>,
    headers: &HeaderMap,
    message: Message,
    streaming: bool,
) -> Result<Response, Message> {
    match admit(server, headers, &message).await {
        Some(Served::Answered(response)) => Ok(response),
        Some(Served::Run { session, method, id }) => Ok(run(server, *session, method, id, message, streaming).await),
        None => Err(message),
    }
}

/// What became of a modern request before its handler.
enum Served {
    /// Answered at the edge.
    Answered(Response),
    /// Admitted: to be run on this session.
    Run { session: Box<Session>, method: Method, id: Box<RawValue> },
}

async fn run(
    server: &Arc<ServerState>,
    session: Session,
    method: Method,
    id: Box<RawValue>,
    message: Message,
    streaming: bool,
) -> Response {
    if method == Method::Listen {
        return listen(server, session, message).await;
    }
    let guard = CancelOnDrop::new(session.canceller(), id.get());
    let target = Target::Fresh { session: Box::new(session), assume: None, id };
    answer(server, target, message, streaming, None, Some(guard)).await
}

/// The validation ladder, up to the handler: `None` when the request is not
/// modern traffic.
async fn admit(server: &Arc<ServerState>, headers: &HeaderMap, message: &Message) -> Option<Served> {
    let Message::Request { id, method, params } = message else { return None };
    let answered = |response| Some(Served::Answered(response));
    let envelope = match Envelope::read(params.as_deref()) {
        Ok(Some(envelope)) => envelope,
        Ok(None) if !header_is_modern(headers) => return None,
        // A modern header on a body that makes no modern claim.
        Ok(None) if method == "initialize" => {
            return answered(rejected(
                id,
                header_mismatch(
                    "`initialize` is a 2025 request, but MCP-Protocol-Version names 2026-07-28 (send the 2025 revision, or no initialize at all)",
                ),
            ));
        }
        Ok(None) => {
            return answered(rejected(id, modern::missing_envelope("MCP-Protocol-Version names 2026-07-28")));
        }
        Err(error) => return answered(rejected(id, error)),
    };
    if let Err(error) = check_headers(headers, method, params.as_deref(), &envelope) {
        return answered(rejected(id, error));
    }
    let mut session = Session::new(server.routers.clone(), server.session_options.clone());
    let method = match session.admit(method, &envelope).await {
        Ok((method, _)) => method,
        Err(error) => return answered(rejected(id, error)),
    };
    if method == Method::CallTool
        && let Err(error) = check_param_headers(headers, params.as_deref(), &mut session).await
    {
        return answered(rejected(id, error));
    }
    Some(Served::Run { session: Box::new(session), method, id: id.clone() })
}

/// The HTTP status of an error found before the handler ran.
fn status_of(error: &RpcError) -> StatusCode {
    match error.code {
        code::METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        code::INTERNAL_ERROR => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    }
}

/// The answer to a request refused at the edge, echoing its id.
fn rejected(id: &RawValue, error: RpcError) -> Response {
    let mut body = Vec::new();
    jsonrpc::write_error(&mut body, Some(id), &error);
    let mut response = wire::json(body);
    *response.status_mut() = status_of(&error);
    response
}

fn header_mismatch(message: impl Into<String>) -> RpcError {
    RpcError::new(code::HEADER_MISMATCH, format!("Header mismatch: {}", message.into()))
}

/// A header's value, with the `=?base64?…?=` sentinel decoded; -32020 when
/// it is not text or the sentinel does not decode to UTF-8.
fn header_text(headers: &HeaderMap, name: &HeaderName) -> Result<Option<String>, RpcError> {
    let Some(value) = headers.get(name) else { return Ok(None) };
    let text = value.to_str().map_err(|_| header_mismatch(format!("{name} is not visible ASCII")))?;
    decode_sentinel(text).map(Some).ok_or_else(|| header_mismatch(format!("{name}: the base64 value does not decode")))
}

/// `=?base64?<b64>?=` → the UTF-8 text it encodes; other values as they are.
fn decode_sentinel(text: &str) -> Option<String> {
    let Some(encoded) = text.strip_prefix("=?base64?").and_then(|t| t.strip_suffix("?=")) else {
        return Some(text.to_string());
    };
    let bytes = base64::engine::general_purpose::STANDARD.decode(encoded).ok()?;
    String::from_utf8(bytes).ok()
}

/// The rungs of the ladder between the envelope and the method: the version
/// header against the body, the revision, then `Mcp-Method` and `Mcp-Name`.
fn check_headers(
    headers: &HeaderMap,
    method: &str,
    params: Option<&RawValue>,
    envelope: &Envelope,
) -> Result<(), RpcError> {
    let version = header_text(headers, &PROTOCOL_VERSION)?;
    if let Some(version) = &version
        && *version != envelope.requested_version
    {
        return Err(header_mismatch(format!(
            "MCP-Protocol-Version is {version:?} but the body's `_meta` names {:?}",
            envelope.requested_version
        )));
    }
    envelope.version()?;
    if version.is_none() {
        return Err(header_mismatch("MCP-Protocol-Version is required on 2026-07-28 requests"));
    }
    match header_text(headers, &MCP_METHOD)? {
        None => return Err(header_mismatch("Mcp-Method is required on 2026-07-28 requests")),
        Some(named) if named != method => {
            return Err(header_mismatch(format!("Mcp-Method is {named:?} but the body's method is {method:?}")));
        }
        Some(_) => {}
    }
    #[derive(Deserialize, Default)]
    struct Named {
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        uri: Option<String>,
    }
    let named = || params.and_then(|p| serde_json::from_str::<Named>(p.get()).ok()).unwrap_or_default();
    let body_name = match method {
        "tools/call" | "prompts/get" => named().name,
        "resources/read" => named().uri,
        _ => return Ok(()),
    };
    match (header_text(headers, &MCP_NAME)?, body_name) {
        (Some(header), Some(body)) if header == body => Ok(()),
        (Some(header), Some(body)) => {
            Err(header_mismatch(format!("Mcp-Name is {header:?} but the body names {body:?}")))
        }
        (None, Some(_)) => Err(header_mismatch(format!("Mcp-Name is required on {method}"))),
        // No name in the body: the handler says what is missing.
        (_, None) => Ok(()),
    }
}

/// `Mcp-Param-{Name}` against the arguments of a `tools/call`: every
/// argument the tool's input schema marks with `x-mcp-header` and the body
/// gives a value must come with its header, equal to it; integers compare
/// as numbers.
async fn check_param_headers(
    headers: &HeaderMap,
    params: Option<&RawValue>,
    session: &mut Session,
) -> Result<(), RpcError> {
    #[derive(Deserialize)]
    struct Call {
        name: String,
        #[serde(default)]
        arguments: Option<serde_json::Map<String, Value>>,
    }
    let Some(call) = params.and_then(|p| serde_json::from_str::<Call>(p.get()).ok()) else {
        return Ok(());
    };
    let declared = session.header_arguments(&call.name).await?;
    let arguments = call.arguments.unwrap_or_default();
    for (argument, header) in declared {
        let Some(value) = arguments.get(&argument).filter(|v| !v.is_null()) else { continue };
        let name = HeaderName::try_from(format!("{MCP_PARAM_PREFIX}{header}"))
            .map_err(|_| header_mismatch(format!("x-mcp-header {header:?} is not a valid header name")))?;
        let Some(sent) = header_text(headers, &name)? else {
            return Err(header_mismatch(format!("{name} is required: the body gives `{argument}`")));
        };
        if !same_value(&sent, value) {
            return Err(header_mismatch(format!("{name} is {sent:?} but the body's `{argument}` is {value}")));
        }
    }
    Ok(())
}

/// Whether a header's text stands for `value`: strings as they are, numbers
/// numerically, booleans as `true`/`false`.
fn same_value(sent: &str, value: &Value) -> bool {
    match value {
        Value::String(s) => s == sent,
        Value::Number(n) => match (n.as_i64(), sent.trim().parse::<i64>()) {
            (Some(a), Ok(b)) => a == b,
            _ => n.as_f64().zip(sent.trim().parse::<f64>().ok()).is_some_and(|(a, b)| a == b),
        },
        Value::Bool(b) => sent == if *b { "true" } else { "false" },
        other => serde_json::to_string(other).is_ok_and(|text| text == sent),
    }
}

/// `subscriptions/listen`: the acknowledgement, then keep-alive comments;
/// at shutdown the request's final result ends the stream.
async fn listen(server: &Arc<ServerState>, mut session: Session, message: Message) -> Response {
    let mut shutdown = server.shutdown.subscribe();
    let keep_alive = server.options.keep_alive;
    let (tx, rx) = mpsc::channel(sse::CHANNEL_CAPACITY);
    tokio::spawn(async move {
        let mut out: Vec<Vec<u8>> = Vec::new();
        session.handle_parsed_async(message.as_incoming(), &mut out).await;
        for json in out {
            if tx.send(sse::message(&json)).await.is_err() {
                return;
            }
        }
        if session.open_subscriptions() == 0 {
            return;
        }
        let shutting_down = async move { shutdown.wait_for(|&down| down).await.is_ok() };
        let ended = tokio::select! {
            down = shutting_down => down,
            () = tx.closed() => false,
        };
        if !ended {
            tracing::debug!("a listening client left");
            return;
        }
        let mut end: Vec<Vec<u8>> = Vec::new();
        session.end_subscriptions(&mut end);
        for json in end {
            let _ = tx.send(sse::message(&json)).await;
        }
    });
    wire::event_stream(sse::body(Vec::new(), Some(rx), keep_alive, None, (), None))
}

/// Cancels a request when dropped before [`CancelOnDrop::finished`]: held by
/// whatever lives as long as the client waits (the answer's stream, or the
/// handler awaiting a JSON answer), so that a client who leaves cancels.
pub struct CancelOnDrop {
    canceller: Canceller,
    id: String,
    finished: Arc<AtomicBool>,
}

impl CancelOnDrop {
    fn new(canceller: Canceller, id: &str) -> Self {
        CancelOnDrop { canceller, id: id.to_string(), finished: Arc::new(AtomicBool::new(false)) }
    }

    /// A flag to set once the request is answered.
    pub fn finished(&self) -> Arc<AtomicBool> {
        self.finished.clone()
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.finished.load(Ordering::Acquire) {
            tracing::debug!(id = %self.id, "the client closed the stream: cancelling its request");
            self.canceller.cancel(&self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_base64_sentinel() {
        assert_eq!(decode_sentinel("tools/call").as_deref(), Some("tools/call"));
        assert_eq!(decode_sentinel("=?base64?aMOpbGxv?=").as_deref(), Some("héllo"));
        assert_eq!(decode_sentinel("=?base64?!!?="), None);
    }

    #[test]
    fn compares_header_values_as_json_types() {
        assert!(same_value("42", &serde_json::json!(42)));
        assert!(same_value("42.0", &serde_json::json!(42)));
        assert!(!same_value("43", &serde_json::json!(42)));
        assert!(same_value("true", &serde_json::json!(true)));
        assert!(same_value("a b", &serde_json::json!("a b")));
    }
}
