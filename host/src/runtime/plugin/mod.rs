//! Extism plugins: core WebAssembly modules with Extism's JSON-over-memory
//! ABI, the other family of WebAssembly MCP servers.
//!
//! Two kinds are served (see `../shared/seeds/xtp-plugin-schema-*`): a
//! *servlet* exports `call` and `describe` (tools only); a *v1-draft plugin*
//! exports `list_tools`, `call_tool` and the rest of MCP's server side. Each
//! export takes no arguments and returns an `i32` (0: success); its input
//! and output travel through the kernel ([`kernel`], `extism:host/env`),
//! which this host implements itself on its own engine.

pub mod kernel;

use std::collections::BTreeMap;
use std::sync::Arc;

use wasmtime::{Engine, ExternType, Instance, InstancePre, Linker, Module, Store};
use wasmtime_wasi::p1::WasiP1Ctx;

use kernel::{ENV_FUNCTIONS, ENV_MODULE, Kernel, KernelView};

/// WASI preview 1, which plugins built for `wasm32-wasip1` import.
const WASI_P1_MODULE: &str = "wasi_snapshot_preview1";

/// The exports of a v1-draft plugin (any of them makes one).
pub const PLUGIN_EXPORTS: [&str; 9] = [
    "list_tools",
    "call_tool",
    "list_resources",
    "list_resource_templates",
    "read_resource",
    "list_prompts",
    "get_prompt",
    "complete",
    "on_roots_list_changed",
];

/// Which family of Extism MCP plugin a module is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PluginKind {
    /// `call` and `describe` (XTP servlets: tools only).
    Servlet,
    /// The v1-draft plugin interface ([`PLUGIN_EXPORTS`]).
    V1Draft,
}

impl PluginKind {
    /// How `inspect` and errors name it.
    pub fn describe(self) -> &'static str {
        match self {
            PluginKind::Servlet => "Extism servlet (`call`/`describe`)",
            PluginKind::V1Draft => "Extism v1-draft plugin",
        }
    }
}

/// Why a core module cannot be served as a plugin.
#[derive(Debug, thiserror::Error)]
pub enum PluginLoadError {
    /// It exports neither interface.
    #[error(
        "this core WebAssembly module is not an MCP plugin: it exports {}; an Extism servlet exports \
         `call` and `describe`, a v1-draft plugin `list_tools`, `call_tool`, … (or build a component \
         for `wasm32-wasip2` that exports `wasix:mcp/router@25.3.26`)",
        if exports.is_empty() { "no functions".to_string() } else { exports.join(", ") }
    )]
    NotAPlugin {
        /// The functions it does export.
        exports: Vec<String>,
    },
    /// It imports what this host does not provide.
    #[error(
        "the plugin imports {}, which mcp-wit does not provide (it provides `extism:host/env` and \
         `wasi_snapshot_preview1`)",
        imports.join(", ")
    )]
    UnknownImports {
        /// `module::name` of each.
        imports: Vec<String>,
    },
    /// An export has another type than `() -> i32`.
    #[error("the plugin's export `{0}` is not a function `() -> i32`, as Extism plugin functions are")]
    WrongSignature(String),
    /// Compiling or linking failed.
    #[error("cannot load the plugin: {0:#}")]
    Link(#[source] wasmtime::Error),
}

/// The kind of a compiled core module, or why it is none.
pub fn detect(module: &Module) -> Result<PluginKind, PluginLoadError> {
    let exports: Vec<String> = module
        .exports()
        .filter(|e| matches!(e.ty(), ExternType::Func(_)))
        .map(|e| e.name().to_string())
        .filter(|name| !name.starts_with('_'))
        .collect();
    let has = |name: &str| exports.iter().any(|e| e == name);
    let kind = if has("call") && has("describe") {
        PluginKind::Servlet
    } else if PLUGIN_EXPORTS.iter().any(|name| has(name)) {
        PluginKind::V1Draft
    } else {
        return Err(PluginLoadError::NotAPlugin { exports });
    };
    let entry_points: &[&str] = match kind {
        PluginKind::Servlet => &["call", "describe"],
        PluginKind::V1Draft => &PLUGIN_EXPORTS,
    };
    for name in entry_points {
        if let Some(ExternType::Func(ty)) = module.get_export(name)
            && (ty.params().len() != 0 || ty.results().map(|r| r.to_string()).collect::<Vec<_>>() != ["i32"])
        {
            return Err(PluginLoadError::WrongSignature(name.to_string()));
        }
    }
    let unknown: Vec<String> = module
        .imports()
        .filter(|i| match i.module() {
            ENV_MODULE => !ENV_FUNCTIONS.contains(&i.name()),
            WASI_P1_MODULE => false,
            _ => true,
        })
        .map(|i| format!("`{}::{}`", i.module(), i.name()))
        .collect();
    if !unknown.is_empty() {
        return Err(PluginLoadError::UnknownImports { imports: unknown });
    }
    Ok(kind)
}

/// What a plugin instance's store holds.
pub struct PluginData {
    wasi: WasiP1Ctx,
    kernel: Kernel,
}

impl KernelView for PluginData {
    fn kernel(&mut self) -> &mut Kernel {
        &mut self.kernel
    }
}

/// A compiled, linked plugin, ready to be instantiated many times.
#[derive(Clone)]
pub struct LoadedPlugin {
    pre: InstancePre<PluginData>,
    kind: PluginKind,
    config: Arc<BTreeMap<String, String>>,
    /// Most bytes the kernel's memory of an instance holds.
    max_kernel_bytes: usize,
}

impl LoadedPlugin {
    /// Compiles `wasm` for `engine`, checks it is a plugin and links it.
    pub fn from_bytes(engine: &Engine, wasm: &[u8]) -> Result<Self, PluginLoadError> {
        let module = Module::new(engine, wasm).map_err(PluginLoadError::Link)?;
        let kind = detect(&module)?;
        let mut linker = Linker::new(engine);
        kernel::add_to_linker(&mut linker).map_err(PluginLoadError::Link)?;
        wasmtime_wasi::p1::add_to_linker_sync(&mut linker, |data: &mut PluginData| &mut data.wasi)
            .map_err(PluginLoadError::Link)?;
        let pre = linker.instantiate_pre(&module).map_err(PluginLoadError::Link)?;
        Ok(LoadedPlugin { pre, kind, config: Arc::default(), max_kernel_bytes: 64 << 20 })
    }

    /// The values `config_get` finds.
    pub fn with_config(mut self, config: BTreeMap<String, String>) -> Self {
        self.config = Arc::new(config);
        self
    }

    /// Which kind of plugin it is.
    pub fn kind(&self) -> PluginKind {
        self.kind
    }

    /// A fresh instance, initialised (`_initialize`, for WASI reactors).
    pub fn instantiate(&self) -> Result<PluginInstance, PluginCallError> {
        let data = PluginData {
            wasi: wasmtime_wasi::WasiCtxBuilder::new().build_p1(),
            kernel: Kernel::new(self.max_kernel_bytes, self.config.clone()),
        };
        let mut store = Store::new(self.pre.module().engine(), data);
        let instance = self.pre.instantiate(&mut store).map_err(PluginCallError::Trap)?;
        if let Ok(initialize) = instance.get_typed_func::<(), ()>(&mut store, "_initialize") {
            initialize.call(&mut store, ()).map_err(PluginCallError::Trap)?;
        }
        Ok(PluginInstance { store, instance })
    }
}

/// Why a plugin call has no output.
#[derive(Debug, thiserror::Error)]
pub enum PluginCallError {
    /// The plugin does not export the function.
    #[error("the plugin has no function `{0}`")]
    Missing(String),
    /// The input does not fit the kernel's memory.
    #[error("the input ({0} bytes) does not fit the plugin's memory")]
    InputTooLarge(usize),
    /// It returned non-zero: with the error it set, or Extism's message.
    #[error("{0}")]
    Failed(String),
    /// It trapped (the instance is then unusable).
    #[error("the plugin trapped: {0:#}")]
    Trap(#[source] wasmtime::Error),
}

/// One live plugin instance: its own store, memory, kernel and variables.
pub struct PluginInstance {
    store: Store<PluginData>,
    instance: Instance,
}

impl PluginInstance {
    /// Calls `function` with `input`, as Extism does: the kernel reset, the
    /// input set, the function run; non-zero is its error.
    pub fn call(&mut self, function: &str, input: &[u8]) -> Result<Vec<u8>, PluginCallError> {
        let func = self
            .instance
            .get_typed_func::<(), i32>(&mut self.store, function)
            .map_err(|_| PluginCallError::Missing(function.to_string()))?;
        let kernel = &mut self.store.data_mut().kernel;
        kernel.reset();
        kernel.set_input(input).ok_or(PluginCallError::InputTooLarge(input.len()))?;
        let code = func.call(&mut self.store, ()).map_err(PluginCallError::Trap)?;
        let kernel = &mut self.store.data_mut().kernel;
        if code != 0 {
            return Err(PluginCallError::Failed(
                kernel.error().unwrap_or_else(|| format!("Returned non-zero exit code: {code}")),
            ));
        }
        Ok(kernel.output().to_vec())
    }

    /// The kernel: log messages, log level.
    pub fn kernel(&mut self) -> &mut Kernel {
        &mut self.store.data_mut().kernel
    }
}
