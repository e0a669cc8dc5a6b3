//! Benchmarks for `mcp-wit`: a load client, native baselines and a report.
//!
//! Binaries:
//!
//! - `loadgen`: drives one stdio MCP server with `tools/call` echo requests,
//!   keeping a fixed number in flight, and prints throughput, latency
//!   percentiles and the server's CPU time as JSON; `loadgen cold-start`
//!   times spawn → `initialize` answer.
//! - `baseline-rmcp`: the same `echo` tool as `components/echo`, served
//!   natively by rmcp's server over stdio.
//! - `baseline-serde`: the floor: a bare serde_json read-parse-answer loop.
//! - `report`: runs the whole matrix, prints a markdown table and writes
//!   `bench/results/` (JSON and an SVG plot).
//!
//! The measuring code lives here so `report` can call it in-process.

pub mod args;
pub mod load;
pub mod stats;
pub mod svg;

/// The protocol revision the load client asks for: supported by every server
/// benchmarked, and the same for all of them.
pub const PROTOCOL_VERSION: &str = "2025-06-18";
