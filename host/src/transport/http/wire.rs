//! HTTP details shared by the handlers: header names, content negotiation,
//! body reading and error responses.

use std::error::Error as StdError;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde_json::value::RawValue;

use mcp_wit_protocol::ProtocolVersion;
use mcp_wit_protocol::jsonrpc::{self, Incoming, Message, RpcError};

/// `Mcp-Session-Id`.
pub const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
/// `MCP-Protocol-Version`.
pub const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
/// `Last-Event-ID`.
pub const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");

/// The revision assumed when a request has no `MCP-Protocol-Version` header.
pub const DEFAULT_VERSION: ProtocolVersion = ProtocolVersion::V2025_03_26;

/// JSON-RPC code in transport-level error bodies (bad headers, no session, …).
pub const TRANSPORT_ERROR: i32 = -32000;
/// JSON-RPC code in the body of a 404 for an unknown or ended session.
pub const SESSION_NOT_FOUND: i32 = -32001;

const JSON: &str = "application/json";
const EVENT_STREAM: &str = "text/event-stream";

/// A response whose body is a JSON-RPC error object (no `id` unless given).
pub fn error(status: StatusCode, code: i32, message: impl Into<String>, id: Option<&RawValue>) -> Response {
    let mut body = Vec::new();
    jsonrpc::write_error(&mut body, id, &RpcError::new(code, message));
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(JSON));
    response
}

/// A bare status with an empty body (202, 204).
pub fn status(status: StatusCode) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    response
}

/// 405 naming the methods that are allowed.
pub fn method_not_allowed(allow: &'static str, why: &str) -> Response {
    let mut response =
        error(StatusCode::METHOD_NOT_ALLOWED, TRANSPORT_ERROR, format!("Method not allowed: {why}"), None);
    response.headers_mut().insert(axum::http::header::ALLOW, HeaderValue::from_static(allow));
    response
}

/// A complete JSON-RPC message as an `application/json` response.
pub fn json(message: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(message));
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(JSON));
    response
}

/// An SSE response around `body`.
pub fn event_stream(body: Body) -> Response {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(EVENT_STREAM));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // Tell buffering proxies (nginx) to pass events through as they come.
    headers.insert(HeaderName::from_static("x-accel-buffering"), HeaderValue::from_static("no"));
    response
}

/// Whether the `Accept` header admits `media` (no header admits anything).
pub fn accepts(headers: &HeaderMap, media: &str) -> bool {
    let (kind, _) = media.split_once('/').expect("a media type has a slash");
    let mut seen = false;
    for value in headers.get_all(ACCEPT) {
        seen = true;
        let Ok(value) = value.to_str() else { continue };
        for range in value.split(',') {
            let mut parts = range.split(';');
            let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let refused = parts
                .any(|p| p.trim().strip_prefix("q=").is_some_and(|q| q.trim().parse::<f32>().is_ok_and(|q| q <= 0.0)));
            let matches = name == media || name == "*/*" || name.strip_suffix("/*") == Some(kind);
            if matches && !refused {
                return true;
            }
        }
    }
    !seen
}

/// How a request's answer is sent: as an SSE stream (`true`) or as JSON.
/// SSE unless `--json-response` or the client does not take it; 406 when it
/// takes neither.
pub fn wants_event_stream(headers: &HeaderMap, json_response: bool) -> Result<bool, Response> {
    let json = accepts(headers, JSON);
    let sse = accepts(headers, EVENT_STREAM);
    match (json, sse) {
        (false, false) => Err(error(
            StatusCode::NOT_ACCEPTABLE,
            TRANSPORT_ERROR,
            "Not Acceptable: the client must accept application/json and text/event-stream",
            None,
        )),
        (true, _) if json_response => Ok(false),
        (_, sse) => Ok(sse),
    }
}

/// 415 unless the body is declared `application/json`.
pub fn require_json(headers: &HeaderMap) -> Result<(), Response> {
    let is_json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case(JSON));
    if is_json {
        Ok(())
    } else {
        Err(error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            TRANSPORT_ERROR,
            "Unsupported Media Type: the body must be application/json",
            None,
        ))
    }
}

/// The `MCP-Protocol-Version` header of legacy traffic: absent →
/// [`DEFAULT_VERSION`], a revision the host does not serve in sessions → 400.
pub fn protocol_version(headers: &HeaderMap) -> Result<ProtocolVersion, Response> {
    let Some(value) = headers.get(PROTOCOL_VERSION) else { return Ok(DEFAULT_VERSION) };
    value.to_str().ok().and_then(ProtocolVersion::parse).filter(|v| !v.is_modern()).ok_or_else(|| {
        let supported: Vec<&str> = ProtocolVersion::LEGACY.iter().map(|v| v.as_str()).collect();
        error(
            StatusCode::BAD_REQUEST,
            TRANSPORT_ERROR,
            format!(
                "Bad Request: unsupported MCP-Protocol-Version {:?} (supported: {})",
                String::from_utf8_lossy(value.as_bytes()),
                supported.join(", ")
            ),
            None,
        )
    })
}

/// The `Mcp-Session-Id` header, if any (400 when it is not visible ASCII).
pub fn session_id(headers: &HeaderMap) -> Result<Option<&str>, Response> {
    let Some(value) = headers.get(SESSION_ID) else { return Ok(None) };
    match value.to_str() {
        Ok(id) if !id.is_empty() && id.bytes().all(|b| b.is_ascii_graphic()) => Ok(Some(id)),
        _ => Err(error(StatusCode::BAD_REQUEST, TRANSPORT_ERROR, "Bad Request: malformed Mcp-Session-Id", None)),
    }
}

/// 404 for a session that does not exist (or no longer does).
pub fn unknown_session(id: Option<&RawValue>) -> Response {
    error(StatusCode::NOT_FOUND, SESSION_NOT_FOUND, "Session not found: start a new one with `initialize`", id)
}

/// Reads a whole body: 413 beyond `limit` bytes, 408 when it takes longer
/// than `timeout`.
pub async fn read_body(body: Body, limit: usize, timeout: Duration) -> Result<Bytes, Response> {
    match tokio::time::timeout(timeout, Limited::new(body, limit).collect()).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if is_length_limit(&*e) => Err(too_large(limit)),
        Ok(Err(e)) => Err(error(
            StatusCode::BAD_REQUEST,
            TRANSPORT_ERROR,
            format!("Bad Request: cannot read the body: {e}"),
            None,
        )),
        Err(_) => Err(error(
            StatusCode::REQUEST_TIMEOUT,
            TRANSPORT_ERROR,
            format!("Request Timeout: the body did not arrive within {timeout:?}"),
            None,
        )),
    }
}

fn too_large(limit: usize) -> Response {
    error(
        StatusCode::PAYLOAD_TOO_LARGE,
        TRANSPORT_ERROR,
        format!("Payload Too Large: a message may have at most {limit} bytes"),
        None,
    )
}

fn is_length_limit(e: &(dyn StdError + 'static)) -> bool {
    let mut current = Some(e);
    while let Some(e) = current {
        if e.is::<LengthLimitError>() {
            return true;
        }
        current = e.source();
    }
    false
}

/// What a POST body holds, as far as the transport needs to know, and the
/// message itself, parsed once for the session.
pub enum Kind {
    /// A request: it gets an answer.
    Request {
        /// Whether it is `initialize`.
        initialize: bool,
        /// The message.
        message: Message,
    },
    /// A notification or a response: 202, no body.
    Accepted {
        /// For `notifications/cancelled`: the raw id of the request it
        /// cancels, to be passed on at once (the session may be busy with it).
        cancels: Option<String>,
        /// The message.
        message: Message,
    },
    /// Not a valid message: this JSON-RPC error (sent with 400, or on the
    /// legacy transport's stream).
    Invalid(Vec<u8>),
}

/// Classifies a message with the core's own parser.
pub fn classify(body: &[u8]) -> Kind {
    match jsonrpc::parse(body) {
        Ok(incoming) => {
            let message = incoming.to_message();
            match incoming {
                Incoming::Request { method, .. } => Kind::Request { initialize: method == "initialize", message },
                Incoming::Notification { method, params } => {
                    Kind::Accepted { cancels: jsonrpc::cancelled_request(&method, params), message }
                }
                Incoming::Response { .. } => Kind::Accepted { cancels: None, message },
            }
        }
        Err(rejection) => {
            let mut body = Vec::new();
            jsonrpc::write_error(&mut body, rejection.id, &rejection.error);
            Kind::Invalid(body)
        }
    }
}

/// A 400 answer carrying the JSON-RPC error `body`.
pub fn bad_request(body: Vec<u8>) -> Response {
    let mut response = json(body);
    *response.status_mut() = StatusCode::BAD_REQUEST;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn negotiates_the_answer_format() {
        assert!(wants_event_stream(&accept("application/json, text/event-stream"), false).unwrap());
        assert!(!wants_event_stream(&accept("application/json, text/event-stream"), true).unwrap());
        assert!(!wants_event_stream(&accept("application/json"), false).unwrap());
        assert!(wants_event_stream(&accept("text/event-stream"), true).unwrap());
        assert!(wants_event_stream(&accept("*/*"), false).unwrap());
        assert!(wants_event_stream(&HeaderMap::new(), false).unwrap());
        assert!(wants_event_stream(&accept("text/html"), false).is_err());
        assert!(wants_event_stream(&accept("application/json;q=0, text/event-stream;q=0"), false).is_err());
        assert!(accepts(&accept("text/*"), EVENT_STREAM));
    }

    #[test]
    fn classifies_bodies() {
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#),
            Kind::Request { initialize: true, .. }
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":"x","method":"ping"}"#),
            Kind::Request { initialize: false, .. }
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Kind::Accepted { cancels: None, .. }
        ));
        assert!(matches!(classify(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#), Kind::Accepted { cancels: None, .. }));
        let cancel =
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a b","reason":"x"}}"#;
        assert!(matches!(classify(cancel), Kind::Accepted { cancels: Some(id), .. } if id == r#""a b""#));
        assert!(
            matches!(classify(b"{nope"), Kind::Invalid(body) if body.starts_with(br#"{"jsonrpc":"2.0","error":{"code":-32700"#))
        );
    }
}
