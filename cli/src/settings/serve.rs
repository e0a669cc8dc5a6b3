//! [`ServeSettings`]: what `serve` is told for the whole server, by flags
//! and by `mcp-wit.toml`, and how the two merge.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use mcp_wit::InstanceMode;

use super::auth::AuthSettings;
use super::http::HttpSettings;
use super::limits::LimitSettings;
use super::tasks::TaskSettings;
use super::telemetry::TelemetrySettings;
use super::tool_checks::ToolChecks;
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
    /// `timeout`, `max-memory`, `max-output`, the compile cache. In the
    /// file they are top-level keys, read beside these (`ConfigFile`): a
    /// struct flattened into one that is itself flattened would see every
    /// key, and unknown ones would pass.
    #[command(flatten)]
    #[serde(skip)]
    pub limits: LimitSettings,
    /// Memory all instances together may hold (e.g. `4GiB`). Past it, idle
    /// instances are released, the longest idle first; a call whose growth
    /// still does not fit fails with an error saying so (the process is
    /// never the one killed) [default: half of the machine's memory, or of
    /// the cgroup's limit].
    #[arg(long, value_name = "SIZE", value_parser = units::parse_size)]
    #[serde(deserialize_with = "units::size")]
    pub max_total_memory: Option<usize>,
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
    /// (`ttlMs`); 0 for the lists and reads a router says may change
    /// (`listChanged`, `subscribe`) [default: 60s].
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
    /// instantiation, about 8 GiB of address space a slot, no memory until
    /// used); instances beyond the pool are allocated on demand [default:
    /// sessions × components + 8, at most 2048; over stdio, no pool: every
    /// instance on demand].
    #[arg(long, value_name = "N")]
    pub pool_instances: Option<u32>,
    /// `[validation]` in mcp-wit.toml.
    #[command(flatten)]
    pub validation: ToolChecks,
    /// Record every message in and out, of every session, to this `.mcp`
    /// file (FlatBuffers: read it with `mcp-wit log`). `--secret` values are
    /// never written.
    #[arg(long, value_name = "FILE.mcp")]
    pub record: Option<PathBuf>,
    /// Leave this tool's arguments and results out of the recording
    /// (repeatable).
    #[arg(long = "record-redact", value_name = "TOOL")]
    pub record_redact: Vec<String>,
    /// Reload when `mcp-wit.toml` or a served component's file changes, as
    /// on SIGHUP (checked every second). Over HTTP new sessions and requests
    /// get the new version; over stdio the client's session moves to it at
    /// once (the routers' state starts afresh) and hears which lists changed.
    #[arg(long, value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub watch: Option<bool>,
    #[command(flatten)]
    pub http: HttpSettings,
    #[command(flatten)]
    pub auth: AuthSettings,
    /// `[tasks]` in mcp-wit.toml.
    #[command(flatten)]
    pub tasks: TaskSettings,
    /// `[telemetry]` in mcp-wit.toml.
    #[command(flatten)]
    pub telemetry: TelemetrySettings,
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

impl ServeSettings {
    /// These settings where given, `lower`'s elsewhere; lists add up.
    pub fn over(self, lower: ServeSettings) -> ServeSettings {
        ServeSettings {
            max_message_size: self.max_message_size.or(lower.max_message_size),
            page_size: self.page_size.or(lower.page_size),
            limits: self.limits.over(lower.limits),
            max_total_memory: self.max_total_memory.or(lower.max_total_memory),
            instances: self.instances.or(lower.instances),
            max_instance_reuse_count: self.max_instance_reuse_count.or(lower.max_instance_reuse_count),
            instance_idle_timeout: self.instance_idle_timeout.or(lower.instance_idle_timeout),
            cache_ttl: self.cache_ttl.or(lower.cache_ttl),
            cache_scope: self.cache_scope.or(lower.cache_scope),
            state_key_file: self.state_key_file.or(lower.state_key_file),
            state_ttl: self.state_ttl.or(lower.state_ttl),
            pool_instances: self.pool_instances.or(lower.pool_instances),
            validation: self.validation.over(lower.validation),
            record: self.record.or(lower.record),
            record_redact: [lower.record_redact, self.record_redact].concat(),
            watch: self.watch.or(lower.watch),
            http: self.http.over(lower.http),
            auth: self.auth.over(lower.auth),
            tasks: self.tasks.over(lower.tasks),
            telemetry: self.telemetry.over(lower.telemetry),
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};
    use mcp_wit::HttpOptions;

    use super::*;
    use crate::settings::parse_addr;

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
