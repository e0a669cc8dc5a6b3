//! Errors at the library boundary.

use std::path::PathBuf;

/// The WebAssembly engine could not be set up (e.g. the pooling allocator
/// could not reserve its address space: the message says what it asked and
/// which settings lower it).
///
/// The cause is part of the message, not a separate `source`, so that
/// printing the error with its chain says it once.
#[derive(Debug, thiserror::Error)]
#[error("cannot set up the WebAssembly engine: {0:#}")]
pub struct EngineError(pub wasmtime::Error);

/// Why a component could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    ///
    /// Causes are part of these messages, not separate `source`s, so that
    /// printing an error with its chain says each once.
    #[error("cannot read {}: {error}", path.display())]
    Read {
        /// The file that was asked for.
        path: PathBuf,
        /// The underlying I/O error.
        error: std::io::Error,
    },
    /// The bytes are not WebAssembly at all.
    #[error("not a WebAssembly file (no `\\0asm` header); pass the `.wasm` a guest build produced")]
    NotWasm,
    /// A core module, not a component.
    #[error(
        "this is a core WebAssembly module, not a component; build the guest for `wasm32-wasip2` \
         (or wrap a module with `wasm-tools component new`)"
    )]
    CoreModule,
    /// The component is of no shape this host serves.
    #[error(
        "the component is no MCP server this host serves: it exports no `wasix:mcp/router` (25.3.26 or \
         25.6.18), no function of its own (a typed component: each exported function a tool), no \
         `wasi:http/incoming-handler@0.2` or `wasi:http/handler@0.3` (an MCP server over HTTP) and no \
         `wasi:cli/run` (one over stdio); it exports: {}",
        if exports.is_empty() { "nothing".to_string() } else { exports.join(", ") }
    )]
    WrongWorld {
        /// What the component does export.
        exports: Vec<String>,
    },
    /// The component speaks MCP itself through an interface this build
    /// does not serve.
    #[error(
        "the component is {shape}, which this build of mcp-wit does not serve (it was built without the \
         `outgoing-http` feature); it serves `wasix:mcp` routers, typed components (exported functions as \
         tools) and MCP servers over stdio (wasi:cli commands); it exports: {}",
        exports.join(", ")
    )]
    ShapeNotServed {
        /// What it is.
        shape: &'static str,
        /// What it exports.
        exports: Vec<String>,
    },
    /// A typed component whose functions cannot all be tools.
    #[error("cannot serve the component's functions as tools: {0}")]
    Typed(#[from] crate::runtime::TypedError),
    /// A `.cwasm` that this engine cannot run.
    #[error(
        "cannot load the precompiled component (it was compiled by another mcp-wit or wasmtime \
         version, or with other settings); recompile it with `mcp-wit compile`: {0:#}"
    )]
    Precompiled(wasmtime::Error),
    /// A middleware with no router plugged into it.
    #[error(
        "this component imports `wasix:mcp/router@25.3.26`: it is a middleware, not a router; plug a \
         router into it first (`wac plug middleware.wasm --plug router.wasm -o composed.wasm`)"
    )]
    UnpluggedMiddleware,
    /// A core module that is not an Extism MCP plugin this host can serve.
    #[cfg(feature = "extism")]
    #[error(transparent)]
    Plugin(#[from] crate::runtime::plugin::PluginLoadError),
    /// A memory of the component starts larger than the engine lets a
    /// memory grow.
    #[error(
        "the component declares a memory of {} to start with, more than the memory cap of {}; raise \
         the cap (--max-memory, `max-memory` in mcp-wit.toml, or a policy file's memory limit) to at least {}",
        flag_size(*initial), flag_size(*cap), flag_size(initial.next_multiple_of(1 << 20))
    )]
    MemoryCap {
        /// The largest initial size among its memories, in bytes.
        initial: u64,
        /// What one memory may grow to, in bytes.
        cap: u64,
    },
    /// Compilation failed.
    #[error("cannot compile the component: {0:#}")]
    Compile(wasmtime::Error),
    /// No code compiled ahead of time for the component (a `.cwasm`, or an
    /// entry of the compile cache for this engine's settings), and this
    /// build compiles nothing (it was built without the `compiler` feature).
    #[error(
        "no compiled code for the component{}, and this build of mcp-wit compiles nothing (it was built \
         without the `compiler` feature): compile it with a build that does (`mcp-wit compile`, or a \
         `serve` with the same cache directory and settings)",
        refused.as_ref().map(|why| format!(" (the cache's entry for it was refused: {why})")).unwrap_or_default()
    )]
    NoCompiler {
        /// Why the compile cache's entry for the component could not be
        /// loaded, when it holds one (e.g. it was compiled for other settings).
        refused: Option<String>,
    },
    /// The component's imports cannot be satisfied by the host.
    #[error("cannot link the component (it imports something the host does not provide): {0:#}")]
    Link(wasmtime::Error),
}

/// `bytes` written as `--max-memory` takes it (`1088KiB`, `2MiB`).
fn flag_size(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    match bytes {
        b if b % (1 << 30) == 0 => format!("{}GiB", b >> 30),
        b if b % MIB == 0 => format!("{}MiB", b >> 20),
        b if b % 1024 == 0 => format!("{}KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}
