//! What the adapter reads from its WASI environment, the one way of
//! configuring a component that every engine offers (`wasmtime run --env`,
//! Spin's `environment`, wasmCloud's config).

use mcp_wit_protocol::SessionOptions;
use mcp_wit_protocol::http::SecurityPolicy;

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
        let session = SessionOptions { page_size: number("MCP_WIT_PAGE_SIZE"), ..SessionOptions::default() };
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
        }
    }
}

/// The non-empty items of the variable `name`, split at `separator`.
pub fn list(name: &str, separator: char) -> Vec<String> {
    std::env::var(name)
        .map(|text| text.split(separator).map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect())
        .unwrap_or_default()
}
