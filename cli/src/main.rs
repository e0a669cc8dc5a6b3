//! The `mcp-wit` command line: a thin layer over the `mcp_wit` library.
//!
//! One module per command; `serve` reads its settings from flags and
//! `mcp-wit.toml` into one typed configuration ([`settings`], [`config_file`],
//! [`units`]), builds sandbox policies ([`sandbox_args`]) and hands the
//! loaded components to a transport. The commands are defined and run in
//! [`command`]; logging is set up in [`logging`], for the binary only.

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
mod settings;
mod telemetry;
mod units;
mod wrap;

use std::process::ExitCode;

fn main() -> ExitCode {
    command::run()
}
