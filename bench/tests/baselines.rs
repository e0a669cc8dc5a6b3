//! The load clients against the two baselines, in small runs, over stdio and
//! Streamable HTTP: every answer is checked by the client, so these show both
//! baselines speak MCP correctly and the clients keep count. Nothing here is
//! timed.

use std::time::Duration;

use mcp_wit_bench::http::{self, Era, HttpLoadOptions};
use mcp_wit_bench::load::{self, LoadOptions};

fn command(bin: &str) -> Vec<String> {
    vec![bin.to_string()]
}

fn small(inflight: usize) -> LoadOptions {
    LoadOptions {
        inflight,
        calls: 300,
        warmup: 50,
        warmup_min: Duration::ZERO,
        timeout: Duration::from_secs(60),
        ..LoadOptions::default()
    }
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

fn http_command(bin: &str) -> Vec<String> {
    vec![bin.to_string(), "--http".into(), http::ADDR.into()]
}

fn small_http(sessions: usize) -> HttpLoadOptions {
    HttpLoadOptions {
        sessions,
        calls_per_session: 40,
        warmup_per_session: 5,
        timeout: Duration::from_secs(60),
        ..HttpLoadOptions::default()
    }
}

#[test]
fn serde_baseline_answers_every_call_over_http() {
    for sessions in [1, 8] {
        let result =
            http::run_http_load(&http_command(env!("CARGO_BIN_EXE_baseline-serde")), &small_http(sessions)).unwrap();
        assert_eq!((result.sessions, result.calls, result.framing.as_str()), (sessions, sessions * 40, "json"));
        assert!(result.window_calls > 0 && result.window_calls <= result.calls);
        assert!(result.p50_us > 0.0 && result.p50_us <= result.p99_us);
    }
}

#[test]
fn rmcp_baseline_answers_every_call_over_http() {
    let result = http::run_http_load(&http_command(env!("CARGO_BIN_EXE_baseline-rmcp")), &small_http(4)).unwrap();
    assert_eq!((result.calls, result.framing.as_str()), (160, "sse"));
}

#[test]
fn both_baselines_answer_2026_07_28_requests_without_sessions() {
    for (bin, framing) in [(env!("CARGO_BIN_EXE_baseline-serde"), "json"), (env!("CARGO_BIN_EXE_baseline-rmcp"), "sse")]
    {
        let options = HttpLoadOptions { era: Era::Modern, ..small_http(4) };
        let result = http::run_http_load(&http_command(bin), &options).unwrap();
        assert_eq!((result.era, result.calls, result.framing.as_str()), (Era::Modern, 160, framing), "{bin}");
    }
}

#[test]
fn idle_memory_counts_its_sessions() {
    let command = http_command(env!("CARGO_BIN_EXE_baseline-serde"));
    let options = http::IdleOptions { sessions: 20, timeout: Duration::from_secs(60), ..Default::default() };
    let result = http::idle_memory(&command, &options).unwrap();
    assert_eq!(result.sessions, 20);
    assert!(result.rss_start_kib > 0 && result.rss_first_kib > 0 && result.rss_all_kib > 0);
}

#[test]
fn an_http_command_must_name_its_address() {
    let error = http::run_http_load(&command(env!("CARGO_BIN_EXE_baseline-serde")), &small_http(1)).unwrap_err();
    assert!(format!("{error:#}").contains(http::ADDR), "{error:#}");
}

#[test]
fn a_pipeline_deeper_than_the_pipes_does_not_deadlock() {
    // 2,000 calls in flight are ~220 KB of requests, more than a pipe holds
    // (64 KiB): the client must read answers while its writes wait.
    let options = LoadOptions { inflight: 2_000, calls: 6_000, warmup: 0, ..small(1) };
    let result = load::run_load(&command(env!("CARGO_BIN_EXE_baseline-serde")), &options).unwrap();
    assert_eq!((result.calls, result.inflight), (6_000, 2_000));
}
