//! Typed views of request params, borrowed from the message buffer.
//!
//! Anything a guest receives as JSON (tool arguments, completion input) stays
//! raw so it is handed over without being parsed into a tree and written out
//! again.

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::jsonrpc::{RpcError, borrowed_text};

/// Decodes `params` into `T`, or the -32602 answer naming what is wrong.
pub fn decode<'a, T: Deserialize<'a>>(params: Option<&'a RawValue>) -> Result<T, RpcError> {
    serde_json::from_str(object_text(params)?).map_err(RpcError::invalid_params)
}

/// The params text; MCP params are always objects (serde would otherwise
/// accept an array positionally).
fn object_text(params: Option<&RawValue>) -> Result<&str, RpcError> {
    match params.map_or("{}", RawValue::get) {
        text if text.starts_with('{') => Ok(text),
        _ => Err(RpcError::invalid_params("`params` must be an object")),
    }
}

/// Decodes an owned value (for types that cannot borrow).
pub(crate) fn decode_owned<T: DeserializeOwned>(params: Option<&RawValue>) -> Result<T, RpcError> {
    serde_json::from_str(object_text(params)?).map_err(RpcError::invalid_params)
}

/// `initialize` params.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InitializeParams<'a> {
    /// The revision the client asks for.
    #[serde(borrow)]
    pub protocol_version: Cow<'a, str>,
    /// The client's capabilities, raw (see [`crate::client::ClientCapabilities`]).
    #[serde(borrow)]
    pub capabilities: &'a RawValue,
    /// The client's name and version.
    pub client_info: ClientInfo<'a>,
}

/// The `clientInfo` of `initialize`.
#[derive(Deserialize)]
pub(crate) struct ClientInfo<'a> {
    /// Client name.
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    /// Client version.
    #[serde(borrow)]
    pub version: Cow<'a, str>,
}

/// Params of the paged list methods.
#[derive(Deserialize)]
pub(crate) struct ListParams<'a> {
    /// An opaque cursor from a previous page.
    #[serde(borrow, default, deserialize_with = "borrowed_text")]
    pub cursor: Option<Cow<'a, str>>,
}

/// The request `_meta` the host acts on: the progress token, and the
/// 2026-07-28 envelope's keys, raw (read as an
/// [`Envelope`](crate::envelope::Envelope) by
/// [`Envelope::from_meta`](crate::envelope::Envelope::from_meta)), so that a
/// request's params are read in one pass.
#[derive(Deserialize, Default, Clone, Copy)]
pub(crate) struct RequestMeta<'a> {
    /// Ask for `notifications/progress` with this token.
    #[serde(borrow, rename = "progressToken", default)]
    pub progress_token: Option<&'a RawValue>,
    /// `io.modelcontextprotocol/protocolVersion`: its presence is the
    /// modern claim.
    #[serde(borrow, rename = "io.modelcontextprotocol/protocolVersion", default)]
    pub protocol_version: Option<&'a RawValue>,
    /// `io.modelcontextprotocol/clientCapabilities`.
    #[serde(borrow, rename = "io.modelcontextprotocol/clientCapabilities", default)]
    pub client_capabilities: Option<&'a RawValue>,
    /// `io.modelcontextprotocol/clientInfo`.
    #[serde(borrow, rename = "io.modelcontextprotocol/clientInfo", default)]
    pub client_info: Option<&'a RawValue>,
    /// `io.modelcontextprotocol/logLevel`.
    #[serde(borrow, rename = "io.modelcontextprotocol/logLevel", default)]
    pub log_level: Option<&'a RawValue>,
}

/// `tools/call` params.
#[derive(Deserialize)]
pub struct CallToolParams<'a> {
    /// Tool name.
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    /// Arguments object, raw.
    #[serde(borrow, default)]
    pub arguments: Option<&'a RawValue>,
    /// Request metadata.
    #[serde(borrow, rename = "_meta", default)]
    pub(crate) meta: Option<RequestMeta<'a>>,
}

/// A `tools/call`'s params as a transport read them already (an HTTP
/// front door reads them with their 2026-07-28 envelope, to check the
/// request's headers), kept so that the call does not read them again:
/// the tool, its arguments and the progress token, owned (a request may
/// outlive the body it was read from).
#[derive(Debug, Clone)]
pub struct ReadCall {
    name: Box<str>,
    arguments: Option<Box<RawValue>>,
    progress_token: Option<Box<RawValue>>,
}

impl ReadCall {
    /// The call of tool `name` with `arguments` and `_meta.progressToken`,
    /// as read from its params.
    #[cfg(feature = "http")]
    pub(crate) fn new(name: &str, arguments: Option<&RawValue>, progress_token: Option<&RawValue>) -> Self {
        ReadCall {
            name: name.into(),
            arguments: arguments.map(ToOwned::to_owned),
            progress_token: progress_token.map(ToOwned::to_owned),
        }
    }

    /// The params as [`decode`] reads them, for what the call uses of them.
    pub(crate) fn params(&self) -> CallToolParams<'_> {
        let meta = RequestMeta { progress_token: self.progress_token.as_deref(), ..RequestMeta::default() };
        CallToolParams { name: Cow::Borrowed(&self.name), arguments: self.arguments.as_deref(), meta: Some(meta) }
    }
}

/// `resources/read`, `resources/subscribe` and `resources/unsubscribe` params.
#[derive(Deserialize)]
pub(crate) struct UriParams<'a> {
    /// Resource URI.
    #[serde(borrow)]
    pub uri: Cow<'a, str>,
}

/// `prompts/get` params.
#[derive(Deserialize)]
pub(crate) struct GetPromptParams<'a> {
    /// Prompt name.
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    /// Prompt arguments, in the order sent (routers that offer the
    /// extension get them; the contract's `get-prompt` cannot).
    #[serde(default, deserialize_with = "ordered_arguments")]
    pub arguments: Vec<(String, String)>,
}

/// `completion/complete` params, each part kept raw to hand to the guest.
#[derive(Deserialize)]
pub(crate) struct CompleteParams<'a> {
    /// `ref/prompt` or `ref/resource`.
    #[serde(borrow, rename = "ref")]
    pub reference: &'a RawValue,
    /// The argument being completed.
    #[serde(borrow)]
    pub argument: &'a RawValue,
    /// Already-resolved arguments (2025-06-18+).
    #[serde(borrow, default)]
    pub context: Option<&'a RawValue>,
    /// Request metadata, passed to the guest as meta entries.
    #[serde(borrow, rename = "_meta", default)]
    pub meta: Option<&'a RawValue>,
}

/// The typed shape of `completion/complete`'s `ref`, for validation.
#[derive(Deserialize)]
#[serde(tag = "type")]
pub(crate) enum CompletionReference {
    /// A prompt, by name.
    #[serde(rename = "ref/prompt")]
    Prompt {
        /// Prompt name.
        #[allow(dead_code)]
        name: String,
    },
    /// A resource (template), by URI.
    #[serde(rename = "ref/resource")]
    Resource {
        /// Resource URI or template.
        #[allow(dead_code)]
        uri: String,
    },
}

/// The typed shape of `completion/complete`'s `argument`, for validation.
#[derive(Deserialize)]
pub(crate) struct CompletionArgument {
    /// Argument name.
    #[allow(dead_code)]
    pub name: String,
    /// What the user typed so far.
    #[allow(dead_code)]
    pub value: String,
}

/// `logging/setLevel` params.
#[derive(Deserialize)]
pub(crate) struct SetLevelParams {
    /// The minimum level the client wants to receive.
    pub level: LogLevel,
}

/// RFC 5424 severities, as MCP names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Debug.
    Debug,
    /// Info.
    Info,
    /// Notice.
    Notice,
    /// Warning.
    Warning,
    /// Error.
    Error,
    /// Critical.
    Critical,
    /// Alert.
    Alert,
    /// Emergency.
    Emergency,
}

/// A JSON object of string values, in its order; `null` is none.
fn ordered_arguments<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<(String, String)>, D::Error> {
    struct Arguments;
    impl<'de> serde::de::Visitor<'de> for Arguments {
        type Value = Vec<(String, String)>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object of string values")
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_map(self)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(entry) = map.next_entry::<String, String>()? {
                out.push(entry);
            }
            Ok(out)
        }
    }
    deserializer.deserialize_option(Arguments)
}
