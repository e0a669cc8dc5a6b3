//! `plugins`: the echo Extism servlet (`plugins/servlet`, raw ABI) against
//! the echo component (`components/echo`), both served by `mcp-wit serve`:
//! over stdio in a session (one instance, calls on it) and over Streamable
//! HTTP in 2026-07-28 requests (a fresh instance per request: what making
//! one costs).
//!
//! ```text
//! cargo run --release -p mcp-wit-bench --bin plugins -- [--reps 3] [--calls 20000] [--http-calls 10000]
//!     [--out bench/results/<UTC date>-plugins] [--no-build] [--show-stderr]
//! ```

use std::path::{Path, PathBuf};

use anyhow::{Context, ensure};
use clap::Parser;
use mcp_wit_bench::cli::{Pairing, Study};
use mcp_wit_bench::http::Era;
use mcp_wit_bench::pair::{self, Contender, Effort, Point};
use mcp_wit_bench::results;
use serde::Serialize;

/// The echo Extism servlet (`plugins/servlet`) against the echo component
/// (`components/echo`), both on `mcp-wit serve`: over stdio in a session, and
/// over Streamable HTTP in 2026-07-28 requests (a fresh instance each).
#[derive(Parser, Debug)]
#[command(
    // A flag given twice counts once, the last value, as scripts may append.
    args_override_self = true,
    after_help = "Example:\n  cargo run --release -p mcp-wit-bench --bin plugins -- --reps 5 --calls 50000"
)]
struct Cli {
    /// Measured calls of a stdio point; a tenth as many warm up (over HTTP likewise).
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    calls: usize,
    #[command(flatten)]
    pairing: Pairing,
    /// Where results.json and summary.md go.
    #[arg(long, value_name = "DIR", default_value_os_t = results::dated_dir("plugins"))]
    out: PathBuf,
    #[command(flatten)]
    study: Study,
}

#[derive(Serialize)]
struct Results {
    component_bytes: u64,
    servlet_bytes: u64,
    reps: usize,
    rows: Vec<pair::Row>,
    runs: Vec<pair::Run>,
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("plugins: {e:#}");
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
    let component = PathBuf::from(mcp_wit_tests::FIXTURES).join("echo.wasm");
    let servlet = PathBuf::from(mcp_wit_tests::PLUGIN_FIXTURES).join("servlet.wasm");
    let serve = |guest: &Path| -> Vec<String> {
        [mcp_wit.as_str(), "serve", &guest.display().to_string(), "--guest-output", "discard"]
            .into_iter()
            .map(str::to_owned)
            .collect()
    };
    let contenders = [
        Contender { name: "component", stdio: Some(serve(&component)), http: pair::with_http(serve(&component)) },
        Contender { name: "servlet", stdio: Some(serve(&servlet)), http: pair::with_http(serve(&servlet)) },
    ];
    let points = [
        Point::Stdio { inflight: 1, era: Era::Legacy },
        Point::Stdio { inflight: 32, era: Era::Legacy },
        Point::Http { sessions: 1, era: Era::Modern },
        Point::Http { sessions: 8, era: Era::Modern },
    ];
    let runs = pair::run(&contenders, &points, effort)?;
    let rows = pair::rows(&contenders, &points, &runs);
    let (component_bytes, servlet_bytes) = (std::fs::metadata(&component)?.len(), std::fs::metadata(&servlet)?.len());
    let summary = format!(
        "## An Extism servlet against a component\n\n\
         The echo tool as a component (`components/echo`, {component_bytes} bytes) and as an Extism servlet \
         on the raw ABI (`plugins/servlet`, {servlet_bytes} bytes), both on `mcp-wit serve`; over stdio a \
         2025 session (one instance), over HTTP 2026-07-28 requests (a fresh instance each); medians of {} \
         alternating repetitions: calls/s (p50 µs, server CPU µs per call).\n\n{}",
        effort.reps,
        pair::table(&contenders, &rows)
    );
    let results = Results { component_bytes, servlet_bytes, reps: effort.reps, rows, runs };
    pair::save(&out_dir, &results, &summary)
}

#[cfg(test)]
mod tests {
    use mcp_wit_bench::cli::parse;

    use super::*;

    #[test]
    fn calls_and_out() {
        let cli: Cli = parse("plugins").unwrap();
        assert_eq!((cli.calls, cli.out), (20_000, results::dated_dir("plugins")));
        let cli: Cli = parse("plugins --reps 5 --calls=50000 --out out --no-build").unwrap();
        assert_eq!((cli.calls, cli.pairing.reps, cli.out, cli.study.no_build), (50_000, 5, "out".into(), true));
        assert!(parse::<Cli>("plugins -- server").is_err() && parse::<Cli>("plugins --sessions 8").is_err());
    }
}
