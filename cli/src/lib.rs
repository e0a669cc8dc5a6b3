//! The `mcp-wit` command line: a thin layer over the `mcp_wit` library,
//! shared by its two executables. `mcp-wit` runs every command ([`run`]);
//! `mcp-wit-serve` (the `serve/` package) serves over stdio alone
//! ([`run_serve_only`]): it starts in a fraction of the time, and hands what
//! it does not serve to `mcp-wit serve`.
//!
//! One module per command; `serve` reads its settings from flags and
//! `mcp-wit.toml` into one typed configuration (`settings`, `config_file`,
//! `units`), builds sandbox policies (`sandbox_args`) and hands the
//! loaded components to a transport. The commands are defined and run in
//! `command`; logging is set up in `logging`, for the executables only.

mod build;
mod command;
mod config_file;
mod demo;
mod inspect;
mod logging;
mod new;
mod progress;
mod record;
mod reference;
mod registry;
mod replay;
mod sandbox_args;
mod serve;
mod serve_only;
mod settings;
mod telemetry;
mod units;
mod wrap;

pub use command::run;
pub use serve_only::run_serve_only;
