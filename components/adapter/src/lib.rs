//! `adapter`: serves a `wasix:mcp/router@25.3.26` (or, built with the
//! `contract-25-6-18` feature, a `wasix:mcp/router@25.6.18`) from inside a component,
//! with the same protocol core (`mcp-wit-protocol`) the native host uses, so
//! that a router runs on engines that know nothing of MCP.
//!
//! `mcp-wit wrap router.wasm -o server.wasm` composes it with a router (and
//! the router's extension, or `plain-extension`) into one component that
//! imports only WASI and `wasi:http`. It exports
//! `wasi:cli/run`: under `wasmtime run -Shttp server.wasm` it speaks
//! newline-delimited JSON-RPC on stdin and stdout, both eras of MCP, as
//! `mcp-wit serve` does over stdio. And it exports
//! `wasi:http/incoming-handler`: under `wasmtime serve -Scli server.wasm`
//! each POST is one request served on its own (see [`http`]).
//!
//! Settings (WASI environment, read at start):
//!
//! - `MCP_WIT_MAX_MESSAGE_SIZE`: the longest accepted message, in bytes
//!   (default 8 MiB); a longer one is refused (-32600 on stdio, 413 on HTTP).
//! - `MCP_WIT_PAGE_SIZE`: page size of lists (default: one page).
//! - `MCP_WIT_ALLOW_HOSTS`, `MCP_WIT_ALLOW_ORIGINS`: who may call over HTTP
//!   (comma lists; as `mcp-wit serve --allow-host/--allow-origin` on a
//!   public bind).
//! - `MCP_WIT_JSON_RESPONSE=1`: answer HTTP with JSON, not SSE.
//! - `MCP_WIT_AUTH_*`: HTTP requests need an OAuth access token (see
//!   [`auth`]).
//! - `MCP_WIT_STATE_KEY` (the key's bytes) or `MCP_WIT_STATE_KEY_FILE` (a
//!   file's): signs the `requestState` of a router's 2026-07-28 rounds, at
//!   least 32 bytes; every instance and replica given the same key resumes
//!   the others' rounds (see [`relay`]).

#[cfg(not(feature = "contract-25-6-18"))]
wit_bindgen::generate!({
    path: "../../wit",
    world: "mcp-wit:adapter/adapter",
    // The imported router lives in another package (`wasix:mcp`).
    generate_all,
});

// The same server for a `wasix:mcp/router@25.6.18` router: only the import
// and its mapping (`router_25_6_18.rs`) differ. `mcp-wit wrap` embeds both
// builds and picks by the router's export.
#[cfg(feature = "contract-25-6-18")]
wit_bindgen::generate!({
    // The contracts first: `wit-25.6.18/world.wit` uses them.
    path: ["../../wit", "../../wit/wasix-mcp@25.6.18", "wit-25.6.18"],
    world: "mcp-wit:adapter-successor/adapter",
    generate_all,
});

mod auth;
mod http;
mod log;
mod relay;
#[cfg_attr(feature = "contract-25-6-18", path = "router_25_6_18.rs")]
mod router;
mod settings;
mod stdio;

struct Adapter;

wasip2::cli::command::export!(Adapter with_types_in wasip2);
wasip2::http::proxy::export!(Adapter with_types_in wasip2);
