//! What the two WebAssembly floors share (`baseline-wasmtime`,
//! `baseline-wasm-router`): an engine with Wasmtime's default settings, a
//! store that holds WASI 0.2 and nothing else, and components precompiled
//! for that engine (`--precompile`, in a build with the `baseline-compiler`
//! feature) and loaded from the file.

use ::wasmtime::component::{Component, ResourceTable};
use ::wasmtime::{Config, Engine, Result, format_err};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// A store's data: its WASI context and the resources it hands out.
pub struct Host {
    wasi: WasiCtx,
    table: ResourceTable,
}

impl Host {
    /// A store's data with `wasi` as its WASI context.
    pub fn new(wasi: WasiCtx) -> Host {
        Host { wasi, table: ResourceTable::new() }
    }
}

impl WasiView for Host {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

/// The engine, with Wasmtime's default settings.
pub fn engine() -> Result<Engine> {
    Engine::new(&Config::new())
}

/// The component at `path`, as [`precompile`] wrote it for `engine`.
pub fn load(engine: &Engine, path: &str) -> Result<Component> {
    // SAFETY: `deserialize_file` maps and runs machine code as found: the
    // file must be one `--precompile` wrote (wasmtime checks its header and
    // the engine settings, not its code).
    unsafe { Component::deserialize_file(engine, path) }
        .map_err(|e| format_err!("cannot load {path} ({e}): precompile it with `--precompile` first"))
}

/// Compiles the component at `input` for `engine` into `output`.
#[cfg(feature = "baseline-compiler")]
pub fn precompile(engine: &Engine, input: &str, output: &str) -> Result<()> {
    let wasm = std::fs::read(input).map_err(|e| format_err!("cannot read {input}: {e}"))?;
    let compiled = engine.precompile_component(&wasm)?;
    std::fs::write(output, compiled).map_err(|e| format_err!("cannot write {output}: {e}"))
}

/// Refuses: a build without a compiler cannot precompile.
#[cfg(not(feature = "baseline-compiler"))]
pub fn precompile(_: &Engine, _: &str, _: &str) -> Result<()> {
    ::wasmtime::bail!("built without a compiler: build with `--features baseline-compiler` to precompile")
}
