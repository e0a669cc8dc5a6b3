//! `soak`: many Streamable HTTP sessions calling for minutes. The echo
//! component on `mcp-wit serve --http`, `--sessions` sessions at once (each
//! its own connection and instance, one call in flight), `--calls` calls each,
//! in `--rounds` runs, each on a fresh server; every answer checked (the
//! client stops at the first error, so a finished run had none). Reports, per
//! round: calls, calls/s, p50/p99 and the server's RSS when the calls start,
//! its peak while they run and at their end, so that memory that grows while
//! sessions call shows.
//!
//! `--reload-every-ms N` sends the server SIGHUP every N ms while the calls
//! run (it loads everything again each time); `--chaos` serves the
//! `everything` component beside echo and runs the actors of
//! [`mcp_wit_bench::chaos`] meanwhile: clients killed mid-call, half-open
//! connections, slow bodies, a session whose every tenth call traps.
//!
//! ```text
//! cargo run --release -p mcp-wit-bench --bin soak -- [--sessions 10000] [--calls 30] [--rounds 3]
//!     [--reload-every-ms 1000] [--chaos] [--client-threads 2] [--out bench/results/<UTC date>-soak] [--no-build]
//!     [--show-stderr]
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, ensure};
use clap::Parser;
use mcp_wit_bench::chaos::Disturbances;
use mcp_wit_bench::cli::Study;
use mcp_wit_bench::http::{self, HttpLoadOptions, HttpLoadResult};
use mcp_wit_bench::pair;
use mcp_wit_bench::results;
use serde::Serialize;

/// Many Streamable HTTP sessions calling for minutes: the echo component on
/// `mcp-wit serve --http`, every answer checked, each round on a fresh
/// server; reports per round the calls, calls/s, p50/p99 and the server's RSS.
#[derive(Parser, Debug)]
#[command(
    // A flag given twice counts once, the last value, as scripts may append.
    args_override_self = true,
    after_help = "Examples:\n  \
        cargo run --release -p mcp-wit-bench --bin soak -- --sessions 10000 --calls 30 --rounds 3\n  \
        cargo run --release -p mcp-wit-bench --bin soak -- --sessions 10000 --calls 240 --rounds 2 \\\n      \
        --reload-every-ms 1000 --chaos"
)]
struct Cli {
    /// Sessions at once, each its own connection and instance, one call in flight.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    sessions: usize,
    /// Calls of each session per round.
    #[arg(long, value_name = "N", default_value_t = 30)]
    calls: usize,
    /// Runs, each on a fresh server.
    #[arg(long, value_name = "N", default_value_t = 3)]
    rounds: usize,
    /// Send the server SIGHUP (a full reload) every N ms while the calls run.
    #[arg(long, value_name = "N")]
    reload_every_ms: Option<u64>,
    /// Serve the `everything` component beside echo and disturb the server meanwhile: clients
    /// killed mid-call, half-open connections, slow bodies, a session whose every tenth call traps.
    #[arg(long)]
    chaos: bool,
    /// Worker threads of the client.
    #[arg(long, value_name = "T", default_value_t = 2)]
    client_threads: usize,
    /// Where results.json and summary.md go.
    #[arg(long, value_name = "DIR", default_value_os_t = results::dated_dir("soak"))]
    out: PathBuf,
    #[command(flatten)]
    study: Study,
}

#[derive(Serialize)]
struct Results {
    command: Vec<String>,
    rounds: Vec<HttpLoadResult>,
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("soak: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<()> {
    let Cli { sessions, calls, rounds, reload_every_ms, chaos, client_threads, out: out_dir, study } = Cli::parse();
    ensure!(sessions > 0 && rounds > 0, "--sessions and --rounds must be at least 1");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("bench/ sits in the workspace").to_path_buf();
    if !study.no_build {
        pair::build_release(&root)?;
    }
    let bin_dir = std::env::current_exe()?.parent().context("no directory for the running binary")?.to_path_buf();
    let fixture = |name: &str| PathBuf::from(mcp_wit_tests::FIXTURES).join(name).display().to_string();
    let echo = fixture("echo.wasm");
    let reload_every = reload_every_ms.map(Duration::from_millis);
    let components = match chaos {
        false => vec![echo],
        true => {
            // `everything` beside echo, under prefixes: its `panic` tool
            // traps. Every session instantiates it at `initialize`: its
            // instances go once idle, or 10,000 sessions would hold 20,000.
            let file = std::env::temp_dir().join(format!("mcp-wit-soak-{}.toml", std::process::id()));
            let everything = fixture("everything.wasm");
            std::fs::write(
                &file,
                format!(
                    "[[component]]\npath = {echo:?}\nname = \"echo\"\n\n[[component]]\npath = {everything:?}\n\
                     name = \"everything\"\ninstance-idle-timeout = \"1s\"\n"
                ),
            )
            .with_context(|| format!("cannot write {}", file.display()))?;
            vec!["--file".into(), file.display().to_string()]
        }
    };
    // Room for every session and its connection (and the chaos actors'), and
    // the server's defaults otherwise.
    let command: Vec<String> = [bin_dir.join("mcp-wit").display().to_string(), "serve".into()]
        .into_iter()
        .chain(components)
        .chain([
            "--http".into(),
            http::ADDR.into(),
            "--guest-output".into(),
            "discard".into(),
            "--max-sessions".into(),
            (sessions + 16).to_string(),
            "--max-connections".into(),
            (sessions + 64).to_string(),
        ])
        .collect();
    let options = HttpLoadOptions {
        sessions,
        calls_per_session: calls,
        warmup_per_session: 1,
        client_threads,
        show_stderr: study.show_stderr,
        timeout: Duration::from_secs(1800),
        tool: if chaos { "echo_echo".into() } else { "echo".into() },
        disturbances: Disturbances { reload_every, trap_tool: chaos.then(|| "everything_panic".into()) },
        ..HttpLoadOptions::default()
    };
    let mut results = Vec::new();
    for round in 1..=rounds {
        let result = http::run_http_load(&command, &options).with_context(|| format!("round {round}"))?;
        eprintln!(
            "round {round}/{rounds}: {} calls, {:.0} calls/s, p50 {:.0} µs, p99 {:.0} µs, RSS {} → peak {} → {} MiB",
            result.calls,
            result.calls_per_sec,
            result.p50_us,
            result.p99_us,
            result.rss_start_kib / 1024,
            result.rss_peak_kib / 1024,
            result.rss_end_kib / 1024
        );
        if let Some(d) = &result.disturbed {
            eprintln!(
                "  meanwhile: {} reloads, {} clients killed mid-call, {} half-open connections, {} slow bodies \
                 (408), {} traps and {} echoes between them, all answered as they should be",
                d.reloads, d.killed_mid_call, d.half_open, d.slow_bodies, d.traps, d.echoes_between_traps
            );
        }
        results.push(result);
    }
    let mut summary = format!(
        "## Soak\n\nThe echo component on `mcp-wit serve --http`, {sessions} sessions at once, each its own \
         connection and instance, {} calls each per round, every answer checked (errors: 0; the client stops at \
         the first): calls, calls/s, p50 and p99 µs, server RSS (MiB) when the calls start, at its peak, at the \
         end.\n\n| round | calls | calls/s | p50 | p99 | RSS start | RSS peak | RSS end |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        options.calls_per_session
    );
    for (round, r) in results.iter().enumerate() {
        summary.push_str(&format!(
            "| {} | {} | {:.0} | {:.0} | {:.0} | {} | {} | {} |\n",
            round + 1,
            r.calls,
            r.calls_per_sec,
            r.p50_us,
            r.p99_us,
            r.rss_start_kib / 1024,
            r.rss_peak_kib / 1024,
            r.rss_end_kib / 1024
        ));
    }
    if results.iter().any(|r| r.disturbed.is_some()) {
        summary.push_str(
            "\nMeanwhile, every answer checked: SIGHUP reloads, clients killed mid-call, half-open connections, slow \
             bodies answered 408, trapping calls answered with an error, and echo calls between them on the same \
             session.\n\n| round | reloads | killed mid-call | half-open | slow bodies | traps | echoes between traps \
             |\n|---:|---:|---:|---:|---:|---:|---:|\n",
        );
        for (round, d) in results.iter().enumerate().filter_map(|(i, r)| Some((i, r.disturbed.as_ref()?))) {
            summary.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} |\n",
                round + 1,
                d.reloads,
                d.killed_mid_call,
                d.half_open,
                d.slow_bodies,
                d.traps,
                d.echoes_between_traps
            ));
        }
    }
    pair::save(&out_dir, &Results { command, rounds: results }, &summary)
}

#[cfg(test)]
mod tests {
    use mcp_wit_bench::cli::parse;

    use super::*;

    #[test]
    fn the_documented_soaks() {
        let cli: Cli = parse("soak --sessions 10000 --calls 30 --rounds 3").unwrap();
        assert_eq!((cli.sessions, cli.calls, cli.rounds, cli.reload_every_ms, cli.chaos), (10_000, 30, 3, None, false));
        assert_eq!((cli.client_threads, cli.out), (2, results::dated_dir("soak")));
        let cli: Cli = parse("soak --sessions 10000 --calls 240 --rounds 2 --reload-every-ms 1000 --chaos").unwrap();
        assert_eq!(
            (cli.sessions, cli.calls, cli.rounds, cli.reload_every_ms, cli.chaos),
            (10_000, 240, 2, Some(1000), true)
        );
        let cli: Cli = parse("soak --sessions 1000 --client-threads 4 --out o --no-build").unwrap();
        assert_eq!(
            (cli.sessions, cli.calls, cli.client_threads, cli.out, cli.study.no_build),
            (1000, 30, 4, "o".into(), true)
        );
        for line in ["soak extra", "soak -- server", "soak --chaos=1", "soak --reload-every-ms soon", "soak --reps 3"] {
            assert!(parse::<Cli>(line).is_err(), "{line}");
        }
    }
}
