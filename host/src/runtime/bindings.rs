//! Host-side bindings for the `wasix:mcp/mcp-router` world, generated from `wit/`.
//!
//! Exports are called synchronously: a call runs on the caller's thread, which
//! keeps the per-request cost at a plain function call (no fiber, no executor).

wasmtime::component::bindgen!({
    path: "../wit",
    world: "wasix:mcp/mcp-router",
});

pub use exports::wasix::mcp::router as wit;
