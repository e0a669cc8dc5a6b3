//! `/healthz` and `/readyz`: liveness and saturation for load balancers and
//! Kubernetes probes, off the MCP path (no session, no MCP headers), and what
//! a connection beyond the server's limit hears.

use std::convert::Infallible;
use std::future::Ready;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::body::Body;
use axum::extract::State;
use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderValue, Request, StatusCode};
use axum::response::Response;
use serde_json::json;

use super::state::ServerState;
use super::wire::{self, TRANSPORT_ERROR};

/// Seconds a refused client is asked to wait.
const RETRY_AFTER_SECONDS: &str = "1";

/// Why `/readyz` fails during the drain delay, while everything is still
/// served.
const DRAINING: &str = "draining: shutting down once --drain-delay is over";

/// Liveness: the server answers.
pub(super) async fn live() -> Response {
    text(StatusCode::OK, "ok\n")
}

/// Readiness: 200 while the server takes new sessions and connections, 503
/// (with `Retry-After`) while it is saturated, draining before a shutdown
/// or shutting down; the body says which, with the figures.
pub(super) async fn ready(State(server): State<Arc<ServerState>>) -> Response {
    readiness(&server)
}

fn readiness(server: &ServerState) -> Response {
    let options = &server.options;
    let sessions = server.sessions.len();
    let connections = options.max_connections.saturating_sub(server.connections.available_permits());
    let not_ready = if *server.shutdown.borrow() {
        Some("shutting down")
    } else if server.draining.load(Ordering::Relaxed) {
        Some(DRAINING)
    } else if !options.stateless && server.sessions.is_full() {
        Some("every session slot is taken by sessions in use (--max-sessions)")
    } else if connections >= options.max_connections && !server.open.has_idle() {
        // Idle connections give way to new ones: only busy ones fill it.
        Some("every connection slot is taken by connections in use (--max-connections)")
    } else {
        None
    };
    let body = json!({
        "ready": not_ready.is_none(),
        "reason": not_ready,
        "sessions": sessions,
        "maxSessions": options.max_sessions,
        "maxSessionsPerClient": server.sessions.max_per_client(),
        "connections": connections,
        "maxConnections": options.max_connections,
    });
    let mut response = wire::json(body.to_string().into_bytes());
    if not_ready.is_some() {
        *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
        response.headers_mut().insert(RETRY_AFTER, HeaderValue::from_static(RETRY_AFTER_SECONDS));
    }
    response
}

/// The service of a connection accepted beyond `--max-connections`: the
/// probes answer as usual (the server is alive, and not ready); any other
/// request gets 503 with `Retry-After` at once, and the connection closes.
pub(super) fn at_capacity<B>(
    server: Arc<ServerState>,
) -> impl Fn(Request<B>) -> Ready<Result<Response, Infallible>> + Clone {
    move |request| {
        let path = request.uri().path();
        let response = match path {
            "/healthz" if server.health => text(StatusCode::OK, "ok\n"),
            "/readyz" if server.health => readiness(&server),
            _ => {
                crate::telemetry::metrics::refused(crate::telemetry::metrics::Refusal::Connections);
                let mut response = wire::error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    TRANSPORT_ERROR,
                    "Service Unavailable: the server is at its connection limit; retry later",
                    None,
                );
                response.headers_mut().insert(RETRY_AFTER, HeaderValue::from_static(RETRY_AFTER_SECONDS));
                response
            }
        };
        std::future::ready(Ok(response))
    }
}

fn text(status: StatusCode, body: &'static str) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    response
}
