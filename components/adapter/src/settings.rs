//! What the adapter reads from its WASI environment, the one way of
//! configuring a component that every engine offers (`wasmtime run --env`,
//! Spin's `environment`, wasmCloud's config).

use mcp_wit_protocol::SessionOptions;
use mcp_wit_protocol::http::SecurityPolicy;
use mcp_wit_protocol::rounds::{StateKey, StateKeySharing};

/// Default of `MCP_WIT_MAX_MESSAGE_SIZE`: 8 MiB, as `mcp-wit serve`.
const DEFAULT_MAX_MESSAGE_SIZE: usize = 8 * 1024 * 1024;

/// The adapter's settings.
pub struct Settings {
    /// Longest accepted message, in bytes.
    pub max_message_size: usize,
    /// The protocol core's options.
    pub session: SessionOptions,
    /// Who may call over HTTP (`MCP_WIT_ALLOW_HOSTS`, `MCP_WIT_ALLOW_ORIGINS`).
    pub security: SecurityPolicy,
    /// Answer HTTP requests with JSON even when the client takes SSE
    /// (`MCP_WIT_JSON_RESPONSE=1`).
    pub json_response: bool,
    /// What signs 2026-07-28 `requestState` (the session options hold the
    /// key itself).
    pub state_key: StateKeySetting,
}

/// Where the key that signs `requestState` comes from.
pub enum StateKeySetting {
    /// `MCP_WIT_STATE_KEY` or `MCP_WIT_STATE_KEY_FILE`: every instance and
    /// every replica given the same key honours the others' rounds.
    Shared,
    /// None set: a key of this instance alone. Enough for stdio (one
    /// instance serves the whole session); over HTTP a retry may reach any
    /// instance, so a round cannot be resumed.
    PerInstance,
    /// Set, but it cannot work: why.
    Broken(String),
}

impl StateKeySetting {
    /// From `MCP_WIT_STATE_KEY` (its bytes are the key) or
    /// `MCP_WIT_STATE_KEY_FILE` (a file's bytes, as `mcp-wit serve
    /// --state-key-file`), at least [`StateKey::MIN_LEN`] bytes.
    fn from_env() -> (StateKeySetting, StateKey) {
        let given = match (std::env::var("MCP_WIT_STATE_KEY"), std::env::var("MCP_WIT_STATE_KEY_FILE")) {
            (Ok(_), Ok(_)) => Err("set MCP_WIT_STATE_KEY or MCP_WIT_STATE_KEY_FILE, not both".to_owned()),
            (Ok(key), Err(_)) => StateKey::from_bytes(key.as_bytes()).map_err(|e| format!("MCP_WIT_STATE_KEY: {e}")),
            (Err(_), Ok(path)) => std::fs::read(&path)
                .map_err(|e| {
                    format!(
                        "MCP_WIT_STATE_KEY_FILE: cannot read {path}: {e} (the engine must map its directory in, \
                         e.g. `wasmtime serve --dir`)"
                    )
                })
                .and_then(|bytes| {
                    StateKey::from_bytes(&bytes).map_err(|e| format!("MCP_WIT_STATE_KEY_FILE {path}: {e}"))
                }),
            (Err(_), Err(_)) => return (StateKeySetting::PerInstance, StateKey::random()),
        };
        match given {
            Ok(key) => (StateKeySetting::Shared, key),
            Err(why) => (StateKeySetting::Broken(why), StateKey::random()),
        }
    }
}

impl Settings {
    /// Reads the environment; a value that does not parse is reported on
    /// stderr and its default used.
    pub fn from_env() -> Settings {
        let number = |name: &str| match std::env::var(name) {
            Ok(text) => match text.trim().parse::<usize>() {
                Ok(n) if n > 0 => Some(n),
                _ => {
                    eprintln!("adapter: {name}={text:?} is not a positive number of bytes or items; using the default");
                    None
                }
            },
            Err(_) => None,
        };
        let (state_key_setting, state_key) = StateKeySetting::from_env();
        let session =
            SessionOptions { page_size: number("MCP_WIT_PAGE_SIZE"), state_key, ..SessionOptions::default() };
        // The engine's address is not known here: the policy is that of a
        // public bind (no Host check unless hosts are named; no browser
        // origin unless allowed).
        let security =
            SecurityPolicy::new(false, &list("MCP_WIT_ALLOW_HOSTS", ','), &list("MCP_WIT_ALLOW_ORIGINS", ','));
        let json_response = std::env::var("MCP_WIT_JSON_RESPONSE").is_ok_and(|v| v == "1" || v == "true");
        Settings {
            max_message_size: number("MCP_WIT_MAX_MESSAGE_SIZE").unwrap_or(DEFAULT_MAX_MESSAGE_SIZE),
            session,
            security,
            json_response,
            state_key: state_key_setting,
        }
    }

    /// These settings for HTTP, where any instance may serve a client's
    /// retry: a key of this instance alone cannot resume a round, so the
    /// core refuses rounds, naming the setting to make.
    pub fn over_http(mut self) -> Settings {
        if matches!(self.state_key, StateKeySetting::PerInstance) {
            self.session.state_key_sharing = StateKeySharing::ThisInstanceOnly {
                remedy: "its operator must set MCP_WIT_STATE_KEY, at least 32 bytes, or MCP_WIT_STATE_KEY_FILE, the \
                         same on every instance and replica"
                    .into(),
            };
        }
        self
    }
}

/// The non-empty items of the variable `name`, split at `separator`.
pub fn list(name: &str, separator: char) -> Vec<String> {
    std::env::var(name)
        .map(|text| text.split(separator).map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect())
        .unwrap_or_default()
}
