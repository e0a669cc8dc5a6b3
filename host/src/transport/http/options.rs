//! The HTTP transport's settings and their defaults.

use std::net::SocketAddr;
use std::time::Duration;

use super::AuthOptions;

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
    /// server is saturated, draining or shutting down) beside the MCP
    /// endpoints.
    /// `None`: only when listening on a loopback address.
    pub health: Option<bool>,
    /// Largest accepted request body (413 beyond).
    pub max_body_size: usize,
    /// Time allowed for request headers (and idle keep-alive connections).
    pub header_timeout: Duration,
    /// Time allowed for a request body (408 beyond).
    pub body_timeout: Duration,
    /// Time between the shutdown signal and closing the listener, during
    /// which `/readyz` answers 503 "draining" while everything is served as
    /// before: long enough for a load balancer's health checks to take the
    /// server out of rotation (more than its check interval × the failures
    /// it needs), so that no client meets a refused connection. Zero (the
    /// default): the listener closes at the signal, as a server no balancer
    /// watches should, e.g. on Ctrl-C.
    pub drain_delay: Duration,
    /// Time in-flight requests get once the listener closed.
    pub shutdown_timeout: Duration,
    /// Interval of keep-alive comments on SSE streams.
    pub keep_alive: Duration,
    /// Sees every message in and out, of every session.
    pub tap: Option<crate::transport::Tap>,
    /// Authorization: the server as an OAuth 2.1 resource server (see
    /// [`AuthOptions`]). `None`: requests are not authenticated.
    pub auth: Option<AuthOptions>,
    /// The tasks extension for 2026-07-28 requests: when calls become tasks,
    /// and how tasks are kept. `None`: no tasks (not advertised).
    pub tasks: Option<crate::tasks::TaskOptions>,
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
            max_body_size: crate::transport::limits::DEFAULT_MAX_MESSAGE_SIZE,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            drain_delay: DEFAULT_DRAIN_DELAY,
            shutdown_timeout: DEFAULT_SHUTDOWN_TIMEOUT,
            keep_alive: Duration::from_secs(15),
            tap: None,
            auth: None,
            tasks: Some(crate::tasks::TaskOptions::default()),
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
/// Default of [`HttpOptions::drain_delay`]: none, since only a balancer
/// needs one, and a server run by hand should stop when asked.
pub const DEFAULT_DRAIN_DELAY: Duration = Duration::ZERO;
/// Default of [`HttpOptions::shutdown_timeout`].
pub const DEFAULT_SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(10);
