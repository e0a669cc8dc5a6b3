//! `baseline-wasmtime`: the least a WebAssembly host does to serve a stdio
//! MCP server. The floor of the `ready` row for a host that runs Wasm.
//!
//! ```text
//! baseline-wasmtime --precompile server.wasm server.cwasm  # built with `baseline-compiler`
//! baseline-wasmtime server.cwasm                           # serves on stdin and stdout
//! ```
//!
//! It loads a component precompiled for its own engine settings (the
//! defaults), links WASI 0.2 with the process's stdin, stdout and stderr,
//! instantiates it and runs its `wasi:cli/run` until it returns: the
//! component is the server (rmcp's stdio server compiled for `wasm32-wasip2`
//! is the one the studies use). No compiler is linked, no cache looked up,
//! no policy read, no protocol spoken by the host: what it costs beyond a
//! native server is the engine's own start, its load and one instance.
//! Built alone (`cargo build --release -p mcp-wit-bench --bin
//! baseline-wasmtime`), so that the workspace's wasmtime features (the
//! compilers, `wasi:http`) do not unify into it.

use mcp_wit_bench::wasm_host::{self, Host};
use wasmtime::component::Linker;
use wasmtime::{Engine, Result, Store, bail, format_err};
use wasmtime_wasi::WasiCtx;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let engine = wasm_host::engine()?;
    match args.as_slice() {
        [flag, input, output] if flag == "--precompile" => wasm_host::precompile(&engine, input, output),
        [component] if !component.starts_with('-') => serve(&engine, component),
        _ => bail!("usage: baseline-wasmtime COMPONENT.cwasm | --precompile COMPONENT.wasm OUT.cwasm"),
    }
}

/// Runs the precompiled command `path` on the process's stdio.
fn serve(engine: &Engine, path: &str) -> Result<()> {
    let component = wasm_host::load(engine, path)?;
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    let mut store = Store::new(engine, Host::new(WasiCtx::builder().inherit_stdio().build()));
    let command = wasmtime_wasi::p2::bindings::sync::Command::instantiate(&mut store, &component, &linker)?;
    command.wasi_cli_run().call_run(&mut store)?.map_err(|()| format_err!("the command exited with an error"))
}
