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
//!   anything else (`security.rs`); bodies are size- and time-limited; headers
//!   must arrive within `--header-timeout`.
//! - **Shutdown**: on SIGINT/SIGTERM the listener closes, server-to-client
//!   streams end, in-flight requests get `--shutdown-timeout` to finish.
//! - **Embedding**: [`axum_router`] gives the same endpoints as an axum
//!   `Router`, to merge into an app of one's own.

// The `Err` of the request checks is the HTTP response to send: built once
// per refused request and sent as is, so boxing it would gain nothing.
#![allow(clippy::result_large_err)]

mod legacy;
mod resume;
mod security;
mod sessions;
mod sse;
mod streamable;
mod wire;

use std::future::Future;
use std::io;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::{get, post};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

use crate::protocol::Routers;
use crate::protocol::SessionOptions;
use security::SecurityPolicy;
use sessions::Sessions;

/// Command-line flags of the HTTP transport (flattened into `serve`).
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "HTTP")]
pub struct HttpArgs {
    /// Serve over HTTP instead of stdio, on ADDR: `PORT` (on 127.0.0.1) or
    /// `HOST:PORT`. Streamable HTTP at `/mcp`, the 2024-11-05 HTTP+SSE
    /// transport at `/sse`.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
    /// Answer each request with one `application/json` body instead of an SSE
    /// stream (notifications such as progress are then not delivered).
    #[arg(long)]
    pub json_response: bool,
    /// No sessions: every POST stands alone, so replicas can sit behind any
    /// load balancer. Disables GET/DELETE on `/mcp` and the `/sse` transport.
    #[arg(long)]
    pub stateless: bool,
    /// Also accept requests with this `Origin` (e.g. `https://app.example.com`;
    /// `*` for any). Repeatable. Loopback origins are accepted on a loopback bind.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origins: Vec<String>,
    /// Also accept this `Host` header (`NAME` or `NAME:PORT`; `*` for any).
    /// Repeatable. Checked on loopback binds, and on any bind once given.
    #[arg(long = "allow-host", value_name = "HOST")]
    pub allow_hosts: Vec<String>,
    /// How long a session may stay idle before it ends and its guest
    /// instance is freed (`90s`, `10m`, `1h`; a bare number is seconds).
    #[arg(long, value_name = "DURATION", default_value = "10m", value_parser = parse_duration)]
    pub session_timeout: Duration,
    /// Most sessions at once; further `initialize` requests get 503.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub max_sessions: usize,
    /// Most open connections at once; more wait in the listen backlog.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub max_connections: usize,
    /// How long a client may take to send a request's headers; also how long
    /// an idle keep-alive connection stays open.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = parse_duration)]
    pub header_timeout: Duration,
    /// How long a client may take to send a request body (else 408).
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_duration)]
    pub body_timeout: Duration,
    /// How long requests in flight get to finish after SIGINT/SIGTERM.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = parse_duration)]
    pub shutdown_timeout: Duration,
}

/// `500ms`, `30s`, `10m`, `1h`; a bare number is seconds. Zero is refused.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: u64 = number.parse().map_err(|_| format!("`{text}` is not a duration like 30s or 10m"))?;
    let duration = match unit.trim() {
        "" | "s" => Duration::from_secs(n),
        "ms" => Duration::from_millis(n),
        "m" | "min" => Duration::from_secs(n.saturating_mul(60)),
        "h" => Duration::from_secs(n.saturating_mul(3600)),
        _ => return Err(format!("`{text}`: unknown unit (use ms, s, m or h)")),
    };
    if duration.is_zero() {
        return Err(format!("`{text}`: must be more than zero"));
    }
    Ok(duration)
}

impl HttpArgs {
    /// The HTTP settings, or `None` when `--http` was not given (serve stdio).
    /// `max_body_size` is the largest accepted message (`--max-message-size`).
    pub fn options(&self, max_body_size: usize) -> io::Result<Option<HttpOptions>> {
        let Some(addr) = &self.http else { return Ok(None) };
        Ok(Some(self.options_at(parse_addr(addr)?, max_body_size)))
    }

    /// The settings these flags give, listening on `addr`.
    fn options_at(&self, addr: SocketAddr, max_body_size: usize) -> HttpOptions {
        HttpOptions {
            addr,
            json_response: self.json_response,
            stateless: self.stateless,
            allow_origins: self.allow_origins.clone(),
            allow_hosts: self.allow_hosts.clone(),
            session_timeout: self.session_timeout,
            max_sessions: self.max_sessions.max(1),
            max_connections: self.max_connections.max(1),
            max_body_size,
            header_timeout: self.header_timeout,
            body_timeout: self.body_timeout,
            shutdown_timeout: self.shutdown_timeout,
            keep_alive: Duration::from_secs(15),
        }
    }
}

/// `PORT` → 127.0.0.1:PORT; `HOST:PORT` → its first address.
fn parse_addr(text: &str) -> io::Result<SocketAddr> {
    let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidInput, format!("--http {text}: {why}"));
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    text.to_socket_addrs()
        .map_err(|e| invalid(format!("expected PORT or HOST:PORT ({e})")))?
        .next()
        .ok_or_else(|| invalid("the name has no address".into()))
}

/// Settings of the HTTP transport.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Answer requests with `application/json` rather than an SSE stream.
    pub json_response: bool,
    /// No sessions: each POST is self-contained.
    pub stateless: bool,
    /// Extra allowed `Origin` values (`*`: any).
    pub allow_origins: Vec<String>,
    /// Extra allowed `Host` values (`*`: any).
    pub allow_hosts: Vec<String>,
    /// Idle time after which a session ends.
    pub session_timeout: Duration,
    /// Most sessions at once.
    pub max_sessions: usize,
    /// Most open connections at once.
    pub max_connections: usize,
    /// Largest accepted request body (413 beyond).
    pub max_body_size: usize,
    /// Time allowed for request headers (and idle keep-alive connections).
    pub header_timeout: Duration,
    /// Time allowed for a request body (408 beyond).
    pub body_timeout: Duration,
    /// Time in-flight requests get after a shutdown signal.
    pub shutdown_timeout: Duration,
    /// Interval of keep-alive comments on SSE streams.
    pub keep_alive: Duration,
}

impl HttpOptions {
    /// The settings `mcp-wit serve --http ADDR` starts with, on `addr`.
    pub fn new(addr: SocketAddr) -> Self {
        // The flags' own defaults, so that the two cannot drift apart.
        #[derive(clap::Parser)]
        struct Defaults {
            #[command(flatten)]
            http: HttpArgs,
        }
        let defaults = <Defaults as clap::Parser>::parse_from(["mcp-wit"]).http;
        defaults.options_at(addr, crate::transport::stdio::DEFAULT_MAX_MESSAGE_SIZE)
    }
}

/// What every handler shares.
pub(crate) struct Shared {
    routers: Routers,
    session_options: SessionOptions,
    options: HttpOptions,
    security: SecurityPolicy,
    sessions: Sessions,
    /// Turns `true` when the server shuts down: long-lived streams end.
    shutdown: watch::Sender<bool>,
}

impl Shared {
    /// The state of a server listening on `bound`.
    fn new(routers: Routers, session_options: SessionOptions, options: HttpOptions, bound: SocketAddr) -> Self {
        let security = SecurityPolicy::new(bound, &options.allow_hosts, &options.allow_origins);
        let sessions = Sessions::new(options.max_sessions, options.session_timeout);
        let (shutdown, _) = watch::channel(false);
        Shared { routers, session_options, options, security, sessions, shutdown }
    }
}

/// A bound HTTP server, ready to [`run`](HttpServer::run).
pub struct HttpServer {
    listener: TcpListener,
    shared: Arc<Shared>,
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
        let shared = Shared::new(routers.into(), session_options, options, bound);
        Ok(HttpServer { listener, shared: Arc::new(shared) })
    }

    /// The address actually bound (useful with port 0).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` completes, then stops accepting, ends the
    /// server-to-client streams and gives in-flight requests
    /// `shutdown_timeout` to finish.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> io::Result<()> {
        let HttpServer { listener, shared } = self;
        let addr = listener.local_addr()?;
        let options = &shared.options;
        let mode = match (options.stateless, options.json_response) {
            (true, _) => "stateless",
            (false, true) => "sessions, JSON responses",
            (false, false) => "sessions",
        };
        tracing::info!(
            components = shared.routers.mounts().len(),
            "listening on http://{addr}/mcp (Streamable HTTP, {mode}){}",
            if options.stateless { String::new() } else { format!("; HTTP+SSE at http://{addr}/sse") }
        );
        let router = router(shared.clone());
        let sweeper = (!options.stateless).then(|| tokio::spawn(sessions::sweep(shared.clone())));
        let mut http1 = hyper::server::conn::http1::Builder::new();
        http1.timer(TokioTimer::new()).header_read_timeout(options.header_timeout).keep_alive(true);
        let connections = Arc::new(Semaphore::new(options.max_connections));
        let graceful = GracefulShutdown::new();
        tokio::pin!(shutdown);
        loop {
            let permit = tokio::select! {
                permit = connections.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
                () = &mut shutdown => break,
            };
            let (stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        // Out of file descriptors and the like: back off briefly.
                        tracing::warn!("accept failed: {e}");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let _ = stream.set_nodelay(true);
            let service = TowerToHyperService::new(router.clone());
            let connection = graceful.watch(http1.serve_connection(TokioIo::new(stream), service));
            tokio::spawn(async move {
                if let Err(e) = connection.await {
                    tracing::debug!(%peer, "connection ended: {e}");
                }
                drop(permit);
            });
        }
        drop(listener);
        tracing::info!(
            "shutting down: no new connections; waiting up to {:?} for requests in flight",
            options.shutdown_timeout
        );
        shared.shutdown.send_replace(true);
        if let Some(sweeper) = sweeper {
            sweeper.abort();
        }
        if tokio::time::timeout(options.shutdown_timeout, graceful.shutdown()).await.is_err() {
            tracing::warn!("requests still running after {:?}; exiting anyway", options.shutdown_timeout);
        }
        Ok(())
    }
}

fn router(shared: Arc<Shared>) -> Router {
    let mut router =
        Router::new().route("/mcp", post(streamable::post).get(streamable::get).delete(streamable::delete));
    if !shared.options.stateless {
        router = router.route("/sse", get(legacy::stream)).route("/messages", post(legacy::message));
    }
    router
        .layer(tower_http::limit::RequestBodyLimitLayer::new(shared.options.max_body_size))
        .layer(security::cors())
        .layer(axum::middleware::from_fn_with_state(shared.clone(), security::check))
        .with_state(shared)
}

/// The MCP endpoints of `routers` as an axum [`Router`], to merge into an
/// app of one's own next to its other routes: Streamable HTTP at `/mcp` and,
/// unless `options.stateless`, HTTP+SSE at `/sse` + `/messages`, with the
/// same sessions, limits and `Origin`/`Host` checks as [`serve_http`] (they
/// apply to these routes only).
///
/// `options.addr` is the address the app is served on: on a loopback address,
/// `Host` and `Origin` are checked as `serve_http` checks them. The
/// connection settings (`max_connections`, `header_timeout`,
/// `shutdown_timeout`) belong to whatever serves the app and are not used.
/// When `shutdown` completes, the server-to-client streams end, so that a
/// graceful shutdown of the app is not held up by clients that keep them
/// open; pass [`std::future::pending`] if the app never stops.
///
/// Call it within a tokio runtime: it spawns the task that ends idle
/// sessions.
pub fn axum_router(
    routers: impl Into<Routers>,
    session_options: SessionOptions,
    options: HttpOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Router {
    let addr = options.addr;
    let shared = Arc::new(Shared::new(routers.into(), session_options, options, addr));
    let background = shared.clone();
    tokio::spawn(async move {
        let sweep = async {
            if background.options.stateless {
                std::future::pending::<()>().await;
            }
            sessions::sweep(background.clone()).await;
        };
        tokio::select! {
            () = shutdown => {}
            () = sweep => {}
        }
        background.shutdown.send_replace(true);
    });
    router(shared)
}

/// Serves `routers` (one component, or several as one server) over HTTP
/// until SIGINT or SIGTERM, on a runtime of its own.
pub fn serve_http(
    routers: impl Into<Routers>,
    session_options: SessionOptions,
    options: HttpOptions,
) -> io::Result<()> {
    let routers = routers.into();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().thread_name("mcp-wit-http").build()?;
    let result = runtime.block_on(async move {
        let server = HttpServer::bind(routers, session_options, options).await?;
        server.run(shutdown_signal()).await
    });
    // Guest calls still running past the grace period are abandoned.
    runtime.shutdown_timeout(Duration::from_millis(500));
    result
}

/// Completes on SIGINT or SIGTERM.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_durations() {
        assert_eq!(parse_duration("45"), Ok(Duration::from_secs(45)));
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        for bad in ["", "0", "0s", "1d", "s", "-1"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn new_options_are_the_flag_defaults() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            http: HttpArgs,
        }
        let cli = <Cli as clap::Parser>::parse_from(["mcp-wit", "--http", "127.0.0.1:8080"]);
        let from_flags = cli.http.options(crate::transport::stdio::DEFAULT_MAX_MESSAGE_SIZE).unwrap().unwrap();
        let new = HttpOptions::new("127.0.0.1:8080".parse().unwrap());
        assert_eq!(format!("{from_flags:?}"), format!("{new:?}"));
    }

    #[test]
    fn parses_listen_addresses() {
        assert_eq!(parse_addr("8080").unwrap(), "127.0.0.1:8080".parse().unwrap());
        assert_eq!(parse_addr("0.0.0.0:80").unwrap(), "0.0.0.0:80".parse().unwrap());
        assert_eq!(parse_addr("[::1]:9000").unwrap(), "[::1]:9000".parse().unwrap());
        assert!(parse_addr("localhost:7000").unwrap().ip().is_loopback());
        assert!(parse_addr("no port").is_err());
    }
}
