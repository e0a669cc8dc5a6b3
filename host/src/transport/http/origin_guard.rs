//! Who may talk to the server: `Origin` and `Host` checks (DNS-rebinding
//! protection, the core's [`SecurityPolicy`]), run before any route, and
//! CORS for the origins let in.
//!
//! - `Origin`, when present, must be allowed: on a loopback bind any loopback
//!   origin (`http://localhost:3000`, `http://127.0.0.1`, …), plus every
//!   `--allow-origin`. Else 403.
//! - `Host` is checked on a loopback bind, or on any bind once `--allow-host`
//!   is given: loopback names (`localhost`, `127.x.x.x`, `[::1]`, any port) and
//!   every `--allow-host` (`NAME` matches any port, `NAME:PORT` only that one).
//!   Else 403. A page on `evil.example` whose name was rebound to 127.0.0.1
//!   still sends `Host: evil.example`, so it is turned away.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::Method;
use axum::http::header::WWW_AUTHENTICATE;
use axum::middleware::Next;
use axum::response::Response;
use tower_http::cors::{AllowHeaders, AllowOrigin, CorsLayer};

use super::state::ServerState;
use super::wire::{self, PROTOCOL_VERSION, SESSION_ID};

pub use mcp_wit_protocol::http::SecurityPolicy;

/// Middleware: turns away requests the policy refuses.
pub async fn check(State(server): State<Arc<ServerState>>, request: Request, next: Next) -> Response {
    admit(&server.security, request, next).await
}

/// [`check`] on a listener of its own (the metrics listener), which has a
/// policy but no MCP server behind it.
pub(super) async fn check_policy(State(policy): State<Arc<SecurityPolicy>>, request: Request, next: Next) -> Response {
    admit(&policy, request, next).await
}

async fn admit(policy: &SecurityPolicy, request: Request, next: Next) -> Response {
    match policy.check_request(request.uri().authority().map(|a| a.as_str()), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(refusal) => wire::refused(refusal),
    }
}

/// CORS for browser clients. Only requests whose origin passed [`check`]
/// reach it, so it mirrors the origin back, and the headers a preflight
/// asks for: MCP's own grow with the protocol (2026-07-28 routes with
/// `Mcp-Method`, `Mcp-Name` and an `Mcp-Param-*` per marked argument), and
/// an allowed origin may send any of them.
pub fn cors() -> CorsLayer {
    CorsLayer::new()
        .allow_origin(AllowOrigin::mirror_request())
        .allow_methods([Method::GET, Method::POST, Method::DELETE])
        .allow_headers(AllowHeaders::mirror_request())
        .expose_headers([SESSION_ID, PROTOCOL_VERSION, WWW_AUTHENTICATE])
        .max_age(Duration::from_secs(600))
}
