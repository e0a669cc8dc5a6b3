//! A load run and a cold start: what is asked, what is measured.

use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use serde::{Deserialize, Serialize};

use super::cpu::{Affinity, own_cpu, process_cpu, process_run_time};
use super::server::{Server, Watchdog};
use crate::mcp::Era;
use crate::stats;

/// How a load run is shaped.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Requests kept outstanding.
    pub inflight: usize,
    /// Measured calls.
    pub calls: usize,
    /// Calls sent (same shape) before measuring: warms caches, lazy
    /// initialisation and the allocator.
    pub warmup: usize,
    /// The warm-up goes on, `warmup` calls at a time, until it has lasted
    /// this long. The kernel settles the client and the server on their CPUs
    /// in the first tenths of a second (at first they often share one, later
    /// they run side by side); measuring before then would measure that.
    pub warmup_min: Duration,
    /// Pass the server's stderr through instead of discarding it.
    pub show_stderr: bool,
    /// Run the client and the server on these CPUs only (e.g. `[0]`: both on
    /// one CPU, so no hand-off waits for another CPU to wake up).
    pub cpus: Option<Vec<usize>>,
    /// The server is killed when the whole run takes longer than this.
    pub timeout: Duration,
    /// The era spoken: a 2025 session (`initialize` first), or 2026-07-28
    /// requests that each carry their envelope (no handshake).
    pub era: Era,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            inflight: 1,
            calls: 20_000,
            warmup: 2_000,
            warmup_min: Duration::from_millis(250),
            era: Era::Legacy,
            show_stderr: false,
            cpus: None,
            timeout: Duration::from_secs(120),
        }
    }
}

/// What one load run measured. Times cover the measured calls only.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LoadResult {
    pub calls_per_sec: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub mean_us: f64,
    pub max_us: f64,
    pub inflight: usize,
    pub calls: usize,
    pub elapsed_s: f64,
    /// The server's user and system CPU time (all its threads), from
    /// `/proc/<pid>/stat`, which counts in clock ticks (usually 10 ms): coarse
    /// for short runs.
    pub cpu_user_s: f64,
    pub cpu_sys_s: f64,
    /// The server's CPU time per call in microseconds, from the scheduler's
    /// nanosecond run time of each of its threads (`/proc/<pid>/task/*/schedstat`).
    pub cpu_us_per_call: f64,
    /// The load client's own CPU time: it shares the machine with the server.
    pub client_cpu_s: f64,
    /// The CPUs client and server were confined to, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpus: Option<Vec<usize>>,
}

/// Runs one load test against the server started by `command`.
pub fn run_load(command: &[String], options: &LoadOptions) -> anyhow::Result<LoadResult> {
    ensure!(options.calls > 0, "--calls must be at least 1");
    // Set on this thread before the server and the client's threads start:
    // both inherit it. Restored when the run ends.
    let _pinned = match &options.cpus {
        Some(cpus) => Some(Affinity::pin(cpus)?),
        None => None,
    };
    let mut server = Server::spawn(command, options.show_stderr)?;
    let watchdog = Watchdog::start(server.pid(), options.timeout);
    let result = measure(&mut server, options);
    drop(watchdog);
    let closed = server.shutdown();
    let result = result?;
    closed?;
    Ok(result)
}

/// Initializes, warms up and measures an already spawned server.
fn measure(server: &mut Server, options: &LoadOptions) -> anyhow::Result<LoadResult> {
    server.era = options.era;
    if options.era == Era::Legacy {
        server.initialize()?;
    }
    let inflight = options.inflight.max(1);
    if options.warmup > 0 {
        let started = Instant::now();
        loop {
            server.pipeline(inflight, 1, options.warmup).context("warm-up")?;
            if started.elapsed() >= options.warmup_min {
                break;
            }
        }
    }
    let (user0, sys0) = process_cpu(server.pid())?;
    let run0 = process_run_time(server.pid());
    let client0 = own_cpu();
    let phase = server.pipeline(inflight, 1 + options.warmup as u64, options.calls)?;
    let (user1, sys1) = process_cpu(server.pid())?;
    let run1 = process_run_time(server.pid());
    let client1 = own_cpu();

    let mut latencies = phase.latencies_ns;
    latencies.sort_unstable();
    let us = |ns: f64| ns / 1_000.0;
    let elapsed_s = phase.elapsed.as_secs_f64();
    let (cpu_user_s, cpu_sys_s) = (user1 - user0, sys1 - sys0);
    Ok(LoadResult {
        calls_per_sec: options.calls as f64 / elapsed_s,
        p50_us: us(stats::percentile_sorted(&latencies, 0.50)),
        p99_us: us(stats::percentile_sorted(&latencies, 0.99)),
        mean_us: us(latencies.iter().map(|&ns| ns as f64).sum::<f64>() / latencies.len() as f64),
        max_us: us(*latencies.last().unwrap_or(&0) as f64),
        inflight,
        calls: options.calls,
        elapsed_s,
        cpu_user_s,
        cpu_sys_s,
        cpu_us_per_call: match (run0, run1) {
            (Some(start), Some(end)) => (end - start) * 1e6 / options.calls as f64,
            _ => (cpu_user_s + cpu_sys_s) * 1e6 / options.calls as f64,
        },
        client_cpu_s: client1 - client0,
        cpus: options.cpus.clone(),
    })
}

/// Time from spawning a server to its `initialize` answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ColdStart {
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    pub runs: usize,
    pub samples_ms: Vec<f64>,
}

/// Spawns the server `runs` times and times spawn → `initialize` answer.
/// One extra, uncounted run first warms the page cache.
pub fn cold_start(command: &[String], runs: usize, show_stderr: bool) -> anyhow::Result<ColdStart> {
    ensure!(runs > 0, "--runs must be at least 1");
    let mut samples = Vec::with_capacity(runs);
    for run in 0..=runs {
        let start = Instant::now();
        let mut server = Server::spawn(command, show_stderr)?;
        let watchdog = Watchdog::start(server.pid(), Duration::from_secs(60));
        let answered = server.initialize_request();
        let elapsed = start.elapsed();
        drop(watchdog);
        server.shutdown()?;
        answered?;
        if run > 0 {
            samples.push(elapsed.as_secs_f64() * 1e3);
        }
    }
    let mut sorted = samples.clone();
    sorted.sort_by(f64::total_cmp);
    Ok(ColdStart {
        median_ms: stats::median(&samples),
        min_ms: sorted[0],
        max_ms: sorted[sorted.len() - 1],
        runs,
        samples_ms: samples,
    })
}
