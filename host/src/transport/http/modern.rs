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

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::body::Bytes;
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
use mcp_wit_protocol::{Admitted, Canceller, Method, ProtocolVersion, Sink};

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
/// the legacy transport if not. Before the guest sees it, the request climbs
/// the validation ladder, each refusal answered at once with its status.
pub async fn serve(
    server: &Arc<ServerState>,
    headers: &HeaderMap,
    message: Message,
    streaming: bool,
) -> Result<Response, Message> {
    let Message::Request { id, method, params } = &message else { return Err(message) };
    let envelope = match Envelope::read(params.as_deref()) {
        Ok(Some(envelope)) => envelope,
        Ok(None) if !header_is_modern(headers) => return Err(message),
        // A modern header on a body that makes no modern claim.
        Ok(None) if method == "initialize" => {
            return Ok(rejected(
                id,
                header_mismatch(
                    "`initialize` is a 2025 request, but MCP-Protocol-Version names 2026-07-28 (send the 2025 revision, or no initialize at all)",
                ),
            ));
        }
        Ok(None) => return Ok(rejected(id, modern::missing_envelope("MCP-Protocol-Version names 2026-07-28"))),
        Err(error) => return Ok(rejected(id, error)),
    };
    let named = Named::of(method, params.as_deref());
    if let Err(error) = check_headers(headers, method, &named, &envelope) {
        return Ok(rejected(id, error));
    }
    let mut session = server.session();
    let admitted = match session.admit(method, &envelope).await {
        Ok(admitted) => admitted,
        Err(error) => return Ok(rejected(id, error)),
    };
    if admitted.method() == Method::CallTool
        && let Err(error) = check_param_headers(headers, &named, &mut session).await
    {
        return Ok(rejected(id, error));
    }
    if admitted.method() == Method::Listen {
        return Ok(listen(server, session, admitted, message).await);
    }
    let guard = CancelOnDrop::new(session.canceller(), id.get());
    let target = Target::Admitted { session: Box::new(session), admitted };
    Ok(answer(server, target, message, streaming, None, Some(guard)).await)
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

/// What the standard headers are checked against: the name (`tools/call`,
/// `prompts/get`) or URI (`resources/read`) a request names, and a call's
/// arguments, raw. Read once, for the requests that carry them.
#[derive(Deserialize, Default)]
struct Named<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    uri: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

impl<'a> Named<'a> {
    fn of(method: &str, params: Option<&'a RawValue>) -> Self {
        match method {
            "tools/call" | "prompts/get" | "resources/read" => {
                params.and_then(|p| serde_json::from_str(p.get()).ok()).unwrap_or_default()
            }
            _ => Named::default(),
        }
    }

    /// What `Mcp-Name` must equal.
    fn mcp_name(&self, method: &str) -> Option<&str> {
        match method {
            "tools/call" | "prompts/get" => self.name.as_deref(),
            "resources/read" => self.uri.as_deref(),
            _ => None,
        }
    }
}

/// The rungs of the ladder between the envelope and the method: the version
/// header against the body, the revision, then `Mcp-Method` and `Mcp-Name`.
fn check_headers(headers: &HeaderMap, method: &str, named: &Named<'_>, envelope: &Envelope) -> Result<(), RpcError> {
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
        Some(sent) if sent != method => {
            return Err(header_mismatch(format!("Mcp-Method is {sent:?} but the body's method is {method:?}")));
        }
        Some(_) => {}
    }
    match (header_text(headers, &MCP_NAME)?, named.mcp_name(method)) {
        (Some(header), Some(body)) if header == body => Ok(()),
        (Some(header), Some(body)) => {
            Err(header_mismatch(format!("Mcp-Name is {header:?} but the body names {body:?}")))
        }
        (None, Some(_)) => Err(header_mismatch(format!("Mcp-Name is required on {method}"))),
        // No name in the body (or none needed): the handler says what is missing.
        (_, None) => Ok(()),
    }
}

/// `Mcp-Param-{Name}` against the arguments of a `tools/call`: every
/// argument the tool's input schema marks with `x-mcp-header` and the body
/// gives a value must come with its header, equal to it; integers compare
/// as numbers. The arguments are read only for tools that mark any.
async fn check_param_headers(headers: &HeaderMap, call: &Named<'_>, session: &mut Session) -> Result<(), RpcError> {
    let Some(tool) = call.name.as_deref() else { return Ok(()) };
    let declared = session.header_arguments(tool).await?;
    if declared.is_empty() {
        return Ok(());
    }
    let arguments: serde_json::Map<String, Value> =
        call.arguments.and_then(|a| serde_json::from_str(a.get()).ok()).unwrap_or_default();
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
async fn listen(server: &Arc<ServerState>, mut session: Session, admitted: Admitted, message: Message) -> Response {
    let mut shutdown = server.shutdown.subscribe();
    let keep_alive = server.options.keep_alive;
    let (tx, rx) = mpsc::channel(sse::CHANNEL_CAPACITY);
    session.set_sink(Some(Arc::new(ListenStream(tx.clone()))));
    tokio::spawn(async move {
        let mut out: Vec<Vec<u8>> = Vec::new();
        if let Message::Request { id, params, .. } = &message {
            session.handle_admitted_async(id, admitted, params.as_deref(), &mut out).await;
        }
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

/// A `subscriptions/listen` stream: the changes it listens for go out as
/// events if it has room.
struct ListenStream(mpsc::Sender<Bytes>);

impl Sink for ListenStream {
    fn offer(&self, message: &[u8]) {
        if self.0.try_send(sse::message(message)).is_err() {
            tracing::debug!("a change notification was dropped: a listening client reads too slowly");
        }
    }
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
