//! The summary, as Markdown: stdio, Streamable HTTP, idle sessions, cold
//! start (each where it ran).

use mcp_wit_bench::http::Era;
use mcp_wit_bench::load::LoadOptions;
use mcp_wit_bench::stats::thousands;

use crate::cold_start::ColdStartRow;
use crate::matrix::{MIN_CALLS_PER_SESSION, Point, Settings};
use crate::medians::{Cell, EraCell, HttpCell, HttpRatio, IdleCell, Ratio};
use crate::output::Machine;
use crate::servers::Server;

/// The summary: stdio, Streamable HTTP, idle sessions, cold start (each
/// where it ran).
pub(crate) fn markdown(
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
        Era::Modern | Era::ModernTasks => {
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
            Era::Modern | Era::ModernTasks => format!(", {}", era_title(era)),
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
        Era::ModernTasks => "2026-07-28, no sessions, declaring tasks",
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
