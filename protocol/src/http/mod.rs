//! The rules of MCP's Streamable HTTP transport that do not depend on an HTTP
//! server (feature `http`): header names, content negotiation, what a POST
//! body holds, and the validation ladder of 2026-07-28 requests with the
//! status of each refusal. The native host (axum) and the component-side
//! adapter (`wasi:http`) apply the same rules through these functions, on
//! the `http` crate's header map.

use http::header::{ACCEPT, CONTENT_TYPE};
use http::{HeaderMap, HeaderName, StatusCode};

use crate::envelope::Envelope;
use crate::jsonrpc::{self, Incoming, Message, RpcError, code};
use crate::version::ProtocolVersion;

/// `Mcp-Session-Id`.
pub const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
/// `MCP-Protocol-Version`.
pub const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
/// `Last-Event-ID`.
pub const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");
/// `Mcp-Method`.
pub const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
/// `Mcp-Name`.
pub const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");
/// Prefix of the `Mcp-Param-{Name}` headers.
pub const MCP_PARAM_PREFIX: &str = "mcp-param-";

/// The revision assumed when a legacy request has no `MCP-Protocol-Version`.
pub const DEFAULT_VERSION: ProtocolVersion = ProtocolVersion::V2025_03_26;

/// JSON-RPC code in transport-level error bodies (bad headers, no session, …).
pub const TRANSPORT_ERROR: i32 = -32000;
/// JSON-RPC code in the body of a 404 for an unknown or ended session.
pub const SESSION_NOT_FOUND: i32 = -32001;

/// `application/json`.
pub const JSON: &str = "application/json";
/// `text/event-stream`.
pub const EVENT_STREAM: &str = "text/event-stream";

/// A request refused by the transport before any session saw it: the status
/// and the JSON-RPC error of its body (code [`TRANSPORT_ERROR`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The HTTP status.
    pub status: StatusCode,
    /// The body's error.
    pub error: RpcError,
}

impl Refusal {
    /// A refusal with `status` and a [`TRANSPORT_ERROR`] saying `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Refusal { status, error: RpcError::new(TRANSPORT_ERROR, message) }
    }

    /// 413 for a body over `limit` bytes.
    pub fn too_large(limit: usize) -> Self {
        Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("Payload Too Large: a message may have at most {limit} bytes"),
        )
    }

    /// The body: a JSON-RPC error without an id.
    pub fn body(&self) -> Vec<u8> {
        let mut body = Vec::new();
        jsonrpc::write_error(&mut body, None, &self.error);
        body
    }
}

/// Whether the `Accept` header admits `media` (no header admits anything).
pub fn accepts(headers: &HeaderMap, media: &str) -> bool {
    let [accepted] = accepts_each(headers, [media]);
    accepted
}

/// [`accepts`] for several media types, reading `Accept` once (it runs on
/// every request).
fn accepts_each<const N: usize>(headers: &HeaderMap, media: [&str; N]) -> [bool; N] {
    let mut seen = false;
    let mut accepted = [false; N];
    for value in headers.get_all(ACCEPT) {
        seen = true;
        let Ok(value) = value.to_str() else { continue };
        for range in value.split(',') {
            let (name, parameters) = range.split_once(';').unwrap_or((range, ""));
            let refused = parameters
                .split(';')
                .any(|p| p.trim().strip_prefix("q=").is_some_and(|q| q.trim().parse::<f32>().is_ok_and(|q| q <= 0.0)));
            if refused {
                continue;
            }
            let name = name.trim();
            for (accepted, media) in accepted.iter_mut().zip(media) {
                let (kind, _) = media.split_once('/').expect("a media type has a slash");
                // Media types compare case-insensitively.
                *accepted |= name.eq_ignore_ascii_case(media)
                    || name == "*/*"
                    || name.strip_suffix("/*").is_some_and(|range| range.eq_ignore_ascii_case(kind));
            }
        }
    }
    if seen { accepted } else { [true; N] }
}

/// How a request's answer is sent: as an SSE stream (`true`) or as JSON.
/// SSE unless the server prefers JSON (`json_response`) or the client does
/// not take it; 406 when it takes neither.
pub fn wants_event_stream(headers: &HeaderMap, json_response: bool) -> Result<bool, Refusal> {
    match accepts_each(headers, [JSON, EVENT_STREAM]).into() {
        (false, false) => Err(Refusal::new(
            StatusCode::NOT_ACCEPTABLE,
            "Not Acceptable: the client must accept application/json and text/event-stream",
        )),
        (true, _) if json_response => Ok(false),
        (_, sse) => Ok(sse),
    }
}

/// 415 unless the body is declared `application/json`.
pub fn require_json(headers: &HeaderMap) -> Result<(), Refusal> {
    let is_json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case(JSON));
    match is_json {
        true => Ok(()),
        false => Err(Refusal::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Unsupported Media Type: the body must be application/json",
        )),
    }
}

/// The `MCP-Protocol-Version` header of legacy traffic: absent →
/// [`DEFAULT_VERSION`], a revision not served in sessions → 400.
pub fn protocol_version(headers: &HeaderMap) -> Result<ProtocolVersion, Refusal> {
    let Some(value) = headers.get(PROTOCOL_VERSION) else { return Ok(DEFAULT_VERSION) };
    value.to_str().ok().and_then(ProtocolVersion::parse).filter(|v| !v.is_modern()).ok_or_else(|| {
        let supported: Vec<&str> = ProtocolVersion::LEGACY.iter().map(|v| v.as_str()).collect();
        Refusal::new(
            StatusCode::BAD_REQUEST,
            format!(
                "Bad Request: unsupported MCP-Protocol-Version {:?} (supported: {})",
                String::from_utf8_lossy(value.as_bytes()),
                supported.join(", ")
            ),
        )
    })
}

/// The `Mcp-Session-Id` header, if any (400 when it is not visible ASCII).
pub fn session_id(headers: &HeaderMap) -> Result<Option<&str>, Refusal> {
    let Some(value) = headers.get(SESSION_ID) else { return Ok(None) };
    match value.to_str() {
        Ok(id) if !id.is_empty() && id.bytes().all(|b| b.is_ascii_graphic()) => Ok(Some(id)),
        _ => Err(Refusal::new(StatusCode::BAD_REQUEST, "Bad Request: malformed Mcp-Session-Id")),
    }
}

/// What a POST body holds, as far as the transport needs to know, and the
/// message itself, parsed once for the session.
pub enum PostedMessage {
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
    /// HTTP+SSE transport's stream).
    Invalid(Vec<u8>),
}

/// Classifies a message with the core's own parser.
pub fn classify(body: &[u8]) -> PostedMessage {
    match jsonrpc::parse(body) {
        Ok(incoming) => {
            let message = incoming.to_message();
            match incoming {
                Incoming::Request { method, .. } => {
                    PostedMessage::Request { initialize: method == "initialize", message }
                }
                Incoming::Notification { method, params } => {
                    PostedMessage::Accepted { cancels: jsonrpc::cancelled_request(&method, params), message }
                }
                Incoming::Response { .. } => PostedMessage::Accepted { cancels: None, message },
            }
        }
        Err(rejection) => {
            let mut body = Vec::new();
            jsonrpc::write_error(&mut body, rejection.id, &rejection.error);
            PostedMessage::Invalid(body)
        }
    }
}

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

/// The HTTP status of a modern request's error found before the handler ran
/// (handler errors are answered in-band with 200).
pub fn status_of(error: &RpcError) -> StatusCode {
    match error.code {
        code::METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        code::INTERNAL_ERROR => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    }
}

/// The status of a 2026-07-28 request's answer when it is an error HTTP
/// reports with a status of its own (found while the guest ran: -32021, a
/// capability the client did not declare, is 400); `None`: 200.
pub fn outcome_status(outcome: crate::Outcome) -> Option<StatusCode> {
    match outcome {
        crate::Outcome::Failed(code::MISSING_REQUIRED_CLIENT_CAPABILITY) => Some(StatusCode::BAD_REQUEST),
        _ => None,
    }
}

/// Writes `data` (one JSON-RPC message) to `out` as an SSE event named
/// `event`, with `id` when given.
pub fn write_event(out: &mut Vec<u8>, event: &str, id: Option<&str>, data: &[u8]) {
    out.reserve(data.len() + event.len() + id.map_or(0, str::len) + 24);
    out.extend_from_slice(b"event: ");
    out.extend_from_slice(event.as_bytes());
    out.push(b'\n');
    if let Some(id) = id {
        out.extend_from_slice(b"id: ");
        out.extend_from_slice(id.as_bytes());
        out.push(b'\n');
    }
    // The core writes each message on one line; split anyway so that a line
    // break can never end the event early.
    for line in data.split(|&b| b == b'\n') {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(line.strip_suffix(b"\r").unwrap_or(line));
        out.push(b'\n');
    }
    out.push(b'\n');
}

mod ladder;
mod security;

pub use ladder::*;
pub use security::*;

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;
    use ladder::{decode_sentinel, same_value};
    use security::host_of;

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
        assert_eq!(wants_event_stream(&accept("text/html"), false).unwrap_err().status, StatusCode::NOT_ACCEPTABLE);
        assert!(wants_event_stream(&accept("application/json;q=0, text/event-stream;q=0"), false).is_err());
        assert!(accepts(&accept("text/*"), EVENT_STREAM));
        assert!(accepts(&accept("Application/JSON; charset=utf-8"), JSON));
        assert!(!accepts(&accept("application/json; q=0, text/*"), JSON));
    }

    #[test]
    fn reads_the_host_of_an_authority() {
        assert_eq!(host_of("localhost"), Some("localhost"));
        assert_eq!(host_of("LocalHost:8080"), Some("LocalHost"));
        assert_eq!(host_of("[::1]:3000"), Some("[::1]"));
        assert_eq!(host_of("[::1]"), Some("[::1]"));
        assert_eq!(host_of("127.0.0.1:"), Some("127.0.0.1"));
        for not_one in ["", ":80", "a:b", "[::1", "[::1]x", "user@127.0.0.1", "a b", "x/y", "a:1:2", "é"] {
            assert_eq!(host_of(not_one), None, "{not_one:?}");
        }
        assert!(is_loopback_name("LOCALHOST") && is_loopback_name("app.Localhost") && is_loopback_name("[::1]"));
        assert!(
            !is_loopback_name("localhost.evil") && !is_loopback_name("10.0.0.1") && !is_loopback_name(".localhost")
        );
    }

    #[test]
    fn classifies_bodies() {
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#),
            PostedMessage::Request { initialize: true, .. }
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":"x","method":"ping"}"#),
            PostedMessage::Request { initialize: false, .. }
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            PostedMessage::Accepted { cancels: None, .. }
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            PostedMessage::Accepted { cancels: None, .. }
        ));
        let cancel =
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a b","reason":"x"}}"#;
        assert!(matches!(classify(cancel), PostedMessage::Accepted { cancels: Some(id), .. } if id == r#""a b""#));
        assert!(
            matches!(classify(b"{nope"), PostedMessage::Invalid(body) if body.starts_with(br#"{"jsonrpc":"2.0","error":{"code":-32700"#))
        );
    }

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

    /// One pass reads what two did: the same envelope (or the same error)
    /// and the same name as `Envelope::read` and `RequestSubject::of`, for params
    /// that claim 2026-07-28 well, badly, only inside an argument, or not
    /// at all.
    #[test]
    fn the_envelope_and_the_name_read_in_one_pass_are_those_read_apart() {
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":3}"#;
        let cases = [
            format!(r#"{{"name":"echo","arguments":{{"text":"hi"}},{meta}}}"#),
            r#"{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#.to_string(),
            r#"{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":7,"io.modelcontextprotocol/clientCapabilities":{}}}"#.to_string(),
            r#"{"name":"echo","_meta":"io.modelcontextprotocol/protocolVersion"}"#.to_string(),
            r#"{"name":"echo","arguments":{"text":"io.modelcontextprotocol/protocolVersion"}}"#.to_string(),
            format!(r#"{{"name":5,{meta}}}"#),
            r#"{"name":"echo","arguments":{}}"#.to_string(),
        ];
        for params in &cases {
            let raw = serde_json::value::RawValue::from_string(params.clone()).unwrap();
            for method in ["tools/call", "tools/list"] {
                let (named, envelope) = RequestSubject::with_envelope(method, Some(&raw));
                let apart = crate::envelope::Envelope::read(Some(&raw));
                match (&envelope, &apart) {
                    (Ok(one), Ok(two)) => assert_eq!(format!("{one:?}"), format!("{two:?}"), "{method} {params}"),
                    (Err(one), Err(two)) => assert_eq!(one.message, two.message, "{method} {params}"),
                    _ => panic!("{method} {params}: {envelope:?} against {apart:?}"),
                }
                if matches!(apart, Ok(Some(_))) {
                    assert_eq!(named.tool(), RequestSubject::of(method, Some(&raw)).tool(), "{method} {params}");
                }
            }
        }
    }
}
