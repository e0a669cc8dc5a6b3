//! The settings of `serve`, typed once: the flags and `mcp-wit.toml` fill
//! the same structs (every field optional), merged in one place
//! ([`ServeSettings::over`]), and every default comes from the library.

use std::collections::BTreeMap;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use mcp_wit::HttpOptions;
use mcp_wit::InstanceMode;
use mcp_wit::auth::{OperationKind, ScopePolicy, ScopeRule, parse_scope_rule};
use mcp_wit::transport::http::{AuthOptions, KeyOptions, KeySource};

use crate::units;

/// Settings of `serve` that apply to the whole server (the limits also to
/// each component, unless its own section says otherwise).
#[derive(clap::Args, Debug, Default, Clone, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct ServeSettings {
    /// Longest accepted JSON-RPC message (e.g. `4MiB`) [default: 8MiB].
    #[arg(long, value_name = "SIZE", value_parser = units::parse_size)]
    #[serde(deserialize_with = "units::size")]
    pub max_message_size: Option<usize>,
    /// Page size for tools/resources/prompts lists [default: one page].
    #[arg(long, value_name = "N")]
    pub page_size: Option<usize>,
    /// Wall-clock budget of one guest call (e.g. `30s`, `500ms`); on expiry
    /// the caller gets -32603 and the instance is replaced [default: 30s].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub timeout: Option<Duration>,
    /// Memory cap of one guest instance (e.g. `256MiB`); growing past it
    /// traps [default: 256MiB].
    #[arg(long, value_name = "SIZE", value_parser = units::parse_size)]
    #[serde(deserialize_with = "units::size")]
    pub max_memory: Option<usize>,
    /// Memory all instances together may hold (e.g. `4GiB`). Past it, idle
    /// instances are released, the longest idle first; a call whose growth
    /// still does not fit fails with an error saying so (the process is
    /// never the one killed) [default: half of the machine's memory, or of
    /// the cgroup's limit].
    #[arg(long, value_name = "SIZE", value_parser = units::parse_size)]
    #[serde(deserialize_with = "units::size")]
    pub max_total_memory: Option<usize>,
    /// Largest result a guest may return (e.g. `16MiB`); a larger one is
    /// replaced by -32603 [default: 16MiB].
    #[arg(long, value_name = "SIZE", value_parser = units::parse_size)]
    #[serde(deserialize_with = "units::size")]
    pub max_output: Option<usize>,
    /// How guest instances map onto clients [default: per-session]. A stdio
    /// connection is one session in both eras; over HTTP a 2025 session is
    /// one, and each 2026-07-28 request is one of its own.
    #[arg(long, value_enum)]
    pub instances: Option<InstancesArg>,
    /// How many sessions (2026-07-28 HTTP requests among them) one instance
    /// serves, one after the other and guest state kept, before it is
    /// dropped, as `wasmtime serve --max-instance-reuse-count` does; never
    /// across principals, never after a fault. For per-session and
    /// per-request (there it counts calls) [default: 1, no reuse].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_instance_reuse_count: Option<u32>,
    /// Over HTTP, release a session's own instance once the session has not
    /// called it for this long; its next call makes a fresh one, so the
    /// guest's state is lost (per component in `mcp-wit.toml`) [default: 5m
    /// over HTTP; never on stdio, whose one client keeps its instance]. Also
    /// how long a principal's instance (per-caller) and a handed-back one
    /// (--max-instance-reuse-count) wait unused.
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub instance_idle_timeout: Option<Duration>,
    /// How long 2026-07-28 clients may reuse a list, read or discover result
    /// (`ttlMs`) [default: 60s].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(default, deserialize_with = "units::duration")]
    pub cache_ttl: Option<Duration>,
    /// Who may reuse them (`cacheScope`): any client, or only the one that
    /// asked [default: public].
    #[arg(long, value_enum)]
    pub cache_scope: Option<CacheScopeArg>,
    /// A file of at least 32 bytes to sign the `requestState` of 2026-07-28
    /// rounds with; replicas behind one load balancer need the same one
    /// [default: a random key per process].
    #[arg(long, value_name = "FILE")]
    pub state_key_file: Option<PathBuf>,
    /// How long a 2026-07-28 client has to answer a round's questions: its
    /// `requestState` is refused (-32602) after that (whole seconds)
    /// [default: 10m].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(default, deserialize_with = "units::duration")]
    pub state_ttl: Option<Duration>,
    /// Instance slots the pooling allocator reserves at start-up (fast
    /// instantiation, about `--max-memory` + 2 MiB of address space per
    /// memory); instances beyond the pool are allocated on demand [default:
    /// sessions × components + 8, at most 9000].
    #[arg(long, value_name = "N")]
    pub pool_instances: Option<u32>,
    /// Where compiled components are cached [default: the user cache
    /// directory, e.g. ~/.cache/mcp-wit].
    #[arg(long, value_name = "DIR", env = "MCP_WIT_CACHE_DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Compile without reading or writing the cache.
    #[arg(long, value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub no_cache: Option<bool>,
    /// Record every message in and out, of every session, to this `.mcp`
    /// file (FlatBuffers: read it with `mcp-wit log`). `--secret` values are
    /// never written.
    #[arg(long, value_name = "FILE.mcp")]
    pub record: Option<PathBuf>,
    /// Leave this tool's arguments and results out of the recording
    /// (repeatable).
    #[arg(long = "record-redact", value_name = "TOOL")]
    pub record_redact: Vec<String>,
    #[command(flatten)]
    pub http: HttpSettings,
    #[command(flatten)]
    pub auth: AuthSettings,
}

/// Who may reuse a cached result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CacheScopeArg {
    /// Any client: results do not depend on who asks.
    Public,
    /// Only the client that asked.
    Private,
}

impl From<CacheScopeArg> for mcp_wit::CacheScope {
    fn from(arg: CacheScopeArg) -> Self {
        match arg {
            CacheScopeArg::Public => mcp_wit::CacheScope::Public,
            CacheScopeArg::Private => mcp_wit::CacheScope::Private,
        }
    }
}

impl ServeSettings {
    /// The cache hint of the components' modern results.
    pub fn cache_hint(&self) -> mcp_wit::CacheHint {
        let defaults = mcp_wit::CacheHint::default();
        mcp_wit::CacheHint {
            ttl_ms: self.cache_ttl.map_or(defaults.ttl_ms, |ttl| u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX)),
            scope: self.cache_scope.map_or(defaults.scope, Into::into),
        }
    }
}

/// How guest instances map onto clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InstancesArg {
    /// One per session (a stdio connection, a 2025 HTTP session, a 2026-07-28
    /// HTTP request); guest state lives across its calls.
    PerSession,
    /// A fresh instance for every call; nothing survives a call.
    PerRequest,
    /// One per authenticated principal over HTTP, kept across its requests
    /// and sessions; calls serialised (needs authorization).
    PerCaller,
    /// One instance for all clients; calls are serialised.
    Shared,
}

impl From<InstancesArg> for InstanceMode {
    fn from(arg: InstancesArg) -> Self {
        match arg {
            InstancesArg::PerSession => InstanceMode::PerSession,
            InstancesArg::PerRequest => InstanceMode::PerRequest,
            InstancesArg::PerCaller => InstanceMode::PerCaller,
            InstancesArg::Shared => InstanceMode::Shared,
        }
    }
}

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
    /// instance is freed (`90s`, `10m`, `1h`; a bare number is seconds)
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
    /// saturated or shutting down) for load balancers and Kubernetes probes
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
    /// How long requests in flight get to finish after SIGINT/SIGTERM
    /// [default: 10s].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub shutdown_timeout: Option<Duration>,
    /// How often an SSE stream with nothing to say gets a keep-alive comment
    /// (it also reveals clients that left) [default: 15s].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub sse_keep_alive: Option<Duration>,
}

impl ServeSettings {
    /// These settings where given, `lower`'s elsewhere; lists add up.
    pub fn over(self, lower: ServeSettings) -> ServeSettings {
        ServeSettings {
            max_message_size: self.max_message_size.or(lower.max_message_size),
            page_size: self.page_size.or(lower.page_size),
            timeout: self.timeout.or(lower.timeout),
            max_memory: self.max_memory.or(lower.max_memory),
            max_total_memory: self.max_total_memory.or(lower.max_total_memory),
            max_output: self.max_output.or(lower.max_output),
            instances: self.instances.or(lower.instances),
            max_instance_reuse_count: self.max_instance_reuse_count.or(lower.max_instance_reuse_count),
            instance_idle_timeout: self.instance_idle_timeout.or(lower.instance_idle_timeout),
            cache_ttl: self.cache_ttl.or(lower.cache_ttl),
            cache_scope: self.cache_scope.or(lower.cache_scope),
            state_key_file: self.state_key_file.or(lower.state_key_file),
            state_ttl: self.state_ttl.or(lower.state_ttl),
            pool_instances: self.pool_instances.or(lower.pool_instances),
            cache_dir: self.cache_dir.or(lower.cache_dir),
            no_cache: self.no_cache.or(lower.no_cache),
            record: self.record.or(lower.record),
            record_redact: [lower.record_redact, self.record_redact].concat(),
            http: self.http.over(lower.http),
            auth: self.auth.over(lower.auth),
        }
    }
}

impl HttpSettings {
    fn over(self, lower: HttpSettings) -> HttpSettings {
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
            addr: parse_addr(listen)?,
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
            shutdown_timeout: self.shutdown_timeout.unwrap_or(defaults.shutdown_timeout),
            keep_alive: self.sse_keep_alive.unwrap_or(defaults.keep_alive).max(Duration::from_millis(10)),
            tap: None,
            auth: None,
        }))
    }
}

/// Authorization over HTTP: the server as an OAuth 2.1 resource server.
/// Flags `--auth-NAME`; `[auth]` in the file, the same names without
/// `--auth-`. Off unless an issuer is given.
#[derive(clap::Args, Debug, Default, Clone, Deserialize)]
#[command(next_help_heading = "Authorization (HTTP)")]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct AuthSettings {
    /// Take access tokens issued by this authorization server (its issuer
    /// URL); repeatable. Turns authorization on: every request to the MCP
    /// endpoints then needs `Authorization: Bearer <token>`.
    #[arg(long = "auth-issuer", value_name = "URL")]
    pub issuer: Vec<String>,
    /// The server's resource identifier: the URL clients reach its MCP
    /// endpoint at (e.g. https://mcp.example.com/mcp); tokens must name it in
    /// `aud` [default: http://ADDR/mcp, on a loopback address only].
    #[arg(long = "auth-resource", value_name = "URL")]
    pub resource: Option<String>,
    /// Verify tokens with the JWKS at this URL (https, or http to a loopback
    /// address) [default: the `jwks_uri` of each issuer's metadata].
    #[arg(long = "auth-jwks-url", value_name = "URL", conflicts_with = "jwks_file")]
    pub jwks_url: Option<String>,
    /// Verify tokens with the JWKS in this file (read again when a token
    /// names a key it lacks).
    #[arg(long = "auth-jwks-file", value_name = "FILE")]
    pub jwks_file: Option<PathBuf>,
    /// A scope every request needs; repeatable.
    #[arg(long = "auth-scope", value_name = "SCOPE")]
    pub scope: Vec<String>,
    /// Scopes the tools matching GLOB need too (`*`, `?`), e.g.
    /// `write_*=files:write`; several scopes space-separated; repeatable.
    #[arg(long = "auth-tool-scope", value_name = "GLOB=SCOPES")]
    pub tool_scope: Vec<String>,
    /// Scopes the prompts matching GLOB need too; repeatable.
    #[arg(long = "auth-prompt-scope", value_name = "GLOB=SCOPES")]
    pub prompt_scope: Vec<String>,
    /// Scopes reading (or subscribing to) the resources whose URI matches
    /// GLOB needs too; repeatable.
    #[arg(long = "auth-resource-scope", value_name = "GLOB=SCOPES")]
    pub resource_scope: Vec<String>,
    /// A scope that implies others (`admin=files:write files:read`):
    /// holding it is holding them; repeatable.
    #[arg(long = "auth-scope-implies", value_name = "SCOPE=SCOPES")]
    pub scope_implies: Vec<String>,
    /// Accept tokens signed with this algorithm only; repeatable [default:
    /// RS256 RS384 RS512 PS256 PS384 PS512 ES256 ES384 EdDSA].
    #[arg(long = "auth-algorithm", value_name = "ALG")]
    pub algorithm: Vec<String>,
    /// Tolerated clock difference with the issuer for `exp` and `nbf`
    /// [default: 60s].
    #[arg(long = "auth-clock-skew", value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub clock_skew: Option<Duration>,
    /// How long fetched keys are used before they are fetched again
    /// [default: 10m].
    #[arg(long = "auth-keys-refresh", value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub keys_refresh: Option<Duration>,
    /// The shortest time between two key fetches that tokens cause (a key id
    /// not held, or keys that could not be fetched) [default: 10s].
    #[arg(long = "auth-keys-cooldown", value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub keys_cooldown: Option<Duration>,
    /// The longest wait for the issuer's metadata or keys [default: 5s].
    #[arg(long = "auth-fetch-timeout", value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub fetch_timeout: Option<Duration>,
    /// Leave out of tools/prompts/resources lists what the caller lacks the
    /// scopes to use [default: false: lists show everything, and a call asks
    /// for the scope it needs].
    #[arg(long = "auth-filter-lists", value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub filter_lists: Option<bool>,
}

impl AuthSettings {
    fn over(self, lower: AuthSettings) -> AuthSettings {
        let add = |lower: Vec<String>, upper: Vec<String>| [lower, upper].concat();
        // One source of keys: the upper level's, whichever it names.
        let (jwks_url, jwks_file) = match (self.jwks_url, self.jwks_file) {
            (None, None) => (lower.jwks_url, lower.jwks_file),
            upper => upper,
        };
        AuthSettings {
            issuer: add(lower.issuer, self.issuer),
            resource: self.resource.or(lower.resource),
            jwks_url,
            jwks_file,
            scope: add(lower.scope, self.scope),
            tool_scope: add(lower.tool_scope, self.tool_scope),
            prompt_scope: add(lower.prompt_scope, self.prompt_scope),
            resource_scope: add(lower.resource_scope, self.resource_scope),
            scope_implies: add(lower.scope_implies, self.scope_implies),
            algorithm: if self.algorithm.is_empty() { lower.algorithm } else { self.algorithm },
            clock_skew: self.clock_skew.or(lower.clock_skew),
            keys_refresh: self.keys_refresh.or(lower.keys_refresh),
            keys_cooldown: self.keys_cooldown.or(lower.keys_cooldown),
            fetch_timeout: self.fetch_timeout.or(lower.fetch_timeout),
            filter_lists: self.filter_lists.or(lower.filter_lists),
        }
    }

    /// The first authorization setting given, as its flag (authorization
    /// needs an issuer, and HTTP).
    pub fn given(&self) -> Option<&'static str> {
        [
            ("--auth-issuer", !self.issuer.is_empty()),
            ("--auth-resource", self.resource.is_some()),
            ("--auth-jwks-url", self.jwks_url.is_some()),
            ("--auth-jwks-file", self.jwks_file.is_some()),
            ("--auth-scope", !self.scope.is_empty()),
            ("--auth-tool-scope", !self.tool_scope.is_empty()),
            ("--auth-prompt-scope", !self.prompt_scope.is_empty()),
            ("--auth-resource-scope", !self.resource_scope.is_empty()),
            ("--auth-scope-implies", !self.scope_implies.is_empty()),
            ("--auth-algorithm", !self.algorithm.is_empty()),
            ("--auth-clock-skew", self.clock_skew.is_some()),
            ("--auth-keys-refresh", self.keys_refresh.is_some()),
            ("--auth-keys-cooldown", self.keys_cooldown.is_some()),
            ("--auth-fetch-timeout", self.fetch_timeout.is_some()),
            ("--auth-filter-lists", self.filter_lists.is_some()),
        ]
        .into_iter()
        .find_map(|(flag, given)| given.then_some(flag))
    }

    /// The authorization options, or `None` when off; the error says which
    /// setting is wrong.
    pub fn options(&self) -> Result<Option<AuthOptions>, String> {
        if self.issuer.is_empty() {
            return match self.given() {
                Some(flag) => {
                    Err(format!("{flag} needs --auth-issuer (the authorization server whose tokens to take)"))
                }
                None => Ok(None),
            };
        }
        let keys = match (&self.jwks_url, &self.jwks_file) {
            (Some(url), _) => KeySource::Url(url.clone()),
            (None, Some(file)) => KeySource::File(file.clone()),
            (None, None) => KeySource::Discover,
        };
        let rules = |flag: &str, kind: OperationKind, given: &[String]| {
            given
                .iter()
                .map(|rule| {
                    let (pattern, scopes) = split_rule(flag, rule)?;
                    Ok(ScopeRule { kind, pattern, scopes })
                })
                .collect::<Result<Vec<_>, String>>()
        };
        let mut scope_rules = rules("--auth-tool-scope", OperationKind::Tool, &self.tool_scope)?;
        scope_rules.extend(rules("--auth-prompt-scope", OperationKind::Prompt, &self.prompt_scope)?);
        scope_rules.extend(rules("--auth-resource-scope", OperationKind::Resource, &self.resource_scope)?);
        let mut implies = BTreeMap::new();
        for rule in &self.scope_implies {
            let (scope, implied) = split_rule("--auth-scope-implies", rule)?;
            implies.entry(scope).or_insert_with(Vec::new).extend(implied);
        }
        let defaults = AuthOptions::default();
        let key_defaults = KeyOptions::default();
        Ok(Some(AuthOptions {
            resource: self.resource.clone(),
            issuers: self.issuer.clone(),
            keys,
            key_options: KeyOptions {
                refresh_after: self.keys_refresh.unwrap_or(key_defaults.refresh_after),
                refetch_cooldown: self.keys_cooldown.unwrap_or(key_defaults.refetch_cooldown),
                fetch_timeout: self.fetch_timeout.unwrap_or(key_defaults.fetch_timeout),
            },
            scopes: ScopePolicy { required: self.scope.clone(), rules: scope_rules, implies },
            algorithms: if self.algorithm.is_empty() { defaults.algorithms } else { self.algorithm.clone() },
            clock_skew: self.clock_skew.unwrap_or(defaults.clock_skew),
            filter_lists: self.filter_lists.unwrap_or(defaults.filter_lists),
        }))
    }
}

/// `NAME=SCOPE SCOPE…` → (`NAME`, the scopes), the error naming `flag`.
fn split_rule(flag: &str, rule: &str) -> Result<(String, Vec<String>), String> {
    parse_scope_rule(rule).map_err(|e| format!("{flag} {rule:?}: {e}"))
}

/// `PORT` → 127.0.0.1:PORT; `HOST:PORT` → its first address.
pub fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    let invalid = |why: String| format!("--http {text}: {why}");
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

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::*;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        settings: ServeSettings,
    }

    #[test]
    fn parses_listen_addresses() {
        assert_eq!(parse_addr("8080").unwrap(), "127.0.0.1:8080".parse().unwrap());
        assert_eq!(parse_addr("0.0.0.0:80").unwrap(), "0.0.0.0:80".parse().unwrap());
        assert_eq!(parse_addr("[::1]:9000").unwrap(), "[::1]:9000".parse().unwrap());
        assert!(parse_addr("localhost:7000").unwrap().ip().is_loopback());
        assert!(parse_addr("no port").is_err());
    }

    #[test]
    fn no_flags_give_the_library_defaults() {
        let flags = Flags::parse_from(["mcp-wit", "--http", "127.0.0.1:8080"]);
        let options = flags.settings.http.options(mcp_wit::transport::stdio::DEFAULT_MAX_MESSAGE_SIZE).unwrap();
        let defaults = HttpOptions::new("127.0.0.1:8080".parse().unwrap());
        assert_eq!(format!("{:?}", options.unwrap()), format!("{defaults:?}"));
    }

    /// Every `[default: …]` in the help is the default the library applies.
    #[test]
    fn the_help_states_the_real_defaults() {
        let http = HttpOptions::default();
        let limits = mcp_wit::Limits::default();
        let duration = |text: &str| format!("{:?}", units::parse_duration(text).unwrap());
        let size = |text: &str| units::parse_size(text).unwrap().to_string();
        let number = |text: &str| text.to_string();
        type Reader<'a> = &'a dyn Fn(&str) -> String;
        let expected: [(&str, Reader<'_>, String); 14] = [
            ("max_message_size", &size, mcp_wit::transport::stdio::DEFAULT_MAX_MESSAGE_SIZE.to_string()),
            ("timeout", &duration, format!("{:?}", limits.timeout)),
            ("max_memory", &size, limits.max_memory.to_string()),
            ("max_output", &size, mcp_wit::DEFAULT_MAX_OUTPUT.to_string()),
            ("session_timeout", &duration, format!("{:?}", http.session_timeout)),
            ("max_sessions", &number, http.max_sessions.to_string()),
            ("max_connections", &number, http.max_connections.to_string()),
            ("max_queued_requests", &number, http.max_queued_requests.to_string()),
            ("header_timeout", &duration, format!("{:?}", http.header_timeout)),
            ("body_timeout", &duration, format!("{:?}", http.body_timeout)),
            ("shutdown_timeout", &duration, format!("{:?}", http.shutdown_timeout)),
            ("sse_keep_alive", &duration, format!("{:?}", http.keep_alive)),
            ("cache_ttl", &duration, format!("{:?}", Duration::from_millis(mcp_wit::CacheHint::default().ttl_ms))),
            ("state_ttl", &duration, format!("{:?}", mcp_wit::SessionOptions::default().state_ttl)),
        ];
        let command = Flags::command();
        for (id, read, value) in expected {
            let arg = command.get_arguments().find(|a| a.get_id() == id).expect("an argument");
            let help = arg.get_long_help().or(arg.get_help()).expect("documented").to_string();
            let stated = help.split("[default: ").nth(1).and_then(|s| s.split(']').next()).expect("a default");
            let stated = read(stated);
            assert_eq!(stated, value, "--{id}");
        }
    }
}
