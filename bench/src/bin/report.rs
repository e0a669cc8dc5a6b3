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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, ensure};
use clap::{ArgAction, Parser};
use mcp_wit_bench::cli::{Study, item};
use mcp_wit_bench::figures;
use mcp_wit_bench::http::{self, Era, HttpLoadOptions, HttpLoadResult, IdleMemory};
use mcp_wit_bench::load::{self, ColdStart, LoadOptions, LoadResult};
use mcp_wit_bench::results;
use mcp_wit_bench::stats::{median, min_max, thousands};
use mcp_wit_bench::svg::{self, Chart, Series};
use serde::Serialize;

/// The benchmark matrix: `mcp-wit serve echo.wasm`, rmcp (native) and a bare
/// serde_json server (the floor) over stdio at each in-flight count and over
/// Streamable HTTP at each session count, in each era, repetitions
/// interleaved; then idle-session memory and cold starts. Writes
/// results.json, summary.md and the plots, and prints the summary.
#[derive(Parser, Debug)]
#[command(
    // A flag given twice counts once, the last value, as scripts may append.
    args_override_self = true,
    after_help = "Examples:\n  \
        cargo run --release -p mcp-wit-bench --bin report\n  \
        cargo run --release -p mcp-wit-bench --bin report -- --reps 3 --no-http --no-idle-memory\n  \
        cargo run --release -p mcp-wit-bench --bin report -- --no-build \\\n      \
        --mcp-wit old/target/release/mcp-wit --components old/target/guests/wasm32-wasip2/release"
)]
struct Cli {
    /// Measured calls of a stdio point.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    calls: usize,
    /// Warm-up calls of a stdio point.
    #[arg(long, value_name = "N", default_value_t = 2_000)]
    warmup: usize,
    /// Repetitions of both load matrices.
    #[arg(long, value_name = "R", default_value_t = 7)]
    reps: usize,
    /// Calls in flight of the stdio matrix (comma-separated).
    #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = item::<usize>, action = ArgAction::Set,
          default_value = "1,2,4,8,16,32,64")]
    inflight: Vec<usize>,
    /// The CPU of the stdio runs at 1 in flight that pin client and server to one CPU.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pin_cpu: usize,
    /// Leave those pinned runs out.
    #[arg(long)]
    no_pinned: bool,
    /// Cold-start runs per case.
    #[arg(long, value_name = "K", default_value_t = 10)]
    cold_runs: usize,
    /// Where results.json, summary.md and the plots go.
    #[arg(long, value_name = "DIR", default_value_os_t = results::dated_dir("report"))]
    out: PathBuf,
    /// Session counts of the HTTP matrix (comma-separated), one call in flight per session.
    #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = item::<usize>, action = ArgAction::Set,
          default_value = "1,8,64,256")]
    sessions: Vec<usize>,
    /// Measured calls of an HTTP point, shared by its sessions (at least 20 each).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    http_calls: usize,
    /// Warm-up calls of an HTTP point, shared by its sessions (at least 2 each).
    #[arg(long, value_name = "N", default_value_t = 1_000)]
    http_warmup: usize,
    /// The eras measured (comma-separated): the HTTP matrix runs in each, and over stdio
    /// mcp-wit at 1 and 32 in flight.
    #[arg(long, value_name = "ERA,...", value_delimiter = ',', value_parser = item::<Era>, action = ArgAction::Set,
          default_value = "legacy,modern")]
    eras: Vec<Era>,
    /// Sessions of each idle-memory run.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    idle_sessions: usize,
    /// Idle-memory runs per server.
    #[arg(long, value_name = "K", default_value_t = 3)]
    idle_runs: usize,
    /// Leave the stdio matrix out.
    #[arg(long)]
    no_stdio: bool,
    /// Leave the HTTP matrix out.
    #[arg(long)]
    no_http: bool,
    /// Leave the idle-memory measurement out.
    #[arg(long)]
    no_idle_memory: bool,
    /// Leave the cold starts out.
    #[arg(long)]
    no_cold_start: bool,
    #[command(flatten)]
    study: Study,
    /// Another build of the host to measure (e.g. of an older revision); not built here.
    #[arg(long, value_name = "PATH")]
    mcp_wit: Option<PathBuf>,
    /// The built guests of that build [default: this workspace's fixtures].
    #[arg(long, value_name = "DIR")]
    components: Option<PathBuf>,
}

/// Targets from the performance issue, shown beside the measurements.
const TARGET_P50_RATIO: f64 = 1.15;
const TARGET_THROUGHPUT_RATIO: f64 = 5.0;
const TARGET_IDLE_MIB: f64 = 2.0;

/// Fewest measured calls (and warm-up calls) of one session in an HTTP run,
/// however many sessions share `--http-calls`.
const MIN_CALLS_PER_SESSION: usize = 20;
const MIN_WARMUP_PER_SESSION: usize = 2;

/// In-flight counts of the stdio comparison of eras (mcp-wit only).
const ERA_INFLIGHT: [usize; 2] = [1, 32];

/// Size the padded component is grown to for the cold-start measurement.
const PADDED_SIZE: usize = 1024 * 1024;

/// One server under test.
struct Server {
    key: &'static str,
    label: &'static str,
    /// Its name in the HTTP tables.
    http_label: &'static str,
    color: &'static str,
    dashed: bool,
    /// Serves stdio.
    command: Vec<String>,
    /// Serves Streamable HTTP on `{addr}`.
    http_command: Vec<String>,
}

/// One load run of the matrix.
#[derive(Serialize)]
struct Run {
    server: &'static str,
    rep: usize,
    #[serde(flatten)]
    result: LoadResult,
}

/// One stdio run of mcp-wit in one era.
#[derive(Serialize)]
struct EraRun {
    era: Era,
    rep: usize,
    #[serde(flatten)]
    result: LoadResult,
}

/// The medians of mcp-wit over stdio at one in-flight count, in each era.
#[derive(Serialize)]
struct EraCell {
    era: Era,
    inflight: usize,
    calls_per_sec: f64,
    p50_us: f64,
    cpu_us_per_call: f64,
}

/// One HTTP load run of the matrix.
#[derive(Serialize)]
struct HttpRun {
    server: &'static str,
    rep: usize,
    #[serde(flatten)]
    result: HttpLoadResult,
}

/// One idle-memory measurement.
#[derive(Serialize)]
struct IdleRun {
    server: &'static str,
    run: usize,
    #[serde(flatten)]
    result: IdleMemory,
}

/// The medians of one (server, session count) cell of the HTTP matrix.
#[derive(Serialize, Clone)]
struct HttpCell {
    server: &'static str,
    era: Era,
    sessions: usize,
    runs: usize,
    calls_per_sec: f64,
    p50_us: f64,
    p99_us: f64,
    cpu_us_per_call: f64,
    client_cpu_us_per_call: f64,
    framing: String,
}

/// mcp-wit in one era against one baseline at one session count: ratios of
/// medians and the range of the per-repetition ratios. The baseline is
/// another server in the same era, or mcp-wit itself in the legacy era.
#[derive(Serialize)]
struct HttpRatio {
    era: Era,
    sessions: usize,
    against: &'static str,
    against_era: Era,
    /// mcp-wit's calls/s ÷ the baseline's.
    throughput: f64,
    throughput_rep_min: f64,
    throughput_rep_max: f64,
    /// mcp-wit's p50 ÷ the baseline's.
    p50: f64,
    p50_rep_min: f64,
    p50_rep_max: f64,
}

/// The medians of one server's idle-memory runs.
#[derive(Serialize)]
struct IdleCell {
    server: &'static str,
    runs: usize,
    sessions: usize,
    kib_per_session: f64,
    kib_per_session_min: f64,
    kib_per_session_max: f64,
    mib_per_session: f64,
    rss_start_kib: f64,
    rss_first_kib: f64,
    rss_all_kib: f64,
    target: &'static str,
    met: bool,
}

/// One column of the matrix: an in-flight count, optionally with client and
/// server confined to one CPU.
#[derive(Clone, Copy, PartialEq)]
struct Point {
    inflight: usize,
    pinned: bool,
}

impl Point {
    fn of(result: &LoadResult) -> Self {
        Point { inflight: result.inflight, pinned: result.cpus.is_some() }
    }
}

/// The medians of one (server, point) cell.
#[derive(Serialize, Clone)]
struct Cell {
    server: &'static str,
    inflight: usize,
    /// Client and server ran on one CPU.
    pinned: bool,
    runs: usize,
    calls_per_sec: f64,
    p50_us: f64,
    p99_us: f64,
    cpu_us_per_call: f64,
    client_cpu_us_per_call: f64,
}

/// A headline ratio: the ratio of medians, and the range of the per-repetition
/// ratios (each taken between runs made back to back).
#[derive(Serialize)]
struct Ratio {
    what: &'static str,
    value: f64,
    rep_min: f64,
    rep_max: f64,
    target: &'static str,
    met: bool,
}

#[derive(Serialize)]
struct ColdStartRow {
    server: String,
    component_bytes: Option<u64>,
    #[serde(flatten)]
    result: ColdStart,
}

#[derive(Serialize)]
struct Machine {
    cpus: usize,
    cpu_model: String,
    kernel: String,
    rustc: String,
    commit: String,
    date_utc: String,
}

#[derive(Serialize)]
struct Settings {
    calls: usize,
    warmup: usize,
    reps: usize,
    inflight: Vec<usize>,
    /// The CPU the pinned 1-in-flight runs use (`None`: no pinned runs).
    pin_cpu: Option<usize>,
    cold_runs: usize,
    /// Whether the stdio matrix ran.
    stdio: bool,
    /// Session counts of the HTTP matrix (empty: not run).
    http_sessions: Vec<usize>,
    /// The eras measured: 2025-11-25 sessions, 2026-07-28 stateless
    /// requests. The HTTP matrix runs in each; over stdio, mcp-wit runs in
    /// each at [`ERA_INFLIGHT`].
    eras: Vec<Era>,
    /// Measured calls per HTTP point, shared by its sessions.
    http_calls: usize,
    /// Warm-up calls per HTTP point, shared by its sessions.
    http_warmup: usize,
    /// Sessions of each idle-memory run, and how many runs per server (0: not run).
    idle_sessions: usize,
    idle_runs: usize,
    protocol_version: &'static str,
    /// The `mcp-wit` binary measured, and its version.
    mcp_wit: String,
}

#[derive(Serialize)]
struct Results {
    machine: Machine,
    settings: Settings,
    servers: BTreeMap<&'static str, Vec<String>>,
    http_servers: BTreeMap<&'static str, Vec<String>>,
    ratios: Vec<Ratio>,
    medians: Vec<Cell>,
    http_ratios: Vec<HttpRatio>,
    http_medians: Vec<HttpCell>,
    idle_memory: Vec<IdleCell>,
    cold_start: Vec<ColdStartRow>,
    runs: Vec<Run>,
    http_runs: Vec<HttpRun>,
    idle_runs: Vec<IdleRun>,
    stdio_eras: Vec<EraCell>,
    stdio_era_runs: Vec<EraRun>,
}

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

/// Builds the bench binaries (and `mcp-wit`, of the `mcp-wit-cli` package,
/// unless another build is named) in release mode. `cargo run` has released
/// its lock by the time this runs, so the nested build is fine.
fn build(root: &Path, host: bool) -> anyhow::Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut args = vec!["build", "--release", "-p", "mcp-wit-bench"];
    if host {
        args.extend(["-p", "mcp-wit-cli"]);
    }
    args.push("--bins");
    eprintln!("building: cargo {}", args.join(" "));
    let status = Command::new(cargo).current_dir(root).args(&args).status().context("cannot run cargo")?;
    ensure!(status.success(), "the release build failed");
    Ok(())
}

/// Every server at every in-flight count and every session count, `reps`
/// times over. The server order rotates each repetition so none always runs
/// first.
fn run_matrix(servers: &[Server], settings: &Settings, show_stderr: bool) -> anyhow::Result<(Vec<Run>, Vec<HttpRun>)> {
    let mut runs = Vec::new();
    let mut http_runs = Vec::new();
    let mut order: Vec<&Server> = servers.iter().collect();
    for rep in 0..settings.reps {
        for point in points(settings) {
            for server in &order {
                let options = LoadOptions {
                    inflight: point.inflight,
                    calls: settings.calls,
                    warmup: settings.warmup,
                    show_stderr,
                    cpus: point.pinned.then(|| settings.pin_cpu.into_iter().collect()),
                    ..LoadOptions::default()
                };
                let result = load::run_load(&server.command, &options)
                    .with_context(|| format!("{} at {}", server.key, describe(point)))?;
                eprintln!(
                    "rep {}/{} {:>8} {:>20}: {:>9.0} calls/s  p50 {:>8.1} µs  p99 {:>8.1} µs  cpu {:>5.1} µs/call",
                    rep + 1,
                    settings.reps,
                    server.key,
                    describe(point),
                    result.calls_per_sec,
                    result.p50_us,
                    result.p99_us,
                    result.cpu_us_per_call
                );
                runs.push(Run { server: server.key, rep, result });
            }
        }
        for (&era, &sessions) in settings.eras.iter().flat_map(|e| settings.http_sessions.iter().map(move |s| (e, s))) {
            for server in &order {
                let options = HttpLoadOptions {
                    era,
                    sessions,
                    calls_per_session: (settings.http_calls / sessions).max(MIN_CALLS_PER_SESSION),
                    warmup_per_session: (settings.http_warmup / sessions).max(MIN_WARMUP_PER_SESSION),
                    show_stderr,
                    ..HttpLoadOptions::default()
                };
                let result = http::run_http_load(&server.http_command, &options)
                    .with_context(|| format!("{} over HTTP ({}) with {sessions} sessions", server.key, era.name()))?;
                eprintln!(
                    "rep {}/{} {:>8} {:>18} sessions: {:>9.0} calls/s  p50 {:>8.1} µs  p99 {:>8.1} µs  cpu {:>5.1} µs/call",
                    rep + 1,
                    settings.reps,
                    server.key,
                    format!("HTTP {} {sessions}", era.name()),
                    result.calls_per_sec,
                    result.p50_us,
                    result.p99_us,
                    result.cpu_us_per_call
                );
                http_runs.push(HttpRun { server: server.key, rep, result });
            }
        }
        order.rotate_left(1);
    }
    Ok((runs, http_runs))
}

/// mcp-wit over stdio in each era at [`ERA_INFLIGHT`], `reps` times over,
/// the eras alternating (only when the stdio matrix runs and there are two
/// eras to compare).
fn run_stdio_eras(servers: &[Server], settings: &Settings, show_stderr: bool) -> anyhow::Result<Vec<EraRun>> {
    let mut runs = Vec::new();
    if !settings.stdio || settings.eras.len() < 2 {
        return Ok(runs);
    }
    let wit = servers.iter().find(|s| s.key == "mcp-wit").context("no mcp-wit server")?;
    for rep in 0..settings.reps {
        for inflight in ERA_INFLIGHT {
            for &era in &settings.eras {
                let options = LoadOptions {
                    inflight,
                    calls: settings.calls,
                    warmup: settings.warmup,
                    show_stderr,
                    era,
                    ..LoadOptions::default()
                };
                let result = load::run_load(&wit.command, &options)
                    .with_context(|| format!("mcp-wit over stdio ({}) at {inflight} in flight", era.name()))?;
                eprintln!(
                    "rep {}/{} mcp-wit stdio {} {inflight:>2} in flight: {:>9.0} calls/s  p50 {:>8.1} µs  cpu {:>5.1} µs/call",
                    rep + 1,
                    settings.reps,
                    era.name(),
                    result.calls_per_sec,
                    result.p50_us,
                    result.cpu_us_per_call
                );
                runs.push(EraRun { era, rep, result });
            }
        }
    }
    Ok(runs)
}

fn era_medians(settings: &Settings, runs: &[EraRun]) -> Vec<EraCell> {
    let mut cells = Vec::new();
    for inflight in ERA_INFLIGHT {
        for &era in &settings.eras {
            let cell: Vec<&LoadResult> =
                runs.iter().filter(|r| r.era == era && r.result.inflight == inflight).map(|r| &r.result).collect();
            if cell.is_empty() {
                continue;
            }
            let med = |f: fn(&LoadResult) -> f64| median(&cell.iter().map(|r| f(r)).collect::<Vec<_>>());
            cells.push(EraCell {
                era,
                inflight,
                calls_per_sec: med(|r| r.calls_per_sec),
                p50_us: med(|r| r.p50_us),
                cpu_us_per_call: med(|r| r.cpu_us_per_call),
            });
        }
    }
    cells
}

/// Idle-session memory of every server, `idle_runs` times over, the server
/// order rotating.
fn run_idle_memory(servers: &[Server], settings: &Settings, show_stderr: bool) -> anyhow::Result<Vec<IdleRun>> {
    let mut runs = Vec::new();
    let mut order: Vec<&Server> = servers.iter().collect();
    for run in 0..settings.idle_runs {
        for server in &order {
            let options = http::IdleOptions { sessions: settings.idle_sessions, show_stderr, ..Default::default() };
            let result = http::idle_memory(&server.http_command, &options)
                .with_context(|| format!("idle memory of {}", server.key))?;
            eprintln!(
                "idle {}/{} {:>8}: {} sessions, RSS {:.1} → {:.1} MiB: {:>6.1} KiB per session",
                run + 1,
                settings.idle_runs,
                server.key,
                result.sessions,
                result.rss_first_kib as f64 / 1024.0,
                result.rss_all_kib as f64 / 1024.0,
                result.kib_per_session
            );
            runs.push(IdleRun { server: server.key, run, result });
        }
        order.rotate_left(1);
    }
    Ok(runs)
}

/// The matrix's columns: every in-flight count on all CPUs, then 1 in flight
/// on one CPU.
fn points(settings: &Settings) -> Vec<Point> {
    if !settings.stdio {
        return Vec::new();
    }
    let mut points: Vec<Point> = settings.inflight.iter().map(|&inflight| Point { inflight, pinned: false }).collect();
    if settings.pin_cpu.is_some() {
        points.push(Point { inflight: 1, pinned: true });
    }
    points
}

fn describe(point: Point) -> String {
    if point.pinned { format!("{} in flight, 1 CPU", point.inflight) } else { format!("{} in flight", point.inflight) }
}

fn medians(servers: &[Server], settings: &Settings, runs: &[Run]) -> Vec<Cell> {
    let mut cells = Vec::new();
    for server in servers {
        for point in points(settings) {
            let cell: Vec<&LoadResult> = runs
                .iter()
                .filter(|r| r.server == server.key && Point::of(&r.result) == point)
                .map(|r| &r.result)
                .collect();
            let med = |f: fn(&LoadResult) -> f64| median(&cell.iter().map(|r| f(r)).collect::<Vec<_>>());
            cells.push(Cell {
                server: server.key,
                inflight: point.inflight,
                pinned: point.pinned,
                runs: cell.len(),
                calls_per_sec: med(|r| r.calls_per_sec),
                p50_us: med(|r| r.p50_us),
                p99_us: med(|r| r.p99_us),
                cpu_us_per_call: med(|r| r.cpu_us_per_call),
                client_cpu_us_per_call: med(|r| r.client_cpu_s * 1e6 / r.calls as f64),
            });
        }
    }
    cells
}

/// The headline ratios of the issue, where their points were run.
fn ratios(settings: &Settings, runs: &[Run], cells: &[Cell]) -> Vec<Ratio> {
    let cell = |server: &str, point: Point| {
        cells.iter().find(|c| c.server == server && c.inflight == point.inflight && c.pinned == point.pinned)
    };
    // Ratio between two servers' runs of the same repetition.
    let per_rep = |a: &str, b: &str, point: Point, f: fn(&LoadResult) -> f64| -> Vec<f64> {
        (0..settings.reps)
            .filter_map(|rep| {
                let find = |server: &str| {
                    runs.iter().find(|r| r.server == server && r.rep == rep && Point::of(&r.result) == point)
                };
                Some(f(&find(a)?.result) / f(&find(b)?.result))
            })
            .collect()
    };
    let mut ratios = Vec::new();
    for (pinned, what) in [
        (false, "p50 latency at 1 in flight: mcp-wit ÷ serde floor"),
        (true, "p50 latency at 1 in flight, client and server on one CPU: mcp-wit ÷ serde floor"),
    ] {
        let point = Point { inflight: 1, pinned };
        if let (Some(wit), Some(floor)) = (cell("mcp-wit", point), cell("floor", point)) {
            let value = wit.p50_us / floor.p50_us;
            let (rep_min, rep_max) = min_max(&per_rep("mcp-wit", "floor", point, |r| r.p50_us));
            ratios.push(Ratio { what, value, rep_min, rep_max, target: "≤ 1.15×", met: value <= TARGET_P50_RATIO });
        }
    }
    let point = Point { inflight: 32, pinned: false };
    if let (Some(wit), Some(rmcp)) = (cell("mcp-wit", point), cell("rmcp", point)) {
        let value = wit.calls_per_sec / rmcp.calls_per_sec;
        let (rep_min, rep_max) = min_max(&per_rep("mcp-wit", "rmcp", point, |r| r.calls_per_sec));
        ratios.push(Ratio {
            what: "throughput at 32 in flight: mcp-wit ÷ rmcp",
            value,
            rep_min,
            rep_max,
            target: "≥ 5×",
            met: value >= TARGET_THROUGHPUT_RATIO,
        });
    }
    ratios
}

fn http_medians(servers: &[Server], settings: &Settings, runs: &[HttpRun]) -> Vec<HttpCell> {
    let mut cells = Vec::new();
    for &era in &settings.eras {
        for server in servers {
            for &sessions in &settings.http_sessions {
                let cell: Vec<&HttpLoadResult> = runs
                    .iter()
                    .filter(|r| r.server == server.key && r.result.era == era && r.result.sessions == sessions)
                    .map(|r| &r.result)
                    .collect();
                let med = |f: fn(&HttpLoadResult) -> f64| median(&cell.iter().map(|r| f(r)).collect::<Vec<_>>());
                cells.push(HttpCell {
                    server: server.key,
                    era,
                    sessions,
                    runs: cell.len(),
                    calls_per_sec: med(|r| r.calls_per_sec),
                    p50_us: med(|r| r.p50_us),
                    p99_us: med(|r| r.p99_us),
                    cpu_us_per_call: med(|r| r.cpu_us_per_call),
                    client_cpu_us_per_call: med(|r| r.client_cpu_s * 1e6 / r.calls as f64),
                    framing: cell.first().map_or_else(String::new, |r| r.framing.clone()),
                });
            }
        }
    }
    cells
}

/// mcp-wit ÷ each baseline of its era at each session count, and modern
/// mcp-wit ÷ legacy mcp-wit.
fn http_ratios(settings: &Settings, runs: &[HttpRun], cells: &[HttpCell]) -> Vec<HttpRatio> {
    let cell = |server: &str, era: Era, sessions: usize| {
        cells.iter().find(|c| c.server == server && c.era == era && c.sessions == sessions)
    };
    let per_rep = |era: Era, against: (&str, Era), sessions: usize, f: fn(&HttpLoadResult) -> f64| -> (f64, f64) {
        let ratios: Vec<f64> = (0..settings.reps)
            .filter_map(|rep| {
                let find = |server: &str, era: Era| {
                    runs.iter().find(|r| {
                        r.server == server && r.rep == rep && r.result.era == era && r.result.sessions == sessions
                    })
                };
                Some(f(&find("mcp-wit", era)?.result) / f(&find(against.0, against.1)?.result))
            })
            .collect();
        min_max(&ratios)
    };
    let mut ratios = Vec::new();
    for &era in &settings.eras {
        let mut baselines = vec![("rmcp", era), ("floor", era)];
        if era == Era::Modern && settings.eras.contains(&Era::Legacy) {
            baselines.push(("mcp-wit", Era::Legacy));
        }
        for &sessions in &settings.http_sessions {
            for &(against, against_era) in &baselines {
                let (Some(wit), Some(other)) = (cell("mcp-wit", era, sessions), cell(against, against_era, sessions))
                else {
                    continue;
                };
                let (throughput_rep_min, throughput_rep_max) =
                    per_rep(era, (against, against_era), sessions, |r| r.calls_per_sec);
                let (p50_rep_min, p50_rep_max) = per_rep(era, (against, against_era), sessions, |r| r.p50_us);
                ratios.push(HttpRatio {
                    era,
                    sessions,
                    against,
                    against_era,
                    throughput: wit.calls_per_sec / other.calls_per_sec,
                    throughput_rep_min,
                    throughput_rep_max,
                    p50: wit.p50_us / other.p50_us,
                    p50_rep_min,
                    p50_rep_max,
                });
            }
        }
    }
    ratios
}

fn idle_medians(servers: &[Server], runs: &[IdleRun]) -> Vec<IdleCell> {
    let mut cells = Vec::new();
    for server in servers {
        let cell: Vec<&IdleMemory> = runs.iter().filter(|r| r.server == server.key).map(|r| &r.result).collect();
        let Some(first) = cell.first() else { continue };
        let med = |f: fn(&IdleMemory) -> f64| median(&cell.iter().map(|r| f(r)).collect::<Vec<_>>());
        let kib_per_session = med(|r| r.kib_per_session);
        let (kib_per_session_min, kib_per_session_max) =
            min_max(&cell.iter().map(|r| r.kib_per_session).collect::<Vec<_>>());
        cells.push(IdleCell {
            server: server.key,
            runs: cell.len(),
            sessions: first.sessions,
            kib_per_session,
            kib_per_session_min,
            kib_per_session_max,
            mib_per_session: kib_per_session / 1024.0,
            rss_start_kib: med(|r| r.rss_start_kib as f64),
            rss_first_kib: med(|r| r.rss_first_kib as f64),
            rss_all_kib: med(|r| r.rss_all_kib as f64),
            target: "≤ 2 MiB",
            met: kib_per_session / 1024.0 <= TARGET_IDLE_MIB,
        });
    }
    cells
}

/// Spawn → `initialize` answer for mcp-wit with components of several sizes
/// (compiling each time, and from the compile cache where the build has
/// one), and for the two native servers.
fn cold_starts(
    host: &Host,
    servers: &[Server],
    guests: &Path,
    unoptimized: Option<PathBuf>,
    root: &Path,
    runs: usize,
    show_stderr: bool,
) -> anyhow::Result<Vec<ColdStartRow>> {
    let padded = root.join("target").join("bench").join("echo-padded-1mib.wasm");
    write_padded_component(&guests.join("echo.wasm"), &padded, PADDED_SIZE)?;
    let mut components = vec![
        ("echo.wasm".to_string(), guests.join("echo.wasm")),
        ("everything.wasm".to_string(), guests.join("everything.wasm")),
    ];
    if let Some(path) = unoptimized {
        components.push(("everything.wasm, unoptimised build".to_string(), path));
    }
    components.push(("echo.wasm padded to 1 MiB".to_string(), padded));
    let mut cases: Vec<(String, Vec<String>, Option<PathBuf>)> = Vec::new();
    for (name, path) in components {
        if host.has_cache {
            // The uncounted first run of `cold_start` fills the cache.
            let compiling = host.serve(&path, Cache::Off);
            cases.push((format!("mcp-wit serve {name}, compiling (--no-cache)"), compiling, Some(path.clone())));
            cases.push((format!("mcp-wit serve {name}, cached"), host.serve(&path, Cache::On), Some(path)));
        } else {
            cases.push((format!("mcp-wit serve {name}"), host.serve(&path, Cache::On), Some(path)));
        }
    }
    for server in &servers[1..] {
        cases.push((server.label.to_string(), server.command.clone(), None));
    }
    let mut rows = Vec::new();
    for (name, command, component) in cases {
        let result = load::cold_start(&command, runs, show_stderr).with_context(|| format!("cold start of {name}"))?;
        eprintln!("cold start {name:>36}: median {:>7.2} ms", result.median_ms);
        let component_bytes = component.map(|p| std::fs::metadata(p).map(|m| m.len())).transpose()?;
        rows.push(ColdStartRow { server: name, component_bytes, result });
    }
    Ok(rows)
}

/// The `mcp-wit` binary under test and what its `serve` accepts.
struct Host {
    binary: PathBuf,
    version: String,
    /// Whether this build has a compile cache (`--cache-dir`, `--no-cache`);
    /// the report also measures older builds, which have none.
    has_cache: bool,
    /// Whether this build serves Streamable HTTP (`serve --http`).
    has_http: bool,
    /// The report's own cache: it never touches the user's.
    cache_dir: PathBuf,
}

#[derive(Clone, Copy)]
enum Cache {
    /// Compile the component at every start.
    Off,
    /// Use the report's cache directory (where the build has a cache).
    On,
}

impl Host {
    fn detect(binary: PathBuf, root: &Path) -> anyhow::Result<Self> {
        let run = |args: &[&str]| -> anyhow::Result<String> {
            let output = Command::new(&binary)
                .args(args)
                .output()
                .with_context(|| format!("cannot run {} (build it with `cargo build --release`)", binary.display()))?;
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        };
        let help = run(&["serve", "--help"])?;
        let version = run(&["--version"])?.trim().to_string();
        let has_cache = help.contains("--no-cache") && help.contains("--cache-dir");
        let has_http = help.contains("--http");
        Ok(Host { binary, version, has_cache, has_http, cache_dir: root.join("target").join("bench").join("cache") })
    }

    /// The command line serving `component` with guest output discarded.
    fn serve(&self, component: &Path, cache: Cache) -> Vec<String> {
        let mut command: Vec<String> = vec![
            self.binary.display().to_string(),
            "serve".into(),
            component.display().to_string(),
            "--guest-output".into(),
            "discard".into(),
        ];
        match (self.has_cache, cache) {
            (false, _) => {}
            (true, Cache::Off) => command.push("--no-cache".into()),
            (true, Cache::On) => command.extend(["--cache-dir".into(), self.cache_dir.display().to_string()]),
        }
        command
    }

    /// The command line serving `component` over Streamable HTTP on `{addr}`,
    /// with the defaults of `serve --http` (sessions, SSE answers).
    fn serve_http(&self, component: &Path) -> Vec<String> {
        let mut command = self.serve(component, Cache::On);
        command.extend(["--http".into(), http::ADDR.into()]);
        command
    }

    fn describe(&self) -> String {
        format!("{} ({})", self.binary.display(), self.version)
    }
}

/// A larger component of real code for the cold-start measurement: the
/// `everything` guest built without optimisation (and without debug info, so
/// the size is code, not custom sections). Built once into `target/bench/`;
/// `None` (with a warning) when that build fails.
fn unoptimized_component(root: &Path, build: bool) -> Option<PathBuf> {
    let target_dir = root.join("target").join("bench").join("guests-dev");
    let path = target_dir.join("wasm32-wasip2").join("debug").join("everything.wasm");
    if build {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        eprintln!("building: the `everything` guest without optimisation (for the cold-start table)");
        let mut command = Command::new(cargo);
        command
            .current_dir(root.join("components"))
            .args(["build", "--target", "wasm32-wasip2", "-p", "everything", "--target-dir"])
            .arg(&target_dir)
            .env("CARGO_PROFILE_DEV_DEBUG", "false");
        // As in tests/build.rs: settings meant for the host build stay out.
        for var in
            ["CARGO_ENCODED_RUSTFLAGS", "RUSTFLAGS", "CARGO_BUILD_RUSTFLAGS", "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET"]
        {
            command.env_remove(var);
        }
        match command.status() {
            Ok(status) if status.success() => {}
            _ => {
                eprintln!(
                    "warning: cannot build the unoptimised `everything` guest; leaving it out of the cold-start table"
                );
                return None;
            }
        }
    }
    path.exists().then_some(path)
}

/// Copies the component at `from` to `to`, grown to `size` bytes by one
/// custom section at the end. Custom sections are skipped by compilation, so
/// this measures what the file's size alone costs (reading, parsing, hashing),
/// not the cost of more code.
fn write_padded_component(from: &Path, to: &Path, size: usize) -> anyhow::Result<()> {
    let mut bytes = std::fs::read(from).with_context(|| format!("cannot read {}", from.display()))?;
    const NAME: &[u8] = b"mcp-wit-bench-padding";
    // Section: id 0, LEB128 size; body: LEB128 name length, name, payload.
    // Size the payload so the whole file lands on `size` (LEB128 of the
    // section size is taken at its 5-byte maximum, padded).
    let overhead = 1 + 5 + 1 + NAME.len();
    ensure!(bytes.len() + overhead < size, "{} is already {} bytes", from.display(), bytes.len());
    let payload = size - bytes.len() - overhead;
    let body = 1 + NAME.len() + payload;
    bytes.push(0);
    bytes.extend_from_slice(&leb128_padded(body as u32));
    bytes.push(NAME.len() as u8);
    bytes.extend_from_slice(NAME);
    bytes.resize(bytes.len() + payload, 0);
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(to, &bytes).with_context(|| format!("cannot write {}", to.display()))
}

/// `value` as unsigned LEB128 in exactly 5 bytes (valid: continuation bits
/// on zero groups are allowed).
fn leb128_padded(mut value: u32) -> [u8; 5] {
    let mut out = [0u8; 5];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = (value & 0x7f) as u8;
        value >>= 7;
        if i < 4 {
            *byte |= 0x80;
        }
    }
    out
}

/// The summary: stdio, Streamable HTTP, idle sessions, cold start (each
/// where it ran).
fn markdown(
    servers: &[Server],
    settings: &Settings,
    machine: &Machine,
    stdio: (&[Cell], &[Ratio], &[EraCell]),
    http: (&[HttpCell], &[HttpRatio]),
    idle: &[IdleCell],
    cold_start: &[ColdStartRow],
) -> String {
    let mut md = format!(
        "Machine: {} cpus, {}, Linux {}; {} at {}.\n\
         mcp-wit: `{}`.\n",
        machine.cpus, machine.cpu_model, machine.kernel, machine.commit, machine.date_utc, settings.mcp_wit
    );
    if settings.stdio {
        md += &stdio_markdown(servers, settings, stdio.0, stdio.1);
    }
    if !stdio.2.is_empty() {
        md += &era_markdown(settings, stdio.2);
    }
    if !settings.http_sessions.is_empty() {
        for &era in &settings.eras {
            md += &http_markdown(servers, settings, era, http.0, http.1);
        }
    }
    if !idle.is_empty() {
        md += &idle_markdown(servers, settings, idle);
    }
    if !cold_start.is_empty() {
        md += &format!(
            "\n## Cold start\n\nSpawn → `initialize` answer (median of {} runs):\n\n\
             | server | component | median ms | min ms | max ms |\n|---|---:|---:|---:|---:|\n",
            settings.cold_runs
        );
        for row in cold_start {
            let size = row.component_bytes.map_or("–".into(), |b| format!("{} KiB", thousands(b as f64 / 1024.0)));
            md += &format!(
                "| {} | {} | {:.2} | {:.2} | {:.2} |\n",
                row.server, size, row.result.median_ms, row.result.min_ms, row.result.max_ms
            );
        }
    }
    md
}

fn stdio_markdown(servers: &[Server], settings: &Settings, cells: &[Cell], ratios: &[Ratio]) -> String {
    let label = |key: &'static str| servers.iter().find(|s| s.key == key).map_or(key, |s| s.label);
    let mut md = format!(
        "\n## stdio\n\nEcho tool over stdio, median of {} interleaved runs of {} calls per point, each after a warm-up ({} calls at a time, for at least {} s).\n\n",
        settings.reps,
        settings.calls,
        settings.warmup,
        LoadOptions::default().warmup_min.as_secs_f64(),
    );
    if !ratios.is_empty() {
        md += "| ratio | median | per-run range | target | met |\n|---|---:|---:|---:|:---:|\n";
        for r in ratios {
            md += &format!(
                "| {} | {:.2}× | {:.2}–{:.2}× | {} | {} |\n",
                r.what,
                r.value,
                r.rep_min,
                r.rep_max,
                r.target,
                if r.met { "yes" } else { "no" }
            );
        }
        md += "\n";
    }
    md += "| server | in flight | calls/s | p50 µs | p99 µs | server CPU µs/call |\n|---|---:|---:|---:|---:|---:|\n";
    let mut headline: Vec<Point> = [1, 32]
        .into_iter()
        .filter(|n| settings.inflight.contains(n))
        .map(|inflight| Point { inflight, pinned: false })
        .collect();
    if headline.is_empty() {
        headline = settings.inflight.iter().map(|&inflight| Point { inflight, pinned: false }).collect();
    }
    if settings.pin_cpu.is_some() {
        headline.insert(headline.iter().take_while(|p| p.inflight <= 1).count(), Point { inflight: 1, pinned: true });
    }
    for point in headline {
        for c in cells.iter().filter(|c| c.inflight == point.inflight && c.pinned == point.pinned) {
            md += &format!(
                "| {} | {} | {} | {:.1} | {:.1} | {:.1} |\n",
                label(c.server),
                if c.pinned { format!("{}, one CPU", c.inflight) } else { c.inflight.to_string() },
                thousands(c.calls_per_sec),
                c.p50_us,
                c.p99_us,
                c.cpu_us_per_call
            );
        }
    }
    md += "\nThroughput (calls/s) by requests in flight:\n\n| in flight |";
    for s in servers {
        md += &format!(" {} |", s.label);
    }
    md += "\n|---:|";
    md += &"---:|".repeat(servers.len());
    md += "\n";
    for &inflight in &settings.inflight {
        md += &format!("| {inflight} |");
        for s in servers {
            let value = cells.iter().find(|c| c.server == s.key && c.inflight == inflight && !c.pinned);
            md += &format!(" {} |", value.map_or("–".into(), |c| thousands(c.calls_per_sec)));
        }
        md += "\n";
    }
    md
}

fn http_markdown(
    servers: &[Server],
    settings: &Settings,
    era: Era,
    cells: &[HttpCell],
    ratios: &[HttpRatio],
) -> String {
    let label = |key: &str| servers.iter().find(|s| s.key == key).map_or("?", |s| s.http_label);
    let against_label = |r: &HttpRatio| match r.against_era == r.era {
        true => label(r.against).to_string(),
        false => format!("{} ({})", label(r.against), era_title(r.against_era)),
    };
    let cells: Vec<&HttpCell> = cells.iter().filter(|c| c.era == era).collect();
    let ratios: Vec<&HttpRatio> = ratios.iter().filter(|r| r.era == era).collect();
    let how = match era {
        Era::Legacy => "one keep-alive connection and one call in flight per session (`initialize` first)",
        Era::Modern => {
            "2026-07-28 requests: no `initialize`, no session; each call carries its envelope and headers and \
             is served on its own (mcp-wit: on a fresh instance); one keep-alive connection and one call in \
             flight per \"session\""
        }
    };
    let mut md = format!(
        "\n## Streamable HTTP{}\n\nEcho tool over Streamable HTTP on 127.0.0.1, {how}; median of {} interleaved runs \
         of {} calls (+{} warm-up) per point, shared by the sessions (at least {MIN_CALLS_PER_SESSION} each). \
         Throughput counts the calls answered while every session was busy.\n\n\
         | sessions | server | answers | calls/s | p50 µs | p99 µs | server CPU µs/call | client CPU µs/call |\n\
         |---:|---|---|---:|---:|---:|---:|---:|\n",
        match era {
            Era::Legacy => String::new(),
            Era::Modern => format!(", {}", era_title(era)),
        },
        settings.reps,
        settings.http_calls,
        settings.http_warmup
    );
    for &sessions in &settings.http_sessions {
        for c in cells.iter().filter(|c| c.sessions == sessions) {
            md += &format!(
                "| {} | {} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} |\n",
                c.sessions,
                label(c.server),
                if c.framing == "sse" { "SSE" } else { "JSON" },
                thousands(c.calls_per_sec),
                c.p50_us,
                c.p99_us,
                c.cpu_us_per_call,
                c.client_cpu_us_per_call
            );
        }
    }
    if !ratios.is_empty() {
        md += "\nmcp-wit against each baseline (ratio of medians; per-run range in brackets):\n\n\
               | sessions | against | throughput | p50 latency |\n|---:|---|---:|---:|\n";
        for r in &ratios {
            md += &format!(
                "| {} | {} | {:.2}× ({:.2}–{:.2}) | {:.2}× ({:.2}–{:.2}) |\n",
                r.sessions,
                against_label(r),
                r.throughput,
                r.throughput_rep_min,
                r.throughput_rep_max,
                r.p50,
                r.p50_rep_min,
                r.p50_rep_max
            );
        }
    }
    // The baselines of this era, in the order the ratios name them.
    let mut baselines: Vec<(&str, Era)> = Vec::new();
    for r in &ratios {
        if !baselines.contains(&(r.against, r.against_era)) {
            baselines.push((r.against, r.against_era));
        }
    }
    md += "\nThroughput (calls/s) by sessions:\n\n| sessions |";
    for s in servers {
        md += &format!(" {} |", s.http_label);
    }
    for &(against, against_era) in &baselines {
        let suffix = if against_era == era { String::new() } else { format!(" ({})", era_title(against_era)) };
        md += &format!(" mcp-wit ÷ {against}{suffix} |");
    }
    md += "\n|---:|";
    md += &"---:|".repeat(servers.len() + baselines.len());
    md += "\n";
    for &sessions in &settings.http_sessions {
        md += &format!("| {sessions} |");
        for s in servers {
            let value = cells.iter().find(|c| c.server == s.key && c.sessions == sessions);
            md += &format!(" {} |", value.map_or("–".into(), |c| thousands(c.calls_per_sec)));
        }
        for &(against, against_era) in &baselines {
            let ratio =
                ratios.iter().find(|r| r.sessions == sessions && r.against == against && r.against_era == against_era);
            md += &format!(" {} |", ratio.map_or("–".into(), |r| format!("{:.2}×", r.throughput)));
        }
        md += "\n";
    }
    md
}

fn era_markdown(settings: &Settings, cells: &[EraCell]) -> String {
    let mut md = format!(
        "\n## stdio, 2026-07-28\n\nmcp-wit serve echo.wasm over stdio, in each era: a 2025 session (`initialize`, \
         then calls on the session's instance) and 2026-07-28 requests (no handshake; each call carries its envelope; \
         the connection keeps its instance in both eras); median of {} alternating runs of {} calls per point.\n\n\
         | in flight | era | calls/s | p50 µs | server CPU µs/call |\n|---:|---|---:|---:|---:|\n",
        settings.reps, settings.calls
    );
    for c in cells {
        md += &format!(
            "| {} | {} | {} | {:.1} | {:.2} |\n",
            c.inflight,
            era_title(c.era),
            thousands(c.calls_per_sec),
            c.p50_us,
            c.cpu_us_per_call
        );
    }
    md
}

/// An era as the tables name it.
fn era_title(era: Era) -> &'static str {
    match era {
        Era::Legacy => "2025-11-25 sessions",
        Era::Modern => "2026-07-28, no sessions",
    }
}

fn idle_markdown(servers: &[Server], settings: &Settings, cells: &[IdleCell]) -> String {
    let label = |key: &str| servers.iter().find(|s| s.key == key).map_or("?", |s| s.http_label);
    let mut md = format!(
        "\n## Idle sessions\n\nResident memory (VmRSS) growth per Streamable HTTP session: {} sessions opened after a \
         first one, each with `initialize`, `notifications/initialized` and one call, all left open and idle \
         (connection included); median of {} runs.\n\n\
         | server | RSS after the first session MiB | RSS with all sessions MiB | KiB per session | per-run range KiB \
         | MiB per session | target | met |\n|---|---:|---:|---:|---:|---:|---:|:---:|\n",
        settings.idle_sessions, settings.idle_runs
    );
    for c in cells {
        md += &format!(
            "| {} | {:.1} | {:.1} | {:.1} | {:.1}–{:.1} | {:.3} | {} | {} |\n",
            label(c.server),
            c.rss_first_kib / 1024.0,
            c.rss_all_kib / 1024.0,
            c.kib_per_session,
            c.kib_per_session_min,
            c.kib_per_session_max,
            c.mib_per_session,
            c.target,
            if c.met { "yes" } else { "no" }
        );
    }
    md
}

fn machine(root: &Path) -> Machine {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu_model = cpuinfo
        .lines()
        .find_map(|line| line.strip_prefix("model name")?.split_once(':').map(|(_, v)| v.trim().to_string()))
        .unwrap_or_else(|| "unknown CPU".into());
    let output = |program: &str, args: &[&str]| -> String {
        Command::new(program)
            .current_dir(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_else(|| "unknown".into())
    };
    Machine {
        cpus: std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model,
        kernel: std::fs::read_to_string("/proc/sys/kernel/osrelease").map_or("unknown".into(), |s| s.trim().into()),
        rustc: output("rustc", &["-V"]),
        commit: output("git", &["describe", "--always", "--dirty"]),
        date_utc: output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
    }
}

/// `text` with a leading workspace path made relative, for the results
/// written to the repository.
fn relative(text: &str, root: &Path) -> String {
    let prefix = format!("{}/", root.display());
    text.strip_prefix(&prefix).unwrap_or(text).to_string()
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Cli, clap::Error> {
        mcp_wit_bench::cli::parse(line)
    }

    #[test]
    fn defaults_as_benchmarks_md_lists_them() {
        let cli = parse("report").unwrap();
        assert_eq!((cli.calls, cli.warmup, cli.reps, cli.pin_cpu, cli.cold_runs), (20_000, 2_000, 7, 0, 10));
        assert_eq!(cli.inflight, [1, 2, 4, 8, 16, 32, 64]);
        assert_eq!((cli.sessions, cli.http_calls, cli.http_warmup), (vec![1, 8, 64, 256], 10_000, 1_000));
        assert_eq!((cli.eras, cli.idle_sessions, cli.idle_runs), (vec![Era::Legacy, Era::Modern], 1000, 3));
        assert_eq!(cli.out, results::dated_dir("report"));
        assert!(!(cli.no_pinned || cli.no_stdio || cli.no_http || cli.no_idle_memory || cli.no_cold_start));
        assert!(!cli.study.no_build && !cli.study.show_stderr);
        assert!(cli.mcp_wit.is_none() && cli.components.is_none());
        assert_eq!(parse("report --reps 3").unwrap().reps, 3);
    }

    #[test]
    fn every_flag() {
        let cli = parse(
            "report --calls 100 --warmup 10 --reps 3 --inflight 1,32 --pin-cpu 2 --cold-runs 4 --out /tmp/r \
             --sessions 8 --http-calls 500 --http-warmup 50 --eras=modern --idle-sessions 10 --idle-runs 1 \
             --show-stderr --no-build --mcp-wit old/mcp-wit --components old/guests",
        )
        .unwrap();
        assert_eq!((cli.calls, cli.warmup, cli.reps, cli.pin_cpu, cli.cold_runs), (100, 10, 3, 2, 4));
        assert_eq!((cli.inflight, cli.sessions, cli.eras), (vec![1, 32], vec![8], vec![Era::Modern]));
        assert_eq!((cli.http_calls, cli.http_warmup, cli.idle_sessions, cli.idle_runs), (500, 50, 10, 1));
        assert_eq!(cli.out, Path::new("/tmp/r"));
        assert_eq!((cli.mcp_wit, cli.components), (Some("old/mcp-wit".into()), Some("old/guests".into())));
        assert!(cli.study.no_build && cli.study.show_stderr);

        let cli = parse("report --no-pinned --no-stdio --no-http --no-idle-memory --no-cold-start").unwrap();
        assert!(cli.no_pinned && cli.no_stdio && cli.no_http && cli.no_idle_memory && cli.no_cold_start);
        let spaced = Cli::try_parse_from(["report", "--inflight", "1, 2", "--eras", "legacy, modern"]).unwrap();
        assert_eq!((spaced.inflight, spaced.eras), (vec![1, 2], vec![Era::Legacy, Era::Modern]));
    }

    #[test]
    fn rejects_what_it_does_not_take() {
        for line in
            ["report extra", "report -- server", "report --eras old", "report --inflight 1,,2", "report --engine"]
        {
            assert!(parse(line).is_err(), "{line}");
        }
    }

    #[test]
    fn padded_leb128_decodes() {
        let bytes = leb128_padded(1_048_000);
        let value = bytes.iter().enumerate().fold(0u32, |acc, (i, b)| acc | (u32::from(b & 0x7f) << (7 * i)));
        assert_eq!(value, 1_048_000);
        assert_eq!(bytes[4] & 0x80, 0);
    }
}
