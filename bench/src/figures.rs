//! The figures users read, generated from the data the benchmarks wrote.
//!
//! The table of `docs/users/performance.md` and the "Fast." bullet of
//! `README.md` sit between markers (`<!-- figures: begin NAME -->` …
//! `<!-- figures: end -->`) and are rendered here from results files under
//! `bench/results/`, never typed. [`FIGURES`] is the one list of what is
//! quoted: each figure names the study (a dated folder, or the newest report
//! run that measured it), the file and the path to its value in the JSON.
//! `report` rewrites the pages after a run, `figures` from the data at hand,
//! and `tests/figures.rs` fails while the pages differ from what the data
//! gives.
//!
//! A path is fields joined by `.`; `[key=value,...]` keeps the array's
//! elements whose fields match (numbers compare as numbers). A JSON Lines
//! file is one array of its lines. When several elements match (the
//! repetitions of a run), the figure is their median. One `{a|b|c}` in the
//! path measures each alternative apart, and the figure is their range.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail, ensure};
use serde_json::Value;

use crate::results;
use crate::stats::{median, min_max, thousands};

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
    fn name(&self) -> &'static str {
        match self {
            Figure::Read { name, .. } | Figure::Ratio { name, .. } => name,
        }
    }
}

const REPORT_STDIO: Source = Source::NewestReport { having: "medians" };
const REPORT_ERAS: Source = Source::NewestReport { having: "stdio_eras" };
const REPORT_HTTP: Source = Source::NewestReport { having: "http_medians" };
const REPORT_IDLE: Source = Source::NewestReport { having: "idle_memory" };
/// 2026-07-28 requests over HTTP on instances reused, beside the floor and rmcp.
const STATELESS: Source = Source::Study { folder: "2026-11-26-stateless", file: "runs.jsonl" };
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
    Figure::Read {
        name: "one_cpu_p50",
        source: REPORT_STDIO,
        path: "medians[server=mcp-wit,inflight=1,pinned=true].p50_us",
    },
    Figure::Read {
        name: "one_cpu_p50_floor",
        source: REPORT_STDIO,
        path: "medians[server=floor,inflight=1,pinned=true].p50_us",
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
        source: REPORT_HTTP,
        path: "http_medians[era=modern,server=mcp-wit,sessions={8|64|256}].cpu_us_per_call",
    },
    Figure::Read {
        name: "http_fresh_cpu_floor",
        source: REPORT_HTTP,
        path: "http_medians[era=modern,server=floor,sessions={8|64|256}].cpu_us_per_call",
    },
    Figure::Ratio { name: "http_fresh_cpu_vs_floor", of: "http_fresh_cpu", to: "http_fresh_cpu_floor" },
    Figure::Read {
        name: "http_reuse_cpu",
        source: STATELESS,
        path: "[label=http modern reuse {8|64|256}].cpu_us_per_call",
    },
    Figure::Read {
        name: "http_reuse_cpu_floor",
        source: STATELESS,
        path: "[label=http modern floor {8|64|256}].cpu_us_per_call",
    },
    Figure::Ratio { name: "http_reuse_cpu_vs_floor", of: "http_reuse_cpu", to: "http_reuse_cpu_floor" },
    Figure::Read {
        name: "http_reuse_calls",
        source: STATELESS,
        path: "[label=http modern reuse {8|64|256}].calls_per_sec",
    },
    Figure::Read {
        name: "http_reuse_calls_rmcp",
        source: STATELESS,
        path: "[label=http modern rmcp {8|64|256}].calls_per_sec",
    },
    Figure::Ratio { name: "http_reuse_calls_vs_rmcp", of: "http_reuse_calls", to: "http_reuse_calls_rmcp" },
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
    Figure::Read { name: "cold_cached_ms", source: START, path: "[language=rust,variant=after].cached.median_ms" },
    Figure::Read { name: "cold_compiling_ms", source: START, path: "[language=rust,variant=after].first.median_ms" },
];

/// A row of the performance page's table: what is measured, mcp-wit's
/// figure and what it is set against, as templates: `{name:format}` is a
/// figure of [`FIGURES`]; the format is `k` (thousands, "483k") or the
/// number of decimals (0 with thousands separators).
struct Row {
    what: &'static str,
    value: &'static str,
    against: &'static str,
}

const TABLE: &[Row] = &[
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
        what: "Streamable HTTP, 2026-07-28, instances reused, server CPU per call at 8–256 sessions",
        value: "{http_reuse_cpu:0} µs",
        against: "{http_reuse_cpu_vs_floor:1}× the floor; {http_reuse_calls_vs_rmcp:1}× rmcp's throughput",
    },
    Row {
        what: "Streamable HTTP, 2026-07-28, a fresh instance per request (the default), server CPU per call at \
               8–256 sessions",
        value: "{http_fresh_cpu:0} µs",
        against: "{http_fresh_cpu_vs_floor:0}× the floor",
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
        what: "cold start of the echo router, cached component",
        value: "{cold_cached_ms:1} ms",
        against: "{cold_compiling_ms:0} ms compiling",
    },
];

/// The README's "Fast." bullet, up to its link to the performance page.
const README_FAST: &str = "Over stdio with 32 calls in flight, {stdio_32_vs_rmcp:1}× the throughput of rmcp's \
    native server with the same tool; a fresh instance in {instantiate_drop:0} µs; an idle HTTP session in \
    {idle_kib:0} KiB; a cached component starts in {cold_cached_ms:0} ms";

const PERFORMANCE_PAGE: &str = "docs/users/performance.md";
const README: &str = "README.md";
const END: &str = "<!-- figures: end -->";

fn begin(marker: &str) -> String {
    format!("<!-- figures: begin {marker} -->")
}

/// A figure's values (one, or one per alternative) and the study folder
/// (under `bench/results/`) it was read from.
#[derive(Clone, Debug)]
struct Resolved {
    values: Vec<f64>,
    folders: Vec<String>,
}

/// Reads every figure of [`FIGURES`] from the results under `root/bench/results`.
fn resolve(root: &Path) -> anyhow::Result<BTreeMap<&'static str, Resolved>> {
    let results_dir = root.join("bench/results");
    let mut files: BTreeMap<PathBuf, Value> = BTreeMap::new();
    let mut reports: Option<Vec<(String, PathBuf)>> = None;
    let mut figures = BTreeMap::new();
    for figure in FIGURES {
        let resolved = match *figure {
            Figure::Read { name, source, path } => {
                let file = match source {
                    Source::Study { folder, file } => results_dir.join(folder).join(file),
                    Source::NewestReport { having } => {
                        let reports = match &mut reports {
                            Some(reports) => reports,
                            none => none.insert(report_runs(&results_dir)?),
                        };
                        newest_report_having(reports, &mut files, having)?
                            .with_context(|| format!("{name}: no report under bench/results has `{having}`"))?
                    }
                };
                if !files.contains_key(&file) {
                    files.insert(file.clone(), load(&file)?);
                }
                let data = &files[&file];
                let values = read(data, path).with_context(|| format!("{name}: {path} in {}", file.display()))?;
                let folder = file.strip_prefix(&results_dir)?.components().next().context("a results file's folder")?;
                Resolved { values, folders: vec![folder.as_os_str().to_string_lossy().into_owned()] }
            }
            Figure::Ratio { name, of, to } => {
                let (of, to): (&Resolved, &Resolved) = (
                    figures.get(of).with_context(|| format!("{name}: {of} is not defined above it"))?,
                    figures.get(to).with_context(|| format!("{name}: {to} is not defined above it"))?,
                );
                let values = match (of.values.len(), to.values.len()) {
                    (n, m) if n == m => of.values.iter().zip(&to.values).map(|(a, b)| a / b).collect(),
                    (_, 1) => of.values.iter().map(|a| a / to.values[0]).collect(),
                    (n, m) => bail!("{name}: {n} values against {m}"),
                };
                let mut folders = of.folders.clone();
                folders.extend(to.folders.iter().filter(|f| !of.folders.contains(f)).cloned());
                Resolved { values, folders }
            }
        };
        ensure!(figures.insert(figure.name(), resolved).is_none(), "{} is defined twice", figure.name());
    }
    Ok(figures)
}

/// Every `report` run's results.json under `dir` (its folders and theirs),
/// with the date it records.
fn report_runs(dir: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let mut runs = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let folder = entry?.path();
        for candidate in [folder.join("results.json"), folder.join("report/results.json")] {
            let Ok(text) = std::fs::read_to_string(&candidate) else { continue };
            let data: Value = serde_json::from_str(&text).with_context(|| format!("{}", candidate.display()))?;
            if let Some(date) = data.pointer("/machine/date_utc").and_then(Value::as_str) {
                runs.push((date.to_string(), candidate));
            }
        }
    }
    Ok(runs)
}

fn newest_report_having(
    runs: &[(String, PathBuf)],
    files: &mut BTreeMap<PathBuf, Value>,
    having: &str,
) -> anyhow::Result<Option<PathBuf>> {
    let mut newest: Option<&(String, PathBuf)> = None;
    for run in runs {
        if !files.contains_key(&run.1) {
            files.insert(run.1.clone(), load(&run.1)?);
        }
        let data = &files[&run.1];
        let measured = data.get(having).and_then(Value::as_array).is_some_and(|a| !a.is_empty());
        if measured && newest.is_none_or(|n| run.0 > n.0) {
            newest = Some(run);
        }
    }
    Ok(newest.map(|run| run.1.clone()))
}

/// A JSON file, or a JSON Lines file (`.jsonl`) as the array of its lines.
fn load(file: &Path) -> anyhow::Result<Value> {
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    if file.extension().is_some_and(|e| e == "jsonl") {
        let lines = text.lines().filter(|l| !l.trim().is_empty());
        let values = lines.map(serde_json::from_str).collect::<Result<Vec<Value>, _>>();
        Ok(Value::Array(values.with_context(|| format!("{}", file.display()))?))
    } else {
        serde_json::from_str(&text).with_context(|| format!("{}", file.display()))
    }
}

/// The values `path` names in `data`: one per `{a|b}` alternative, each the
/// median of what matched.
fn read(data: &Value, path: &str) -> anyhow::Result<Vec<f64>> {
    let alternatives = match (path.find('{'), path.find('}')) {
        (Some(open), Some(close)) if open < close => {
            let (head, tail) = (&path[..open], &path[close + 1..]);
            ensure!(!tail.contains('{'), "one {{a|b}} per path");
            path[open + 1..close].split('|').map(|alt| format!("{head}{alt}{tail}")).collect()
        }
        _ => vec![path.to_string()],
    };
    alternatives
        .iter()
        .map(|path| {
            let found = select(data, path)?;
            let numbers: Vec<f64> = found.iter().filter_map(|v| v.as_f64()).collect();
            ensure!(!numbers.is_empty(), "nothing at {path}");
            ensure!(numbers.len() == found.len(), "not a number at {path}");
            Ok(median(&numbers))
        })
        .collect()
}

fn select<'a>(data: &'a Value, path: &str) -> anyhow::Result<Vec<&'a Value>> {
    let mut current = vec![data];
    for segment in segments(path) {
        let (field, filters) = match segment.split_once('[') {
            Some((field, rest)) => (field, Some(rest.strip_suffix(']').context("a `[` without its `]`")?)),
            None => (segment, None),
        };
        if !field.is_empty() {
            current = current.into_iter().filter_map(|v| v.get(field)).collect();
        }
        if let Some(filters) = filters {
            let filters: Vec<(&str, &str)> = filters
                .split(',')
                .map(|f| f.split_once('=').context("a filter is key=value"))
                .collect::<Result<_, _>>()?;
            current = current
                .into_iter()
                .filter_map(Value::as_array)
                .flatten()
                .filter(|element| filters.iter().all(|(key, want)| element.get(key).is_some_and(|v| matches(v, want))))
                .collect();
        }
    }
    Ok(current)
}

/// `path` split at the dots outside brackets.
fn segments(path: &str) -> Vec<&str> {
    let (mut out, mut start, mut depth) = (Vec::new(), 0, 0usize);
    for (i, ch) in path.char_indices() {
        match ch {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '.' if depth == 0 => {
                out.push(&path[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&path[start..]);
    out
}

fn matches(value: &Value, want: &str) -> bool {
    match value {
        Value::String(s) => s == want,
        Value::Number(n) => want.parse::<f64>().is_ok_and(|w| n.as_f64() == Some(w)),
        Value::Bool(b) => want.parse::<bool>() == Ok(*b),
        _ => false,
    }
}

/// `template` with each `{name:format}` replaced by its figure; the study
/// folders the figures came from are added to `folders`.
fn fill(template: &str, figures: &BTreeMap<&str, Resolved>, folders: &mut Vec<String>) -> anyhow::Result<String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').context("a `{` without its `}`")? + open;
        let (name, format) = rest[open + 1..close].split_once(':').unwrap_or((&rest[open + 1..close], "1"));
        let figure = figures.get(name).with_context(|| format!("no figure {name}"))?;
        for folder in &figure.folders {
            if !folders.contains(folder) {
                folders.push(folder.clone());
            }
        }
        out += &rest[..open];
        out += &format_values(&figure.values, format)?;
        rest = &rest[close + 1..];
    }
    out += rest;
    Ok(out)
}

/// One value, or a range "low–high" (one value when both round alike).
fn format_values(values: &[f64], format: &str) -> anyhow::Result<String> {
    let one = |v: f64| -> anyhow::Result<String> {
        Ok(match format {
            "k" => format!("{:.0}k", v / 1000.0),
            "0" => thousands(v),
            decimals => format!("{v:.*}", decimals.parse::<usize>().with_context(|| format!("format {format}"))?),
        })
    };
    let (low, high) = min_max(values);
    let (low, high) = (one(low)?, one(high)?);
    Ok(if low == high { low } else { format!("{low}–{high}") })
}

/// The performance page's table.
fn performance_table(figures: &BTreeMap<&str, Resolved>) -> anyhow::Result<String> {
    let mut out = String::from("| what | mcp-wit | against | measured in |\n| --- | ---: | --- | --- |\n");
    for row in TABLE {
        let mut folders = Vec::new();
        let value = fill(row.value, figures, &mut folders)?;
        let against = fill(row.against, figures, &mut folders)?;
        let studies: Vec<String> =
            folders.iter().map(|f| format!("[{f}](../../bench/results/{f}/)")).collect::<Vec<_>>();
        writeln!(out, "| {} | {value} | {against} | {} |", row.what, studies.join(", "))?;
    }
    Ok(out)
}

/// `text` with the words after `first_column` wrapped at 100 columns, later
/// lines indented by `indent` (a list item's continuation).
fn wrap(text: &str, first_column: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut column = first_column;
    for word in text.split_whitespace() {
        let width = word.chars().count();
        if column > first_column.max(indent.len()) && column + 1 + width > 100 {
            out += "\n";
            out += indent;
            column = indent.len();
        } else if !out.is_empty() {
            out.push(' ');
            column += 1;
        }
        out += word;
        column += width;
    }
    out
}

/// `text` with what lies between the `marker`'s begin and the end marker
/// replaced by what `render` makes of the begin marker's column.
fn replace_region(
    text: &str,
    file: &str,
    marker: &str,
    render: impl FnOnce(usize) -> String,
) -> anyhow::Result<String> {
    let begin = begin(marker);
    let start = text.find(&begin).with_context(|| format!("{file} has no `{begin}`"))? + begin.len();
    let end = text[start..].find(END).with_context(|| format!("{file} has no `{END}` after `{begin}`"))? + start;
    let column = start - text[..start].rfind('\n').map_or(0, |i| i + 1);
    Ok(format!("{}{}{}", &text[..start], render(column), &text[end..]))
}

/// The generated pages as the data gives them: (path under `root`, text).
pub fn render(root: &Path) -> anyhow::Result<Vec<(PathBuf, String)>> {
    let figures = resolve(root)?;
    let table = performance_table(&figures)?;
    let fast = fill(README_FAST, &figures, &mut Vec::new())?;

    let page = std::fs::read_to_string(root.join(PERFORMANCE_PAGE)).context(PERFORMANCE_PAGE)?;
    let page = replace_region(&page, PERFORMANCE_PAGE, "performance-table", |_| format!("\n\n{table}\n"))?;
    let readme = std::fs::read_to_string(root.join(README)).context(README)?;
    let readme = replace_region(&readme, README, "readme-fast", |column| wrap(&fast, column, "  "))?;
    Ok(vec![(root.join(PERFORMANCE_PAGE), page), (root.join(README), readme)])
}

/// The generated pages that differ from what the data gives.
pub fn stale(root: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut differ = Vec::new();
    for (path, text) in render(root)? {
        if std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))? != text {
            differ.push(path);
        }
    }
    Ok(differ)
}

/// Rewrites the generated pages from the data; returns those that changed.
pub fn write(root: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let differ = stale(root)?;
    for (path, text) in render(root)? {
        if differ.contains(&path) {
            std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    Ok(differ)
}

/// Criterion's estimates under `criterion_dir` (`target/criterion`), as the
/// records a study keeps and [`FIGURES`] reads: `{"benchmark", "time_us",
/// "low_us", "high_us"}`, the estimate criterion prints (its slope when it
/// has one, else the mean) with its 95% interval, sorted by benchmark.
pub fn criterion_records(criterion_dir: &Path) -> anyhow::Result<Vec<Value>> {
    let mut records = Vec::new();
    let mut pending = vec![criterion_dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).with_context(|| format!("cannot read {}", dir.display()))? {
            let path = entry?.path();
            if path.file_name().is_some_and(|n| n == "new") {
                let (benchmark, estimates) = (load(&path.join("benchmark.json"))?, load(&path.join("estimates.json"))?);
                let name = benchmark["full_id"].as_str().with_context(|| format!("{}: no full_id", path.display()))?;
                let estimate = ["slope", "mean"]
                    .iter()
                    .map(|key| &estimates[key])
                    .find(|e| e.is_object())
                    .with_context(|| format!("{}: no estimate", path.display()))?;
                let us = |pointer: &str| estimate.pointer(pointer).and_then(Value::as_f64).map(|ns| ns / 1000.0);
                records.push(serde_json::json!({
                    "benchmark": name,
                    "time_us": us("/point_estimate"),
                    "low_us": us("/confidence_interval/lower_bound"),
                    "high_us": us("/confidence_interval/upper_bound"),
                }));
            } else if path.is_dir() && path.file_name().is_none_or(|n| n != "base" && n != "report") {
                pending.push(path);
            }
        }
    }
    records.sort_by(|a, b| a["benchmark"].as_str().cmp(&b["benchmark"].as_str()));
    Ok(records)
}

/// Keeps criterion's latest estimates in a study's folder, `out/criterion.json`.
pub fn record_criterion(criterion_dir: &Path, out: &Path) -> anyhow::Result<PathBuf> {
    let records = criterion_records(criterion_dir)?;
    ensure!(!records.is_empty(), "no criterion estimates under {}: run `cargo bench` first", criterion_dir.display());
    let document = serde_json::json!({
        "what": "criterion's estimates (the middle of the 95% interval, and its bounds), from its latest run",
        "command": "cargo bench -p mcp-wit-bench --bench instantiate",
        "criterion": records,
    });
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let file = out.join("criterion.json");
    std::fs::write(&file, serde_json::to_string_pretty(&document)? + "\n")
        .with_context(|| format!("cannot write {}", file.display()))?;
    Ok(file)
}

/// The workspace this crate sits in.
pub fn workspace_root() -> PathBuf {
    results::dir().parent().and_then(Path::parent).expect("bench/results sits in the workspace").to_path_buf()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn paths_select_filter_and_take_medians() {
        let data = json!({
            "medians": [
                {"server": "mcp-wit", "inflight": 32, "pinned": false, "calls": 480.0},
                {"server": "mcp-wit", "inflight": 32, "pinned": true, "calls": 10.0},
                {"server": "rmcp", "inflight": 32, "pinned": false, "calls": 70.0},
            ],
            "runs": [{"label": "a 8", "x": 1}, {"label": "a 8", "x": 5}, {"label": "a 8", "x": 3}, {"label": "a 64", "x": 7}],
            "nested": {"deep": [{"k": "v.w", "inner": {"n": 2.5}}]},
        });
        assert_eq!(read(&data, "medians[server=mcp-wit,inflight=32,pinned=false].calls").unwrap(), [480.0]);
        assert_eq!(read(&data, "runs[label=a 8].x").unwrap(), [3.0]);
        assert_eq!(read(&data, "runs[label=a {8|64}].x").unwrap(), [3.0, 7.0]);
        assert_eq!(read(&data, "nested.deep[k=v.w].inner.n").unwrap(), [2.5]);
        assert!(read(&data, "medians[server=floor].calls").is_err());
        assert!(read(&data, "medians[server=rmcp].server").is_err());
    }

    #[test]
    fn values_and_ranges_format() {
        assert_eq!(format_values(&[482_897.0], "k").unwrap(), "483k");
        assert_eq!(format_values(&[6.6, 6.64], "1").unwrap(), "6.6");
        assert_eq!(format_values(&[14.7, 17.7, 16.9], "0").unwrap(), "15–18");
        assert_eq!(format_values(&[1_234.6], "0").unwrap(), "1,235");
        assert!(format_values(&[1.0], "x").is_err());
    }

    #[test]
    fn templates_fill_and_name_their_studies() {
        let figures = BTreeMap::from([
            ("a", Resolved { values: vec![4.26], folders: vec!["2026-01-01-x".into()] }),
            ("b", Resolved { values: vec![1.0, 2.0], folders: vec!["2026-01-02-y".into()] }),
        ]);
        let mut folders = Vec::new();
        assert_eq!(fill("{a:1} µs, {b:0}× and {a:2}", &figures, &mut folders).unwrap(), "4.3 µs, 1–2× and 4.26");
        assert_eq!(folders, ["2026-01-01-x", "2026-01-02-y"]);
        assert!(fill("{c:1}", &figures, &mut folders).is_err());
    }

    #[test]
    fn regions_are_replaced_and_text_wrapped() {
        let text = "- **Fast.** <!-- figures: begin f -->old\n  text<!-- figures: end --> (link).\n";
        let replaced = replace_region(text, "t", "f", |column| wrap("new words", column, "  ")).unwrap();
        assert_eq!(replaced, "- **Fast.** <!-- figures: begin f -->new words<!-- figures: end --> (link).\n");
        assert!(replace_region(text, "t", "g", |_| String::new()).is_err());
        let long = ["word"; 30].join(" ");
        for line in wrap(&long, 40, "  ").lines() {
            assert!(line.len() <= 100 - 40 || line.starts_with("  "), "{line}");
        }
        assert!(wrap(&long, 40, "  ").lines().skip(1).all(|l| l.starts_with("  ") && l.len() <= 100));
    }

    #[test]
    fn criterion_estimates_become_records() {
        let dir = std::env::temp_dir().join(format!("figures-criterion-{}", std::process::id()));
        let new = dir.join("instance/instantiate_drop/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::create_dir_all(dir.join("instance/instantiate_drop/base")).unwrap();
        std::fs::write(new.join("benchmark.json"), r#"{"full_id": "instance/instantiate_drop"}"#).unwrap();
        let interval =
            r#"{"confidence_interval": {"lower_bound": 5900.0, "upper_bound": 6100.0}, "point_estimate": 6000.0}"#;
        std::fs::write(new.join("estimates.json"), format!(r#"{{"mean": {interval}, "slope": null}}"#)).unwrap();
        let records = criterion_records(&dir).unwrap();
        assert_eq!(
            records,
            [json!({"benchmark": "instance/instantiate_drop", "time_us": 6.0, "low_us": 5.9, "high_us": 6.1})]
        );
        let written = record_criterion(&dir, &dir.join("study")).unwrap();
        let data = load(&written).unwrap();
        assert_eq!(read(&data, "criterion[benchmark=instance/instantiate_drop].time_us").unwrap(), [6.0]);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(record_criterion(&dir.join("none"), &dir).is_err());
    }
}
