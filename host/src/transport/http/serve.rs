//! Serving over HTTP until a signal: [`serve_http`], on a runtime of its
//! own, and the signals that start the shutdown.

use std::future::Future;
use std::io;
use std::time::Duration;

use mcp_wit_protocol::SessionOptions;

use super::listener::HttpServer;
use super::options::HttpOptions;
use super::state::Reloader;
use crate::Routers;

/// Serves `routers` (one component, or several as one server) over HTTP
/// until SIGINT or SIGTERM, on a runtime of its own, then shuts down as
/// [`HttpServer::run`] does; a second signal during the drain delay ends it.
pub fn serve_http(
    routers: impl Into<Routers>,
    session_options: SessionOptions,
    options: HttpOptions,
) -> io::Result<()> {
    serve_http_with(routers, session_options, options, |_| {})
}

/// [`serve_http`], first handing `started` (within the server's runtime, so
/// that it may spawn tasks) the server's [`Reloader`]: e.g. to reload on
/// SIGHUP.
pub fn serve_http_with(
    routers: impl Into<Routers>,
    session_options: SessionOptions,
    options: HttpOptions,
    started: impl FnOnce(Reloader) + Send,
) -> io::Result<()> {
    let routers = routers.into();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().thread_name("mcp-wit-http").build()?;
    let result = runtime.block_on(async move {
        // Heard from now on: a signal sent as soon as the server says it
        // listens must not find SIGTERM's default action (the process
        // killed, no drain) still in place.
        let shutdown = shutdown_signal_from_now();
        let server = HttpServer::bind(routers, session_options, options).await?;
        started(server.reloader());
        // A second signal is heard only once the first started the drain:
        // this one listens from its first poll, when the drain begins.
        server.run_with_drain_skip(shutdown, shutdown_signal()).await
    });
    // Guest calls still running past the grace period are abandoned.
    runtime.shutdown_timeout(Duration::from_millis(500));
    result
}

/// Completes on SIGINT or SIGTERM sent after this call (not after its
/// first poll, as [`shutdown_signal`]).
fn shutdown_signal_from_now() -> impl Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{Signal, SignalKind, signal};
        let listen = |kind: SignalKind, name: &str| match signal(kind) {
            Ok(listening) => Some(listening),
            Err(e) => {
                tracing::warn!("cannot listen for {name}: {e}");
                None
            }
        };
        let (mut interrupt, mut terminate) =
            (listen(SignalKind::interrupt(), "SIGINT"), listen(SignalKind::terminate(), "SIGTERM"));
        async fn received(listening: Option<&mut Signal>) {
            match listening {
                Some(signal) => _ = signal.recv().await,
                None => std::future::pending().await,
            }
        }
        async move {
            tokio::select! {
                () = received(interrupt.as_mut()) => tracing::info!("SIGINT received"),
                () = received(terminate.as_mut()) => tracing::info!("SIGTERM received"),
            }
        }
    }
    #[cfg(not(unix))]
    shutdown_signal()
}

/// Completes on SIGINT or SIGTERM sent after its first poll.
async fn shutdown_signal() {
    let interrupt = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!("cannot listen for SIGINT: {e}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(e) => {
                tracing::warn!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => tracing::info!("SIGINT received"),
        () = terminate => tracing::info!("SIGTERM received"),
    }
}
