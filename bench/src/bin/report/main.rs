//! `report`: the benchmark matrix, its summary and its plot.
//!
//! ```text
//! cargo run --release -p mcp-wit-bench --bin report -- [--calls 20000] [--warmup 2000] [--reps 7]
//!     [--inflight 1,2,4,8,16,32,64] [--pin-cpu 0 | --no-pinned] [--cold-runs 10]
//!     [--out bench/results/<UTC date>-report]
//!     [--sessions 1,8,64,256] [--http-calls 10000] [--http-warmup 1000] [--eras legacy,modern]
//!     [--idle-sessions 1000] [--idle-runs 3]
//!     [--no-stdio] [--no-http] [--no-idle-memory] [--no-cold-start]
//!     [--no-build] [--mcp-wit PATH --components DIR]
//! ```
//!
//! Builds the release binaries (unless `--no-build`), then load-tests three
//! servers of the same `echo` tool, `mcp-wit serve echo.wasm`, rmcp (native)
//! and a bare serde_json server (the floor): over stdio at each in-flight
//! count, and over Streamable HTTP at each session count (one call in flight
//! per session), in each era: 2025-11-25 sessions, and 2026-07-28 requests
//! that stand alone (served statelessly by all three). The repetitions are interleaved (every server at every
//! point, then again) so drift on a shared machine hits all servers alike;
//! medians are reported. Then measures the memory of idle HTTP sessions and
//! times cold starts. Writes `results.json`, `summary.md`, `throughput.svg`
//! (stdio) and `http-throughput.svg` to `--out` (by default a new dated
//! folder, `bench/results/<UTC date>-report/`), prints the summary, and
//! renders the figures of the performance page and the README again
//! ([`mcp_wit_bench::figures`]: the newest report run gives the figures it
//! measured).
//!
//! Each repetition also runs every server at 1 in flight with client and
//! server pinned to one CPU (`--pin-cpu`). On a VM whose idle CPUs halt, a
//! wake-up of the other CPU can cost tens of microseconds and then hides the
//! servers' own per-call cost; on one CPU the hand-offs are plain context
//! switches, so the latency ratio shows what each server adds.
//!
//! `--mcp-wit` and `--components` point at another build of the host and its
//! guests (e.g. of an older revision, to compare); by default the ones of
//! this workspace are used.

mod args;
mod cold_start;
mod matrix;
mod medians;
mod output;
mod servers;
mod summary;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, ensure};
use clap::Parser;
use mcp_wit_bench::figures;
use mcp_wit_bench::http::{self, Era};
use mcp_wit_bench::load::LoadOptions;
use mcp_wit_bench::svg::{self, Chart, Series};

use crate::args::Cli;
use crate::cold_start::{cold_starts, unoptimized_component};
use crate::matrix::{Settings, run_idle_memory, run_matrix, run_stdio_eras};
use crate::medians::{era_medians, http_medians, http_ratios, idle_medians, medians, ratios};
use crate::output::{Results, machine, relative, write};
use crate::servers::{Cache, Host, Server, build};
use crate::summary::markdown;

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("report: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let mut settings = Settings {
        calls: cli.calls,
        warmup: cli.warmup,
        reps: cli.reps,
        inflight: cli.inflight,
        pin_cpu: (!cli.no_pinned).then_some(cli.pin_cpu),
        cold_runs: cli.cold_runs,
        stdio: !cli.no_stdio,
        http_sessions: if cli.no_http { Vec::new() } else { cli.sessions },
        http_calls: cli.http_calls,
        http_warmup: cli.http_warmup,
        eras: cli.eras,
        idle_sessions: cli.idle_sessions,
        idle_runs: if cli.no_idle_memory { 0 } else { cli.idle_runs },
        protocol_version: mcp_wit_bench::PROTOCOL_VERSION,
        mcp_wit: String::new(),
    };
    ensure!(settings.reps > 0, "--reps must be at least 1");
    ensure!(!settings.stdio || !settings.inflight.is_empty(), "--inflight must not be empty");
    ensure!(settings.http_sessions.iter().all(|&n| n > 0), "--sessions must be at least 1");
    ensure!(settings.idle_runs == 0 || settings.idle_sessions > 0, "--idle-sessions must be at least 1");
    let http = !settings.http_sessions.is_empty() || settings.idle_runs > 0;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("bench/ sits in the workspace").to_path_buf();
    let out_dir = cli.out;

    if !cli.study.no_build {
        build(&root, cli.mcp_wit.is_none())?;
    }
    // The binaries sit beside this one (target/release); the guests are the
    // fixture components, which the build script of mcp-wit-tests builds.
    let bin_dir = std::env::current_exe()?.parent().context("no directory for the running binary")?.to_path_buf();
    let guests = cli.components.unwrap_or_else(|| PathBuf::from(mcp_wit_tests::FIXTURES));
    let host = Host::detect(cli.mcp_wit.unwrap_or_else(|| bin_dir.join("mcp-wit")), &root)?;
    ensure!(!http || host.has_http, "{} has no `serve --http`: pass --no-http --no-idle-memory", host.binary.display());
    let rmcp = bin_dir.join("baseline-rmcp").display().to_string();
    let floor = bin_dir.join("baseline-serde").display().to_string();
    let with_http = |program: &str| vec![program.to_string(), "--http".into(), http::ADDR.into()];
    let servers = vec![
        Server {
            key: "mcp-wit",
            label: "mcp-wit serve echo.wasm",
            http_label: "mcp-wit serve echo.wasm --http",
            color: "#1f6fb4",
            dashed: false,
            // Start-up is not measured here: let the cache speed it up.
            command: host.serve(&guests.join("echo.wasm"), Cache::On),
            http_command: host.serve_http(&guests.join("echo.wasm")),
        },
        Server {
            key: "rmcp",
            label: "rmcp 3.9 (native)",
            http_label: "rmcp 3.9 (native)",
            color: "#e8730c",
            dashed: false,
            http_command: with_http(&rmcp),
            command: vec![rmcp],
        },
        Server {
            key: "floor",
            label: "serde_json loop (floor)",
            http_label: "hyper + serde_json (floor)",
            color: "#2a9d3a",
            dashed: true,
            http_command: with_http(&floor),
            command: vec![floor],
        },
    ];
    for server in &servers {
        let program = Path::new(&server.command[0]);
        ensure!(program.exists(), "{} is missing: build with `cargo build --release --workspace`", program.display());
    }
    ensure!(guests.join("echo.wasm").exists(), "no echo.wasm in {}: not a directory of built guests", guests.display());
    settings.mcp_wit = relative(&host.describe(), &root);

    let machine = machine(&root);
    eprintln!(
        "machine: {} cpus, {}; stdio: {} calls per point (+ warm-up: {} calls at a time, for at least {} s); HTTP: {} calls per point (+{} warm-up); {} reps",
        machine.cpus,
        machine.cpu_model,
        settings.calls,
        settings.warmup,
        LoadOptions::default().warmup_min.as_secs_f64(),
        settings.http_calls,
        settings.http_warmup,
        settings.reps
    );

    let show_stderr = cli.study.show_stderr;
    let (runs, http_runs) = run_matrix(&servers, &settings, show_stderr)?;
    let stdio_era_runs = run_stdio_eras(&servers, &settings, show_stderr)?;
    let stdio_eras = era_medians(&settings, &stdio_era_runs);
    let cells = medians(&servers, &settings, &runs);
    let ratios = ratios(&settings, &runs, &cells);
    let http_cells = http_medians(&servers, &settings, &http_runs);
    let http_ratios = http_ratios(&settings, &http_runs, &http_cells);
    let idle_runs = run_idle_memory(&servers, &settings, show_stderr)?;
    let idle_cells = idle_medians(&servers, &idle_runs);
    let cold_start = if cli.no_cold_start {
        Vec::new()
    } else {
        let unoptimized = unoptimized_component(&root, !cli.study.no_build);
        cold_starts(&host, &servers, &guests, unoptimized, &root, settings.cold_runs, show_stderr)?
    };

    std::fs::create_dir_all(&out_dir).with_context(|| format!("cannot create {}", out_dir.display()))?;
    let summary = markdown(
        &servers,
        &settings,
        &machine,
        (&cells, &ratios, &stdio_eras),
        (&http_cells, &http_ratios),
        &idle_cells,
        &cold_start,
    );
    let chart = svg::line_chart(&Chart {
        title: "Throughput vs. requests in flight".into(),
        subtitle: format!(
            "echo tool over stdio; median of {} interleaved runs of {} calls; {} cpus, {}",
            settings.reps, settings.calls, machine.cpus, machine.cpu_model
        ),
        x_label: "requests in flight".into(),
        y_label: "calls per second".into(),
        series: servers
            .iter()
            .map(|s| Series {
                name: s.label.into(),
                color: s.color.into(),
                dashed: s.dashed,
                points: cells
                    .iter()
                    .filter(|c| c.server == s.key && !c.pinned)
                    .map(|c| (c.inflight as f64, c.calls_per_sec))
                    .collect(),
            })
            .collect(),
    });
    let http_chart = svg::line_chart(&Chart {
        title: "Streamable HTTP: throughput vs. sessions".into(),
        subtitle: format!(
            "echo tool on 127.0.0.1, one call in flight per session; median of {} interleaved runs; {} cpus",
            settings.reps, machine.cpus
        ),
        x_label: "sessions (one keep-alive connection and one call in flight each)".into(),
        y_label: "calls per second".into(),
        series: servers
            .iter()
            .map(|s| Series {
                name: s.http_label.into(),
                color: s.color.into(),
                dashed: s.dashed,
                // The 2025 sessions, as ever; 2026-07-28 is in the tables.
                points: http_cells
                    .iter()
                    .filter(|c| c.server == s.key && c.era == Era::Legacy)
                    .map(|c| (c.sessions as f64, c.calls_per_sec))
                    .collect(),
            })
            .collect(),
    });
    let commands = |f: fn(&Server) -> &Vec<String>| -> BTreeMap<&'static str, Vec<String>> {
        servers.iter().map(|s| (s.key, f(s).iter().map(|a| relative(a, &root)).collect())).collect()
    };
    let results = Results {
        servers: commands(|s| &s.command),
        http_servers: commands(|s| &s.http_command),
        machine,
        settings,
        ratios,
        medians: cells,
        http_ratios,
        http_medians: http_cells,
        idle_memory: idle_cells,
        cold_start,
        runs,
        http_runs,
        idle_runs,
        stdio_eras,
        stdio_era_runs,
    };
    let mut written = vec!["results.json", "summary.md"];
    write(&out_dir.join("results.json"), &(serde_json::to_string_pretty(&results)? + "\n"))?;
    write(&out_dir.join("summary.md"), &summary)?;
    if results.settings.stdio {
        write(&out_dir.join("throughput.svg"), &chart)?;
        written.push("throughput.svg");
    }
    if !results.settings.http_sessions.is_empty() {
        write(&out_dir.join("http-throughput.svg"), &http_chart)?;
        written.push("http-throughput.svg");
    }
    println!("{summary}");
    eprintln!("wrote {}/{{{}}}", out_dir.display(), written.join(","));
    // The run is kept whatever happens here: a page that cannot be rendered
    // is reported, not a reason to lose minutes of measurements.
    match figures::write(&root) {
        Ok(changed) => {
            for path in changed {
                eprintln!("figures: rewrote {}", path.strip_prefix(&root).unwrap_or(&path).display());
            }
        }
        Err(e) => eprintln!("figures: cannot render the pages from the results: {e:#}"),
    }
    Ok(())
}
