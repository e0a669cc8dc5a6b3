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
//!     [--reload-every-ms 1000] [--chaos] [--client-threads 2] [--out bench/results/soak] [--no-build]
//!     [--show-stderr]
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, ensure};
use mcp_wit_bench::args::Args;
use mcp_wit_bench::chaos::Disturbances;
use mcp_wit_bench::http::{self, HttpLoadOptions, HttpLoadResult};
use mcp_wit_bench::pair;
use serde::Serialize;

const USAGE: &str = "usage: soak [--sessions N] [--calls N] [--rounds N] [--reload-every-ms N] [--chaos] \
                     [--client-threads T] [--out DIR] [--no-build] [--show-stderr]";

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
    let args = Args::parse(
        std::env::args().skip(1),
        &["sessions", "calls", "rounds", "reload-every-ms", "client-threads", "out"],
        &["chaos", "no-build", "show-stderr", "help"],
    )?;
    if args.switch("help") {
        println!("{USAGE}");
        return Ok(());
    }
    ensure!(args.positional.is_empty() && args.command.is_empty(), "unexpected arguments\n{USAGE}");
    let sessions: usize = args.get("sessions", 10_000)?;
    let rounds: usize = args.get("rounds", 3)?;
    ensure!(sessions > 0 && rounds > 0, "--sessions and --rounds must be at least 1");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("bench/ sits in the workspace").to_path_buf();
    let out_dir = args.value("out").map_or_else(|| root.join("bench/results/soak"), PathBuf::from);
    if !args.switch("no-build") {
        pair::build_release(&root)?;
    }
    let bin_dir = std::env::current_exe()?.parent().context("no directory for the running binary")?.to_path_buf();
    let fixture = |name: &str| PathBuf::from(mcp_wit_tests::FIXTURES).join(name).display().to_string();
    let echo = fixture("echo.wasm");
    let chaos = args.switch("chaos");
    let reload_every = args.value("reload-every-ms").map(str::parse::<u64>).transpose()?.map(Duration::from_millis);
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
        calls_per_session: args.get("calls", 30)?,
        warmup_per_session: 1,
        client_threads: args.get("client-threads", 2)?,
        show_stderr: args.switch("show-stderr"),
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
