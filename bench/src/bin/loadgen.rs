//! `loadgen`: load client for one stdio MCP server.
//!
//! ```text
//! loadgen [--inflight N] [--calls M] [--warmup W] [--cpus 0,1] [--timeout SECS] [--show-stderr] -- <server command...>
//! loadgen cold-start [--runs K] [--show-stderr] -- <server command...>
//! ```
//!
//! Prints one JSON object on stdout.

use std::time::Duration;

use anyhow::bail;
use mcp_wit_bench::args::Args;
use mcp_wit_bench::load::{self, LoadOptions};

const USAGE: &str =
    "usage: loadgen [--inflight N] [--calls M] [--warmup W] [--cpus 0,1] [--timeout SECS] [--show-stderr] -- <server command...>
       loadgen cold-start [--runs K] [--show-stderr] -- <server command...>";

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("loadgen: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<()> {
    let args = Args::parse(
        std::env::args().skip(1),
        &["inflight", "calls", "warmup", "timeout", "runs", "cpus"],
        &["show-stderr", "help"],
    )?;
    if args.switch("help") {
        println!("{USAGE}");
        return Ok(());
    }
    if args.command.is_empty() {
        bail!("no server command given\n{USAGE}");
    }
    let show_stderr = args.switch("show-stderr");
    let json = match args.positional.as_slice() {
        [] => {
            let defaults = LoadOptions::default();
            let options = LoadOptions {
                inflight: args.get("inflight", defaults.inflight)?,
                calls: args.get("calls", defaults.calls)?,
                warmup: args.get("warmup", defaults.warmup)?,
                show_stderr,
                cpus: args.value("cpus").map(|_| args.list("cpus", &[])).transpose()?,
                timeout: Duration::from_secs(args.get("timeout", defaults.timeout.as_secs())?),
            };
            serde_json::to_string_pretty(&load::run_load(&args.command, &options)?)?
        }
        [mode] if mode == "cold-start" => {
            let runs = args.get("runs", 10usize)?;
            serde_json::to_string_pretty(&load::cold_start(&args.command, runs, show_stderr)?)?
        }
        other => bail!("unknown mode {other:?}\n{USAGE}"),
    };
    println!("{json}");
    Ok(())
}
