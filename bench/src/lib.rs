//! Benchmarks for `mcp-wit`: load clients, native baselines and a report.
//!
//! Binaries:
//!
//! - `loadgen`: drives one stdio MCP server with `tools/call` echo requests,
//!   keeping a fixed number in flight, and prints throughput, latency
//!   percentiles and the server's CPU time as JSON; `loadgen cold-start`
//!   times spawn → `initialize` answer; `loadgen http` drives a Streamable
//!   HTTP server with many sessions; `loadgen idle-memory` measures a
//!   Streamable HTTP server's memory per idle session.
//! - `baseline-rmcp`: the same `echo` tool as `components/echo`, served
//!   natively by rmcp's server over stdio, or over Streamable HTTP (`--http`).
//! - `baseline-serde`: the floor: a bare serde_json read-parse-answer loop
//!   over stdio, or a bare hyper + serde_json server (`--http`).
//! - `baseline-wasm-router`: the same floor with the tool answered by a
//!   WebAssembly router on a reused instance; `baseline-wasmtime`: the
//!   least start of a WebAssembly command server.
//! - `report`: runs the whole matrix, prints a markdown table and writes
//!   `bench/results/` (JSON and SVG plots).
//! - `engines`: a router wrapped by `mcp-wit wrap` on `wasmtime serve`
//!   against `mcp-wit serve --http`; `plugins`: an echo Extism servlet
//!   against the echo component (both on [`pair`]).
//!
//! The measuring code lives here so `report` can call it in-process; [`cli`]
//! holds what the binaries' command lines (clap) share.

pub mod chaos;
pub mod cli;
pub mod figures;
pub mod floor;
pub mod http;
mod http_client;
pub mod load;
pub mod mcp;
pub mod pair;
pub mod polls;
pub mod results;
pub mod stats;
pub mod svg;
pub mod wasm_host;
pub mod wasmtime;

/// The protocol revision the load clients ask for: supported by every server
/// benchmarked, and the same for all of them.
pub const PROTOCOL_VERSION: &str = "2025-06-18";
