//! What the pages quote: every figure and where it is read, and the templates
//! that quote them.

/// Where a figure is read.
#[derive(Clone, Copy, Debug)]
pub enum Source {
    /// A file of one study: its dated folder under `bench/results/`, and the
    /// file in it.
    Study { folder: &'static str, file: &'static str },
    /// The newest `report` run (by the date in its `machine`) whose
    /// `results.json` has a non-empty array at this key: a new run of the
    /// matrices replaces the figures it measured, and only those.
    NewestReport { having: &'static str },
}

/// One quoted quantity.
#[derive(Clone, Copy, Debug)]
pub enum Figure {
    /// Read from a results file.
    Read { name: &'static str, source: Source, path: &'static str },
    /// One figure divided by another (alternative by alternative when both
    /// are ranges over the same alternatives).
    Ratio { name: &'static str, of: &'static str, to: &'static str },
}

impl Figure {
    pub(super) fn name(&self) -> &'static str {
        match self {
            Figure::Read { name, .. } | Figure::Ratio { name, .. } => name,
        }
    }
}

const REPORT_STDIO: Source = Source::NewestReport { having: "medians" };
const REPORT_ERAS: Source = Source::NewestReport { having: "stdio_eras" };
const REPORT_HTTP: Source = Source::NewestReport { having: "http_medians" };
const REPORT_IDLE: Source = Source::NewestReport { having: "idle_memory" };
/// The one-door issue's table, before and after, beside the floors and rmcp: 2026-07-28 requests
/// over HTTP (instances reused, and fresh), stdio one call at a time, a cached start.
const ISSUE_TABLE: Source = Source::Study { folder: "2026-12-01-issue-table", file: "runs.jsonl" };
/// 2026-07-28 requests over HTTP with instances reused, beside the floor, after the request's
/// futures went to kept blocks (the newest run of that row).
const KEPT_FUTURES: Source = Source::Study { folder: "2026-12-02-kept-futures", file: "runs.jsonl" };
/// A cached start over stdio with instances on demand (no pool), beside rmcp's: the ready row,
/// sixty repetitions.
const ON_DEMAND_READY: Source = Source::Study { folder: "2026-12-03-stdio-on-demand", file: "ready.jsonl" };
/// Criterion's `instance/*` benchmarks on Wasmtime 50, as the study recorded them.
const INSTANTIATE: Source = Source::Study { folder: "2026-11-26-engine", file: "figures.json" };
/// Cold starts of the Rust echo router, compiling and cached.
const START: Source = Source::Study { folder: "2026-11-27-start-and-instance", file: "runs.jsonl" };

/// Every figure the generated text quotes, and where it comes from.
pub const FIGURES: &[Figure] = &[
    Figure::Read {
        name: "stdio_32",
        source: REPORT_STDIO,
        path: "medians[server=mcp-wit,inflight=32,pinned=false].calls_per_sec",
    },
    Figure::Read {
        name: "stdio_32_rmcp",
        source: REPORT_STDIO,
        path: "medians[server=rmcp,inflight=32,pinned=false].calls_per_sec",
    },
    Figure::Ratio { name: "stdio_32_vs_rmcp", of: "stdio_32", to: "stdio_32_rmcp" },
    Figure::Read {
        name: "stdio_32_legacy",
        source: REPORT_ERAS,
        path: "stdio_eras[era=legacy,inflight=32].calls_per_sec",
    },
    Figure::Read {
        name: "stdio_32_modern",
        source: REPORT_ERAS,
        path: "stdio_eras[era=modern,inflight=32].calls_per_sec",
    },
    Figure::Ratio { name: "stdio_32_modern_vs_legacy", of: "stdio_32_modern", to: "stdio_32_legacy" },
    Figure::Read { name: "one_cpu_p50", source: ISSUE_TABLE, path: "[row=stdio-1-one-cpu,server=after].result.p50_us" },
    Figure::Read {
        name: "one_cpu_p50_floor",
        source: ISSUE_TABLE,
        path: "[row=stdio-1-one-cpu,server=serde-floor].result.p50_us",
    },
    Figure::Ratio { name: "one_cpu_p50_vs_floor", of: "one_cpu_p50", to: "one_cpu_p50_floor" },
    Figure::Read {
        name: "http_legacy_cpu",
        source: REPORT_HTTP,
        path: "http_medians[era=legacy,server=mcp-wit,sessions={8|64|256}].cpu_us_per_call",
    },
    Figure::Read {
        name: "http_legacy_cpu_floor",
        source: REPORT_HTTP,
        path: "http_medians[era=legacy,server=floor,sessions={8|64|256}].cpu_us_per_call",
    },
    Figure::Ratio { name: "http_legacy_cpu_vs_floor", of: "http_legacy_cpu", to: "http_legacy_cpu_floor" },
    Figure::Read {
        name: "http_legacy_calls",
        source: REPORT_HTTP,
        path: "http_medians[era=legacy,server=mcp-wit,sessions={8|64|256}].calls_per_sec",
    },
    Figure::Read {
        name: "http_legacy_calls_rmcp",
        source: REPORT_HTTP,
        path: "http_medians[era=legacy,server=rmcp,sessions={8|64|256}].calls_per_sec",
    },
    Figure::Ratio { name: "http_legacy_calls_vs_rmcp", of: "http_legacy_calls", to: "http_legacy_calls_rmcp" },
    Figure::Read {
        name: "http_fresh_cpu",
        source: ISSUE_TABLE,
        path: "[row=http-fresh,server=after,point={8|64}].result.cpu_us_per_call",
    },
    Figure::Read {
        name: "http_fresh_cpu_wasmtime",
        source: ISSUE_TABLE,
        path: "[row=http-fresh,server=wasmtime-floor,point={8|64}].result.cpu_us_per_call",
    },
    Figure::Ratio { name: "http_fresh_cpu_vs_wasmtime", of: "http_fresh_cpu", to: "http_fresh_cpu_wasmtime" },
    Figure::Read {
        name: "http_reuse_cpu",
        source: KEPT_FUTURES,
        path: "[row=http-reused,server=after,point={8|64}].result.cpu_us_per_call",
    },
    Figure::Read {
        name: "http_reuse_cpu_floor",
        source: KEPT_FUTURES,
        path: "[row=http-reused,server=serde-floor,point={8|64}].result.cpu_us_per_call",
    },
    Figure::Ratio { name: "http_reuse_cpu_vs_floor", of: "http_reuse_cpu", to: "http_reuse_cpu_floor" },
    Figure::Read {
        name: "http_reuse_calls",
        source: KEPT_FUTURES,
        path: "[row=http-reused,server=after,point={8|64}].result.calls_per_sec",
    },
    Figure::Read {
        name: "http_reuse_calls_floor",
        source: KEPT_FUTURES,
        path: "[row=http-reused,server=serde-floor,point={8|64}].result.calls_per_sec",
    },
    Figure::Ratio { name: "http_reuse_calls_vs_floor", of: "http_reuse_calls", to: "http_reuse_calls_floor" },
    // The host keeps no linear memory resident in a freed slot.
    Figure::Read {
        name: "instantiate_drop",
        source: INSTANTIATE,
        path: "criterion[benchmark=instance/instantiate_drop,keep_resident=none].time_us",
    },
    Figure::Read {
        name: "fresh_instance_call_drop",
        source: INSTANTIATE,
        path: "criterion[benchmark=instance/fresh_instance_call_drop,keep_resident=none].time_us",
    },
    Figure::Read { name: "idle_kib", source: REPORT_IDLE, path: "idle_memory[server=mcp-wit].kib_per_session" },
    Figure::Read { name: "idle_kib_rmcp", source: REPORT_IDLE, path: "idle_memory[server=rmcp].kib_per_session" },
    Figure::Read { name: "idle_kib_floor", source: REPORT_IDLE, path: "idle_memory[server=floor].kib_per_session" },
    Figure::Read { name: "ready_ms", source: ON_DEMAND_READY, path: "[row=ready,server=after].result.median_ms" },
    Figure::Read {
        name: "ready_serving_ms",
        source: ON_DEMAND_READY,
        path: "[row=ready,server=serving].result.median_ms",
    },
    Figure::Read { name: "ready_rmcp_ms", source: ON_DEMAND_READY, path: "[row=ready,server=rmcp].result.median_ms" },
    Figure::Ratio { name: "ready_vs_rmcp", of: "ready_ms", to: "ready_rmcp_ms" },
    Figure::Ratio { name: "ready_serving_vs_rmcp", of: "ready_serving_ms", to: "ready_rmcp_ms" },
    Figure::Read { name: "cold_compiling_ms", source: START, path: "[language=rust,variant=after].first.median_ms" },
];

/// A row of the performance page's table: what is measured, mcp-wit's
/// figure and what it is set against, as templates: `{name:format}` is a
/// figure of [`FIGURES`]; the format is `k` (thousands, "483k") or the
/// number of decimals (0 with thousands separators).
pub(super) struct Row {
    pub(super) what: &'static str,
    pub(super) value: &'static str,
    pub(super) against: &'static str,
}

pub(super) const TABLE: &[Row] = &[
    Row {
        what: "stdio, 32 calls in flight, 2025 sessions",
        value: "{stdio_32:k} calls/s",
        against: "{stdio_32_vs_rmcp:1}× rmcp's throughput ({stdio_32_rmcp:k})",
    },
    Row {
        what: "stdio, 32 calls in flight, 2026-07-28 requests against 2025 sessions, runs alternating",
        value: "{stdio_32_modern:k} calls/s",
        against: "{stdio_32_modern_vs_legacy:2}× the 2025 sessions' throughput in the same alternating runs",
    },
    Row {
        what: "stdio, one call at a time, client and server on one CPU",
        value: "{one_cpu_p50:1} µs p50",
        against: "{one_cpu_p50_vs_floor:2}× the floor's {one_cpu_p50_floor:1} µs",
    },
    Row {
        what: "Streamable HTTP, 2025 sessions, server CPU per call at 8–256 sessions",
        value: "{http_legacy_cpu:0} µs",
        against: "{http_legacy_cpu_vs_floor:1}× the floor; {http_legacy_calls_vs_rmcp:1}× rmcp's throughput",
    },
    Row {
        what: "Streamable HTTP, 2026-07-28, instances reused, server CPU per call at 8–64 sessions",
        value: "{http_reuse_cpu:1} µs",
        against: "{http_reuse_cpu_vs_floor:2}× the floor; {http_reuse_calls_vs_floor:2}× its throughput",
    },
    Row {
        what: "Streamable HTTP, 2026-07-28, a fresh instance per request (the default), server CPU per call at \
               8–64 sessions",
        value: "{http_fresh_cpu:0} µs",
        against: "{http_fresh_cpu_vs_wasmtime:2}× `wasmtime serve`'s, fresh instances too ({http_fresh_cpu_wasmtime:0} µs)",
    },
    Row {
        what: "a fresh instance alone (instantiate and drop)",
        value: "{instantiate_drop:1} µs",
        against: "{fresh_instance_call_drop:1} µs with its first call",
    },
    Row {
        what: "memory per idle HTTP session, connection included",
        value: "{idle_kib:0} KiB",
        against: "rmcp {idle_kib_rmcp:0} KiB, the floor {idle_kib_floor:0} KiB",
    },
    Row {
        what: "stdio, spawn to the answer of `initialize`, the echo router cached: `mcp-wit-serve`",
        value: "{ready_serving_ms:2} ms",
        against: "{ready_serving_vs_rmcp:2}× rmcp's {ready_rmcp_ms:2} ms; `mcp-wit serve` {ready_vs_rmcp:2}×, and \
                  {cold_compiling_ms:0} ms when it compiles the component first",
    },
];

/// The README's "Fast." bullet, up to its link to the performance page.
pub(super) const README_FAST: &str = "Over stdio with 32 calls in flight, {stdio_32_vs_rmcp:1}× the throughput of rmcp's \
    native server with the same tool; a fresh instance in {instantiate_drop:0} µs; an idle HTTP session in \
    {idle_kib:0} KiB; a cached component answers in {ready_serving_vs_rmcp:1}× the time rmcp's takes to start";
