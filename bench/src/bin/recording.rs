//! `recording`: what `serve --record` costs. The echo component served by
//! `mcp-wit serve` as is and recording every message to a file, measured
//! against each other: over stdio in a 2025 session (1 and 32 calls in
//! flight) and over Streamable HTTP (8 sessions).
//!
//! ```text
//! cargo run --release -p mcp-wit-bench --bin recording -- [--reps 3] [--calls 50000] [--http-calls 10000]
//!     [--out bench/results/<UTC date>-recording] [--no-build] [--show-stderr]
//! ```

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, ensure};
use clap::Parser;
use mcp_wit_bench::cli::{Pairing, Study};
use mcp_wit_bench::http::Era;
use mcp_wit_bench::pair::{self, Contender, Effort, Point};
use mcp_wit_bench::results;
use mcp_wit_record::Direction;
use serde::Serialize;

/// What `serve --record` costs: the echo component on `mcp-wit serve` as is
/// and recording every message to a file, over stdio (1 and 32 calls in
/// flight) and over Streamable HTTP (8 sessions).
#[derive(Parser, Debug)]
#[command(
    // A flag given twice counts once, the last value, as scripts may append.
    args_override_self = true,
    after_help = "Example:\n  cargo run --release -p mcp-wit-bench --bin recording -- --reps 5 --http-calls 20000"
)]
struct Cli {
    /// Measured calls of a stdio point; a tenth as many warm up (over HTTP likewise).
    #[arg(long, value_name = "N", default_value_t = 50_000)]
    calls: usize,
    #[command(flatten)]
    pairing: Pairing,
    /// Where results.json and summary.md go.
    #[arg(long, value_name = "DIR", default_value_os_t = results::dated_dir("recording"))]
    out: PathBuf,
    #[command(flatten)]
    study: Study,
}

#[derive(Serialize)]
struct Results {
    reps: usize,
    rows: Vec<pair::Row>,
    runs: Vec<pair::Run>,
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("recording: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<()> {
    let Cli { calls, pairing: Pairing { reps, http_calls }, out: out_dir, study } = Cli::parse();
    let effort = Effort {
        reps,
        stdio_calls: calls,
        stdio_warmup: calls / 10,
        http_calls,
        http_warmup: http_calls / 10,
        show_stderr: study.show_stderr,
    };
    ensure!(effort.reps > 0, "--reps must be at least 1");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("bench/ sits in the workspace").to_path_buf();
    if !study.no_build {
        pair::build_release(&root)?;
    }
    let bin_dir = std::env::current_exe()?.parent().context("no directory for the running binary")?.to_path_buf();
    let mcp_wit = bin_dir.join("mcp-wit").display().to_string();
    let echo = PathBuf::from(mcp_wit_tests::FIXTURES).join("echo.wasm").display().to_string();
    let scratch = std::env::temp_dir().join(format!("mcp-wit-bench-recording-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let file = scratch.join("bench.mcp").display().to_string();
    let serve = |extra: &[&str]| -> Vec<String> {
        [mcp_wit.as_str(), "serve", &echo, "--guest-output", "discard"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    let contenders = [
        Contender { name: "plain", stdio: Some(serve(&[])), http: pair::with_http(serve(&[])) },
        Contender {
            name: "recording",
            stdio: Some(serve(&["--record", &file])),
            http: pair::with_http(serve(&["--record", &file])),
        },
    ];
    let points = [
        Point::Stdio { inflight: 1, era: Era::Legacy },
        Point::Stdio { inflight: 32, era: Era::Legacy },
        Point::Http { sessions: 8, era: Era::Legacy },
    ];
    // A recording that dropped messages would flatter its figures.
    let runs = pair::run_checked(&contenders, &points, effort, |contender, _| {
        if contender.name == "recording" { complete(Path::new(&file)) } else { Ok(()) }
    });
    let _ = std::fs::remove_dir_all(&scratch);
    let runs = runs?;
    let rows = pair::rows(&contenders, &points, &runs);
    let summary = format!(
        "## What recording costs\n\n\
         The echo component on `mcp-wit serve`, as is and with `--record FILE.mcp`; the same client, the two \
         alternating; medians of {} repetitions: calls/s (p50 µs, server CPU µs per call).\n\n{}",
        effort.reps,
        pair::table(&contenders, &rows)
    );
    let results = Results { reps: effort.reps, rows, runs };
    pair::save(&out_dir, &results, &summary)
}

/// Checks the recording at `file` holds every call and its answer: in each
/// session the `tools/call` ids run from 1 without a gap (the load clients
/// number them so), and every one was answered.
fn complete(file: &Path) -> anyhow::Result<()> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let recording = mcp_wit_record::read(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let mut calls: HashMap<&str, HashSet<u64>> = HashMap::new();
    let mut answers: HashMap<&str, HashSet<u64>> = HashMap::new();
    for record in &recording.records {
        let Some(id) = record.message.get("id").and_then(serde_json::Value::as_u64) else { continue };
        let is_call = record.message.get("method").and_then(serde_json::Value::as_str) == Some("tools/call");
        match (record.direction, is_call) {
            (Direction::In, true) => calls.entry(&record.session).or_default().insert(id),
            (Direction::Out, false) => answers.entry(&record.session).or_default().insert(id),
            _ => false,
        };
    }
    ensure!(!calls.is_empty(), "the recording holds no call");
    for (session, ids) in &calls {
        let highest = ids.iter().copied().max().unwrap_or(0);
        let missing = (1..=highest).filter(|id| !ids.contains(id)).count();
        let unanswered = ids.iter().filter(|id| !answers.get(session).is_some_and(|a| a.contains(id))).count();
        ensure!(
            missing == 0 && unanswered == 0,
            "the recording of session {session} misses {missing} of {highest} calls and {unanswered} answers: \
             its writer fell behind and dropped them"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use mcp_wit_bench::cli::parse;

    use super::*;

    #[test]
    fn calls_and_out() {
        let cli: Cli = parse("recording").unwrap();
        assert_eq!(cli.out, results::dated_dir("recording"));
        let cli: Cli = parse("recording --calls 500 --http-calls=300 --out /tmp/r --show-stderr").unwrap();
        assert_eq!(
            (cli.calls, cli.pairing.http_calls, cli.out, cli.study.show_stderr),
            (500, 300, "/tmp/r".into(), true)
        );
        assert_eq!(parse::<Cli>("recording --reps 2 --reps 4").unwrap().pairing.reps, 4);
        assert!(parse::<Cli>("recording extra").is_err() && parse::<Cli>("recording --reps -1").is_err());
    }
}
