//! One request as an exchange runs it: its id, what it asks, its params and
//! the era it is served in.

use serde_json::value::RawValue;

use crate::client::ClientCapabilities;
use crate::jsonrpc::{RpcError, code};
use crate::method::Method;
use crate::params::{self, LogLevel};
use crate::routers::ServerDescription;
use crate::version::ProtocolVersion;

/// The era a request is served in.
#[derive(Clone, Copy)]
pub(super) enum Era<'a> {
    /// In the session `initialize` set up.
    Legacy,
    /// On its own, at this revision, by routers that say this of themselves.
    Modern { version: ProtocolVersion, about: &'a ServerDescription, client: &'a Client },
}

/// What a request's client declared of itself, for the
/// [`ClientLink`](crate::ClientLink) of its guest calls.
#[derive(Debug, Clone, Default)]
pub(super) struct Client {
    pub(super) capabilities: ClientCapabilities,
    pub(super) log_level: Option<LogLevel>,
}

impl<'a> Era<'a> {
    /// What the routers say of themselves, for a method only modern
    /// requests reach (-32601 for any other, as a 2025 session knows none).
    pub(super) fn about(self, method: Method) -> Result<&'a ServerDescription, RpcError> {
        match self {
            Era::Modern { about, .. } => Ok(about),
            Era::Legacy => Err(RpcError::new(code::METHOD_NOT_FOUND, format!("Method not found: {method}"))),
        }
    }
}

/// One request as an [`Exchange`](super::exchange::Exchange) runs it: its
/// id, what it asks, its params and the era it is served in.
#[derive(Clone, Copy)]
pub(super) struct Request<'a> {
    pub(super) id: &'a RawValue,
    pub(super) method: Method,
    pub(super) params: RequestParams<'a>,
    pub(super) era: Era<'a>,
}

/// A request's params: as sent, and for `tools/call` as read already, with
/// the envelope in its `_meta`, so that its handler does not read them again.
#[derive(Clone, Copy)]
pub(super) struct RequestParams<'a> {
    pub(super) raw: Option<&'a RawValue>,
    pub(super) call_tool: Option<&'a params::CallToolParams<'a>>,
}

impl<'a> RequestParams<'a> {
    /// Params not read yet.
    pub(super) fn raw(raw: Option<&'a RawValue>) -> Self {
        RequestParams { raw, call_tool: None }
    }
}
