//! Extism plugins: core WebAssembly modules with Extism's JSON-over-memory
//! ABI, the other family of WebAssembly MCP servers.
//!
//! Two kinds are served (see `plugins/schema/xtp-plugin-schema-*`): a
//! *servlet* exports `call` and `describe` (tools only); a *v1-draft plugin*
//! exports `list_tools`, `call_tool` and the rest of MCP's server side. Each
//! export takes no arguments and returns an `i32` (0: success); its input
//! and output travel through the kernel ([`kernel`], `extism:host/env`),
//! which this host implements itself on its own engine; a v1-draft plugin
//! reaches its client through the host functions of [`user`]; any plugin
//! may ask who calls it ([`caller`]).

pub mod caller_identity;
mod clock;
mod detect;
#[cfg(feature = "outgoing-http")]
pub mod http_request;
pub mod kernel;
mod linked;
pub(super) mod mapping;
pub mod user;

pub use detect::{ENTRY_POINTS, PluginKind, PluginLoadError, PluginSignals, detect};
pub(crate) use linked::LinkedPlugin;
