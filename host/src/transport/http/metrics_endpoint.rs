//! `/metrics`: the installed [`Metrics`] for Prometheus, on the MCP
//! listener or on a listener of its own ([`serve_metrics`], which is how a
//! stdio server exposes them).

use std::io;
use std::net::SocketAddr;

use axum::Router;
use axum::body::Body;
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use axum::routing::get;

use crate::telemetry::metrics::{Format, Metrics};

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

/// Serves `/metrics` on `addr`, on a thread of its own, until the process
/// ends; returns the address bound (for port 0). Installs the metrics if
/// they are not yet.
pub fn serve_metrics(addr: SocketAddr) -> io::Result<SocketAddr> {
    Metrics::install();
    let listener = std::net::TcpListener::bind(addr)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot listen for metrics on {addr}: {e}")))?;
    listener.set_nonblocking(true)?;
    let bound = listener.local_addr()?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    std::thread::Builder::new().name("mcp-wit-metrics".into()).spawn(move || {
        runtime.block_on(async move {
            let app = Router::new().route("/metrics", get(scrape));
            match tokio::net::TcpListener::from_std(listener) {
                Ok(listener) => {
                    if let Err(e) = axum::serve(listener, app).await {
                        tracing::error!("the metrics listener failed: {e}");
                    }
                }
                Err(e) => tracing::error!("the metrics listener failed: {e}"),
            }
        })
    })?;
    tracing::info!("metrics at http://{bound}/metrics");
    Ok(bound)
}
