//! The settings of the HTTP listener (`[http]` in `mcp-wit.toml`).

use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

use serde::Deserialize;

use mcp_wit::HttpOptions;

use crate::units;

/// The HTTP transport's settings: flags on the command line, `[http]` in
/// the file (the same names without `--`; the address is `listen` there).
#[derive(clap::Args, Debug, Default, Clone, Deserialize)]
#[command(next_help_heading = "HTTP")]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct HttpSettings {
    /// Serve over HTTP instead of stdio, on ADDR: `PORT` (on 127.0.0.1) or
    /// `HOST:PORT`. Streamable HTTP at `/mcp`, the 2024-11-05 HTTP+SSE
    /// transport at `/sse`.
    #[arg(long = "http", value_name = "ADDR")]
    pub listen: Option<String>,
    /// Answer each request with one `application/json` body instead of an SSE
    /// stream (notifications such as progress are then not delivered).
    #[arg(long, value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub json_response: Option<bool>,
    /// No sessions: every POST stands alone, so replicas can sit behind any
    /// load balancer. Disables GET/DELETE on `/mcp` and the `/sse` transport.
    #[arg(long, value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub stateless: Option<bool>,
    /// Also accept requests with this `Origin` (e.g. `https://app.example.com`;
    /// `*` for any). Repeatable. Loopback origins are accepted on a loopback bind.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
    /// Also accept this `Host` header (`NAME` or `NAME:PORT`; `*` for any).
    /// Repeatable. Checked on loopback binds, and on any bind once given.
    #[arg(long = "allow-host", value_name = "HOST")]
    pub allow_host: Vec<String>,
    /// How long a session may stay idle before it ends and its guest
    /// instance is freed (`90s`, `10m`, `1h`)
    /// [default: 10m].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub session_timeout: Option<Duration>,
    /// Most sessions at once. When all are taken, a new session takes the
    /// slot of the one idle longest (idle 30s at least); else `initialize`
    /// gets 503 with `Retry-After` [default: 1024].
    #[arg(long, value_name = "N")]
    pub max_sessions: Option<usize>,
    /// Most sessions one client holds: one principal with authorization on,
    /// else one address (behind a proxy, raise it) [default: a quarter of
    /// --max-sessions].
    #[arg(long, value_name = "N")]
    pub max_sessions_per_client: Option<usize>,
    /// Most open connections at once; a few more (an eighth, at least 16)
    /// are answered 503 with `Retry-After` at once, and the rest wait in the
    /// listen backlog [default: 1024].
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Most requests of one session running or waiting at once; another is
    /// answered -32603 "server busy" at once [default: 32].
    #[arg(long, value_name = "N")]
    pub max_queued_requests: Option<usize>,
    /// Serve `/healthz` (liveness) and `/readyz` (readiness: 503 while
    /// saturated, draining or shutting down) for load balancers and Kubernetes probes
    /// [default: on a loopback address only].
    #[arg(long, value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub health: Option<bool>,
    /// How long a client may take to send a request's headers; also how long
    /// an idle keep-alive connection stays open [default: 10s].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub header_timeout: Option<Duration>,
    /// How long a client may take to send a request body (else 408)
    /// [default: 30s].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub body_timeout: Option<Duration>,
    /// After SIGINT/SIGTERM, how long `/readyz` answers 503 "draining" while
    /// everything is still served, before the listener closes. Behind a load
    /// balancer, make it longer than the balancer takes to mark a server down
    /// (check interval × failures, e.g. 5s) so that no client is refused. A
    /// second signal ends it [default: none, so that a server run by hand
    /// stops at once].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub drain_delay: Option<Duration>,
    /// How long requests in flight get to finish once the listener closed
    /// (after SIGINT/SIGTERM and --drain-delay) [default: 10s].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub shutdown_timeout: Option<Duration>,
    /// How often an SSE stream with nothing to say gets a keep-alive comment
    /// (it also reveals clients that left) [default: 15s].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub sse_keep_alive: Option<Duration>,
}

impl HttpSettings {
    pub(super) fn over(self, lower: HttpSettings) -> HttpSettings {
        let mut allow_origin = lower.allow_origin;
        allow_origin.extend(self.allow_origin);
        let mut allow_host = lower.allow_host;
        allow_host.extend(self.allow_host);
        HttpSettings {
            listen: self.listen.or(lower.listen),
            json_response: self.json_response.or(lower.json_response),
            stateless: self.stateless.or(lower.stateless),
            allow_origin,
            allow_host,
            session_timeout: self.session_timeout.or(lower.session_timeout),
            max_sessions: self.max_sessions.or(lower.max_sessions),
            max_sessions_per_client: self.max_sessions_per_client.or(lower.max_sessions_per_client),
            max_connections: self.max_connections.or(lower.max_connections),
            max_queued_requests: self.max_queued_requests.or(lower.max_queued_requests),
            health: self.health.or(lower.health),
            header_timeout: self.header_timeout.or(lower.header_timeout),
            body_timeout: self.body_timeout.or(lower.body_timeout),
            drain_delay: self.drain_delay.or(lower.drain_delay),
            shutdown_timeout: self.shutdown_timeout.or(lower.shutdown_timeout),
            sse_keep_alive: self.sse_keep_alive.or(lower.sse_keep_alive),
        }
    }

    /// The first setting given that only HTTP uses, as its flag: such a
    /// setting without an address would be silently ignored on stdio.
    pub fn orphan(&self) -> Option<&'static str> {
        [
            ("--json-response", self.json_response.is_some()),
            ("--stateless", self.stateless.is_some()),
            ("--allow-origin", !self.allow_origin.is_empty()),
            ("--allow-host", !self.allow_host.is_empty()),
            ("--session-timeout", self.session_timeout.is_some()),
            ("--max-sessions", self.max_sessions.is_some()),
            ("--max-sessions-per-client", self.max_sessions_per_client.is_some()),
            ("--max-connections", self.max_connections.is_some()),
            ("--max-queued-requests", self.max_queued_requests.is_some()),
            ("--health", self.health.is_some()),
            ("--header-timeout", self.header_timeout.is_some()),
            ("--body-timeout", self.body_timeout.is_some()),
            ("--drain-delay", self.drain_delay.is_some()),
            ("--shutdown-timeout", self.shutdown_timeout.is_some()),
            ("--sse-keep-alive", self.sse_keep_alive.is_some()),
        ]
        .into_iter()
        .find_map(|(flag, given)| given.then_some(flag))
    }

    /// The transport's options, or `None` for stdio (no address). What is
    /// not set keeps [`HttpOptions::default`]'s value.
    pub fn options(&self, max_body_size: usize) -> Result<Option<HttpOptions>, String> {
        let Some(listen) = &self.listen else { return Ok(None) };
        let defaults = HttpOptions::default();
        Ok(Some(HttpOptions {
            addr: parse_addr(listen).map_err(|why| format!("--http {listen}: {why}"))?,
            json_response: self.json_response.unwrap_or(defaults.json_response),
            stateless: self.stateless.unwrap_or(defaults.stateless),
            allow_origins: self.allow_origin.clone(),
            allow_hosts: self.allow_host.clone(),
            session_timeout: self.session_timeout.unwrap_or(defaults.session_timeout),
            max_sessions: self.max_sessions.unwrap_or(defaults.max_sessions).max(1),
            max_sessions_per_client: self.max_sessions_per_client.map(|n| n.max(1)),
            max_connections: self.max_connections.unwrap_or(defaults.max_connections).max(1),
            max_queued_requests: self.max_queued_requests.unwrap_or(defaults.max_queued_requests).max(1),
            health: self.health,
            max_body_size,
            header_timeout: self.header_timeout.unwrap_or(defaults.header_timeout),
            body_timeout: self.body_timeout.unwrap_or(defaults.body_timeout),
            drain_delay: self.drain_delay.unwrap_or(defaults.drain_delay),
            shutdown_timeout: self.shutdown_timeout.unwrap_or(defaults.shutdown_timeout),
            keep_alive: self.sse_keep_alive.unwrap_or(defaults.keep_alive).max(Duration::from_millis(10)),
            tap: None,
            auth: None,
            tasks: defaults.tasks,
        }))
    }
}

/// `PORT` → 127.0.0.1:PORT; `HOST:PORT` → its first address. The error
/// says what is wrong, not where it was given (the caller does).
pub fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    text.to_socket_addrs()
        .map_err(|e| format!("expected PORT or HOST:PORT ({e})"))?
        .next()
        .ok_or_else(|| "the name has no address".into())
}
