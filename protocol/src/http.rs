//! The rules of MCP's Streamable HTTP transport that do not depend on an HTTP
//! server (feature `http`): header names, content negotiation, what a POST
//! body holds, and the validation ladder of 2026-07-28 requests with the
//! status of each refusal. The native host (axum) and the component-side
//! adapter (`wasi:http`) apply the same rules through these functions, on
//! the `http` crate's header map.

use std::borrow::Cow;

use base64::Engine as _;
use std::net::IpAddr;

use http::header::{ACCEPT, CONTENT_TYPE, HOST, ORIGIN};
use http::{HeaderMap, HeaderName, StatusCode};
use serde::Deserialize;
use serde_json::Value;

use crate::auth::{Operation, OperationKind};
use crate::jsonrpc::{self, Incoming, Message, RpcError, code};
use crate::modern::Envelope;
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

/// A 2026-07-28 request refused before the handler ran: the status of
/// `error` and the body echoing the request's `id`.
pub fn rejection(id: &serde_json::value::RawValue, error: &RpcError) -> (StatusCode, Vec<u8>) {
    let mut body = Vec::new();
    jsonrpc::write_error(&mut body, Some(id), error);
    (status_of(error), body)
}

/// -32020 with `message`.
pub fn header_mismatch(message: impl Into<String>) -> RpcError {
    RpcError::new(code::HEADER_MISMATCH, format!("Header mismatch: {}", message.into()))
}

/// A header's value, with the `=?base64?…?=` sentinel decoded; -32020 when
/// it is not text or the sentinel does not decode to UTF-8.
pub fn header_text(headers: &HeaderMap, name: &HeaderName) -> Result<Option<String>, RpcError> {
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
pub struct Named<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    uri: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    arguments: Option<&'a serde_json::value::RawValue>,
}

impl<'a> Named<'a> {
    /// What a request of `method` with `params` names.
    pub fn of(method: &str, params: Option<&'a serde_json::value::RawValue>) -> Self {
        match method {
            "tools/call" | "prompts/get" | "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
                params.and_then(|p| serde_json::from_str(p.get()).ok()).unwrap_or_default()
            }
            _ => Named::default(),
        }
    }

    /// The tool a `tools/call` names.
    pub fn tool(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The operation a request of `method` performs on a named thing, for
    /// scope rules.
    pub fn operation(&self, method: &str) -> Option<Operation<'_>> {
        let (kind, name) = match method {
            "tools/call" => (OperationKind::Tool, self.name.as_deref()?),
            "prompts/get" => (OperationKind::Prompt, self.name.as_deref()?),
            "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
                (OperationKind::Resource, self.uri.as_deref()?)
            }
            _ => return None,
        };
        Some(Operation { kind, name })
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
pub fn check_headers(
    headers: &HeaderMap,
    method: &str,
    named: &Named<'_>,
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

/// `Mcp-Param-{Name}` against the arguments of a `tools/call` whose tool
/// marks `declared` (argument, header name) with `x-mcp-header`: every one
/// the body gives a value must come with its header, equal to it; integers
/// compare as numbers.
pub fn check_param_headers(
    headers: &HeaderMap,
    call: &Named<'_>,
    declared: Vec<(String, String)>,
) -> Result<(), RpcError> {
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

// Who may talk to the server: `Origin` and `Host` checks (DNS-rebinding
// protection). `Origin`, when present, must be allowed: on a loopback bind
// any loopback origin, plus every allowed one. `Host` is checked on a
// loopback bind, or on any bind once hosts are named: loopback names and
// every allowed host (`NAME` matches any port, `NAME:PORT` only that one).
// A page on `evil.example` whose name was rebound to 127.0.0.1 still sends
// `Host: evil.example`, so it is turned away.

/// The allowed `Host` and `Origin` values.
#[derive(Debug)]
pub struct SecurityPolicy {
    /// Whether `Host` is checked at all.
    check_host: bool,
    any_host: bool,
    /// `name` or `name:port`, lowercase.
    hosts: Vec<String>,
    /// Whether loopback origins are allowed (loopback binds).
    loopback_origins: bool,
    any_origin: bool,
    /// Normalised origins (`scheme://host[:port]`, lowercase).
    origins: Vec<String>,
}

impl SecurityPolicy {
    /// The policy for a server bound to a loopback address (`loopback`) or
    /// not, widened by the allowed hosts and origins (`*` allows any).
    pub fn new(loopback: bool, allow_hosts: &[String], allow_origins: &[String]) -> Self {
        let any_host = allow_hosts.iter().any(|h| h == "*");
        let any_origin = allow_origins.iter().any(|o| o == "*");
        SecurityPolicy {
            check_host: (loopback || !allow_hosts.is_empty()) && !any_host,
            any_host,
            hosts: allow_hosts.iter().map(|h| h.trim().to_ascii_lowercase()).collect(),
            loopback_origins: loopback,
            any_origin,
            origins: allow_origins.iter().map(|o| normalise_origin(o)).collect(),
        }
    }

    /// [`SecurityPolicy::check`] for a request whose target may be in
    /// absolute form (`POST http://NAME/mcp`): its authority must be the
    /// `Host` the checks read (HTTP/1.1 says a server takes the target's,
    /// so a check of `Host` alone would check another name).
    pub fn check_request(&self, target_authority: Option<&str>, headers: &HeaderMap) -> Result<(), Refusal> {
        if let Some(target) = target_authority {
            let host = headers.get(HOST).and_then(|h| h.to_str().ok());
            if !host.is_some_and(|host| host.eq_ignore_ascii_case(target)) {
                return Err(Refusal::new(
                    StatusCode::BAD_REQUEST,
                    format!("Bad Request: the request target names {target:?} but Host is {host:?}"),
                ));
            }
        }
        self.check(headers)
    }

    /// `Ok` when the request may go on, else the 400/403 to send.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        // One of each: with two, which one a check reads and which one a
        // later step (or a proxy) reads could differ.
        for name in [HOST, ORIGIN, SESSION_ID, PROTOCOL_VERSION] {
            if headers.get_all(&name).iter().nth(1).is_some() {
                return Err(Refusal::new(
                    StatusCode::BAD_REQUEST,
                    format!("Bad Request: the request has more than one {name} header (send it once)"),
                ));
            }
        }
        if let Some(origin) = headers.get(ORIGIN) {
            let text = origin.to_str().unwrap_or_default();
            // A page on this machine calling this machine by a loopback name
            // is what a loopback bind serves; a rebinding page cannot claim
            // a loopback Origin, whatever Host its DNS points at.
            let to_loopback =
                headers.get(HOST).and_then(|host| host_of(host.to_str().ok()?)).is_some_and(is_loopback_name);
            if !self.origin_allowed(text, self.loopback_origins || to_loopback) {
                tracing::warn!(origin = text, "refused a request from a foreign Origin");
                return Err(Refusal::new(
                    StatusCode::FORBIDDEN,
                    format!("Forbidden: Origin {text:?} is not among the origins this server allows"),
                ));
            }
        }
        if self.check_host {
            let Some(host) = headers.get(HOST) else {
                return Err(Refusal::new(StatusCode::BAD_REQUEST, "Bad Request: no Host header"));
            };
            let text = host.to_str().unwrap_or_default();
            if !self.host_allowed(text) {
                tracing::warn!(host = text, "refused a request for a foreign Host (DNS rebinding?)");
                return Err(Refusal::new(
                    StatusCode::FORBIDDEN,
                    format!("Forbidden: Host {text:?} is not among the hosts this server answers to"),
                ));
            }
        }
        Ok(())
    }

    fn host_allowed(&self, text: &str) -> bool {
        if self.any_host {
            return true;
        }
        let Some(name) = host_of(text) else { return false };
        if is_loopback_name(name) {
            return true;
        }
        self.hosts.iter().any(|allowed| allowed.eq_ignore_ascii_case(name) || allowed.eq_ignore_ascii_case(text))
    }

    fn origin_allowed(&self, text: &str, loopback_origins: bool) -> bool {
        if self.any_origin {
            return true;
        }
        let origin = normalise_origin(text);
        if self.origins.contains(&origin) {
            return true;
        }
        loopback_origins
            && origin
                .split_once("://")
                .and_then(|(scheme, rest)| Some(matches!(scheme, "http" | "https") && is_loopback_name(host_of(rest)?)))
                .unwrap_or(false)
    }
}

/// Lowercase, without a trailing slash.
fn normalise_origin(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// The host of an authority (`name`, `name:port`, `[v6]:port`), or `None`
/// when it is not one. Read in place: `Host` is checked on every request.
fn host_of(authority: &str) -> Option<&str> {
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let end = v6.find(']')?;
            (&authority[..end + 2], &v6[end + 1..])
        }
        None => match authority.rsplit_once(':') {
            Some((host, _)) => (host, &authority[host.len()..]),
            None => (authority, ""),
        },
    };
    let port_ok = port.is_empty() || port.strip_prefix(':').is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()));
    let host_ok = !host.is_empty()
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=%[]:".contains(&b))
        && (host.starts_with('[') || !host.contains([':', '[', ']']));
    (port_ok && host_ok).then_some(host)
}

/// Whether `host` (an authority's host without its port, any case) names
/// this machine: `localhost`, an IPv4 loopback address or `[::1]`.
pub fn is_loopback_name(host: &str) -> bool {
    let suffix = ".localhost";
    let named = host.eq_ignore_ascii_case("localhost")
        || (host.len() > suffix.len()
            && host.as_bytes()[host.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes()));
    if named {
        return true;
    }
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
    bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
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

#[cfg(test)]
mod security_tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    fn status(policy: &SecurityPolicy, pairs: &[(&'static str, &str)]) -> Option<StatusCode> {
        policy.check(&headers(pairs)).err().map(|r| r.status)
    }

    #[test]
    fn loopback_bind_refuses_foreign_hosts_and_origins() {
        let policy = SecurityPolicy::new(true, &[], &[]);
        assert_eq!(status(&policy, &[("host", "127.0.0.1:8080")]), None);
        assert_eq!(status(&policy, &[("host", "localhost")]), None);
        assert_eq!(status(&policy, &[("host", "[::1]:8080")]), None);
        assert_eq!(status(&policy, &[("host", "evil.example.com")]), Some(StatusCode::FORBIDDEN));
        assert_eq!(status(&policy, &[("host", "127.0.0.1.evil.com")]), Some(StatusCode::FORBIDDEN));
        assert_eq!(status(&policy, &[]), Some(StatusCode::BAD_REQUEST));
        let local = [("host", "localhost:8080"), ("origin", "http://localhost:5173")];
        assert_eq!(status(&policy, &local), None);
        let evil = [("host", "localhost:8080"), ("origin", "http://evil.example.com")];
        assert_eq!(status(&policy, &evil), Some(StatusCode::FORBIDDEN));
        assert_eq!(status(&policy, &[("host", "localhost"), ("origin", "null")]), Some(StatusCode::FORBIDDEN));
    }

    #[test]
    fn flags_widen_the_policy() {
        let hosts = ["mcp.example.com".to_string(), "other.example:9000".to_string()];
        let origins = ["https://App.Example.com/".to_string()];
        let policy = SecurityPolicy::new(true, &hosts, &origins);
        assert_eq!(status(&policy, &[("host", "mcp.example.com:8080")]), None);
        assert_eq!(status(&policy, &[("host", "MCP.Example.com")]), None);
        assert_eq!(status(&policy, &[("host", "other.example:9000")]), None);
        assert_eq!(status(&policy, &[("host", "other.example:9001")]), Some(StatusCode::FORBIDDEN));
        assert_eq!(status(&policy, &[("host", "localhost"), ("origin", "https://app.example.com")]), None);

        // A public bind checks no Host unless told to, and lets in no browser origin.
        let public = SecurityPolicy::new(false, &[], &[]);
        assert_eq!(status(&public, &[("host", "anything.example")]), None);
        assert_eq!(status(&public, &[("host", "x"), ("origin", "http://localhost:3000")]), Some(StatusCode::FORBIDDEN));
        // ... but a local page calling it by a loopback name is local.
        let local = [("host", "localhost:8080"), ("origin", "http://localhost:3000")];
        assert_eq!(status(&public, &local), None);
        let rebound = [("host", "evil.example.com"), ("origin", "http://localhost:3000")];
        assert_eq!(status(&public, &rebound), Some(StatusCode::FORBIDDEN));
        let open = SecurityPolicy::new(false, &["*".into()], &["*".into()]);
        assert_eq!(status(&open, &[("origin", "https://anywhere.example")]), None);
    }

    #[test]
    fn an_absolute_target_must_name_the_host() {
        let policy = SecurityPolicy::new(true, &[], &[]);
        let local = [("host", "localhost:8080")];
        assert_eq!(policy.check_request(Some("localhost:8080"), &headers(&local)).err().map(|r| r.status), None);
        let other = policy.check_request(Some("evil.example"), &headers(&local)).unwrap_err();
        assert_eq!(other.status, StatusCode::BAD_REQUEST);
    }

    /// Duplicates: the first one used to win.
    #[test]
    fn a_header_that_must_be_single_is_refused_twice() {
        let open = SecurityPolicy::new(false, &["*".into()], &["*".into()]);
        for name in ["host", "origin", "mcp-session-id", "mcp-protocol-version"] {
            let twice = [("host", "localhost"), (name, "a"), (name, "b")];
            let twice = if name == "host" { &twice[1..] } else { &twice[..] };
            assert_eq!(status(&open, twice), Some(StatusCode::BAD_REQUEST), "{name}");
        }
    }
}
