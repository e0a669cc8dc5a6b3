//! The load client against the two baselines, in small runs: every answer is
//! checked by the client, so these show both baselines speak MCP correctly
//! and the client keeps count. Nothing here is timed.

use std::time::Duration;

use mcp_wit_bench::load::{self, LoadOptions};

fn command(bin: &str) -> Vec<String> {
    vec![bin.to_string()]
}

fn small(inflight: usize) -> LoadOptions {
    LoadOptions { inflight, calls: 300, warmup: 50, timeout: Duration::from_secs(60), ..LoadOptions::default() }
}

#[test]
fn serde_baseline_answers_every_call() {
    for inflight in [1, 8] {
        let result = load::run_load(&command(env!("CARGO_BIN_EXE_baseline-serde")), &small(inflight)).unwrap();
        assert_eq!((result.calls, result.inflight), (300, inflight));
        assert!(result.p50_us > 0.0 && result.p50_us <= result.p99_us);
    }
}

#[test]
fn rmcp_baseline_answers_every_call() {
    let result = load::run_load(&command(env!("CARGO_BIN_EXE_baseline-rmcp")), &small(8)).unwrap();
    assert_eq!(result.calls, 300);
}

#[test]
fn cold_start_counts_its_runs() {
    let result = load::cold_start(&command(env!("CARGO_BIN_EXE_baseline-serde")), 2, false).unwrap();
    assert_eq!((result.runs, result.samples_ms.len()), (2, 2));
    assert!(result.min_ms <= result.median_ms && result.median_ms <= result.max_ms);
}

#[test]
fn a_server_that_does_not_answer_properly_fails_the_run() {
    // `cat` sends every request back: no `initialize` result.
    let error = load::run_load(&command("cat"), &small(1)).unwrap_err();
    assert!(format!("{error:#}").contains("initialize"), "{error:#}");
    assert!(load::run_load(&command("/nonexistent/server"), &small(1)).is_err());
}
