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

use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Config, Engine, Result, Store, bail, format_err};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

struct Host {
    wasi: WasiCtx,
    table: ResourceTable,
}

impl WasiView for Host {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let engine = Engine::new(&Config::new())?;
    match args.as_slice() {
        [flag, input, output] if flag == "--precompile" => precompile(&engine, input, output),
        [component] if !component.starts_with('-') => serve(&engine, component),
        _ => bail!("usage: baseline-wasmtime COMPONENT.cwasm | --precompile COMPONENT.wasm OUT.cwasm"),
    }
}

/// Runs the precompiled command `path` on the process's stdio.
fn serve(engine: &Engine, path: &str) -> Result<()> {
    // SAFETY: `deserialize_file` maps and runs machine code as found: the
    // file must be one `--precompile` wrote (wasmtime checks its header and
    // the engine settings, not its code).
    let component = unsafe { Component::deserialize_file(engine, path) }
        .map_err(|e| format_err!("cannot load {path} ({e}): precompile it with `--precompile` first"))?;
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    let wasi = WasiCtx::builder().inherit_stdio().build();
    let mut store = Store::new(engine, Host { wasi, table: ResourceTable::new() });
    let command = wasmtime_wasi::p2::bindings::sync::Command::instantiate(&mut store, &component, &linker)?;
    command.wasi_cli_run().call_run(&mut store)?.map_err(|()| format_err!("the command exited with an error"))
}

#[cfg(feature = "baseline-compiler")]
fn precompile(engine: &Engine, input: &str, output: &str) -> Result<()> {
    let wasm = std::fs::read(input).map_err(|e| format_err!("cannot read {input}: {e}"))?;
    let compiled = engine.precompile_component(&wasm)?;
    std::fs::write(output, compiled).map_err(|e| format_err!("cannot write {output}: {e}"))
}

#[cfg(not(feature = "baseline-compiler"))]
fn precompile(_: &Engine, _: &str, _: &str) -> Result<()> {
    bail!("built without a compiler: build with `--features baseline-compiler` to precompile")
}
