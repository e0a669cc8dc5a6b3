//! The headers of Streamable HTTP: their names, content negotiation, the
//! revision and the session a request names, and the refusals the
//! transport answers before any session sees a request.

use http::header::{ACCEPT, CONTENT_TYPE};
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};

use crate::jsonrpc::{self, RpcError};
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

/// How a request's answer may be framed, by the client's `Accept` and the
/// server's preference ([`negotiate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// JSON: the client takes no SSE, or the server prefers JSON.
    Json,
    /// SSE: the client does not take JSON.
    EventStream,
    /// Either: an answer that streams as SSE, one complete at once as JSON
    /// (one message, the framing with the least to write and read).
    Either,
}

impl Framing {
    /// Whether an answer may stream (SSE) rather than wait to be whole.
    pub fn streams(self) -> bool {
        self != Framing::Json
    }

    /// Whether a complete answer of `messages` messages goes out as JSON
    /// (which carries one message) rather than as SSE events in one body.
    pub fn whole_as_json(self, messages: usize) -> bool {
        match self {
            Framing::Json => true,
            Framing::EventStream => false,
            Framing::Either => messages == 1,
        }
    }
}

/// What a POST's headers say of its body and its answer, read once: 415
/// unless the body is `application/json`, then how the answer may be framed
/// (406 when the client takes neither JSON nor SSE). With `json_response`
/// the server answers in JSON whenever the client takes it.
pub fn negotiate(headers: &HeaderMap, json_response: bool) -> Result<Framing, Refusal> {
    require_json(headers)?;
    let accepted = match takes_both_as_clients_ask(headers) {
        true => [true, true],
        false => accepts_each(headers, [JSON, EVENT_STREAM]),
    };
    match accepted {
        [false, false] => Err(Refusal::new(
            StatusCode::NOT_ACCEPTABLE,
            "Not Acceptable: the client must accept application/json and text/event-stream",
        )),
        [true, _] if json_response => Ok(Framing::Json),
        [true, true] => Ok(Framing::Either),
        [true, false] => Ok(Framing::Json),
        [false, true] => Ok(Framing::EventStream),
    }
}

/// Whether `Accept` is the one value MCP clients send (the SDKs' own
/// spelling): both media types, read without splitting and trimming, on
/// every request. Any other value is parsed ([`accepts_each`]).
fn takes_both_as_clients_ask(headers: &HeaderMap) -> bool {
    let mut values = headers.get_all(ACCEPT).iter();
    match (values.next(), values.next()) {
        (Some(value), None) => value.as_bytes().eq_ignore_ascii_case(b"application/json, text/event-stream"),
        _ => false,
    }
}

/// 415 unless the body is declared `application/json` (see [`negotiate`]).
pub fn require_json(headers: &HeaderMap) -> Result<(), Refusal> {
    let declared = headers.get(CONTENT_TYPE);
    // Most clients declare it so: compared as it is, not split and trimmed.
    if declared.is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(JSON.as_bytes())) {
        return Ok(());
    }
    let is_json = declared
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

/// Whether the `MCP-Protocol-Version` header names a modern revision.
pub fn header_is_modern(headers: &HeaderMap) -> bool {
    names_modern(headers.get(PROTOCOL_VERSION))
}

/// Whether a `MCP-Protocol-Version` value names a modern revision.
fn names_modern(version: Option<&HeaderValue>) -> bool {
    version.and_then(|v| v.to_str().ok()).and_then(ProtocolVersion::parse).is_some_and(ProtocolVersion::is_modern)
}

/// A request's MCP headers (`MCP-Protocol-Version`, `Mcp-Method`,
/// `Mcp-Name`), each the first one sent, as [`HeaderMap::get`] gives it.
/// Found in one pass over the request's few headers: a lookup hashes the
/// name it looks for, and these names the map does not know by heart.
#[derive(Clone, Copy, Default)]
pub struct McpHeaders<'h> {
    /// `MCP-Protocol-Version`.
    pub protocol_version: Option<&'h HeaderValue>,
    /// `Mcp-Method`.
    pub method: Option<&'h HeaderValue>,
    /// `Mcp-Name`.
    pub name: Option<&'h HeaderValue>,
}

impl<'h> McpHeaders<'h> {
    /// The MCP headers among `headers`.
    pub fn read(headers: &'h HeaderMap) -> Self {
        let mut found = McpHeaders::default();
        for (name, value) in headers {
            let slot = if *name == PROTOCOL_VERSION {
                &mut found.protocol_version
            } else if *name == MCP_METHOD {
                &mut found.method
            } else if *name == MCP_NAME {
                &mut found.name
            } else {
                continue;
            };
            slot.get_or_insert(value);
        }
        found
    }

    /// Whether `MCP-Protocol-Version` names a modern revision (see
    /// [`header_is_modern`]).
    pub fn is_modern(&self) -> bool {
        names_modern(self.protocol_version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn accept(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn negotiates_the_answer_format() {
        let json = |accept_value: &str, json_response: bool| {
            let mut headers = accept(accept_value);
            headers.insert(CONTENT_TYPE, http::HeaderValue::from_static(JSON));
            negotiate(&headers, json_response)
        };
        assert_eq!(json("application/json, text/event-stream", false), Ok(Framing::Either));
        assert_eq!(json("application/json, text/event-stream", true), Ok(Framing::Json));
        assert_eq!(json("application/json", false), Ok(Framing::Json));
        assert_eq!(json("text/event-stream", true), Ok(Framing::EventStream));
        assert_eq!(json("*/*", false), Ok(Framing::Either));
        assert_eq!(json("text/html", false).unwrap_err().status, StatusCode::NOT_ACCEPTABLE);
        assert!(json("application/json;q=0, text/event-stream;q=0", false).is_err());
        let mut no_accept = HeaderMap::new();
        no_accept.insert(CONTENT_TYPE, http::HeaderValue::from_static(JSON));
        assert_eq!(negotiate(&no_accept, false), Ok(Framing::Either));
        // The body's type is read first: 415 before 406.
        assert_eq!(negotiate(&accept("text/html"), false).unwrap_err().status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(Framing::Either.whole_as_json(1) && !Framing::Either.whole_as_json(2));
        assert!(!Framing::EventStream.whole_as_json(1) && Framing::Json.whole_as_json(3));
        assert!(accepts(&accept("text/*"), EVENT_STREAM));
        assert!(accepts(&accept("Application/JSON; charset=utf-8"), JSON));
        assert!(!accepts(&accept("application/json; q=0, text/*"), JSON));
    }

    #[test]
    fn the_usual_headers_read_without_parsing_read_as_parsed() {
        for value in ["application/json, text/event-stream", "APPLICATION/JSON, Text/Event-Stream"] {
            assert!(takes_both_as_clients_ask(&accept(value)));
            assert_eq!(accepts_each(&accept(value), [JSON, EVENT_STREAM]), [true, true]);
        }
        // A second value is parsed with the first: it may refuse what the first takes.
        let mut twice = accept("application/json, text/event-stream");
        twice.append(ACCEPT, HeaderValue::from_static("application/json;q=0"));
        assert!(!takes_both_as_clients_ask(&twice));
        assert!(!takes_both_as_clients_ask(&accept("application/json")));
        let content_type = |value: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert(CONTENT_TYPE, HeaderValue::from_static(value));
            require_json(&headers).is_ok()
        };
        assert!(content_type("application/json") && content_type("Application/JSON"));
        assert!(content_type("application/json; charset=utf-8") && content_type(" application/json "));
        assert!(!content_type("application/jsonx") && !content_type("text/json"));
    }

    /// One pass finds what a lookup of each finds: the first value of each.
    #[test]
    fn the_mcp_headers_read_in_one_pass_are_the_ones_looked_up() {
        let mut headers = accept("application/json, text/event-stream");
        headers.insert(MCP_NAME, HeaderValue::from_static("echo"));
        headers.append(MCP_NAME, HeaderValue::from_static("other"));
        headers.insert(PROTOCOL_VERSION, HeaderValue::from_static("2026-07-28"));
        headers.insert(MCP_METHOD, HeaderValue::from_static("tools/call"));
        let sent = McpHeaders::read(&headers);
        for (found, name) in
            [(sent.protocol_version, PROTOCOL_VERSION), (sent.method, MCP_METHOD), (sent.name, MCP_NAME)]
        {
            assert_eq!(found, headers.get(&name), "{name}");
        }
        assert_eq!(sent.name.map(HeaderValue::as_bytes), Some(&b"echo"[..]));
        assert!(sent.is_modern() && header_is_modern(&headers));
        headers.insert(PROTOCOL_VERSION, HeaderValue::from_static("2025-11-25"));
        assert!(!McpHeaders::read(&headers).is_modern());
        let empty = HeaderMap::new();
        let none = McpHeaders::read(&empty);
        assert!(none.protocol_version.is_none() && none.method.is_none() && none.name.is_none() && !none.is_modern());
    }
}
