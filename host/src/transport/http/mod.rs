//! The HTTP transports: Streamable HTTP (MCP 2025-03-26 and later) at `/mcp`,
//! and the 2024-11-05 HTTP+SSE transport at `/sse` + `/messages`.
//!
//! Both feed the same protocol core as stdio: every message goes to
//! [`Session::handle_async`](crate::Session::handle_async), which writes
//! notifications and then the response to an [`Outbox`](crate::Outbox); the
//! transport only decides where those bytes go (one JSON body, or events on an
//! SSE stream).
//!
//! - **Sessions**: `initialize` creates a [`Session`] (its own
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
//!   `Router`, to merge into an app of one's own. [`HttpServer`] serves that
//!   router too, behind a front door (`front.rs`) that takes an MCP client's
//!   own `/mcp` requests straight to their handlers.

mod answer;
mod auth;
mod connections;
mod front;
mod health;
mod legacy;
mod modern;
mod resume;
mod security;
mod sessions;
mod sse;
mod streamable;
mod talk_back;
mod tap;
mod wire;

pub use auth::{AuthOptions, DEFAULT_ALGORITHMS, KeyOptions, KeySource, METADATA_PATH};

/// The reconnection delay SSE streams suggest to clients (`retry:`), in
/// milliseconds.
pub const SSE_RETRY_MS: u32 = resume::RETRY.as_millis() as u32;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::{get, post};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

use mcp_wit_protocol::{Deployment, Listeners, SessionOptions};

use crate::{LoadedComponent, Routers, Session};
use auth::{RequestCaller, ResourceServer};
use security::SecurityPolicy;
use sessions::Sessions;

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
    /// Most sessions one client holds: one principal when requests are
    /// authenticated, else one address (503 with `Retry-After` beyond).
    /// `None`: a quarter of `max_sessions`.
    pub max_sessions_per_client: Option<usize>,
    /// Most open connections at once. Beyond them, a few more (an eighth,
    /// at least 16) are accepted only to be answered 503 with `Retry-After`
    /// at once; past those, connections wait in the listen backlog.
    pub max_connections: usize,
    /// Most requests of one session running or waiting for it at once;
    /// another is answered -32603 "server busy" at once.
    pub max_queued_requests: usize,
    /// Serve `/healthz` (liveness) and `/readyz` (readiness: 503 while the
    /// server is saturated or shutting down) beside the MCP endpoints.
    /// `None`: only when listening on a loopback address.
    pub health: Option<bool>,
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
    /// Sees every message in and out, of every session.
    pub tap: Option<crate::transport::Tap>,
    /// Authorization: the server as an OAuth 2.1 resource server (see
    /// [`AuthOptions`]). `None`: requests are not authenticated.
    pub auth: Option<AuthOptions>,
}

impl HttpOptions {
    /// The default settings, listening on `addr`.
    pub fn new(addr: SocketAddr) -> Self {
        HttpOptions { addr, ..HttpOptions::default() }
    }

    /// Answers with one JSON body instead of an SSE stream.
    pub fn json_response(mut self, on: bool) -> Self {
        self.json_response = on;
        self
    }

    /// No sessions: every POST stands alone.
    pub fn stateless(mut self, on: bool) -> Self {
        self.stateless = on;
        self
    }

    /// Taps every message in and out (e.g. to record them).
    pub fn tap(mut self, tap: Option<crate::transport::Tap>) -> Self {
        self.tap = tap;
        self
    }

    /// Authenticates requests as `auth` says (`None`: not at all).
    pub fn auth(mut self, auth: Option<AuthOptions>) -> Self {
        self.auth = auth;
        self
    }
}

impl Default for HttpOptions {
    /// 127.0.0.1:8080; the defaults `mcp-wit serve --http` documents.
    fn default() -> Self {
        HttpOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            json_response: false,
            stateless: false,
            allow_origins: Vec::new(),
            allow_hosts: Vec::new(),
            session_timeout: DEFAULT_SESSION_TIMEOUT,
            max_sessions: DEFAULT_MAX_SESSIONS,
            max_sessions_per_client: None,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_queued_requests: DEFAULT_MAX_QUEUED_REQUESTS,
            health: None,
            max_body_size: crate::transport::stdio::DEFAULT_MAX_MESSAGE_SIZE,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            shutdown_timeout: DEFAULT_SHUTDOWN_TIMEOUT,
            keep_alive: Duration::from_secs(15),
            tap: None,
            auth: None,
        }
    }
}

/// Default of [`HttpOptions::session_timeout`].
pub const DEFAULT_SESSION_TIMEOUT: Duration = Duration::from_secs(600);
/// Default of [`HttpOptions::max_sessions`].
pub const DEFAULT_MAX_SESSIONS: usize = 1024;
/// Default of [`HttpOptions::max_connections`].
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// Default of [`HttpOptions::max_queued_requests`].
pub const DEFAULT_MAX_QUEUED_REQUESTS: usize = 32;
/// Default of [`HttpOptions::header_timeout`].
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Default of [`HttpOptions::body_timeout`].
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// Default of [`HttpOptions::shutdown_timeout`].
pub const DEFAULT_SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(10);

/// What every handler shares.
pub(crate) struct ServerState {
    /// What new sessions and 2026-07-28 requests are served by; a reload
    /// replaces it (see [`Reloader`]).
    deployment: Arc<Deployment<LoadedComponent>>,
    session_options: SessionOptions,
    options: HttpOptions,
    security: SecurityPolicy,
    sessions: Arc<Sessions>,
    /// Every client that hears of routers' changes: 2025 sessions' streams
    /// and 2026-07-28 `subscriptions/listen` streams.
    listeners: Arc<Listeners>,
    /// Turns `true` when the server shuts down: long-lived streams end.
    shutdown: watch::Sender<bool>,
    /// Turns `true` when the shutdown's grace (`shutdown_timeout`) ran out:
    /// requests still running are answered with an error, not cut off.
    cut: watch::Sender<bool>,
    /// Permits for open connections ([`HttpOptions::max_connections`]; unused
    /// by [`axum_router`], whose app owns its connections).
    connections: Arc<Semaphore>,
    /// The open connections, and which are idle (they give way when all
    /// slots are taken).
    open: Arc<connections::Connections>,
    /// Whether `/healthz` and `/readyz` are served.
    health: bool,
    /// The resource server, when requests are authenticated.
    auth: Option<ResourceServer>,
}

impl ServerState {
    /// The state of a server listening on `bound`; the error says what to
    /// fix in `options`.
    fn new(
        routers: Routers,
        mut session_options: SessionOptions,
        options: HttpOptions,
        bound: SocketAddr,
    ) -> Result<Self, String> {
        let auth = options.auth.as_ref().map(|auth| ResourceServer::new(auth, bound)).transpose()?;
        if let Some(auth) = options.auth.as_ref().filter(|auth| auth.filter_lists) {
            session_options.list_filter = Some(Arc::new(auth.scopes.clone()));
        }
        let security = SecurityPolicy::new(bound.ip().is_loopback(), &options.allow_hosts, &options.allow_origins);
        if !bound.ip().is_loopback() && options.allow_hosts.is_empty() {
            tracing::warn!(
                "listening on {bound}, beyond this machine, with no --allow-host: any Host header is taken (no \
                 protection from DNS rebinding); name the hosts clients reach this server by with --allow-host"
            );
        }
        let per_client = options.max_sessions_per_client.unwrap_or(options.max_sessions / 4);
        let sessions = Arc::new(Sessions::new(options.max_sessions, per_client, options.session_timeout));
        let (shutdown, _) = watch::channel(false);
        let (cut, _) = watch::channel(false);
        let listeners = Listeners::new();
        let connections = Arc::new(Semaphore::new(options.max_connections));
        let health = options.health.unwrap_or(bound.ip().is_loopback());
        Ok(ServerState {
            deployment: Deployment::new(routers),
            session_options,
            options,
            security,
            sessions,
            listeners,
            shutdown,
            cut,
            connections,
            open: Arc::default(),
            health,
            auth,
        })
    }

    /// The routers served now.
    fn routers(&self) -> Routers {
        self.deployment.routers()
    }

    /// A new session on the server's routers for `caller`, following them
    /// through reloads; where they can signal changes, the changes it causes
    /// reach every listening client.
    fn session(&self, caller: &RequestCaller) -> Session {
        let mut session = Session::following(&self.deployment, self.session_options.clone());
        session.set_caller(caller.0.clone());
        if session.talks_back() {
            session.set_listeners(self.listeners.clone());
        }
        session
    }
}

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

    /// Serves until `shutdown` completes, then stops accepting, ends the
    /// server-to-client streams and gives in-flight requests
    /// `shutdown_timeout` to finish.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> io::Result<()> {
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
        let sweeper = (!options.stateless).then(|| tokio::spawn(sessions::sweep(server.clone())));
        let mut http1 = hyper::server::conn::http1::Builder::new();
        http1.timer(TokioTimer::new()).header_read_timeout(options.header_timeout).keep_alive(true);
        let connections = server.connections.clone();
        // Connections beyond the limit that are answered 503 at once.
        let turned_away = Arc::new(Semaphore::new((options.max_connections / 8).max(16)));
        let open = server.open.clone();
        tokio::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                biased;
                () = &mut shutdown => break,
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
            let Some(permit) = permit_for(&connections, &turned_away, &open, &mut shutdown).await else { break };
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
                tokio::pin!(connection);
                let ended = tokio::select! {
                    ended = connection.as_mut() => Some(ended),
                    () = tracked.closed() => None,
                    _ = down.wait_for(|&down| down) => None,
                };
                // Asked to close (to make room, or at shutdown): at once if
                // idle, else once the response in progress is written.
                let ended = match ended {
                    Some(ended) => ended,
                    None => {
                        connection.as_mut().graceful_shutdown();
                        connection.await
                    }
                };
                if let Err(e) = ended {
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

/// Replaces what a running [`HttpServer`] serves (a new version of a
/// component, other components): from the call on, new sessions and
/// 2026-07-28 requests are served by the new routers. Nothing in flight is
/// touched: a request finishes on the routers it started on. A 2025 session
/// keeps the routers it started with while it holds instances of them; at
/// its first request after they are gone (released once idle, dropped after
/// a fault) it moves to the newest routers, and its client hears of each
/// list that differs (see [`Session::following`]). Check the new routers
/// before (load them, instantiate them): a replacement is taken as it is.
#[derive(Clone)]
pub struct Reloader(Arc<ServerState>);

impl Reloader {
    /// Serves `routers` from now on.
    pub fn replace(&self, routers: impl Into<Routers>) {
        let routers = routers.into();
        let components = routers.mounts().len();
        let generation = self.0.deployment.replace(routers);
        tracing::info!(components, generation, "new sessions and requests are served by the reloaded routers");
    }
}

/// What an accepted connection may do.
/// A slot for a connection just accepted: served if one is free, else
/// after the connection idle longest makes room, else turned away (503)
/// while a few slots for that remain; else it waits for either. `None`:
/// shutting down.
async fn permit_for(
    serving: &Arc<Semaphore>,
    turned_away: &Arc<Semaphore>,
    open: &connections::Connections,
    shutdown: &mut std::pin::Pin<&mut impl Future<Output = ()>>,
) -> Option<Permit> {
    loop {
        if let Ok(permit) = serving.clone().try_acquire_owned() {
            return Some(Permit::Serve(permit));
        }
        if open.close_idle_longest(true) {
            // An idle connection ends at once: then its slot is this one's.
            if let Ok(permit) = tokio::time::timeout(MAKE_ROOM_WAIT, serving.clone().acquire_owned()).await {
                return Some(Permit::Serve(permit.expect("never closed")));
            }
            continue;
        }
        if let Ok(permit) = turned_away.clone().try_acquire_owned() {
            return Some(Permit::TurnAway(permit));
        }
        // Connections turned away that never ask give way too.
        if open.close_idle_longest(false)
            && let Ok(permit) = tokio::time::timeout(MAKE_ROOM_WAIT, turned_away.clone().acquire_owned()).await
        {
            return Some(Permit::TurnAway(permit.expect("never closed")));
        }
        // Wait for a slot, looking again for connections idle long enough
        // to make room.
        return tokio::select! {
            biased;
            () = shutdown.as_mut() => None,
            permit = serving.clone().acquire_owned() => Some(Permit::Serve(permit.expect("never closed"))),
            permit = turned_away.clone().acquire_owned() => Some(Permit::TurnAway(permit.expect("never closed"))),
            () = tokio::time::sleep(connections::MIN_IDLE / 4) => continue,
        };
    }
}

/// How long requests cut off at the end of a shutdown get for their error
/// to be written.
const CUT_OFF_GRACE: Duration = Duration::from_secs(1);

/// How long a new connection waits for the slot of an idle one asked to
/// close before another is asked.
const MAKE_ROOM_WAIT: Duration = Duration::from_millis(50);

enum Permit {
    /// Be served.
    Serve(tokio::sync::OwnedSemaphorePermit),
    /// Only hear that the server is at capacity.
    TurnAway(tokio::sync::OwnedSemaphorePermit),
}

fn router(server: Arc<ServerState>) -> Router {
    let mut router =
        Router::new().route("/mcp", post(streamable::post).get(streamable::get).delete(streamable::delete));
    if !server.options.stateless {
        router = router.route("/sse", get(legacy::stream)).route("/messages", post(legacy::message));
    }
    if server.options.tap.is_some() {
        // Inside the body limit: what it taps was accepted.
        router = router.layer(axum::middleware::from_fn_with_state(server.clone(), tap::tee));
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
        .layer(security::cors())
        .layer(axum::middleware::from_fn_with_state(server.clone(), security::check));
    // Probes come from load balancers and the kubelet, without an MCP
    // client's headers: outside the MCP layers.
    let probes = match server.health {
        true => Router::new().route("/healthz", get(health::live)).route("/readyz", get(health::ready)),
        false => Router::new(),
    };
    mcp.merge(probes).with_state(server)
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
            sessions::sweep(background.clone()).await;
        };
        tokio::select! {
            () = shutdown => {}
            () = sweep => {}
        }
        background.shutdown.send_replace(true);
    });
    Ok(router(server))
}

/// Serves `routers` (one component, or several as one server) over HTTP
/// until SIGINT or SIGTERM, on a runtime of its own.
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
        let server = HttpServer::bind(routers, session_options, options).await?;
        started(server.reloader());
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
