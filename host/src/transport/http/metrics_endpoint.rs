//! `/metrics`: the installed [`Metrics`] for Prometheus, on the MCP
//! listener or on a listener of its own ([`serve_metrics`], which is how a
//! stdio server exposes them).
//!
//! The listener of its own has the MCP listener's protections, sized for
//! scrapers: headers must arrive within a timeout, connections are capped
//! (the one idle longest makes room; the rest wait in the listen backlog,
//! holding no file descriptor of the process), and `Host`/`Origin` are
//! checked as on the MCP listener. Unbounded, idle connections to it once
//! used up the process's file descriptors, and the MCP listener stopped
//! accepting.

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, Request, StatusCode};
use axum::response::Response;
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::Semaphore;
use tower::ServiceExt;

use super::connections::{self, Connections, Permit, drive, permit_for};
use super::origin_guard::{self, SecurityPolicy};
use crate::telemetry::metrics::{Format, Metrics};

/// Default of [`MetricsListenerOptions::max_connections`]: scrapers are
/// few, and each keeps one connection.
pub const DEFAULT_METRICS_MAX_CONNECTIONS: usize = 64;

/// Settings of the metrics listener of its own ([`serve_metrics`]).
#[derive(Debug, Clone)]
pub struct MetricsListenerOptions {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Time allowed for request headers (and idle keep-alive connections).
    pub header_timeout: Duration,
    /// Most open connections at once. Beyond them the connection idle
    /// longest is closed to make room; if none is idle, new ones wait in
    /// the listen backlog.
    pub max_connections: usize,
    /// Extra allowed `Host` values, as on the MCP listener
    /// ([`HttpOptions::allow_hosts`](super::HttpOptions::allow_hosts)).
    pub allow_hosts: Vec<String>,
    /// Extra allowed `Origin` values, as on the MCP listener.
    pub allow_origins: Vec<String>,
}

impl MetricsListenerOptions {
    /// The default settings, listening on `addr`.
    pub fn new(addr: SocketAddr) -> Self {
        MetricsListenerOptions {
            addr,
            header_timeout: super::DEFAULT_HEADER_TIMEOUT,
            max_connections: DEFAULT_METRICS_MAX_CONNECTIONS,
            allow_hosts: Vec::new(),
            allow_origins: Vec::new(),
        }
    }
}

/// `GET /metrics`: Prometheus text, or OpenMetrics when `Accept` asks for it.
pub(super) async fn scrape(headers: HeaderMap) -> Response {
    let Some(metrics) = Metrics::global() else {
        let mut response = Response::new(Body::from("metrics are off: start the server with --metrics\n"));
        *response.status_mut() = StatusCode::NOT_FOUND;
        return response;
    };
    let format = Format::from_accept(headers.get(ACCEPT).and_then(|v| v.to_str().ok()));
    let mut response = Response::new(Body::from(metrics.encode(format)));
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(format.content_type()));
    response
}

/// Serves `/metrics` on `options.addr`, on a thread of its own, until the
/// process ends; returns the address bound (for port 0). Installs the
/// metrics if they are not yet.
pub fn serve_metrics(options: MetricsListenerOptions) -> io::Result<SocketAddr> {
    Metrics::install();
    let addr = options.addr;
    let listener = std::net::TcpListener::bind(addr)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot listen for metrics on {addr}: {e}")))?;
    listener.set_nonblocking(true)?;
    let bound = listener.local_addr()?;
    let security = SecurityPolicy::new(bound.ip().is_loopback(), &options.allow_hosts, &options.allow_origins);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let max_connections = options.max_connections;
    std::thread::Builder::new().name("mcp-wit-metrics".into()).spawn(move || {
        runtime.block_on(async move {
            match tokio::net::TcpListener::from_std(listener) {
                Ok(listener) => accept(listener, &options, Arc::new(security)).await,
                Err(e) => tracing::error!("the metrics listener failed: {e}"),
            }
        })
    })?;
    tracing::info!("metrics at http://{bound}/metrics (at most {max_connections} connections)");
    Ok(bound)
}

/// Accepts and serves scrapers' connections within `options`' limits.
async fn accept(listener: tokio::net::TcpListener, options: &MetricsListenerOptions, security: Arc<SecurityPolicy>) {
    let app: Router = Router::new()
        .route("/metrics", get(scrape))
        .layer(axum::middleware::from_fn_with_state(security, origin_guard::check_policy));
    let mut http1 = hyper::server::conn::http1::Builder::new();
    http1.timer(TokioTimer::new()).header_read_timeout(options.header_timeout).keep_alive(true);
    let serving = Arc::new(Semaphore::new(options.max_connections));
    // None is answered "at capacity": past the cap, connections wait in the
    // backlog until one idle gives way or ends.
    let turned_away = Arc::new(Semaphore::new(0));
    let open = Arc::new(Connections::default());
    let never = std::future::pending::<()>();
    tokio::pin!(never);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors and the like: back off briefly.
                tracing::warn!("the metrics listener cannot accept: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Never `None` (the listener never shuts down) nor turned away (no
        // slot for that).
        let Some(Permit::Serve(permit)) = permit_for(&serving, &turned_away, &open, &mut never).await else {
            return;
        };
        let tracked = open.open(true);
        let connection_app = app.clone();
        let in_use = tracked.clone();
        // Busy until the response is written: only idle connections give way.
        let service = hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
            let busy = in_use.busy();
            let answered = connection_app.clone().oneshot(request.map(Body::new));
            async move {
                let response = answered.await?;
                Ok::<_, Infallible>(response.map(|body| connections::busy_until_written(body, busy)))
            }
        });
        let connection = http1.serve_connection(TokioIo::new(stream), service);
        tokio::spawn(async move {
            if let Err(e) = drive(connection, &tracked, std::future::pending()).await {
                tracing::debug!(%peer, "metrics connection ended: {e}");
            }
            drop((permit, tracked));
        });
    }
}
