//! What a POST on `/mcp` is, read once from its body and headers: its era
//! (a 2026-07-28 request stands alone; 2025 messages belong to sessions)
//! and its kind, with what the handler that serves that kind needs of it,
//! so that no later step parses the body or decides the era again.

use std::borrow::Cow;

use http::HeaderMap;
use serde_json::value::RawValue;

use crate::envelope::{self, Envelope};
use crate::jsonrpc::{self, Incoming, Message, RpcError};

use super::headers::{McpHeaders, header_is_modern};
use super::ladder::{RequestSubject, check_headers, header_mismatch};

/// A POST on `/mcp`, classified (see [`Post::read`]).
#[expect(
    clippy::large_enum_variant,
    reason = "2026-07-28 requests, the largest kind, are the common one: boxing them would allocate per request"
)]
pub enum Post<'a> {
    /// A 2026-07-28 request (its body or its `MCP-Protocol-Version` claims
    /// the revision): served on its own, without a session.
    Stateless(StatelessPost<'a>),
    /// A 2026-07-28 notification or response: accepted and dropped
    /// (2026-07-28 defines no client notifications over HTTP, a closed
    /// stream being the cancellation).
    StatelessNotice,
    /// A 2025 message, for a session.
    Session(SessionPost<'a>),
    /// Not a valid message: this JSON-RPC error (sent with 400).
    Invalid(Vec<u8>),
}

/// A 2025 message: what kind, for a session.
pub enum SessionPost<'a> {
    /// `initialize`: it starts a session.
    Initialize(PostedRequest<'a>),
    /// Another request.
    Request(PostedRequest<'a>),
    /// A notification.
    Notification {
        /// For `notifications/cancelled`: the raw id of the request it
        /// cancels, to be passed on at once (the session may be busy with it).
        cancels: Option<String>,
        /// The message.
        message: Incoming<'a>,
    },
    /// A response: a client's answer to a router's question.
    Response,
}

impl<'a> SessionPost<'a> {
    /// The request, if it is one.
    pub fn request(&self) -> Option<&PostedRequest<'a>> {
        match self {
            SessionPost::Initialize(request) | SessionPost::Request(request) => Some(request),
            SessionPost::Notification { .. } | SessionPost::Response => None,
        }
    }
}

/// A request as the body holds it, borrowed.
pub struct PostedRequest<'a> {
    /// The id, raw.
    pub id: &'a RawValue,
    /// The method name.
    pub method: Cow<'a, str>,
    /// The params, raw; `None` when absent or `null`.
    pub params: Option<&'a RawValue>,
}

/// A 2026-07-28 request: what it names and its envelope, read in the one
/// pass over its params.
pub struct StatelessPost<'a> {
    /// The request.
    pub request: PostedRequest<'a>,
    /// What it names (the tool, prompt or resource).
    pub subject: RequestSubject<'a>,
    /// Its envelope, once the standard headers agree with it and the body
    /// ([`check_headers`]); else why it is refused before anything serves it.
    pub envelope: Result<Envelope, RpcError>,
}

impl<'a> Post<'a> {
    /// Classifies `body` with the core's own parser, and the era by the
    /// envelope of its params and the `MCP-Protocol-Version` header.
    pub fn read(headers: &HeaderMap, body: &'a [u8]) -> Self {
        let incoming = match jsonrpc::parse(body) {
            Ok(incoming) => incoming,
            Err(rejection) => return Post::Invalid(invalid(rejection)),
        };
        match incoming {
            Incoming::Request { id, method, params } => {
                let sent = McpHeaders::read(headers);
                let modern_header = sent.is_modern();
                let (subject, envelope) = match RequestSubject::with_envelope(&method, params, modern_header) {
                    // The header rungs of the ladder, read here once with the body.
                    (subject, Ok(Some(envelope))) => {
                        let checked = check_headers(&sent, &method, &subject, &envelope).map(|()| envelope);
                        (subject, checked)
                    }
                    (subject, Err(error)) => (subject, Err(error)),
                    (_, Ok(None)) if !modern_header => {
                        let request = PostedRequest { id, method, params };
                        return match request.method == "initialize" {
                            true => Post::Session(SessionPost::Initialize(request)),
                            false => Post::Session(SessionPost::Request(request)),
                        };
                    }
                    // A 2026-07-28 header on a body that makes no claim: its
                    // params were not read, what they name is (for scopes).
                    (_, Ok(None)) => {
                        let error = match method == "initialize" {
                            true => header_mismatch(
                                "`initialize` is a 2025 request, but MCP-Protocol-Version names 2026-07-28 (send the 2025 revision, or no initialize at all)",
                            ),
                            false => envelope::missing_envelope("MCP-Protocol-Version names 2026-07-28"),
                        };
                        (RequestSubject::of(&method, params), Err(error))
                    }
                };
                let request = PostedRequest { id, method, params };
                Post::Stateless(StatelessPost { request, subject, envelope })
            }
            Incoming::Notification { method, params } => {
                if header_is_modern(headers) || matches!(Envelope::read(params), Ok(Some(_))) {
                    return Post::StatelessNotice;
                }
                let cancels = jsonrpc::cancelled_request(&method, params);
                Post::Session(SessionPost::Notification { cancels, message: Incoming::Notification { method, params } })
            }
            Incoming::Response { .. } if header_is_modern(headers) => Post::StatelessNotice,
            Incoming::Response { .. } => Post::Session(SessionPost::Response),
        }
    }
}

impl PostedRequest<'_> {
    /// The request, owned: for the session or the task that serves it.
    pub fn to_message(&self) -> Message {
        Message::Request {
            id: self.id.to_owned(),
            method: self.method.clone().into_owned(),
            params: self.params.map(ToOwned::to_owned),
        }
    }
}

/// The JSON-RPC error a message that cannot be read gets.
fn invalid(rejection: jsonrpc::Rejection<'_>) -> Vec<u8> {
    let mut body = Vec::new();
    jsonrpc::write_error(&mut body, rejection.id, &rejection.error);
    body
}

/// What a POST body holds, as far as a transport that has sessions only
/// (HTTP+SSE, and the component-side adapter) needs to know, and the
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
        Err(rejection) => PostedMessage::Invalid(invalid(rejection)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn modern_header() -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(crate::http::PROTOCOL_VERSION, http::HeaderValue::from_static("2026-07-28"));
        headers
    }

    /// Each kind, and each era, decided in the one reading.
    #[test]
    fn reads_each_era_and_kind_once() {
        let none = HeaderMap::new();
        let modern = modern_header();
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
        let mut headers = modern.clone();
        headers.insert(crate::http::MCP_METHOD, http::HeaderValue::from_static("tools/call"));
        headers.insert(crate::http::MCP_NAME, http::HeaderValue::from_static("echo"));
        let Post::Stateless(post) = Post::read(&headers, call) else { panic!("a 2026-07-28 call") };
        assert_eq!(post.subject.tool(), Some("echo"));
        assert_eq!(post.envelope.unwrap().requested_version, "2026-07-28");
        // Without its headers: the header rung refuses it, in the same reading.
        let Post::Stateless(post) = Post::read(&none, call) else { panic!("a 2026-07-28 call") };
        assert_eq!(post.envelope.unwrap_err().code, crate::jsonrpc::code::HEADER_MISMATCH);
        let legacy = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}"#;
        assert!(
            matches!(Post::read(&none, legacy), Post::Session(SessionPost::Request(r)) if r.method == "tools/call")
        );
        // A 2026-07-28 header on a body without the envelope: refused, with
        // what it names read for the scopes.
        let Post::Stateless(post) = Post::read(&modern, legacy) else { panic!("claimed by its header") };
        assert_eq!(post.subject.tool(), Some("echo"));
        assert_eq!(post.envelope.unwrap_err().code, crate::jsonrpc::code::INVALID_PARAMS);
        let initialize = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
        assert!(matches!(Post::read(&none, initialize), Post::Session(SessionPost::Initialize(_))));
        let Post::Stateless(post) = Post::read(&modern, initialize) else { panic!("claimed by its header") };
        assert_eq!(post.envelope.unwrap_err().code, crate::jsonrpc::code::HEADER_MISMATCH);
        let cancel = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#;
        assert!(matches!(
            Post::read(&none, cancel),
            Post::Session(SessionPost::Notification { cancels: Some(id), .. }) if id == "7"
        ));
        assert!(matches!(Post::read(&modern, cancel), Post::StatelessNotice));
        let response = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        assert!(matches!(Post::read(&none, response), Post::Session(SessionPost::Response)));
        assert!(matches!(Post::read(&modern, response), Post::StatelessNotice));
        assert!(matches!(Post::read(&none, b"{nope"), Post::Invalid(_)));
    }
}
