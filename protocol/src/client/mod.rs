//! The way back to the client while a router serves a request: what it
//! sends (progress, log messages, change notifications) and what it asks
//! (sampling, elicitation, roots), as `mcp-wit:extension/client` offers them
//! to guests.
//!
//! The session makes a [`ClientLink`] for each request, from what the
//! client declared and what the request carries (its progress token, its
//! log level); the runtime hands it to the guest's host calls through
//! [`CallContext`](crate::CallContext). Messages leave through the
//! transport's [`Peer`]: at once, on the request's own stream (stdout, or the
//! POST's SSE stream), so that the client sees progress while the guest
//! works and can answer a question while the guest waits.

mod capabilities;
mod link;
mod peer;
mod relay;
mod roots;

pub use capabilities::Question;
pub(crate) use capabilities::{ClientCapabilities, QuestionIds};
pub(crate) use link::LinkSettings;
pub use link::{ClientLink, Keyed};
pub use peer::{AskError, BoxFuture, ClientError, Peer, WaitBound};
pub use relay::{LinkReport, RelayedLink};
pub use roots::{Root, read_roots};

// Where they are defined, these are what a peer's answers, a router's list
// changes and a client's log level are; the client's side names them too.
pub use crate::jsonrpc::{ClientRpcError, Response};
pub use crate::listeners::ListKind;
pub use crate::params::LogLevel;
