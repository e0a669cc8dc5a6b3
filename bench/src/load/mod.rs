//! The load client: drives one stdio MCP server and measures it.
//!
//! A run spawns the server with piped stdio, initializes a session, sends a
//! warm-up, then `calls` `tools/call` echo requests keeping `inflight` of them
//! outstanding. One thread does both sides, as a pipelining client would: it
//! takes every answer that has arrived, checks it and records its latency,
//! then sends as many new calls as were answered in one `write`, each stamped
//! with the time just before that write.
//!
//! One thread, not a reader and a writer: handing each batch of answers to a
//! writer thread adds a cross-thread wake-up to every round trip, and on a VM
//! whose idle CPUs halt that wake-up costs more than a fast server's whole
//! answer. The client must not be what is measured.

mod cpu;
mod pipeline;
mod pipes;
mod run;
mod server;

pub(crate) use cpu::{own_cpu, process_cpu, process_run_time};
pub use run::{ColdStart, LoadOptions, LoadResult, cold_start, run_load};
pub(crate) use server::wait_for_exit;
