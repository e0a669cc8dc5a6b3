//! The axum router of a server: `/mcp` and HTTP+SSE behind their layers
//! (body limit, tap, authorization, CORS, the `Origin`/`Host` checks), the
//! probes and metrics beside them; and [`axum_router`], the same for an app
//! of one's own.

use std::future::Future;
use std::io;
use std::sync::Arc;

use axum::Router;
use axum::routing::{MethodFilter, get, on, post};

use mcp_wit_protocol::SessionOptions;

use super::options::HttpOptions;
use super::state::ServerState;
use super::{auth, health, http_sse, mcp, metrics_endpoint, origin_guard, tap_layer};
use crate::Routers;

pub(super) fn router(server: Arc<ServerState>) -> Router {
    let methods = MethodFilter::POST.or(MethodFilter::GET).or(MethodFilter::DELETE);
    let mut router = Router::new().route("/mcp", on(methods, mcp::route));
    if !server.options.stateless {
        router = router.route("/sse", get(http_sse::stream)).route("/messages", post(http_sse::message));
    }
    if server.options.tap.is_some() {
        // Inside the body limit: what it taps was accepted.
        router = router.layer(axum::middleware::from_fn_with_state(server.clone(), tap_layer::tee));
    }
    if let Some(resource_server) = &server.auth {
        // Outside the tap: a refused request was never accepted. The
        // metadata, added after, is for everyone.
        router = router.layer(axum::middleware::from_fn_with_state(server.clone(), auth::require));
        for path in resource_server.metadata_paths() {
            router = router.route(&path, get(auth::metadata));
        }
    }
    let mcp = router
        .layer(tower_http::limit::RequestBodyLimitLayer::new(server.options.max_body_size))
        .layer(origin_guard::cors())
        .layer(axum::middleware::from_fn_with_state(server.clone(), origin_guard::check));
    // Probes come from load balancers and the kubelet, without an MCP
    // client's headers: outside the MCP layers.
    let mut probes = match server.health {
        true => Router::new().route("/healthz", get(health::live)).route("/readyz", get(health::ready)),
        false => Router::new(),
    };
    // For Prometheus, which scrapes without an MCP client's headers either;
    // only where the process keeps metrics (`--metrics`). The series name
    // what is served and how it is used: behind the `Host`/`Origin` checks,
    // and the token when requests are authenticated (a scraper without one
    // uses a metrics listener of its own, `--metrics HOST:PORT`).
    if crate::telemetry::Metrics::global().is_some() {
        let mut metrics = Router::new().route("/metrics", get(metrics_endpoint::scrape));
        if server.auth.is_some() {
            metrics = metrics.layer(axum::middleware::from_fn_with_state(server.clone(), auth::require));
        }
        probes = probes.merge(metrics.layer(axum::middleware::from_fn_with_state(server.clone(), origin_guard::check)));
    }
    mcp.merge(probes).with_state(server)
}

/// The MCP endpoints of `routers` as an axum [`Router`], to merge into an
/// app of one's own next to its other routes: Streamable HTTP at `/mcp` and,
/// unless `options.stateless`, HTTP+SSE at `/sse` + `/messages`, with the
/// same sessions, limits and `Origin`/`Host` checks as [`serve_http`](super::serve_http) (they
/// apply to these routes only).
///
/// `options.addr` is the address the app is served on: on a loopback address,
/// `Host` and `Origin` are checked as `serve_http` checks them. The
/// connection settings (`max_connections`, `header_timeout`, `drain_delay`,
/// `shutdown_timeout`) belong to whatever serves the app and are not used.
/// When `shutdown` completes, `/readyz` answers 503 and the server-to-client
/// streams end, so that a graceful shutdown of the app is not held up by
/// clients that keep them open; pass [`std::future::pending`] if the app
/// never stops. To drain behind a load balancer as [`HttpServer::run`](super::HttpServer::run) does,
/// complete `shutdown` at the signal and stop the app's listener a drain
/// delay later.
///
/// Call it within a tokio runtime: it spawns the task that ends idle
/// sessions. The error says what to fix in `options` (authorization
/// settings that cannot work).
pub fn axum_router(
    routers: impl Into<Routers>,
    session_options: SessionOptions,
    options: HttpOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<Router> {
    let addr = options.addr;
    let server = ServerState::new(routers.into(), session_options, options, addr)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let server = Arc::new(server);
    let background = server.clone();
    tokio::spawn(async move {
        let sweep = async {
            if background.options.stateless {
                std::future::pending::<()>().await;
            }
            background.clone().sweep_sessions().await;
        };
        tokio::select! {
            () = shutdown => {}
            () = sweep => {}
        }
        background.shutdown.send_replace(true);
    });
    Ok(router(server))
}
