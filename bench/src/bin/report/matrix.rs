//! The load runs: every server at every point of the stdio and HTTP
//! matrices, mcp-wit in each era over stdio, and idle-session memory, the
//! repetitions interleaved.

use anyhow::Context;
use mcp_wit_bench::http::{self, Era, HttpLoadOptions, HttpLoadResult, IdleMemory};
use mcp_wit_bench::load::{self, LoadOptions, LoadResult};
use serde::Serialize;

use crate::servers::Server;

/// Fewest measured calls (and warm-up calls) of one session in an HTTP run,
/// however many sessions share `--http-calls`.
pub(crate) const MIN_CALLS_PER_SESSION: usize = 20;
const MIN_WARMUP_PER_SESSION: usize = 2;

/// In-flight counts of the stdio comparison of eras (mcp-wit only).
pub(crate) const ERA_INFLIGHT: [usize; 2] = [1, 32];

/// One load run of the matrix.
#[derive(Serialize)]
pub(crate) struct Run {
    pub(crate) server: &'static str,
    pub(crate) rep: usize,
    #[serde(flatten)]
    pub(crate) result: LoadResult,
}

/// One stdio run of mcp-wit in one era.
#[derive(Serialize)]
pub(crate) struct EraRun {
    pub(crate) era: Era,
    pub(crate) rep: usize,
    #[serde(flatten)]
    pub(crate) result: LoadResult,
}

/// One HTTP load run of the matrix.
#[derive(Serialize)]
pub(crate) struct HttpRun {
    pub(crate) server: &'static str,
    pub(crate) rep: usize,
    #[serde(flatten)]
    pub(crate) result: HttpLoadResult,
}

/// One idle-memory measurement.
#[derive(Serialize)]
pub(crate) struct IdleRun {
    pub(crate) server: &'static str,
    pub(crate) run: usize,
    #[serde(flatten)]
    pub(crate) result: IdleMemory,
}

/// One column of the matrix: an in-flight count, optionally with client and
/// server confined to one CPU.
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct Point {
    pub(crate) inflight: usize,
    pub(crate) pinned: bool,
}

impl Point {
    pub(crate) fn of(result: &LoadResult) -> Self {
        Point { inflight: result.inflight, pinned: result.cpus.is_some() }
    }
}

#[derive(Serialize)]
pub(crate) struct Settings {
    pub(crate) calls: usize,
    pub(crate) warmup: usize,
    pub(crate) reps: usize,
    pub(crate) inflight: Vec<usize>,
    /// The CPU the pinned 1-in-flight runs use (`None`: no pinned runs).
    pub(crate) pin_cpu: Option<usize>,
    pub(crate) cold_runs: usize,
    /// Whether the stdio matrix ran.
    pub(crate) stdio: bool,
    /// Session counts of the HTTP matrix (empty: not run).
    pub(crate) http_sessions: Vec<usize>,
    /// The eras measured: 2025-11-25 sessions, 2026-07-28 stateless
    /// requests. The HTTP matrix runs in each; over stdio, mcp-wit runs in
    /// each at [`ERA_INFLIGHT`].
    pub(crate) eras: Vec<Era>,
    /// Measured calls per HTTP point, shared by its sessions.
    pub(crate) http_calls: usize,
    /// Warm-up calls per HTTP point, shared by its sessions.
    pub(crate) http_warmup: usize,
    /// Sessions of each idle-memory run, and how many runs per server (0: not run).
    pub(crate) idle_sessions: usize,
    pub(crate) idle_runs: usize,
    pub(crate) protocol_version: &'static str,
    /// The `mcp-wit` binary measured, and its version.
    pub(crate) mcp_wit: String,
}

/// Every server at every in-flight count and every session count, `reps`
/// times over. The server order rotates each repetition so none always runs
/// first.
pub(crate) fn run_matrix(
    servers: &[Server],
    settings: &Settings,
    show_stderr: bool,
) -> anyhow::Result<(Vec<Run>, Vec<HttpRun>)> {
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
pub(crate) fn run_stdio_eras(
    servers: &[Server],
    settings: &Settings,
    show_stderr: bool,
) -> anyhow::Result<Vec<EraRun>> {
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

/// Idle-session memory of every server, `idle_runs` times over, the server
/// order rotating.
pub(crate) fn run_idle_memory(
    servers: &[Server],
    settings: &Settings,
    show_stderr: bool,
) -> anyhow::Result<Vec<IdleRun>> {
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
pub(crate) fn points(settings: &Settings) -> Vec<Point> {
    if !settings.stdio {
        return Vec::new();
    }
    let mut points: Vec<Point> = settings.inflight.iter().map(|&inflight| Point { inflight, pinned: false }).collect();
    if settings.pin_cpu.is_some() {
        points.push(Point { inflight: 1, pinned: true });
    }
    points
}

pub(crate) fn describe(point: Point) -> String {
    if point.pinned { format!("{} in flight, 1 CPU", point.inflight) } else { format!("{} in flight", point.inflight) }
}
