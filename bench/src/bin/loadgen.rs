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

use clap::{ArgAction, Parser, Subcommand};
use mcp_wit_bench::cli::item;
use mcp_wit_bench::http::{self, Era, HttpLoadOptions};
use mcp_wit_bench::load::{self, LoadOptions};
use mcp_wit_bench::polls;

/// Drives one MCP server with `tools/call` echo requests and prints what it
/// measured as one JSON object on stdout.
///
/// Without a mode, over stdio: a fixed number of calls in flight; prints
/// throughput, latency percentiles and the server's CPU time.
#[derive(Parser, Debug)]
#[command(
    // A mode's flags go after its name; the stdio run's flags without one.
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    subcommand_value_name = "MODE",
    subcommand_help_heading = "Modes",
    // Only the three modes are words before `--`.
    disable_help_subcommand = true,
    // A flag given twice counts once, the last value, as scripts may append.
    args_override_self = true,
    after_help = "Examples:\n  \
        loadgen --inflight 32 --calls 20000 -- \\\n      \
        target/release/mcp-wit serve echo.wasm --guest-output discard\n  \
        loadgen cold-start --runs 10 -- target/release/mcp-wit serve --no-cache router.wasm\n  \
        loadgen http --sessions 64 -- \\\n      \
        target/release/mcp-wit serve echo.wasm --http {addr} --guest-output discard\n  \
        loadgen idle-memory --sessions 1000 -- target/release/baseline-serde --http {addr}"
)]
struct Cli {
    #[command(subcommand)]
    mode: Option<Mode>,
    #[command(flatten)]
    stdio: Stdio,
}

/// The stdio run's settings.
#[derive(clap::Args, Debug)]
struct Stdio {
    /// The era the client speaks: `legacy` (a session) or `modern` (2026-07-28 calls that stand alone).
    #[arg(long, default_value_t = LoadOptions::default().era)]
    era: Era,
    /// Calls kept in flight.
    #[arg(long, value_name = "N", default_value_t = LoadOptions::default().inflight)]
    inflight: usize,
    /// Calls measured.
    #[arg(long, value_name = "M", default_value_t = LoadOptions::default().calls)]
    calls: usize,
    /// Calls before measuring.
    #[arg(long, value_name = "W", default_value_t = LoadOptions::default().warmup)]
    warmup: usize,
    /// The least time the warm-up lasts, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = LoadOptions::default().warmup_min.as_millis() as u64)]
    warmup_ms: u64,
    /// Run client and server on these CPUs only (e.g. 0, or 0,1).
    #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = item::<usize>, action = ArgAction::Set)]
    cpus: Option<Vec<usize>>,
    #[command(flatten)]
    timeout: Timeout,
    #[command(flatten)]
    server: Server,
}

/// The modes besides the stdio run.
#[derive(Subcommand, Debug)]
enum Mode {
    /// Times a stdio server's start: spawn to the answer of `initialize`.
    #[command(
        after_help = "Example:\n  loadgen cold-start --runs 10 -- target/release/mcp-wit serve --no-cache router.wasm"
    )]
    ColdStart {
        /// Starts timed.
        #[arg(long, value_name = "K", default_value_t = 10)]
        runs: usize,
        #[command(flatten)]
        server: Server,
    },
    /// Drives a Streamable HTTP server with many sessions, each one
    /// connection with one call in flight.
    #[command(after_help = "Examples:\n  \
        loadgen http --sessions 64 -- \\\n      \
        target/release/mcp-wit serve echo.wasm --http {addr} --guest-output discard\n  \
        loadgen http --era modern --sessions 64 -- target/release/baseline-rmcp --http {addr}")]
    Http(Http),
    /// Measures how many `tasks/get` polls a server answers (the tasks
    /// extension): one task, polled by every connection at once.
    #[command(after_help = "Example:\n  \
        loadgen polls --connections 8 -- target/release/mcp-wit serve conformance.wasm --http {addr} \\\n      \
        --task-policy slow_compute=always --guest-output discard")]
    Polls {
        /// Clients polling at once, each on its own connection.
        #[arg(long, value_name = "N", default_value_t = 8)]
        connections: usize,
        /// How long they poll, in seconds (after a tenth of it as warm-up).
        #[arg(long, value_name = "SECS", default_value_t = 5)]
        seconds: u64,
        /// The tool whose call becomes the task (its policy must make it one).
        #[arg(long, default_value = "slow_compute")]
        tool: String,
        /// Its arguments (JSON).
        #[arg(long, value_name = "JSON", default_value = r#"{"seconds":120}"#)]
        arguments: String,
        #[command(flatten)]
        server: Server,
    },
    /// Measures a Streamable HTTP server's memory per idle session.
    #[command(after_help = "Example:\n  \
        loadgen idle-memory --sessions 1000 -- target/release/baseline-serde --http {addr}")]
    IdleMemory {
        /// Sessions opened after the first one.
        #[arg(long, value_name = "N", default_value_t = 1000)]
        sessions: usize,
        /// Close each session's connection once its call is answered (for
        /// more sessions than the client may open file descriptors).
        #[arg(long)]
        close_connections: bool,
        /// How long the sessions stay idle before the measurement, in milliseconds.
        #[arg(long, value_name = "MS", default_value_t = 300)]
        settle_ms: u64,
        #[command(flatten)]
        timeout: Timeout,
        #[command(flatten)]
        server: Server,
    },
}

/// `loadgen http`'s settings.
#[derive(clap::Args, Debug)]
struct Http {
    /// The era the client speaks: `legacy` (sessions) or `modern` (2026-07-28 requests that stand alone).
    #[arg(long, default_value_t = HttpLoadOptions::default().era)]
    era: Era,
    /// Sessions at once.
    #[arg(long, value_name = "N", default_value_t = HttpLoadOptions::default().sessions)]
    sessions: usize,
    /// Calls measured in each session.
    #[arg(long, value_name = "M", default_value_t = HttpLoadOptions::default().calls_per_session)]
    calls_per_session: usize,
    /// Calls of each session before measuring.
    #[arg(long, value_name = "W", default_value_t = HttpLoadOptions::default().warmup_per_session)]
    warmup_per_session: usize,
    /// Worker threads of the client (1: one thread for all sessions).
    #[arg(long, value_name = "T", default_value_t = HttpLoadOptions::default().client_threads)]
    client_threads: usize,
    /// Sent as `Authorization: Bearer TOKEN` with every request.
    #[arg(long, value_name = "TOKEN")]
    bearer: Option<String>,
    #[command(flatten)]
    timeout: Timeout,
    #[command(flatten)]
    server: Server,
}

/// How long a run may take.
#[derive(clap::Args, Debug)]
struct Timeout {
    /// Seconds the run may take before the server is killed and the run fails.
    #[arg(long = "timeout", value_name = "SECS", default_value_t = LoadOptions::default().timeout.as_secs())]
    secs: u64,
}

impl Timeout {
    fn duration(&self) -> Duration {
        Duration::from_secs(self.secs)
    }
}

/// The server measured.
#[derive(clap::Args, Debug)]
struct Server {
    /// Pass the server's stderr through.
    #[arg(long)]
    show_stderr: bool,
    /// The server's command line, as is; over HTTP, `{addr}` in it is the address it serves.
    #[arg(last = true, required = true, value_name = "SERVER COMMAND")]
    command: Vec<String>,
}

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
    let cli = Cli::parse();
    let json = match cli.mode {
        None => {
            let Stdio { era, inflight, calls, warmup, warmup_ms, cpus, timeout, server } = cli.stdio;
            let options = LoadOptions {
                inflight,
                calls,
                warmup,
                warmup_min: Duration::from_millis(warmup_ms),
                show_stderr: server.show_stderr,
                cpus,
                timeout: timeout.duration(),
                era,
            };
            serde_json::to_string_pretty(&load::run_load(&server.command, &options)?)?
        }
        Some(Mode::ColdStart { runs, server }) => {
            serde_json::to_string_pretty(&load::cold_start(&server.command, runs, server.show_stderr)?)?
        }
        Some(Mode::Http(args)) => {
            let options = HttpLoadOptions {
                era: args.era,
                sessions: args.sessions,
                calls_per_session: args.calls_per_session,
                warmup_per_session: args.warmup_per_session,
                client_threads: args.client_threads,
                show_stderr: args.server.show_stderr,
                timeout: args.timeout.duration(),
                bearer: args.bearer,
                ..HttpLoadOptions::default()
            };
            serde_json::to_string_pretty(&http::run_http_load(&args.server.command, &options)?)?
        }
        Some(Mode::Polls { connections, seconds, tool, arguments, server }) => {
            let options = polls::PollOptions {
                connections,
                duration: Duration::from_secs(seconds.max(1)),
                tool,
                arguments,
                show_stderr: server.show_stderr,
            };
            serde_json::to_string_pretty(&polls::run_polls(&server.command, &options)?)?
        }
        Some(Mode::IdleMemory { sessions, close_connections, settle_ms, timeout, server }) => {
            let options = http::IdleOptions {
                sessions,
                close_connections,
                settle: Duration::from_millis(settle_ms),
                show_stderr: server.show_stderr,
                timeout: timeout.duration(),
            };
            serde_json::to_string_pretty(&http::idle_memory(&server.command, &options)?)?
        }
    };
    println!("{json}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Cli, clap::Error> {
        mcp_wit_bench::cli::parse(line)
    }

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn stdio_runs_as_the_scripts_write_them() {
        let cli = parse(
            "loadgen --era modern --inflight 32 --calls 20000 --cpus 0 -- \
             target/release/mcp-wit serve echo.wasm --guest-output discard",
        )
        .unwrap();
        assert!(cli.mode.is_none());
        let Stdio { era, inflight, calls, warmup, warmup_ms, cpus, timeout, server } = cli.stdio;
        assert_eq!((era, inflight, calls, warmup, warmup_ms), (Era::Modern, 32, 20000, 2000, 250));
        assert_eq!((cpus, timeout.secs, server.show_stderr), (Some(vec![0]), 120, false));
        assert_eq!(server.command, words("target/release/mcp-wit serve echo.wasm --guest-output discard"));

        let cli = parse("loadgen --inflight=1 --cpus 0,1 --show-stderr -- target/release/baseline-serde").unwrap();
        assert_eq!((cli.stdio.era, cli.stdio.inflight, &cli.stdio.cpus), (Era::Legacy, 1, &Some(vec![0, 1])));
        assert!(cli.stdio.server.show_stderr);
        assert_eq!(cli.stdio.cpus, parse("loadgen --cpus 5 --cpus 0,1 -- s").unwrap().stdio.cpus);
        assert_eq!(parse("loadgen -- s").unwrap().stdio.cpus, None);
        let spaced = Cli::try_parse_from(["loadgen", "--cpus", "0, 1", "--", "s"]).unwrap();
        assert_eq!(spaced.stdio.cpus, Some(vec![0, 1]));
    }

    #[test]
    fn the_server_command_passes_through_untouched() {
        let command = "target/release/mcp-wit serve echo.wasm --http {addr} --calls 7 -- --help";
        let cli = parse(&format!("loadgen http --sessions 64 -- {command}")).unwrap();
        let Some(Mode::Http(http)) = cli.mode else { panic!("not http: {:?}", cli.mode) };
        assert_eq!(http.server.command, words(command));
    }

    #[test]
    fn modes_as_the_docs_write_them() {
        let cli = parse("loadgen cold-start --runs 10 -- target/release/mcp-wit serve --no-cache router.wasm").unwrap();
        let Some(Mode::ColdStart { runs, server }) = cli.mode else { panic!("not cold-start: {:?}", cli.mode) };
        assert_eq!((runs, server.command), (10, words("target/release/mcp-wit serve --no-cache router.wasm")));

        let cli = parse(
            "loadgen http --era modern --sessions 8 --calls-per-session 2000 --bearer T0K3N -- \
             target/release/mcp-wit serve e.wasm --http {addr} --auth-issuer https://issuer.example",
        )
        .unwrap();
        let Some(Mode::Http(http)) = cli.mode else { panic!("not http: {:?}", cli.mode) };
        assert_eq!(
            (http.era, http.sessions, http.calls_per_session, http.warmup_per_session),
            (Era::Modern, 8, 2000, 1000)
        );
        assert_eq!((http.client_threads, http.bearer.as_deref(), http.timeout.secs), (1, Some("T0K3N"), 120));
        assert_eq!(http.server.command[5..], words("--auth-issuer https://issuer.example"));

        let cli = parse(
            "loadgen idle-memory --sessions 99999 --close-connections --settle-ms 3000 --timeout 1200 -- \
             target/release/mcp-wit serve echo.wasm --http {addr} --max-sessions 100000",
        )
        .unwrap();
        let Some(Mode::IdleMemory { sessions, close_connections, settle_ms, timeout, server }) = cli.mode else {
            panic!("not idle-memory: {:?}", cli.mode)
        };
        assert_eq!((sessions, close_connections, settle_ms, timeout.secs), (99999, true, 3000, 1200));
        assert_eq!(server.command.last().map(String::as_str), Some("100000"));
        let Some(Mode::IdleMemory { sessions, settle_ms, .. }) = parse("loadgen idle-memory -- s").unwrap().mode else {
            panic!("not idle-memory")
        };
        assert_eq!((sessions, settle_ms), (1000, 300));
    }

    /// Every loadgen line of BENCHMARKS.md, bench/results/*/run.sh and the
    /// studies' READMEs (shell variables filled in).
    #[test]
    fn every_documented_line_parses() {
        let serve = "target/release/mcp-wit serve echo.wasm --guest-output discard";
        let serve_http = "target/release/mcp-wit serve echo.wasm --http {addr} --guest-output discard";
        for line in [
            format!("loadgen http --era modern --sessions 64 --calls-per-session 250 -- {serve_http}"),
            format!("loadgen http --era modern --sessions 8 -- {serve_http} --max-instance-reuse-count 1000000"),
            "loadgen http --era modern --sessions 256 --calls-per-session 62 -- target/release/baseline-rmcp --http {addr}".into(),
            format!("loadgen --era legacy --inflight 32 --calls 20000 -- {serve}"),
            format!("loadgen --era modern --inflight 1 --calls 20000 --cpus 0 -- {serve}"),
            "loadgen --inflight 1 --calls 20000 --cpus 0 -- target/release/baseline-serde".into(),
            format!("loadgen --inflight 32 --calls 20000 -- {serve}"),
            format!("loadgen --era modern -- {serve}"),
            "loadgen cold-start --runs 10 -- target/release/mcp-wit serve --no-cache path/to/router.wasm".into(),
            format!("loadgen http --sessions 64 --calls-per-session 200 -- {serve_http}"),
            "loadgen http --sessions 64 -- target/release/baseline-rmcp --http {addr}".into(),
            format!("loadgen http --sessions 1 -- {serve_http}"),
            "loadgen idle-memory --sessions 1000 -- target/release/baseline-serde --http {addr}".into(),
            format!(
                "loadgen http --sessions 8 --bearer eyJ.x.y -- {serve_http} --auth-issuer https://issuer.example \
                 --auth-resource https://mcp.example/mcp --auth-jwks-file jwks.json"
            ),
            format!("loadgen idle-memory --sessions 9999 --timeout 900 -- {serve_http} --max-sessions 20000"),
            format!("loadgen polls --connections 8 --seconds 3 -- {serve_http} --task-policy slow_compute=always"),
            format!("loadgen http --era modern-tasks --sessions 8 -- {serve_http}"),
            format!(
                "loadgen idle-memory --sessions 99999 --close-connections --settle-ms 3000 --timeout 1200 -- \
                 {serve_http} --max-sessions 100000 --instance-idle-timeout 1s"
            ),
        ] {
            let cli = parse(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            let server = match &cli.mode {
                None => &cli.stdio.server,
                Some(
                    Mode::ColdStart { server, .. } | Mode::IdleMemory { server, .. } | Mode::Polls { server, .. },
                ) => server,
                Some(Mode::Http(http)) => &http.server,
            };
            assert_eq!(server.command, words(line.split_once(" -- ").unwrap().1), "{line}");
        }
    }

    #[test]
    fn rejects_what_does_not_fit() {
        for line in [
            "loadgen --calls 5",
            "loadgen http --sessions 8",
            "loadgen --nope -- s",
            "loadgen --calls -- s",
            "loadgen --calls x -- s",
            "loadgen --era old -- s",
            "loadgen bogus -- s",
            "loadgen http --inflight 4 -- s",
            "loadgen --inflight 4 http -- s",
            "loadgen cold-start --timeout 5 -- s",
            "loadgen --show-stderr=yes -- s",
        ] {
            assert!(parse(line).is_err(), "{line}");
        }
    }
}
