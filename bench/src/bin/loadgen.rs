//! `loadgen`: load client for one MCP server.
//!
//! ```text
//! loadgen [--era legacy|modern] [--inflight N] [--calls M] [--warmup W] [--warmup-ms MS] [--cpus 0,1] [--timeout SECS]
//!     [--show-stderr] -- <server command...>
//! loadgen cold-start [--runs K] [--show-stderr] -- <server command...>
//! loadgen http [--era legacy|modern] [--sessions N] [--calls-per-session M] [--warmup-per-session W]
//!     [--client-threads T] [--bearer TOKEN] [--timeout SECS] [--show-stderr] -- <server command with {addr}...>
//! loadgen idle-memory [--sessions N] [--close-connections] [--settle-ms MS] [--timeout SECS] [--show-stderr]
//!     -- <server command with {addr}...>
//! ```
//!
//! The first two drive a server over stdio; `http` and `idle-memory` start a
//! Streamable HTTP server on a free port of 127.0.0.1, named `{addr}` in its
//! command line. Prints one JSON object on stdout.

use std::time::Duration;

use anyhow::bail;
use mcp_wit_bench::args::Args;
use mcp_wit_bench::http::{self, HttpLoadOptions};
use mcp_wit_bench::load::{self, LoadOptions};

const USAGE: &str =
    "usage: loadgen [--era legacy|modern] [--inflight N] [--calls M] [--warmup W] [--warmup-ms MS] [--cpus 0,1] [--timeout SECS]
           [--show-stderr] -- <server command...>
       loadgen cold-start [--runs K] [--show-stderr] -- <server command...>
       loadgen http [--era legacy|modern] [--sessions N] [--calls-per-session M] [--warmup-per-session W]
           [--client-threads T] [--bearer TOKEN] [--timeout SECS] [--show-stderr] -- <server command with {addr}...>
       loadgen idle-memory [--sessions N] [--close-connections] [--settle-ms MS] [--timeout SECS] [--show-stderr]
           -- <server command with {addr}...>

e.g. loadgen http --sessions 64 -- target/release/mcp-wit serve echo.wasm --http {addr} --guest-output discard";

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
        &[
            "inflight",
            "calls",
            "warmup",
            "warmup-ms",
            "timeout",
            "runs",
            "cpus",
            "sessions",
            "calls-per-session",
            "warmup-per-session",
            "client-threads",
            "era",
            "settle-ms",
            "bearer",
        ],
        &["show-stderr", "close-connections", "help"],
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
                warmup_min: Duration::from_millis(args.get("warmup-ms", defaults.warmup_min.as_millis() as u64)?),
                show_stderr,
                cpus: args.value("cpus").map(|_| args.list("cpus", &[])).transpose()?,
                timeout: Duration::from_secs(args.get("timeout", defaults.timeout.as_secs())?),
                era: args.get("era", defaults.era)?,
            };
            serde_json::to_string_pretty(&load::run_load(&args.command, &options)?)?
        }
        [mode] if mode == "cold-start" => {
            let runs = args.get("runs", 10usize)?;
            serde_json::to_string_pretty(&load::cold_start(&args.command, runs, show_stderr)?)?
        }
        [mode] if mode == "http" => {
            let defaults = HttpLoadOptions::default();
            let options = HttpLoadOptions {
                era: args.get("era", defaults.era)?,
                sessions: args.get("sessions", defaults.sessions)?,
                calls_per_session: args.get("calls-per-session", defaults.calls_per_session)?,
                warmup_per_session: args.get("warmup-per-session", defaults.warmup_per_session)?,
                client_threads: args.get("client-threads", defaults.client_threads)?,
                show_stderr,
                timeout: Duration::from_secs(args.get("timeout", defaults.timeout.as_secs())?),
                bearer: args.value("bearer").map(str::to_string),
                ..defaults
            };
            serde_json::to_string_pretty(&http::run_http_load(&args.command, &options)?)?
        }
        [mode] if mode == "idle-memory" => {
            let options = http::IdleOptions {
                sessions: args.get("sessions", 1000usize)?,
                close_connections: args.switch("close-connections"),
                settle: Duration::from_millis(args.get("settle-ms", 300)?),
                show_stderr,
                timeout: Duration::from_secs(args.get("timeout", 120)?),
            };
            serde_json::to_string_pretty(&http::idle_memory(&args.command, &options)?)?
        }
        other => bail!("unknown mode {other:?}\n{USAGE}"),
    };
    println!("{json}");
    Ok(())
}
