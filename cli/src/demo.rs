//! The built-in demo router (`components/hello`, embedded by `build.rs`):
//! what `serve`, `inspect`, `call` and `wrap` work on when given no
//! component, so that a first try needs no build.

/// The demo router's component.
pub static COMPONENT: &[u8] = include_bytes!(env!("MCP_WIT_DEMO_COMPONENT"));

/// Its name, as a router's label and in messages.
pub const NAME: &str = "hello";
