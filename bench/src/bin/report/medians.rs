//! What the runs come to: the medians of each cell, and the headline ratios
//! against their targets.

use mcp_wit_bench::http::{Era, HttpLoadResult, IdleMemory};
use mcp_wit_bench::load::LoadResult;
use mcp_wit_bench::stats::{median, min_max};
use serde::Serialize;

use crate::matrix::{ERA_INFLIGHT, EraRun, HttpRun, IdleRun, Point, Run, Settings, points};
use crate::servers::Server;

/// Targets from the performance issue, shown beside the measurements.
const TARGET_P50_RATIO: f64 = 1.15;
const TARGET_THROUGHPUT_RATIO: f64 = 5.0;
const TARGET_IDLE_MIB: f64 = 2.0;

/// The medians of mcp-wit over stdio at one in-flight count, in each era.
#[derive(Serialize)]
pub(crate) struct EraCell {
    pub(crate) era: Era,
    pub(crate) inflight: usize,
    pub(crate) calls_per_sec: f64,
    pub(crate) p50_us: f64,
    pub(crate) cpu_us_per_call: f64,
}

/// The medians of one (server, session count) cell of the HTTP matrix.
#[derive(Serialize, Clone)]
pub(crate) struct HttpCell {
    pub(crate) server: &'static str,
    pub(crate) era: Era,
    pub(crate) sessions: usize,
    pub(crate) runs: usize,
    pub(crate) calls_per_sec: f64,
    pub(crate) p50_us: f64,
    pub(crate) p99_us: f64,
    pub(crate) cpu_us_per_call: f64,
    pub(crate) client_cpu_us_per_call: f64,
    pub(crate) framing: String,
}

/// mcp-wit in one era against one baseline at one session count: ratios of
/// medians and the range of the per-repetition ratios. The baseline is
/// another server in the same era, or mcp-wit itself in the legacy era.
#[derive(Serialize)]
pub(crate) struct HttpRatio {
    pub(crate) era: Era,
    pub(crate) sessions: usize,
    pub(crate) against: &'static str,
    pub(crate) against_era: Era,
    /// mcp-wit's calls/s ÷ the baseline's.
    pub(crate) throughput: f64,
    pub(crate) throughput_rep_min: f64,
    pub(crate) throughput_rep_max: f64,
    /// mcp-wit's p50 ÷ the baseline's.
    pub(crate) p50: f64,
    pub(crate) p50_rep_min: f64,
    pub(crate) p50_rep_max: f64,
}

/// The medians of one server's idle-memory runs.
#[derive(Serialize)]
pub(crate) struct IdleCell {
    pub(crate) server: &'static str,
    pub(crate) runs: usize,
    pub(crate) sessions: usize,
    pub(crate) kib_per_session: f64,
    pub(crate) kib_per_session_min: f64,
    pub(crate) kib_per_session_max: f64,
    pub(crate) mib_per_session: f64,
    rss_start_kib: f64,
    pub(crate) rss_first_kib: f64,
    pub(crate) rss_all_kib: f64,
    pub(crate) target: &'static str,
    pub(crate) met: bool,
}

/// The medians of one (server, point) cell.
#[derive(Serialize, Clone)]
pub(crate) struct Cell {
    pub(crate) server: &'static str,
    pub(crate) inflight: usize,
    /// Client and server ran on one CPU.
    pub(crate) pinned: bool,
    pub(crate) runs: usize,
    pub(crate) calls_per_sec: f64,
    pub(crate) p50_us: f64,
    pub(crate) p99_us: f64,
    pub(crate) cpu_us_per_call: f64,
    pub(crate) client_cpu_us_per_call: f64,
}

/// A headline ratio: the ratio of medians, and the range of the per-repetition
/// ratios (each taken between runs made back to back).
#[derive(Serialize)]
pub(crate) struct Ratio {
    pub(crate) what: &'static str,
    pub(crate) value: f64,
    pub(crate) rep_min: f64,
    pub(crate) rep_max: f64,
    pub(crate) target: &'static str,
    pub(crate) met: bool,
}

pub(crate) fn era_medians(settings: &Settings, runs: &[EraRun]) -> Vec<EraCell> {
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

pub(crate) fn medians(servers: &[Server], settings: &Settings, runs: &[Run]) -> Vec<Cell> {
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
pub(crate) fn ratios(settings: &Settings, runs: &[Run], cells: &[Cell]) -> Vec<Ratio> {
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

pub(crate) fn http_medians(servers: &[Server], settings: &Settings, runs: &[HttpRun]) -> Vec<HttpCell> {
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
pub(crate) fn http_ratios(settings: &Settings, runs: &[HttpRun], cells: &[HttpCell]) -> Vec<HttpRatio> {
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

pub(crate) fn idle_medians(servers: &[Server], runs: &[IdleRun]) -> Vec<IdleCell> {
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
