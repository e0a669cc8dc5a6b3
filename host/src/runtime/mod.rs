//! The WebAssembly side: engine, loaded components and their instances.
//!
//! A [`Component`](LoadedRouter) is compiled and linked once
//! ([`InstancePre`](wasmtime::component::InstancePre)); every session then gets its own [`RouterInstance`] from
//! it, cheaply.

mod bindings;
pub mod budget;
pub mod cache;
mod cache_entry;
mod caller;
mod client;
mod code;
mod convert;
pub mod engine;
mod exports;
mod extension;
mod file_notes;
mod instance;
mod kept;
pub mod limits;
mod load;
mod loaded_router;
mod mcp_json;
#[cfg(feature = "extism")]
pub(crate) mod plugin;
mod pool;
mod presentation;
mod router_component;
mod sharing;
mod store;
#[cfg(feature = "compiler")]
mod tiering;
mod typed;
mod v25_6_18;
pub(crate) mod waits;

pub use caller::CALLER_INTERFACE;
pub use client::CLIENT_INTERFACE;
pub use extension::EXTENSION_INTERFACE;
pub use instance::{ROUTER_INTERFACE, RouterInstance};
// The JWKS file of `--auth-jwks-file` and policy files, read as guest files are.
#[cfg(feature = "compiler")]
pub use load::compile;
pub(crate) use load::read_regular_file;
pub use load::{MAX_GUEST_FILE, read_guest_file};
pub use loaded_router::LoadedRouter;
pub use pool::PooledRouter;
pub use sharing::{DEFAULT_CALLER_IDLE, DEFAULT_MAX_CALLERS, InstanceMode, InstanceReuse};
#[cfg(feature = "compiler")]
pub use tiering::{finish_optimising, lower_this_threads_priority};
pub use typed::TypedError;
pub use v25_6_18::{ELICITATIONS_KEY, MAX_ELICITATIONS, ROUTER_INTERFACE_25_6_18};
