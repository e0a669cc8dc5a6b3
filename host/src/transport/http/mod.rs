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
//!   own `/mcp` requests straight to their handlers.

mod answer;
mod auth;
mod connections;
mod front;
mod health;
mod http_sse;
mod metrics_endpoint;
mod modern;
mod origin_guard;
mod resume;
mod session_talk_back;
mod sessions;
mod sse;
mod streamable;
mod tap_layer;
mod wire;

pub use auth::{AuthOptions, DEFAULT_ALGORITHMS, KeyOptions, KeySource, METADATA_PATH};
pub use metrics_endpoint::{DEFAULT_METRICS_MAX_CONNECTIONS, MetricsListenerOptions, serve_metrics};

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
use tokio::sync::{Semaphore, watch};

use mcp_wit_protocol::observe::{Origin, Transport};
use mcp_wit_protocol::{Deployment, Listeners, SessionOptions};

use crate::{LoadedRouter, Routers, Session, StatelessRequest};
use auth::{RequestCaller, ResourceServer};
use origin_guard::SecurityPolicy;
use sessions::Sessions;

mod listener;
mod options;

pub use listener::HttpServer;
pub use options::*;

/// What every handler shares.
pub(crate) struct ServerState {
    /// What new sessions and 2026-07-28 requests are served by; a reload
    /// replaces it (see [`Reloader`]).
    deployment: Arc<Deployment<LoadedRouter>>,
    session_options: SessionOptions,
    options: HttpOptions,
    security: SecurityPolicy,
    sessions: Arc<Sessions>,
    /// Every client that hears of routers' changes: 2025 sessions' streams
    /// and 2026-07-28 `subscriptions/listen` streams.
    listeners: Arc<Listeners>,
    /// Set when a shutdown signal starts the drain delay
    /// ([`HttpOptions::drain_delay`]): `/readyz` answers 503 "draining".
    draining: std::sync::atomic::AtomicBool,
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
        // Many clients share the async workers: argument checks, which may
        // take their whole budget, go to threads of their own, with room
        // for a check from every connection.
        if session_options.offload.is_none() {
            let pool = crate::OffloadPool::for_this_machine(options.max_connections)
                .map_err(|e| format!("cannot start the threads that check tools' arguments: {e}"))?;
            session_options.offload = Some(Arc::new(pool));
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
        if let Some(metrics) = crate::telemetry::Metrics::global() {
            let (open, max) = (connections.clone(), options.max_connections);
            metrics.gauge(
                "mcp_wit_http_connections",
                "HTTP connections open",
                None,
                Box::new(move || max.saturating_sub(open.available_permits()) as i64),
            );
            let table = sessions.clone();
            metrics.gauge(
                "mcp_wit_sessions",
                "2025 sessions open over HTTP",
                None,
                Box::new(move || table.len() as i64),
            );
        }
        let health = options.health.unwrap_or(bound.ip().is_loopback());
        Ok(ServerState {
            deployment: Deployment::new(routers),
            session_options,
            options,
            security,
            sessions,
            listeners,
            draining: Default::default(),
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
        session.set_origin(Origin { transport: Transport::Tcp, session_id: None });
        session.set_caller(caller.0.clone());
        if session.talks_back() {
            session.set_listeners(self.listeners.clone());
        }
        session
    }

    /// A 2026-07-28 request of `caller`, served by the routers deployed now
    /// and what they learnt of themselves, without a session.
    fn stateless_request(&self, caller: &RequestCaller) -> StatelessRequest {
        let (_, routers) = self.deployment.current();
        let mut request = StatelessRequest::new(routers, self.session_options.clone(), caller.0.clone());
        request.set_origin(Origin { transport: Transport::Tcp, session_id: None });
        if request.talks_back() {
            request.set_listeners(self.listeners.clone());
        }
        request
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

fn router(server: Arc<ServerState>) -> Router {
    let mut router =
        Router::new().route("/mcp", post(streamable::post).get(streamable::get).delete(streamable::delete));
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
/// same sessions, limits and `Origin`/`Host` checks as [`serve_http`] (they
/// apply to these routes only).
///
/// `options.addr` is the address the app is served on: on a loopback address,
/// `Host` and `Origin` are checked as `serve_http` checks them. The
/// connection settings (`max_connections`, `header_timeout`, `drain_delay`,
/// `shutdown_timeout`) belong to whatever serves the app and are not used.
/// When `shutdown` completes, `/readyz` answers 503 and the server-to-client
/// streams end, so that a graceful shutdown of the app is not held up by
/// clients that keep them open; pass [`std::future::pending`] if the app
/// never stops. To drain behind a load balancer as [`HttpServer::run`] does,
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
