//! Criterion's estimates kept as a study's records.

use std::path::{Path, PathBuf};

use anyhow::{Context, ensure};
use serde_json::Value;

use super::resolve::load;

/// Criterion's estimates under `criterion_dir` (`target/criterion`), as the
/// records a study keeps and [`FIGURES`](super::FIGURES) reads: `{"benchmark", "time_us",
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::figures::resolve::read;

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
