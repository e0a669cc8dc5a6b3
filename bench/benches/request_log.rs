//! What the request log line costs in the text format, before (the plain
//! format, the name whole) and after (`EscapedText` around it, the name
//! clipped to `CLIENT_TEXT_BYTES`), for a usual `tools/call echo` and for
//! a made-up name of 256 KiB: the event `Telemetry` logs, formatted into a
//! sink, median ns per line over interleaved rounds. Criterion-free, so that
//! the two run in one process, alternately.
//!
//! Run with `cargo bench -p mcp-wit-bench --bench request_log`.

use std::borrow::Cow;
use std::time::Instant;

use mcp_wit::telemetry::EscapedText;
use mcp_wit_protocol::observe::{CLIENT_TEXT_BYTES, clipped};
use tracing_subscriber::layer::SubscriberExt;

/// Lines per round of a usual name (a 256 KiB one: a hundredth).
const LINES: usize = 20_000;
const ROUNDS: usize = 31;
const REPETITIONS: usize = 5;

/// The line `Telemetry` logs for a call of `name`, its fields as it gives them.
fn log_line(name: &str, clip: bool) {
    let name = if clip { clipped(name, CLIENT_TEXT_BYTES) } else { Cow::Borrowed(name) };
    let what = format!("tools/call {name}");
    let duration_ms = 0.0123;
    tracing::info!(
        target: "mcp_wit::request",
        method = "tools/call",
        component = Some("echo"),
        session = Some("c1f0a3d2e4b5"),
        caller = None::<&str>,
        version = Some("2025-11-25"),
        duration_ms,
        outcome = "ok",
        error_code = None::<i32>,
        "{what}: ok in {duration_ms:.2}ms"
    );
}

/// The median ns per line of `name`, escaped and clipped (after) or not.
fn median(after: bool, name: &str) -> f64 {
    let lines = if name.len() > 4096 { LINES / 100 } else { LINES };
    let mut per_line = Vec::with_capacity(ROUNDS);
    let rounds = || {
        for _ in 0..ROUNDS {
            let start = Instant::now();
            for _ in 0..lines {
                log_line(std::hint::black_box(name), after);
            }
            per_line.push(start.elapsed().as_nanos() as f64 / lines as f64);
        }
    };
    let layer = tracing_subscriber::fmt::layer().with_writer(std::io::sink).with_ansi(false);
    if after {
        let layer = layer.event_format(EscapedText(tracing_subscriber::fmt::format()));
        tracing::subscriber::with_default(tracing_subscriber::registry().with(layer), rounds);
    } else {
        tracing::subscriber::with_default(tracing_subscriber::registry().with(layer), rounds);
    }
    per_line.sort_by(f64::total_cmp);
    per_line[ROUNDS / 2]
}

fn main() {
    let made_up = "z".repeat(256 << 10);
    for (label, name) in [("tools/call echo", "echo"), ("a made-up name of 256 KiB", made_up.as_str())] {
        for repetition in 1..=REPETITIONS {
            let (before, after) = (median(false, name), median(true, name));
            println!(
                "{label}, repetition {repetition}: before {before:.0} ns/line, after {after:.0} ns/line, {:.3}x",
                after / before
            );
        }
    }
}
