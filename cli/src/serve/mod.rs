//! `mcp-wit serve`: flags and `mcp-wit.toml` → loaded components → a transport.

mod args;
#[cfg(test)]
mod file_keys;
mod load;
mod open_files;
mod reload;
mod run;

pub use args::ServeArgs;
pub use load::{Loaded, Resolve, load};
pub use run::{load_for_stdio, over_stdio, serve};
