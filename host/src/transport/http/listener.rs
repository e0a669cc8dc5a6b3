//! The listening server: accepting connections within the limit (the
//! connection idle longest makes room), serving each behind the front door,
//! and shutting down (a drain delay for load balancers to notice, then
//! streams end, requests get their grace, then an error).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::Poll;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::connections::{Permit, drive, permit_for};
use super::options::HttpOptions;
use super::router::router;
use super::state::{Reloader, ServerState};
use super::{front, health};
use crate::Routers;
use mcp_wit_protocol::SessionOptions;

/// A bound HTTP server, ready to [`run`](HttpServer::run).
pub struct HttpServer {
    listener: TcpListener,
    server: Arc<ServerState>,
}

impl HttpServer {
    /// Binds `options.addr`.
    pub async fn bind(
        routers: impl Into<Routers>,
        session_options: SessionOptions,
        options: HttpOptions,
    ) -> io::Result<Self> {
        let listener = TcpListener::bind(options.addr)
            .await
            .map_err(|e| io::Error::new(e.kind(), format!("cannot listen on {}: {e}", options.addr)))?;
        let bound = listener.local_addr()?;
        let server = ServerState::new(routers.into(), session_options, options, bound)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        // A task store that cannot be reached stops the start, not the first task.
        if let Some(tasks) = &server.tasks {
            tasks.check().await.map_err(|e| io::Error::new(io::ErrorKind::ConnectionRefused, e))?;
        }
        Ok(HttpServer { listener, server: Arc::new(server) })
    }

    /// The address actually bound (useful with port 0).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// A handle that replaces what the server serves while it runs.
    pub fn reloader(&self) -> Reloader {
        Reloader(self.server.clone())
    }

    /// Serves until `shutdown` completes, then drains and shuts down:
    ///
    /// 1. for [`drain_delay`](HttpOptions::drain_delay) (none by default),
    ///    `/readyz` answers 503 "draining" while everything else is served as
    ///    before, new connections included, so that a load balancer checking
    ///    it stops sending requests here before any is refused;
    /// 2. the listener closes, idle connections close, server-to-client
    ///    streams end, and requests in flight get
    ///    [`shutdown_timeout`](HttpOptions::shutdown_timeout) to finish;
    ///    those still running then are answered with an error.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> io::Result<()> {
        self.run_with_drain_skip(shutdown, std::future::pending()).await
    }

    /// [`run`](HttpServer::run), where the drain delay also ends once
    /// `skip_drain` completes. `skip_drain` is first polled as the delay
    /// begins, before `/readyz` fails, so a signal listener made there hears
    /// only later signals: [`serve_http`](super::serve_http) passes one for
    /// a second SIGINT or SIGTERM.
    pub async fn run_with_drain_skip(
        self,
        shutdown: impl Future<Output = ()>,
        skip_drain: impl Future<Output = ()>,
    ) -> io::Result<()> {
        let HttpServer { listener, server } = self;
        let addr = listener.local_addr()?;
        let options = &server.options;
        let mode = match (options.stateless, options.json_response) {
            (true, _) => "stateless",
            (false, true) => "sessions, JSON responses",
            (false, false) => "sessions",
        };
        tracing::info!(
            components = server.routers().mounts().len(),
            "listening on http://{addr}/mcp (Streamable HTTP, {mode}){}",
            if options.stateless { String::new() } else { format!("; HTTP+SSE at http://{addr}/sse") }
        );
        let front = front::Front::new(server.clone(), router(server.clone()));
        let sweeper = (!options.stateless).then(|| tokio::spawn(server.clone().sweep_sessions()));
        let mut http1 = hyper::server::conn::http1::Builder::new();
        http1.timer(TokioTimer::new()).header_read_timeout(options.header_timeout).keep_alive(true);
        let connections = server.connections.clone();
        // Connections beyond the limit that are answered 503 at once.
        let turned_away = Arc::new(Semaphore::new((options.max_connections / 8).max(16)));
        let open = server.open.clone();
        // Until the listener closes: the signal, then the drain delay.
        let stop = {
            let server = server.clone();
            async move {
                shutdown.await;
                drain(&server, skip_drain).await;
            }
        };
        tokio::pin!(stop);
        loop {
            let (stream, peer) = tokio::select! {
                biased;
                () = &mut stop => break,
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        // Out of file descriptors and the like: back off briefly.
                        tracing::warn!("accept failed: {e}");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                },
            };
            let _ = stream.set_nodelay(true);
            let Some(permit) = permit_for(&connections, &turned_away, &open, &mut stop).await else { break };
            let tracked = open.open(matches!(permit, Permit::Serve(_)));
            let mut down = server.shutdown.subscribe();
            let permit = match permit {
                Permit::Serve(permit) => permit,
                Permit::TurnAway(permit) => {
                    let mut refusing = http1.clone();
                    refusing.keep_alive(false);
                    let service = hyper::service::service_fn(health::at_capacity(server.clone()));
                    let connection = refusing.serve_connection(TokioIo::new(stream), service);
                    tokio::spawn(async move {
                        tokio::pin!(connection);
                        tokio::select! {
                            _ = connection.as_mut() => {}
                            // Idle turned-away connections give way too.
                            () = tracked.closed() => {}
                            _ = down.wait_for(|&down| down) => {}
                        }
                        drop((permit, tracked));
                    });
                    continue;
                }
            };
            let service = TowerToHyperService::new(front.for_connection(peer.ip(), tracked.clone()));
            let connection = http1.serve_connection(TokioIo::new(stream), service);
            tokio::spawn(async move {
                let at_shutdown = async move {
                    let _ = down.wait_for(|&down| down).await;
                };
                if let Err(e) = drive(connection, &tracked, at_shutdown).await {
                    tracing::debug!(%peer, "connection ended: {e}");
                }
                drop((permit, tracked));
            });
        }
        drop(listener);
        tracing::info!(
            "shutting down: no new connections; waiting up to {:?} for requests in flight",
            options.shutdown_timeout
        );
        server.shutdown.send_replace(true);
        if let Some(sweeper) = sweeper {
            sweeper.abort();
        }
        if tokio::time::timeout(options.shutdown_timeout, open.drained()).await.is_err() {
            tracing::warn!(
                "requests still running after {:?}: answering them with an error, then exiting",
                options.shutdown_timeout
            );
            server.cut.send_replace(true);
            // Moments for those errors to be written.
            let _ = tokio::time::timeout(CUT_OFF_GRACE, open.drained()).await;
        }
        Ok(())
    }
}

/// The drain delay after a shutdown signal: `/readyz` fails while all else
/// is served, until the delay is over or `skip` completes.
async fn drain(server: &ServerState, skip: impl Future<Output = ()>) {
    let delay = server.options.drain_delay;
    if delay.is_zero() {
        return;
    }
    // Armed (polled once) before `/readyz` tells of the drain, so that a
    // signal sent on seeing it fail is not missed.
    tokio::pin!(skip);
    let skipped = std::future::poll_fn(|cx| Poll::Ready(skip.as_mut().poll(cx).is_ready())).await;
    if skipped {
        tracing::info!("drain delay skipped");
        return;
    }
    server.draining.store(true, Ordering::Relaxed);
    tracing::info!(
        "draining for {delay:?}: /readyz answers 503 so that load balancers stop sending requests here; \
         everything is served meanwhile"
    );
    tokio::select! {
        () = tokio::time::sleep(delay) => tracing::info!("drain delay over"),
        () = skip => tracing::info!("drain delay cut short"),
    }
}

/// How long requests cut off at the end of a shutdown get for their error
/// to be written.
const CUT_OFF_GRACE: Duration = Duration::from_secs(1);
