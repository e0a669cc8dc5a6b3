//! `adapter`: serves a `wasix:mcp/router@25.3.26` from inside a component,
//! with the same protocol core (`mcp-wit-protocol`) the native host uses, so
//! that a router runs on engines that know nothing of MCP.
//!
//! `wac plug adapter.wasm --plug router.wasm -o server.wasm` composes one
//! component that imports only WASI. It exports `wasi:cli/run`: under
//! `wasmtime run server.wasm` it speaks newline-delimited JSON-RPC on stdin
//! and stdout, both eras of MCP, as `mcp-wit serve` does over stdio.
//!
//! Settings (WASI environment, read at start):
//!
//! - `MCP_WIT_MAX_MESSAGE_SIZE`: the longest accepted message, in bytes
//!   (default 8 MiB); a longer line is answered with -32600 and skipped.
//! - `MCP_WIT_PAGE_SIZE`: page size of lists (default: one page).

wit_bindgen::generate!({
    path: "../../wit",
    world: "mcp-wit:adapter/adapter",
    // The imported router lives in another package (`wasix:mcp`).
    generate_all,
});

mod router;
mod settings;
mod stdio;

struct Adapter;

wasip2::cli::command::export!(Adapter with_types_in wasip2);
