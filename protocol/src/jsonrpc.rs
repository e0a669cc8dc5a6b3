//! JSON-RPC 2.0 framing: telling requests, notifications and responses apart,
//! and writing answers.
//!
//! Parsing borrows from the input buffer: `id` and `params` stay raw JSON
//! until a handler asks for a typed view, and an `id` is echoed back byte for
//! byte.

use std::borrow::Cow;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;

/// JSON-RPC and MCP error codes the host uses.
pub mod code {
    /// Invalid JSON.
    pub const PARSE_ERROR: i32 = -32700;
    /// Valid JSON, but not a valid request object.
    pub const INVALID_REQUEST: i32 = -32600;
    /// No such method.
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// Missing or ill-typed parameters (also: unknown tool or prompt).
    pub const INVALID_PARAMS: i32 = -32602;
    /// The server (or the guest) failed.
    pub const INTERNAL_ERROR: i32 = -32603;
    /// MCP before 2026-07-28: the resource does not exist (modern requests
    /// get [`INVALID_PARAMS`]).
    pub const RESOURCE_NOT_FOUND: i32 = -32002;
    /// MCP 2026-07-28: an HTTP header disagrees with the body, or is missing.
    pub const HEADER_MISMATCH: i32 = -32020;
    /// MCP 2026-07-28: the request needs a client capability it did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;
    /// MCP 2026-07-28: the request's protocol version is not served.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i32 = -32022;
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[error("{message} ({code})")]
pub struct RpcError {
    /// One of [`code`].
    pub code: i32,
    /// A short, single-sentence description.
    pub message: String,
    /// Structured detail, e.g. `{"uri": …}` for a missing resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}

impl RpcError {
    /// An error with a code and message and no data.
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        RpcError { code, message: message.into(), data: None }
    }

    /// -32602 Invalid params.
    pub fn invalid_params(message: impl std::fmt::Display) -> Self {
        Self::new(code::INVALID_PARAMS, format!("Invalid params: {message}"))
    }

    /// -32600 Invalid Request.
    pub fn invalid_request(message: impl std::fmt::Display) -> Self {
        Self::new(code::INVALID_REQUEST, format!("Invalid Request: {message}"))
    }

    /// -32603 Internal error.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(code::INTERNAL_ERROR, message)
    }
}

/// One decoded message from the client.
#[derive(Debug)]
pub enum Incoming<'a> {
    /// A request: must be answered with the same `id`.
    Request {
        /// The id, raw (a JSON string or integer).
        id: &'a RawValue,
        /// The method name.
        method: Cow<'a, str>,
        /// The params, raw; `None` when absent or `null`.
        params: Option<&'a RawValue>,
    },
    /// A notification: never answered.
    Notification {
        /// The method name.
        method: Cow<'a, str>,
        /// The params, raw.
        params: Option<&'a RawValue>,
    },
    /// A response to a request the server sent.
    Response {
        /// The id it answers.
        id: &'a RawValue,
    },
}

/// A decoded message that owns what it borrowed: for transports that look at
/// a message before the session handles it, elsewhere (another task), so
/// that it is parsed once. Ids and params stay raw JSON text.
#[derive(Debug, Clone)]
pub enum Message {
    /// A request.
    Request {
        /// The id, raw.
        id: Box<RawValue>,
        /// The method name.
        method: String,
        /// The params, raw.
        params: Option<Box<RawValue>>,
    },
    /// A notification.
    Notification {
        /// The method name.
        method: String,
        /// The params, raw.
        params: Option<Box<RawValue>>,
    },
    /// A response to a request the server sent.
    Response {
        /// The id it answers.
        id: Box<RawValue>,
    },
}

impl Incoming<'_> {
    /// The message, owning its parts (copied as text, not parsed again).
    pub fn to_message(&self) -> Message {
        match self {
            Incoming::Request { id, method, params } => Message::Request {
                id: (*id).to_owned(),
                method: method.clone().into_owned(),
                params: params.map(ToOwned::to_owned),
            },
            Incoming::Notification { method, params } => {
                Message::Notification { method: method.clone().into_owned(), params: params.map(ToOwned::to_owned) }
            }
            Incoming::Response { id } => Message::Response { id: (*id).to_owned() },
        }
    }
}

impl Message {
    /// The id of a request, raw.
    pub fn request_id(&self) -> Option<&RawValue> {
        match self {
            Message::Request { id, .. } => Some(id),
            _ => None,
        }
    }

    /// A borrowed view, as [`parse`] gives.
    pub fn as_incoming(&self) -> Incoming<'_> {
        match self {
            Message::Request { id, method, params } => {
                Incoming::Request { id, method: Cow::Borrowed(method), params: params.as_deref() }
            }
            Message::Notification { method, params } => {
                Incoming::Notification { method: Cow::Borrowed(method), params: params.as_deref() }
            }
            Message::Response { id } => Incoming::Response { id },
        }
    }
}

/// A message that could not be decoded, with the answer it deserves.
#[derive(Debug)]
pub struct Rejection<'a> {
    /// The request id when it could be recovered.
    pub id: Option<&'a RawValue>,
    /// The error to send.
    pub error: RpcError,
}

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default, deserialize_with = "borrowed_text")]
    jsonrpc: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "raw_even_if_null")]
    id: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "borrowed_text")]
    method: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "raw_even_if_null")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "raw_even_if_null")]
    error: Option<&'a RawValue>,
}

/// An optional string borrowed from the input unless it holds escapes.
/// serde's `borrow` borrows a `Cow<str>` field, but one inside an `Option`
/// is always copied into a `String`: two allocations a request for
/// `jsonrpc` and `method` alone.
pub(crate) fn borrowed_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'de, str>>, D::Error> {
    #[derive(Deserialize)]
    struct Text<'a>(#[serde(borrow)] Cow<'a, str>);
    Ok(Option::<Text<'de>>::deserialize(d)?.map(|text| text.0))
}

/// Keeps a present `null` as `Some("null")`, so that `"id": null` is seen.
fn raw_even_if_null<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// Whether a raw id is one MCP allows: a string or an integer.
fn is_valid_id(id: &RawValue) -> bool {
    let text = id.get();
    text.starts_with('"') || text.parse::<i64>().is_ok() || text.parse::<u64>().is_ok()
}

/// Decodes one JSON-RPC message.
pub fn parse(bytes: &[u8]) -> Result<Incoming<'_>, Rejection<'_>> {
    // JSON is UTF-8 text (RFC 8259), so other bytes are a parse error. Checked
    // once here, the message is then read as text: serde_json skips its own
    // UTF-8 check of every string and raw value it borrows (about a sixth of
    // the cost of decoding a `tools/call`).
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let error = RpcError::new(code::PARSE_ERROR, format!("Parse error: the message is not UTF-8 ({e})"));
            return Err(Rejection { id: None, error });
        }
    };
    let first = text.bytes().find(|b| !b.is_ascii_whitespace());
    if first != Some(b'{') {
        // Check syntax first: broken JSON is a parse error whatever its shape.
        if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
            return Err(Rejection { id: None, error: parse_error(&e) });
        }
        let what = if first == Some(b'[') { "batches are not supported" } else { "a message must be a JSON object" };
        return Err(Rejection { id: None, error: RpcError::invalid_request(what) });
    }
    let envelope: Envelope<'_> = match serde_json::from_str(text) {
        Ok(envelope) => envelope,
        Err(e) => {
            // Decided by the syntax alone, as above: a type error or a
            // duplicate field can come before a syntax error further on, and
            // a number out of range (`1e400`) is JSON, just not a valid request.
            let error = match serde_json::from_str::<serde::de::IgnoredAny>(text) {
                Ok(_) => RpcError::invalid_request(e),
                Err(syntax) => parse_error(&syntax),
            };
            return Err(Rejection { id: None, error });
        }
    };
    let id = envelope.id;
    let reject = |message: &str| {
        let id = id.filter(|id| is_valid_id(id));
        Err(Rejection { id, error: RpcError::invalid_request(message) })
    };
    if envelope.jsonrpc.as_deref() != Some("2.0") {
        return reject("`jsonrpc` must be \"2.0\"");
    }
    let params = envelope.params.filter(|p| p.get() != "null");
    if let Some(p) = params
        && !p.get().starts_with('{')
        && !p.get().starts_with('[')
    {
        return reject("`params` must be an object");
    }
    match (envelope.method, id) {
        (Some(method), Some(id)) => {
            if !is_valid_id(id) {
                return reject("`id` must be a string or an integer");
            }
            Ok(Incoming::Request { id, method, params })
        }
        (Some(method), None) => Ok(Incoming::Notification { method, params }),
        (None, Some(id)) if envelope.result.is_some() || envelope.error.is_some() => Ok(Incoming::Response { id }),
        (None, _) => reject("a request needs a `method`"),
    }
}

/// For a `notifications/cancelled` notification: the raw id of the request
/// it cancels (e.g. `7` or `"abc"`), as [`Canceller::cancel`] takes it.
///
/// [`Canceller::cancel`]: crate::Canceller::cancel
pub(crate) fn cancelled_request(method: &str, params: Option<&RawValue>) -> Option<String> {
    #[derive(Deserialize)]
    struct CancelledParams<'a> {
        #[serde(borrow, rename = "requestId")]
        request_id: &'a RawValue,
    }
    if method != "notifications/cancelled" {
        return None;
    }
    let params: CancelledParams<'_> = serde_json::from_str(params?.get()).ok()?;
    Some(params.request_id.get().to_owned())
}

/// For a whole message that is a `notifications/cancelled` notification:
/// the raw id of the request it cancels, as
/// [`Canceller::cancel`](crate::Canceller::cancel) takes it.
pub fn cancelled_request_in(message: &[u8]) -> Option<String> {
    match parse(message) {
        Ok(Incoming::Notification { method, params }) => cancelled_request(&method, params),
        _ => None,
    }
}

fn parse_error(e: &serde_json::Error) -> RpcError {
    RpcError::new(code::PARSE_ERROR, format!("Parse error: {e}"))
}

#[derive(Serialize)]
struct ResultMessage<'a, T> {
    jsonrpc: &'static str,
    id: &'a RawValue,
    result: &'a T,
}

#[derive(Serialize)]
struct ErrorMessage<'a> {
    jsonrpc: &'static str,
    // MCP's schema allows the id to be omitted when it could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a RawValue>,
    error: &'a RpcError,
}

#[derive(Serialize)]
struct NotificationMessage<'a, P> {
    jsonrpc: &'static str,
    method: &'a str,
    params: &'a P,
}

/// Serialises a success response into `buf` (cleared first).
pub(crate) fn write_result<T: Serialize>(buf: &mut Vec<u8>, id: &RawValue, result: &T) -> serde_json::Result<()> {
    buf.clear();
    serde_json::to_writer(&mut *buf, &ResultMessage { jsonrpc: "2.0", id, result })
}

/// Serialises an error response into `buf` (cleared first).
pub fn write_error(buf: &mut Vec<u8>, id: Option<&RawValue>, error: &RpcError) {
    buf.clear();
    serde_json::to_writer(&mut *buf, &ErrorMessage { jsonrpc: "2.0", id, error })
        .expect("an error object always serialises");
}

#[derive(Serialize)]
struct RequestMessage<'a, P> {
    jsonrpc: &'static str,
    id: u64,
    method: &'a str,
    params: &'a P,
}

/// Serialises a request from the server to the client into `buf` (cleared
/// first). The server numbers its requests.
pub(crate) fn write_request<P: Serialize>(
    buf: &mut Vec<u8>,
    id: u64,
    method: &str,
    params: &P,
) -> serde_json::Result<()> {
    buf.clear();
    serde_json::to_writer(&mut *buf, &RequestMessage { jsonrpc: "2.0", id, method, params })
}

/// A JSON-RPC error the client answered a question with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientRpcError {
    /// Its code.
    pub code: i32,
    /// Its message.
    pub message: String,
    /// Its `data`, as JSON text.
    pub data: Option<String>,
}

/// The client's answer to a request the server sent it: its result as
/// JSON text, or its error.
pub type Response = Result<Box<RawValue>, ClientRpcError>;

/// A response from the client to a request the server sent.
#[derive(Debug)]
pub struct ClientResponse {
    /// The id it answers, if it is one the server could have sent (a
    /// number); the server's requests are numbered.
    pub id: Option<u64>,
    /// Its result, or its error.
    pub answer: Response,
}

/// Reads `message` as a response to a server's request; `None` when it is
/// not a response at all.
pub fn read_response(message: &[u8]) -> Option<ClientResponse> {
    #[derive(Deserialize)]
    struct Answer<'a> {
        #[serde(borrow)]
        id: &'a RawValue,
        #[serde(default, borrow)]
        result: Option<&'a RawValue>,
        #[serde(default)]
        error: Option<ErrorObject<'a>>,
    }
    #[derive(Deserialize)]
    struct ErrorObject<'a> {
        code: i32,
        message: String,
        #[serde(default, borrow)]
        data: Option<&'a RawValue>,
    }
    let answer: Answer<'_> = serde_json::from_slice(message).ok()?;
    let id = answer.id.get().parse::<u64>().ok();
    let answer = match (answer.result, answer.error) {
        (Some(result), None) => Ok(result.to_owned()),
        (None, Some(error)) => Err(ClientRpcError {
            code: error.code,
            message: error.message,
            data: error.data.map(|d| d.get().to_owned()),
        }),
        _ => return None,
    };
    Some(ClientResponse { id, answer })
}

/// Serialises a notification into `buf` (cleared first).
pub(crate) fn write_notification<P: Serialize>(buf: &mut Vec<u8>, method: &str, params: &P) -> serde_json::Result<()> {
    buf.clear();
    serde_json::to_writer(&mut *buf, &NotificationMessage { jsonrpc: "2.0", method, params })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rejected(input: &str) -> (Option<String>, i32) {
        match parse(input.as_bytes()) {
            Err(r) => (r.id.map(|id| id.get().to_string()), r.error.code),
            Ok(m) => panic!("accepted {input}: {m:?}"),
        }
    }

    #[test]
    fn classifies_messages() {
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#),
            Ok(Incoming::Request { id, .. }) if id.get() == "7"
        ));
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Ok(Incoming::Notification { .. })
        ));
        assert!(matches!(parse(br#"{"jsonrpc":"2.0","id":"a","result":{}}"#), Ok(Incoming::Response { .. })));
    }

    #[test]
    fn rejects_bad_messages_with_the_right_code() {
        assert_eq!(rejected("{nope"), (None, code::PARSE_ERROR));
        assert_eq!(rejected("[1,2"), (None, code::PARSE_ERROR));
        assert_eq!(rejected("[]"), (None, code::INVALID_REQUEST));
        assert_eq!(rejected("42"), (None, code::INVALID_REQUEST));
        assert_eq!(rejected(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#), (Some("1".into()), code::INVALID_REQUEST));
        assert_eq!(rejected(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#), (None, code::INVALID_REQUEST));
        assert_eq!(rejected(r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#), (None, code::INVALID_REQUEST));
        assert_eq!(rejected(r#"{"jsonrpc":"2.0","id":1,"method":7}"#), (None, code::INVALID_REQUEST));
        assert_eq!(
            rejected(r#"{"jsonrpc":"2.0","id":1,"method":"x","params":3}"#),
            (Some("1".into()), code::INVALID_REQUEST)
        );
        assert_eq!(rejected(r#"{"jsonrpc":"2.0","id":1}"#), (Some("1".into()), code::INVALID_REQUEST));
        // Broken JSON whose envelope is already wrong before the break (found by fuzzing).
        assert_eq!(rejected(r#"{"jsonrpc":"2.0","id":1,"method":7,"#), (None, code::PARSE_ERROR));
        assert_eq!(rejected(r#"{"jsonrpc":"2.0","method":"a","method":"b",}"#), (None, code::PARSE_ERROR));
        assert_eq!(rejected(r#"{"jsonrpc":1e400,"method":"ping"}"#), (None, code::INVALID_REQUEST));
    }

    #[test]
    fn rejects_bytes_that_are_not_utf8_as_unparseable() {
        for message in [&b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffng\"}"[..], b"\"\xff\"", b"[\"\xc3(\"]"] {
            let Err(rejection) = parse(message) else { panic!("accepted a message that is not UTF-8") };
            assert_eq!((rejection.id.is_none(), rejection.error.code), (true, code::PARSE_ERROR));
            assert!(rejection.error.message.contains("not UTF-8"), "{}", rejection.error.message);
        }
    }
}
