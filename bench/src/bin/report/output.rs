//! What a run writes: the machine it ran on, the results as JSON, paths
//! made relative to the workspace.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use anyhow::Context;
use serde::Serialize;

use crate::cold_start::ColdStartRow;
use crate::matrix::{EraRun, HttpRun, IdleRun, Run, Settings};
use crate::medians::{Cell, EraCell, HttpCell, HttpRatio, IdleCell, Ratio};

#[derive(Serialize)]
pub(crate) struct Machine {
    pub(crate) cpus: usize,
    pub(crate) cpu_model: String,
    pub(crate) kernel: String,
    rustc: String,
    pub(crate) commit: String,
    pub(crate) date_utc: String,
}

#[derive(Serialize)]
pub(crate) struct Results {
    pub(crate) machine: Machine,
    pub(crate) settings: Settings,
    pub(crate) servers: BTreeMap<&'static str, Vec<String>>,
    pub(crate) http_servers: BTreeMap<&'static str, Vec<String>>,
    pub(crate) ratios: Vec<Ratio>,
    pub(crate) medians: Vec<Cell>,
    pub(crate) http_ratios: Vec<HttpRatio>,
    pub(crate) http_medians: Vec<HttpCell>,
    pub(crate) idle_memory: Vec<IdleCell>,
    pub(crate) cold_start: Vec<ColdStartRow>,
    pub(crate) runs: Vec<Run>,
    pub(crate) http_runs: Vec<HttpRun>,
    pub(crate) idle_runs: Vec<IdleRun>,
    pub(crate) stdio_eras: Vec<EraCell>,
    pub(crate) stdio_era_runs: Vec<EraRun>,
}

pub(crate) fn machine(root: &Path) -> Machine {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu_model = cpuinfo
        .lines()
        .find_map(|line| line.strip_prefix("model name")?.split_once(':').map(|(_, v)| v.trim().to_string()))
        .unwrap_or_else(|| "unknown CPU".into());
    let output = |program: &str, args: &[&str]| -> String {
        Command::new(program)
            .current_dir(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_else(|| "unknown".into())
    };
    Machine {
        cpus: std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model,
        kernel: std::fs::read_to_string("/proc/sys/kernel/osrelease").map_or("unknown".into(), |s| s.trim().into()),
        rustc: output("rustc", &["-V"]),
        commit: output("git", &["describe", "--always", "--dirty"]),
        date_utc: output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
    }
}

/// `text` with a leading workspace path made relative, for the results
/// written to the repository.
pub(crate) fn relative(text: &str, root: &Path) -> String {
    let prefix = format!("{}/", root.display());
    text.strip_prefix(&prefix).unwrap_or(text).to_string()
}

pub(crate) fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}
