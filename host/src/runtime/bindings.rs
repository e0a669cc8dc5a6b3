//! Host-side bindings for the `wasix:mcp/mcp-router` world, generated from `wit/`.
//!
//! Blocking instances are called through these bindings; async ones through
//! typed functions of the same types (see `instance/component.rs`). The types stay
//! inside the runtime: callers get the protocol core's (see `convert.rs`).

wasmtime::component::bindgen!({
    path: "../wit",
    world: "wasix:mcp/mcp-router",
});

pub use exports::wasix::mcp::router as wit;
