//! What the adapter reads from its WASI environment, the one way of
//! configuring a component that every engine offers (`wasmtime run --env`,
//! Spin's `environment`, wasmCloud's config).

use mcp_wit_protocol::SessionOptions;

/// Default of `MCP_WIT_MAX_MESSAGE_SIZE`: 8 MiB, as `mcp-wit serve`.
const DEFAULT_MAX_MESSAGE_SIZE: usize = 8 * 1024 * 1024;

/// The adapter's settings.
pub struct Settings {
    /// Longest accepted message, in bytes.
    pub max_message_size: usize,
    /// The protocol core's options.
    pub session: SessionOptions,
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
        Settings { max_message_size: number("MCP_WIT_MAX_MESSAGE_SIZE").unwrap_or(DEFAULT_MAX_MESSAGE_SIZE), session }
    }
}
