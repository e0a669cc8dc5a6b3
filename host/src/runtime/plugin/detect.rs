//! Which kind of plugin a core module is, from its exports and imports, or
//! why it is none.

use wasmtime::{ExternType, Module};

use super::caller_identity;
use super::kernel::{self, ENV_FUNCTIONS, ENV_MODULE};
use super::user::{USER_MODULE, user_function};

/// WASI preview 1, which plugins built for `wasm32-wasip1` import.
pub(super) const WASI_P1_MODULE: &str = "wasi_snapshot_preview1";

/// Every function the host calls in a plugin: a servlet's two, then the
/// v1-draft ones ([`PLUGIN_EXPORTS`]).
pub const ENTRY_POINTS: [&str; 11] = [
    "call",
    "describe",
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

/// The exports of a v1-draft plugin (any of them makes one).
pub const PLUGIN_EXPORTS: &[&str] = ENTRY_POINTS.split_at(2).1;

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

/// What a plugin can say changed, judging by the host functions it imports:
/// its capabilities advertise those (`listChanged`, `subscribe`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PluginSignals {
    /// `notify_tool_list_changed`.
    pub tools: bool,
    /// `notify_prompt_list_changed`.
    pub prompts: bool,
    /// `notify_resource_list_changed`.
    pub resources: bool,
    /// `notify_resource_updated`: clients may subscribe to its resources.
    pub updates: bool,
}

impl PluginSignals {
    pub(super) fn of(module: &Module) -> Self {
        let imports = |name: &str| module.imports().any(|i| i.module() == USER_MODULE && i.name() == name);
        PluginSignals {
            tools: imports("notify_tool_list_changed"),
            prompts: imports("notify_prompt_list_changed"),
            resources: imports("notify_resource_list_changed"),
            updates: imports("notify_resource_updated"),
        }
    }
}

/// Why a core module cannot be served as a plugin.
#[derive(Debug, thiserror::Error)]
pub enum PluginLoadError {
    /// A router built for `wasm32-wasip1`: a core module with the
    /// contract's functions, which only a component can serve.
    #[error(
        "this is a router built for `wasm32-wasip1`: a core module that exports the functions of \
         `wasix:mcp/router@25.3.26`, where a component is needed; rebuild it for `wasm32-wasip2` \
         (`rustup target add wasm32-wasip2`, then `cargo build --release --target wasm32-wasip2`)"
    )]
    RouterForWasip1,
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
        "the plugin imports {}, which mcp-wit does not provide (it provides `extism:host/env`, the \
         v1-draft host functions of `extism:host/user`, `mcp-wit:extension/caller::current` and \
         `wasi_snapshot_preview1`)",
        imports.join(", ")
    )]
    UnknownImports {
        /// `module::name` of each.
        imports: Vec<String>,
    },
    /// A host function is imported with another type than the schema's.
    #[error("the plugin imports `{module}::{name}` as `{found}`; mcp-wit defines it as `{expected}`")]
    WrongImport {
        /// Its module.
        module: &'static str,
        /// The function.
        name: String,
        /// The type it imports it with.
        found: String,
        /// The schema's type.
        expected: &'static str,
    },
    /// An export has another type than `() -> i32`.
    #[error("the plugin's export `{0}` is not a function `() -> i32`, as Extism plugin functions are")]
    WrongSignature(String),
    /// Compiling or linking failed.
    #[error("cannot load the plugin: {0:#}")]
    Link(wasmtime::Error),
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
    } else if exports.iter().any(|name| name.starts_with("wasix:mcp/router@")) {
        return Err(PluginLoadError::RouterForWasip1);
    } else {
        return Err(PluginLoadError::NotAPlugin { exports });
    };
    let entry_points: &[&str] = match kind {
        PluginKind::Servlet => &["call", "describe"],
        PluginKind::V1Draft => PLUGIN_EXPORTS,
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
            ENV_MODULE => !ENV_FUNCTIONS.contains(&i.name()) && !provides_http(i.name()),
            USER_MODULE => user_function(i.name()).is_none(),
            caller_identity::CALLER_MODULE => !caller_identity::provides(i.name()),
            WASI_P1_MODULE => false,
            _ => true,
        })
        .map(|i| format!("`{}::{}`", i.module(), i.name()))
        .collect();
    if !unknown.is_empty() {
        return Err(PluginLoadError::UnknownImports { imports: unknown });
    }
    for import in module.imports().filter(|i| i.module() == caller_identity::CALLER_MODULE) {
        let expected = caller_identity::ty(module.engine());
        if !matches!(import.ty(), ExternType::Func(found) if wasmtime::FuncType::eq(&found, &expected)) {
            let found = match import.ty() {
                ExternType::Func(found) => found.to_string(),
                _ => "not a function".into(),
            };
            let (module, name) = (caller_identity::CALLER_MODULE, import.name().into());
            return Err(PluginLoadError::WrongImport { module, name, found, expected: "() -> i64" });
        }
    }
    for import in module.imports().filter(|i| i.module() == USER_MODULE) {
        let function = user_function(import.name()).expect("unknown imports were refused");
        let ExternType::Func(found) = import.ty() else {
            return Err(PluginLoadError::WrongImport {
                module: USER_MODULE,
                name: import.name().into(),
                found: "not a function".into(),
                expected: function.signature(),
            });
        };
        if !wasmtime::FuncType::eq(&found, &function.ty(module.engine())) {
            return Err(PluginLoadError::WrongImport {
                module: USER_MODULE,
                name: import.name().into(),
                found: found.to_string(),
                expected: function.signature(),
            });
        }
    }
    Ok(kind)
}

/// Whether `name` is one of the kernel's HTTP functions, which this build
/// provides (feature `outgoing-http`).
fn provides_http(name: &str) -> bool {
    cfg!(feature = "outgoing-http") && kernel::HTTP_FUNCTIONS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{
        CodeSection, EntityType, ExportKind, ExportSection, Function, FunctionSection, ImportSection, Instruction,
        TypeSection, ValType,
    };
    use wasmtime::Engine;

    /// A module importing `(module, name, params, results)` and exporting
    /// `export` as a function of `export_params` returning an `i32`.
    fn module(imports: &[(&str, &str, &[ValType], &[ValType])], export: &str, export_params: &[ValType]) -> Module {
        let mut types = TypeSection::new();
        let mut import_section = ImportSection::new();
        for (index, (module, name, params, results)) in imports.iter().enumerate() {
            types.ty().function(params.iter().copied(), results.iter().copied());
            import_section.import(module, name, EntityType::Function(index as u32));
        }
        let export_type = imports.len() as u32;
        types.ty().function(export_params.iter().copied(), [ValType::I32]);
        let mut functions = FunctionSection::new();
        functions.function(export_type);
        let mut exports = ExportSection::new();
        exports.export(export, ExportKind::Func, imports.len() as u32);
        let mut body = Function::new([]);
        body.instruction(&Instruction::I32Const(0)).instruction(&Instruction::End);
        let mut code = CodeSection::new();
        code.function(&body);
        let mut wasm = wasm_encoder::Module::new();
        wasm.section(&types).section(&import_section).section(&functions).section(&exports).section(&code);
        Module::new(&Engine::default(), wasm.finish()).expect("a valid module")
    }

    #[test]
    fn host_functions_outside_the_schema_are_refused_by_name() {
        let imports = [("extism:host/user", "get_access_token", &[ValType::I64][..], &[ValType::I64][..])];
        let refused = detect(&module(&imports, "call_tool", &[])).unwrap_err();
        assert!(matches!(refused, PluginLoadError::UnknownImports { .. }), "{refused}");
        assert!(refused.to_string().contains("`extism:host/user::get_access_token`"), "{refused}");
    }

    #[test]
    fn host_functions_of_another_type_are_refused_with_the_schemas() {
        let imports = [("extism:host/user", "create_message", &[][..], &[][..])];
        let refused = detect(&module(&imports, "call_tool", &[])).unwrap_err().to_string();
        assert!(
            refused.contains("`extism:host/user::create_message`") && refused.contains("(i64) -> i64"),
            "{refused}"
        );
    }

    #[test]
    fn the_caller_function_is_provided_with_its_type_only() {
        let caller = |name, results: &'static [ValType]| [("mcp-wit:extension/caller", name, &[][..], results)];
        let servlet = |imports: &[(&str, &str, &[ValType], &[ValType])]| detect(&module(imports, "call_tool", &[]));
        assert_eq!(servlet(&caller("current", &[ValType::I64])).unwrap(), PluginKind::V1Draft);
        let refused = servlet(&caller("current", &[ValType::I32])).unwrap_err().to_string();
        assert!(refused.contains("`mcp-wit:extension/caller::current`") && refused.contains("() -> i64"), "{refused}");
        let refused = servlet(&caller("whoever", &[ValType::I64])).unwrap_err();
        assert!(matches!(refused, PluginLoadError::UnknownImports { .. }), "{refused}");
    }

    #[test]
    fn exports_of_another_type_are_refused() {
        let refused = detect(&module(&[], "call_tool", &[ValType::I32])).unwrap_err();
        assert!(matches!(refused, PluginLoadError::WrongSignature(ref name) if name == "call_tool"), "{refused}");
    }

    #[test]
    fn the_kernels_http_functions_and_the_schemas_host_functions_are_provided() {
        let imports = [
            ("extism:host/env", "http_request", &[ValType::I64, ValType::I64][..], &[ValType::I64][..]),
            ("extism:host/user", "list_roots", &[][..], &[ValType::I64][..]),
            ("extism:host/user", "notify_tool_list_changed", &[][..], &[][..]),
        ];
        let module = module(&imports, "call_tool", &[]);
        assert_eq!(detect(&module).unwrap(), PluginKind::V1Draft);
        let signals = PluginSignals::of(&module);
        assert_eq!(signals, PluginSignals { tools: true, ..PluginSignals::default() });
    }
}
