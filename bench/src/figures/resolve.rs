//! Reading the figures from the results files: the study a figure names (or
//! the newest report run that measured it), and the path to its values.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail, ensure};
use serde_json::Value;

use super::quoted::{FIGURES, Figure, Source};
use crate::stats::median;

/// A figure's values (one, or one per alternative) and the study folder
/// (under `bench/results/`) it was read from.
#[derive(Clone, Debug)]
pub(super) struct Resolved {
    pub(super) values: Vec<f64>,
    pub(super) folders: Vec<String>,
}

/// Reads every figure of [`FIGURES`] from the results under `root/bench/results`.
pub(super) fn resolve(root: &Path) -> anyhow::Result<BTreeMap<&'static str, Resolved>> {
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
pub(super) fn load(file: &Path) -> anyhow::Result<Value> {
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
pub(super) fn read(data: &Value, path: &str) -> anyhow::Result<Vec<f64>> {
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
}
