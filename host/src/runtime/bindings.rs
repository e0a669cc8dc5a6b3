//! Host-side bindings for the `wasix:mcp/mcp-router` world, generated from `wit/`.
//!
//! Exports are called synchronously: a call runs on the caller's thread, which
//! keeps the per-request cost at a plain function call (no fiber, no executor).

// Generated items carry the WIT's own comments where the contract (kept
// verbatim) has them; the rest cannot be documented here.
#![allow(missing_docs)]

wasmtime::component::bindgen!({
    path: "../wit",
    world: "wasix:mcp/mcp-router",
});

pub use exports::wasix::mcp::router as wit;
