//! # mcp-wit-protocol
//!
//! The MCP core of mcp-wit, free of any runtime: JSON-RPC messages in,
//! JSON-RPC messages out. It builds for `wasm32-wasip2` as well as for the
//! host, so the same mapping serves routers natively and from inside a
//! component.
//!
//! **An internal crate.** Embedders use `mcp-wit`, the host crate, whose
//! root re-exports what serving takes (sessions, routers, options, the
//! contract's values); this crate's API is what the host, the guest
//! adapter and the tests share, kept to what they use, and changes with
//! them.
//!
//! - [`jsonrpc`]: framing, parsing and writing messages; [`params`]: typed
//!   views of request params; [`Method`]: the methods served.
//! - [`ProtocolVersion`]: the revisions spoken and what each can carry;
//!   [`envelope`]: the per-request envelope of 2026-07-28 and its errors.
//! - [`contract`]: the values of `wasix:mcp/router@25.3.26` as plain Rust
//!   (the session maps them to MCP JSON).
//! - [`Router`] and [`RouterComponent`]: how the core reaches a router; a
//!   runtime implements them.
//! - [`Routers`]: several routers as one server, under prefixes.
//! - [`Session`]: one client's session: lifecycle, dispatch, handlers;
//!   [`StatelessRequest`]: one 2026-07-28 request served without a session.
//! - [`Canceller`]: cancelling requests from outside the message order.
//! - [`client`]: the way back to the client while a router serves a
//!   request (progress, logs, sampling, elicitation, roots).
//! - [`auth`]: who calls (the identity an access token carries) and the
//!   scopes each operation needs.
//! - [`listeners`]: every client that hears of routers' changes, across
//!   sessions.
//! - [`observe`]: what each request came to, for logs, metrics and traces.
//! - [`tasks`]: the tasks extension's methods, and how a request becomes a
//!   task while it runs.
//! - `http` (feature `http`): the Streamable HTTP rules every HTTP server of
//!   the core applies (negotiation, the 2026-07-28 validation ladder).

#![warn(missing_docs)]

pub mod auth;
mod cancel;
pub mod client;
pub mod contract;
pub mod contract_25_6_18;
mod contract_from_wit;
mod deployment;
pub mod envelope;
mod executor;
#[cfg(feature = "http")]
pub mod http;
pub mod jsonrpc;
pub mod listeners;
mod mapping;
mod method;
pub mod observe;
pub mod params;
mod prefixes;
pub mod rounds;
mod router;
mod routers;
mod session;
pub mod tasks;
#[cfg(feature = "validate")]
pub mod validation;
mod version;

pub use cancel::{CancelFlag, Canceller, TickHook};
pub use client::{ClientLink, Peer};
pub use deployment::Deployment;
pub use envelope::{CacheHint, CacheScope, Envelope};
pub use executor::{Job, Offload, Unavailable, block_on, offloaded};
pub use jsonrpc::RpcError;
pub use listeners::{Listeners, Sink};
pub use mapping::tool_ui_error;
pub use method::Method;
pub use observe::Observer;
pub use router::{CallContext, CallMode, FaultKind, GuestFault, GuestResult, Router, RouterComponent};
pub use routers::{CollisionCheckError, Mount, MountError, Routers};
pub use session::{
    Admitted, DEFAULT_MAX_OUTPUT, DEFAULT_VALIDATION_BUDGET, Outbox, Outcome, Session, SessionOptions, StatelessRequest,
};
pub use version::ProtocolVersion;

// For the conversion macros, which expand in other crates.
#[doc(hidden)]
pub use serde_json as __serde_json;
