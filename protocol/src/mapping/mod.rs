//! WIT values → MCP JSON, for one negotiated protocol revision.
//!
//! Every shape here borrows from the guest's returned value, so serialising a
//! result copies each string once, into the output buffer. The book's
//! mapping table (docs/users/protocol.md) documents each rule.

mod annotations;
mod apps;
mod capabilities;
mod content;
mod json;
mod meta;
mod prompts;
mod resources;
#[cfg(test)]
mod tests;
mod tools;

pub(crate) use apps::check_icons;
pub use apps::tool_ui_error;
pub use capabilities::*;
pub use content::*;
pub use meta::*;
pub use prompts::*;
pub use resources::*;
pub use tools::*;
