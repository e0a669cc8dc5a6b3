//! Two servers of the same `echo` tool measured against each other: the same
//! client, the same points, the two alternating within every repetition so
//! drift on a shared machine hits both alike; medians and the range of the
//! per-repetition ratios. `engines` and `plugins` are built on it.

use anyhow::Context;
use serde::Serialize;

use crate::http::{self, Era, HttpLoadOptions};
use crate::load::{self, LoadOptions};
use crate::stats::{median, min_max};

/// Fewest measured (and warm-up) calls of one HTTP session, however many
/// sessions share the point's calls.
const MIN_CALLS_PER_SESSION: usize = 20;
const MIN_WARMUP_PER_SESSION: usize = 2;

/// One server: its name in the tables, and how to start it over stdio (if
/// it is measured there) and over Streamable HTTP (`{addr}` for the address).
#[derive(Clone)]
pub struct Contender {
    pub name: &'static str,
    pub stdio: Option<Vec<String>>,
    pub http: Vec<String>,
}

/// Where the two are measured.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "lowercase", tag = "transport")]
pub enum Point {
    /// Over stdio, `inflight` calls outstanding, in `era`.
    Stdio { inflight: usize, era: Era },
    /// Over Streamable HTTP, one call in flight per session, in `era`.
    Http { sessions: usize, era: Era },
}

impl Point {
    /// How the tables name it.
    pub fn describe(self) -> String {
        match self {
            Point::Stdio { inflight, era } => format!("stdio, {} in flight, {}", inflight, era.name()),
            Point::Http { sessions, era } => format!("HTTP, {} sessions, {}", sessions, era.name()),
        }
    }
}

/// How many calls each point measures.
#[derive(Debug, Clone, Copy)]
pub struct Effort {
    pub reps: usize,
    pub stdio_calls: usize,
    pub stdio_warmup: usize,
    pub http_calls: usize,
    pub http_warmup: usize,
    pub show_stderr: bool,
}

/// What one run measured.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Measured {
    pub calls_per_sec: f64,
    pub p50_us: f64,
    pub cpu_us_per_call: f64,
}

#[derive(Serialize)]
pub struct Run {
    pub server: &'static str,
    pub rep: usize,
    pub point: Point,
    #[serde(flatten)]
    pub measured: Measured,
}

/// The medians of both at one point.
#[derive(Serialize)]
pub struct Row {
    pub point: Point,
    pub first: Measured,
    pub second: Measured,
    /// second ÷ first calls/s: the ratio of medians, and the range of the
    /// per-repetition ratios.
    pub throughput_ratio: f64,
    pub throughput_ratio_min: f64,
    pub throughput_ratio_max: f64,
}

/// Measures each contender at every point, `effort.reps` times over, in
/// turns (the order reversed every other repetition).
pub fn run(contenders: &[Contender], points: &[Point], effort: Effort) -> anyhow::Result<Vec<Run>> {
    run_checked(contenders, points, effort, |_, _| Ok(()))
}

/// As [`run`], calling `check` after each measurement (the server has
/// stopped): an error there ends the benchmark.
pub fn run_checked(
    contenders: &[Contender],
    points: &[Point],
    effort: Effort,
    mut check: impl FnMut(&Contender, Point) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<Run>> {
    let mut runs = Vec::new();
    for rep in 0..effort.reps {
        for &point in points {
            // Alternating which goes first, so drift hits both alike.
            let order: Vec<&Contender> =
                if rep % 2 == 0 { contenders.iter().collect() } else { contenders.iter().rev().collect() };
            for contender in order {
                let measured = measure(contender, point, effort)
                    .with_context(|| format!("{} at {}", contender.name, point.describe()))?;
                check(contender, point).with_context(|| format!("{} at {}", contender.name, point.describe()))?;
                eprintln!(
                    "rep {}/{} {:>10} {:>32}: {:>9.0} calls/s  p50 {:>9.1} µs  cpu {:>7.1} µs/call",
                    rep + 1,
                    effort.reps,
                    contender.name,
                    point.describe(),
                    measured.calls_per_sec,
                    measured.p50_us,
                    measured.cpu_us_per_call
                );
                runs.push(Run { server: contender.name, rep, point, measured });
            }
        }
    }
    Ok(runs)
}

fn measure(contender: &Contender, point: Point, effort: Effort) -> anyhow::Result<Measured> {
    Ok(match point {
        Point::Stdio { inflight, era } => {
            let command = contender.stdio.as_ref().context("not measured over stdio")?;
            let options = LoadOptions {
                inflight,
                calls: effort.stdio_calls,
                warmup: effort.stdio_warmup,
                show_stderr: effort.show_stderr,
                era,
                ..LoadOptions::default()
            };
            let r = load::run_load(command, &options)?;
            Measured { calls_per_sec: r.calls_per_sec, p50_us: r.p50_us, cpu_us_per_call: r.cpu_us_per_call }
        }
        Point::Http { sessions, era } => {
            let options = HttpLoadOptions {
                era,
                sessions,
                calls_per_session: (effort.http_calls / sessions).max(MIN_CALLS_PER_SESSION),
                warmup_per_session: (effort.http_warmup / sessions).max(MIN_WARMUP_PER_SESSION),
                show_stderr: effort.show_stderr,
                ..HttpLoadOptions::default()
            };
            let r = http::run_http_load(&contender.http, &options)?;
            Measured { calls_per_sec: r.calls_per_sec, p50_us: r.p50_us, cpu_us_per_call: r.cpu_us_per_call }
        }
    })
}

/// The medians at each point, `contenders[1]` against `contenders[0]`.
pub fn rows(contenders: &[Contender; 2], points: &[Point], runs: &[Run]) -> Vec<Row> {
    let [first, second] = contenders;
    points
        .iter()
        .map(|&point| {
            let of = |name: &str| -> Vec<Measured> {
                runs.iter().filter(|r| r.server == name && r.point == point).map(|r| r.measured).collect()
            };
            let cell = |all: &[Measured]| Measured {
                calls_per_sec: median(&all.iter().map(|m| m.calls_per_sec).collect::<Vec<_>>()),
                p50_us: median(&all.iter().map(|m| m.p50_us).collect::<Vec<_>>()),
                cpu_us_per_call: median(&all.iter().map(|m| m.cpu_us_per_call).collect::<Vec<_>>()),
            };
            let per_rep: Vec<f64> =
                of(first.name).iter().zip(of(second.name)).map(|(a, b)| b.calls_per_sec / a.calls_per_sec).collect();
            let (a, b) = (cell(&of(first.name)), cell(&of(second.name)));
            let (throughput_ratio_min, throughput_ratio_max) = min_max(&per_rep);
            Row {
                point,
                first: a,
                second: b,
                throughput_ratio: b.calls_per_sec / a.calls_per_sec,
                throughput_ratio_min,
                throughput_ratio_max,
            }
        })
        .collect()
}

/// A markdown table of `rows`: calls/s (p50 µs, server CPU µs per call).
pub fn table(contenders: &[Contender; 2], rows: &[Row]) -> String {
    let [first, second] = contenders;
    let mut out = format!(
        "| point | {} | {} | {} ÷ {} throughput |\n|---|---:|---:|---:|\n",
        first.name, second.name, second.name, first.name
    );
    let cell = |m: &Measured| format!("{:.0} ({:.1}, {:.1})", m.calls_per_sec, m.p50_us, m.cpu_us_per_call);
    for row in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {:.2}× ({:.2}–{:.2}) |\n",
            row.point.describe(),
            cell(&row.first),
            cell(&row.second),
            row.throughput_ratio,
            row.throughput_ratio_min,
            row.throughput_ratio_max
        ));
    }
    out
}

/// `cargo build --release` of the `mcp-wit` binary and these benchmarks, in
/// the workspace at `root`.
pub fn build_release(root: &std::path::Path) -> anyhow::Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .current_dir(root)
        .args(["build", "--release", "-p", "mcp-wit-cli", "-p", "mcp-wit-bench", "--bins"])
        .status()
        .context("cannot run cargo")?;
    anyhow::ensure!(status.success(), "the release build failed");
    Ok(())
}

/// `command` serving over Streamable HTTP at the benchmarks' address.
pub fn with_http(mut command: Vec<String>) -> Vec<String> {
    command.extend(["--http".into(), http::ADDR.into()]);
    command
}

/// Writes `results.json` and `summary.md` into `out_dir`, and prints the summary.
pub fn save(out_dir: &std::path::Path, results: &impl Serialize, summary: &str) -> anyhow::Result<()> {
    std::fs::create_dir_all(out_dir).with_context(|| format!("cannot create {}", out_dir.display()))?;
    std::fs::write(out_dir.join("results.json"), serde_json::to_string_pretty(results)?)?;
    std::fs::write(out_dir.join("summary.md"), summary)?;
    println!("{summary}");
    Ok(())
}
