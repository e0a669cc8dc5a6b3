//! One live guest instance and typed calls into it: a component's
//! ([`component`]) or an Extism plugin's ([`plugin`]), each its own type
//! behind [`RouterInstance`], which picks one in a single place.

mod command_pipes;
mod command_server;
mod component;
mod component_25_6_18;
mod fault;
mod funcs;
#[cfg(feature = "outgoing-http")]
mod http_server;
mod mcp_server;
mod outgoing;
#[cfg(feature = "extism")]
mod plugin;
mod presenting;
mod router_exports;
mod router_instance;
mod typed;

pub use component::ROUTER_INTERFACE;
pub(super) use component::{Exports25_3_26, ROUTER_FUNCTIONS};
pub(super) use fault::NotMade;
pub(super) use mcp_server::ServerPre;
pub(super) use router_exports::{OptionalExports, RouterExports};
pub use router_instance::RouterInstance;
