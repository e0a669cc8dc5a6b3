//! What every handler of a server shares ([`ServerState`]), and the
//! [`Reloader`] that replaces what it serves.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, watch};

use mcp_wit_protocol::http::SecurityPolicy;
use mcp_wit_protocol::observe::{Origin, Transport};
use mcp_wit_protocol::{Deployment, Listeners, SessionOptions};

use super::auth::{RequestCaller, ResourceServer};
use super::connections::Connections;
use super::options::HttpOptions;
use super::recycled::{RecycledRequests, ServedRequest};
use super::sessions::Sessions;
use crate::tasks::Tasks;
use crate::{LoadedRouter, Routers, Session, StatelessRequest};

/// What every handler shares.
pub(crate) struct ServerState {
    /// What new sessions and 2026-07-28 requests are served by; a reload
    /// replaces it (see [`Reloader`]).
    pub(super) deployment: Arc<Deployment<LoadedRouter>>,
    pub(super) session_options: SessionOptions,
    pub(super) options: HttpOptions,
    pub(super) security: SecurityPolicy,
    pub(super) sessions: Arc<Sessions>,
    /// Every client that hears of routers' changes: 2025 sessions' streams
    /// and 2026-07-28 `subscriptions/listen` streams.
    pub(super) listeners: Arc<Listeners>,
    /// Set when a shutdown signal starts the drain delay
    /// ([`HttpOptions::drain_delay`]): `/readyz` answers 503 "draining".
    pub(super) draining: std::sync::atomic::AtomicBool,
    /// Turns `true` when the server shuts down: long-lived streams end.
    pub(super) shutdown: watch::Sender<bool>,
    /// Turns `true` when the shutdown's grace (`shutdown_timeout`) ran out:
    /// requests still running are answered with an error, not cut off.
    pub(super) cut: watch::Sender<bool>,
    /// Permits for open connections ([`HttpOptions::max_connections`]; unused
    /// by [`axum_router`](super::axum_router), whose app owns its connections).
    pub(super) connections: Arc<Semaphore>,
    /// The open connections, and which are idle (they give way when all
    /// slots are taken).
    pub(super) open: Arc<Connections>,
    /// Whether `/healthz` and `/readyz` are served.
    pub(super) health: bool,
    /// The resource server, when requests are authenticated.
    pub(super) auth: Option<ResourceServer>,
    /// The tasks of 2026-07-28 clients, when the server makes tasks.
    pub(super) tasks: Option<Arc<Tasks>>,
    /// 2026-07-28 requests answered, kept for the next ones.
    recycled: RecycledRequests,
}

impl ServerState {
    /// The state of a server listening on `bound`; the error says what to
    /// fix in `options`.
    pub(super) fn new(
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
        let tasks = options.tasks.clone().map(Tasks::new).transpose()?;
        session_options.serve_tasks = tasks.is_some();
        if let (Some(metrics), Some(tasks)) = (crate::telemetry::Metrics::global(), &tasks) {
            let tasks = Arc::downgrade(tasks);
            metrics.gauge_family(
                "mcp_wit_tasks",
                "Tasks kept (2026-07-28 tasks extension), by status",
                "status",
                Box::new(move || {
                    let Some(tasks) = tasks.upgrade() else { return Vec::new() };
                    tasks.last_counts().iter().map(|(status, n)| (status.as_str(), *n as i64)).collect()
                }),
            );
        }
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
            tasks,
            recycled: RecycledRequests::default(),
        })
    }

    /// The routers served now.
    pub(super) fn routers(&self) -> Routers {
        self.deployment.routers()
    }

    /// A new session on the server's routers for `caller`, following them
    /// through reloads; where they can signal changes, the changes it causes
    /// reach every listening client.
    pub(super) fn session(&self, caller: &RequestCaller) -> Session {
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
    pub(super) fn stateless_request(&self, caller: &RequestCaller) -> StatelessRequest {
        let (_, routers) = self.deployment.current();
        self.request_on(routers, caller)
    }

    /// [`Self::stateless_request`], made afresh or recycled from one
    /// answered before (see [`Self::recycle`]).
    pub(super) fn served_request(&self, caller: &RequestCaller) -> ServedRequest {
        if let Some(mut served) = self.recycled.take(self.deployment.generation()) {
            served.set_caller(caller.0.clone());
            return served;
        }
        let (generation, routers) = self.deployment.current();
        ServedRequest::new(generation, self.request_on(routers, caller))
    }

    /// Keeps `served`, answered, for a later request, if it can serve one
    /// as a new request would.
    pub(super) fn recycle(&self, served: ServedRequest) {
        self.recycled.keep(served, self.deployment.generation());
    }

    /// A 2026-07-28 request of `caller` served by `routers`.
    fn request_on(&self, routers: Routers, caller: &RequestCaller) -> StatelessRequest {
        let mut request = StatelessRequest::new(routers, self.session_options.clone(), caller.0.clone());
        request.set_origin(Origin { transport: Transport::Tcp, session_id: None });
        if request.talks_back() {
            request.set_listeners(self.listeners.clone());
        }
        request
    }

    /// Runs forever, ending idle sessions and releasing idle instances.
    pub(super) async fn sweep_sessions(self: Arc<Self>) {
        loop {
            // The routers served now (a reload may change them) say how often.
            let routers = self.routers();
            let instance_timeout = routers.mounts().iter().filter_map(|m| m.component.instance_idle_timeout()).min();
            let timeout =
                instance_timeout.map_or(self.options.session_timeout, |t| t.min(self.options.session_timeout));
            drop(routers);
            tokio::time::sleep((timeout / 4).clamp(Duration::from_millis(100), Duration::from_secs(30))).await;
            let expired = self.sessions.expire_idle(Instant::now());
            if expired > 0 {
                tracing::info!(expired, live = self.sessions.len(), "ended idle sessions");
            }
            if instance_timeout.is_some() {
                let released = self.sessions.release_idle_instances();
                if released > 0 {
                    tracing::debug!(released, "released the instances of idle sessions");
                }
            }
        }
    }
}

/// Replaces what a running [`HttpServer`](super::HttpServer) serves (a new version of a
/// component, other components): from the call on, new sessions and
/// 2026-07-28 requests are served by the new routers. Nothing in flight is
/// touched: a request finishes on the routers it started on. A 2025 session
/// keeps the routers it started with while it holds instances of them; at
/// its first request after they are gone (released once idle, dropped after
/// a fault) it moves to the newest routers, and its client hears of each
/// list that differs (see [`Session::following`]). Check the new routers
/// before (load them, instantiate them): a replacement is taken as it is.
#[derive(Clone)]
pub struct Reloader(pub(super) Arc<ServerState>);

impl Reloader {
    /// Serves `routers` from now on.
    pub fn replace(&self, routers: impl Into<Routers>) {
        let routers = routers.into();
        let components = routers.mounts().len();
        let generation = self.0.deployment.replace(routers);
        tracing::info!(components, generation, "new sessions and requests are served by the reloaded routers");
    }
}
