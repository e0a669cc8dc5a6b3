//! The HTTP transports: Streamable HTTP (MCP 2025-03-26 and later) at `/mcp`,
//! and the 2024-11-05 HTTP+SSE transport at `/sse` + `/messages`.
//!
//! Both feed the same protocol core as stdio: every message goes to
//! [`Session::handle_async`](crate::Session::handle_async), which writes
//! notifications and then the response to an [`Outbox`](crate::Outbox); the
//! transport only decides where those bytes go (one JSON body, or events on an
//! SSE stream).
//!
//! - **Sessions**: `initialize` creates a [`Session`](crate::Session) (its own
//!   guest instance, as on stdio) and answers with `Mcp-Session-Id`. The session
//!   sits behind an async mutex: its requests run one at a time on its instance,
//!   different sessions run in parallel. Guest calls are async: they run on the
//!   runtime's worker threads, each on a fiber that gives its thread back at
//!   every epoch tick and while the guest waits on the host, so a slow guest
//!   holds up no other request, and a request costs no hand-off to another
//!   thread. The engine needs a fiber stack per instance
//!   ([`EngineOptions::async_calls`](crate::runtime::engine::EngineOptions::async_calls),
//!   on by default). Idle sessions expire.
//! - **Stateless** (`--stateless`): no sessions; every POST gets a fresh
//!   session, initialized from the `MCP-Protocol-Version` header.
//! - **Security**: `Origin` and (for loopback binds) `Host` are checked before
//!   anything else (`origin_guard.rs`); bodies are size- and time-limited; headers
//!   must arrive within `--header-timeout`.
//! - **Shutdown**: on SIGINT/SIGTERM `/readyz` answers 503 "draining" for
//!   `--drain-delay` while everything is still served, so that a load
//!   balancer stops sending requests first (a second signal cuts the delay
//!   short); then the listener closes, server-to-client streams end,
//!   in-flight requests get `--shutdown-timeout` to finish.
//! - **Embedding**: [`axum_router`] gives the same endpoints as an axum
//!   `Router`, to merge into an app of one's own. [`HttpServer`] serves that
//!   router too, behind a front door (`front.rs`) that takes an MCP client's
//!   own `/mcp` requests straight to `/mcp`'s one dispatch (`mcp.rs`), which
//!   the router's `/mcp` route uses too.

mod answer;
mod auth;
mod connections;
mod front;
mod health;
mod http_sse;
mod kept_future;
mod listener;
mod mcp;
mod metrics_endpoint;
mod options;
mod origin_guard;
mod recycled;
mod resume;
mod router;
mod serve;
mod session_talk_back;
mod sessions;
mod sse;
mod state;
mod stateless;
mod streamable;
mod tap_layer;
mod tasks;
mod wire;

pub use auth::{AuthOptions, DEFAULT_ALGORITHMS, KeyOptions, KeySource, METADATA_PATH};
pub use listener::HttpServer;
pub use metrics_endpoint::{DEFAULT_METRICS_MAX_CONNECTIONS, MetricsListenerOptions, serve_metrics};
pub use options::*;
pub use resume::SSE_RETRY_MS;
pub use router::axum_router;
pub use serve::{serve_http, serve_http_with};
pub use state::Reloader;
