//! From bytes to linked code: reading a guest's file, telling a component
//! from anything else, linking its imports (WASI, outgoing HTTP, the
//! project's interfaces), checking it exports a router, compiling ahead of
//! time.

use std::path::Path;

use mcp_wit_protocol::CallMode;
use wasmtime::Engine;
use wasmtime::component::{Component, InstancePre, Linker};

use super::instance::{Exports25_3_26, ROUTER_INTERFACE, RouterExports};
#[cfg(feature = "extism")]
use super::plugin;
use super::store::StoreData;
use super::v25_6_18::ROUTER_INTERFACE_25_6_18;
use super::{caller, client, extension, instance, waits};
use crate::error::LoadError;
use crate::sandbox::symlinks;

/// Links WASI (with host waits bounded by the call, see `waits`) and outgoing
/// HTTP for `component`.
pub(super) fn link(
    engine: &Engine,
    component: &Component,
    imports: Imports,
    calls: CallMode,
) -> wasmtime::Result<InstancePre<StoreData>> {
    linker(engine, imports, calls)?.instantiate_pre(component)
}

/// What [`link`] links: WASI 0.2, outgoing HTTP when the component imports
/// it, and the project's interfaces `imports` names.
fn linker(engine: &Engine, imports: Imports, calls: CallMode) -> wasmtime::Result<Linker<StoreData>> {
    let mut linker = Linker::<StoreData>::new(engine);
    // Outgoing HTTP is linked for a component that imports it, so components
    // with an HTTP client load; each request is checked against the policy's
    // allowlist (see `sandbox::outgoing_http`). Not for the others: its
    // interfaces are a third of what linking costs at every start.
    match calls {
        CallMode::Blocking => {
            wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
            symlinks::add_to_linker_sync(&mut linker)?;
            #[cfg(feature = "outgoing-http")]
            if imports.http {
                wasmtime_wasi_http::p2::add_only_http_to_linker_sync(&mut linker)?;
            }
        }
        CallMode::Async => {
            wasmtime_wasi::p2::add_to_linker_async(&mut linker)?;
            symlinks::add_to_linker_async(&mut linker)?;
            #[cfg(feature = "outgoing-http")]
            if imports.http {
                wasmtime_wasi_http::p2::add_only_http_to_linker_async(&mut linker)?;
            }
        }
    }
    waits::bound_clock_waits(&mut linker)?;
    if imports.client {
        client::add_to_linker(&mut linker, calls)?;
    }
    if imports.caller {
        caller::add_to_linker(&mut linker)?;
    }
    if imports.extension {
        extension::add_absent_to_linker(&mut linker)?;
    }
    if imports.router {
        let mut router = linker.instance(ROUTER_INTERFACE)?;
        for name in instance::ROUTER_FUNCTIONS {
            router.func_new(name, |_, _, _, _| Err(wasmtime::Error::msg(NO_ROUTER_PLUGGED)))?;
        }
    }
    Ok(linker)
}

/// Compiles the component (or Extism plugin) in `wasm` for `engine` into the
/// bytes of a `.cwasm` that [`LoadedRouter::load`](super::LoadedRouter::load) runs without compiling.
#[cfg(feature = "compiler")]
pub fn compile(engine: &Engine, wasm: &[u8]) -> Result<Vec<u8>, LoadError> {
    match check_is_component(wasm) {
        // An Extism plugin's module, checked as loading would check it.
        #[cfg(feature = "extism")]
        Err(LoadError::CoreModule) => {
            let module = wasmtime::Module::new(engine, wasm).map_err(LoadError::Compile)?;
            plugin::detect(&module)?;
            return module.serialize().map_err(LoadError::Compile);
        }
        checked => checked?,
    }
    let engine = &engine_for(engine, wasm)?;
    let component = Component::new(engine, wasm).map_err(LoadError::Compile)?;
    if shape_of(engine, &component, Imports::of(engine, &component))? == Shape::Typed {
        super::typed::TypedTools::find(engine, &component, &super::typed::PackageDocs::default())?;
    }
    component.serialize().map_err(LoadError::Compile)
}

/// Largest component or plugin file read.
pub const MAX_GUEST_FILE: u64 = 1 << 30;

/// The bytes of the component or plugin at `path`: a regular file of at
/// most [`MAX_GUEST_FILE`] bytes. A device (`/dev/zero`), a FIFO or a
/// directory is refused before it is opened (opening a FIFO waits for a
/// writer; reading a device may never end).
pub fn read_guest_file(path: &Path) -> Result<Vec<u8>, LoadError> {
    read_regular_file(path, MAX_GUEST_FILE, "a component or plugin is a .wasm file", "a component may have")
        .map_err(|error| LoadError::Read { path: path.to_owned(), error })
}

/// The bytes of `path`, a regular file of at most `limit` bytes, else an
/// error saying which it is not: `should_be` says what it should be (for a
/// directory, device or pipe), `may_have` whose limit it is.
pub(crate) fn read_regular_file(path: &Path, limit: u64, should_be: &str, may_have: &str) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        let message = format!("not a regular file ({should_be}, not a directory, device or pipe)");
        return Err(Error::new(ErrorKind::InvalidInput, message));
    }
    let too_large = || Error::new(ErrorKind::InvalidData, format!("larger than the {limit} bytes {may_have}"));
    if meta.len() > limit {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path).and_then(|file| file.take(limit + 1).read_to_end(&mut bytes))?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Rejects bytes that are not a WebAssembly component, with advice.
pub(super) fn check_is_component(bytes: &[u8]) -> Result<(), LoadError> {
    if bytes.len() < 8 || &bytes[..4] != b"\0asm" {
        return Err(LoadError::NotWasm);
    }
    // A core module has layer 0 (bytes 6..8); a component has layer 1.
    if bytes[6..8] == [0, 0] {
        return Err(LoadError::CoreModule);
    }
    Ok(())
}

/// The package of WASI's HTTP interfaces (any version).
const WASI_HTTP: &str = "wasi:http/";

/// What the host's stand-in for an imported router says when called.
pub(super) const NO_ROUTER_PLUGGED: &str = "no router is plugged into this middleware";

/// Which of the project's interfaces a component imports, read once at load:
/// what the host links for it and how it is served depend on them.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Imports {
    /// `mcp-wit:extension/client`: the router talks back.
    pub(super) client: bool,
    /// `mcp-wit:extension/caller`: the router asks who calls it.
    pub(super) caller: bool,
    /// `mcp-wit:extension/extension`: a middleware plugged into a router that
    /// does not export it (a middleware imports what it exports).
    pub(super) extension: bool,
    /// The router itself. A middleware imports it until a router is plugged
    /// in; a composition of a middleware and a router without the extension
    /// still does, for the types of the extension it imports (see
    /// `wit/mcp-wit-middleware.wit`). The host stands in for that import with
    /// functions that fail ([`NO_ROUTER_PLUGGED`]), which only an unplugged
    /// middleware calls.
    pub(super) router: bool,
    /// Any `wasi:http/*` interface (0.2): an HTTP client's, linked only then.
    #[cfg_attr(not(feature = "outgoing-http"), allow(dead_code))]
    pub(super) http: bool,
}

impl Imports {
    pub(super) fn of(engine: &Engine, component: &Component) -> Self {
        let mut imports = Imports::default();
        for (name, _) in component.component_type().imports(engine) {
            match name {
                client::CLIENT_INTERFACE => imports.client = true,
                caller::CALLER_INTERFACE => imports.caller = true,
                extension::EXTENSION_INTERFACE => imports.extension = true,
                ROUTER_INTERFACE => imports.router = true,
                _ if name.starts_with(WASI_HTTP) => imports.http = true,
                _ => {}
            }
        }
        imports
    }
}

/// How a component is served, told from what it exports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// It exports a `wasix:mcp` router.
    Router,
    /// It exports plain functions: each a tool (see `typed`).
    Typed,
    /// It serves MCP itself over `wasi:http/incoming-handler@0.2`.
    HttpServer,
    /// It serves MCP itself over `wasi:http/handler@0.3` (WASIp3).
    HttpServerP3,
    /// A command (`wasi:cli/run`) that serves MCP over its stdin and stdout.
    Command,
}

/// The interface a command exports (any 0.2 version).
const RUN: &str = "wasi:cli/run@0.2";

/// The interface a WASIp2 HTTP server component exports (any 0.2 version).
const INCOMING_HANDLER: &str = "wasi:http/incoming-handler@0.2";

/// The interface a WASIp3 HTTP server component exports (any 0.3 version,
/// its release candidates included).
const HANDLER_P3: &str = "wasi:http/handler@0.3";

/// What a component exporting [`HANDLER_P3`] is.
const HTTP_P3: &str = "an HTTP server for WASIp3 (wasi:http/handler@0.3)";

/// Whether the component in `bytes` exports an interface whose functions
/// use the component model's concurrency (a WASIp3 handler): such a
/// component is compiled and run on the engine that has it
/// ([`engine_for`]). Only its top-level exports are read.
pub(super) fn needs_concurrency(bytes: &[u8]) -> bool {
    use wasmparser::{Parser, Payload};
    let mut depth = 0usize;
    for payload in Parser::new(0).parse_all(bytes) {
        match payload {
            Ok(Payload::Version { .. }) => depth += 1,
            Ok(Payload::End(_)) => depth = depth.saturating_sub(1),
            Ok(Payload::ComponentExportSection(exports)) if depth == 1 => {
                if exports.into_iter().flatten().any(|export| export.name.name.starts_with(HANDLER_P3)) {
                    return true;
                }
            }
            Ok(_) => {}
            Err(_) => return false,
        }
    }
    false
}

/// The engine the component in `bytes` is compiled and run on: `engine`,
/// or its concurrent sibling for a component that needs it.
pub(super) fn engine_for(engine: &Engine, bytes: &[u8]) -> Result<Engine, LoadError> {
    if needs_concurrency(bytes) {
        #[cfg(feature = "outgoing-http")]
        return super::engine::concurrent_of(engine).map_err(|e| LoadError::Link(e.0));
        #[cfg(not(feature = "outgoing-http"))]
        return Err(LoadError::ShapeNotServed { shape: HTTP_P3, exports: vec![HANDLER_P3.to_string()] });
    }
    Ok(engine.clone())
}

/// Links a component that serves MCP itself (`shape` is `HttpServer`,
/// `HttpServerP3` or `Command`): async WASI, and the export its transport
/// is reached through.
pub(super) fn link_mcp_server(
    engine: &Engine,
    component: &Component,
    shape: Shape,
    imports: Imports,
) -> wasmtime::Result<super::instance::ServerPre> {
    use super::instance::ServerPre;
    #[cfg_attr(not(feature = "outgoing-http"), expect(unused_mut, reason = "only WASIp3 adds to it"))]
    // Its own `wasi:http` imports (a server's types, a client's handler) linked as any other's.
    let mut linker = linker(engine, imports, CallMode::Async)?;
    // A WASIp3 component imports WASI 0.3 beside 0.2 (its standard library's).
    #[cfg(feature = "outgoing-http")]
    if shape == Shape::HttpServerP3 {
        wasmtime_wasi::p3::add_to_linker(&mut linker)?;
        wasmtime_wasi_http::p3::add_to_linker(&mut linker)?;
    }
    let pre = linker.instantiate_pre(component)?;
    match shape {
        #[cfg(feature = "outgoing-http")]
        Shape::HttpServer => Ok(ServerPre::Http(wasmtime_wasi_http::p2::bindings::ProxyPre::new(pre)?)),
        #[cfg(feature = "outgoing-http")]
        Shape::HttpServerP3 => Ok(ServerPre::HttpP3(wasmtime_wasi_http::p3::bindings::ServicePre::new(pre)?)),
        Shape::Command => Ok(ServerPre::Command(wasmtime_wasi::p2::bindings::CommandPre::new(pre)?)),
        other => unreachable!("{other:?} serves no MCP of its own"),
    }
}

/// How `component` is served: a router if it exports one, else a typed
/// component if it exports a function of its own (at the top or in an
/// interface outside `wasi:`). Fails with the names it does export when it
/// is neither, and on a middleware that is plainly unplugged (it imports the
/// router but not the extension, so nothing else can explain the import).
pub(super) fn shape_of(engine: &Engine, component: &Component, imports: Imports) -> Result<Shape, LoadError> {
    use wasmtime::component::types::ComponentItem;
    let ty = component.component_type();
    if imports.router && !imports.extension {
        return Err(LoadError::UnpluggedMiddleware);
    }
    let exports: Vec<(String, ComponentItem)> =
        ty.exports(engine).map(|(name, item)| (name.to_string(), item.ty)).collect();
    if exports.iter().any(|(name, _)| name == ROUTER_INTERFACE || name == super::ROUTER_INTERFACE_25_6_18) {
        return Ok(Shape::Router);
    }
    let own_function = |(name, item): &(String, ComponentItem)| match item {
        ComponentItem::ComponentFunc(_) => true,
        ComponentItem::ComponentInstance(instance) => {
            !name.starts_with("wasi:")
                && instance.exports(engine).any(|(_, item)| matches!(item.ty, ComponentItem::ComponentFunc(_)))
        }
        _ => false,
    };
    if exports.iter().any(own_function) {
        return Ok(Shape::Typed);
    }
    let names: Vec<String> = exports.into_iter().map(|(name, _)| name).collect();
    let exports_one = |prefix: &str| names.iter().any(|name| name.starts_with(prefix));
    let http = if exports_one(HANDLER_P3) {
        Some((Shape::HttpServerP3, HTTP_P3))
    } else if exports_one(INCOMING_HANDLER) {
        Some((Shape::HttpServer, "an HTTP server (wasi:http/incoming-handler@0.2)"))
    } else {
        None
    };
    // Checked before `wasi:cli/run`: what `mcp-wit wrap` writes exports both.
    if let Some((shape, what)) = http {
        if !cfg!(feature = "outgoing-http") {
            return Err(LoadError::ShapeNotServed { shape: what, exports: names });
        }
        // One that imports a router is the adapter with none plugged in.
        if imports.router {
            return Err(LoadError::UnpluggedMiddleware);
        }
        return Ok(shape);
    }
    if exports_one(RUN) {
        return Ok(Shape::Command);
    }
    Err(LoadError::WrongWorld { exports: names })
}

/// Checks every router function's type against the bindings of the
/// contract the component exports, once: instances then look up only the
/// function a call needs, unchecked. Says so when the component exports
/// both contracts (25.6.18 is served).
pub(super) fn check_router_types(
    component: &Component,
    pre: &InstancePre<StoreData>,
    exports: RouterExports,
    label: &str,
) -> Result<(), LoadError> {
    match exports {
        RouterExports::V25_3_26(_) => drop(super::bindings::McpRouterPre::new(pre.clone()).map_err(LoadError::Link)?),
        RouterExports::V25_6_18(_) => {
            drop(super::v25_6_18::McpRouterPre::new(pre.clone()).map_err(LoadError::Link)?);
            if Exports25_3_26::find(component).is_ok_and(|found| found.is_some()) {
                tracing::warn!(
                    component = %label,
                    "the component exports both {ROUTER_INTERFACE} and {ROUTER_INTERFACE_25_6_18}: \
                     served as {ROUTER_INTERFACE_25_6_18}, the newer"
                );
            }
        }
    }
    Ok(())
}

/// `error`, the failure to compile `bytes` on `engine`, said in the user's
/// terms when its cause is a memory that starts larger than the engine's
/// cap (the pooling allocator words it in hexadecimal bytes).
#[cfg(feature = "compiler")]
pub(super) fn compile_error(engine: &wasmtime::Engine, bytes: &[u8], error: wasmtime::Error) -> LoadError {
    check_memory_cap(engine, bytes).err().unwrap_or(LoadError::Compile(error))
}

/// Refuses `bytes` before any compile when one of its memories starts
/// larger than `engine`'s cap: compiling first would take seconds (an
/// interpreter's component) to say the same.
pub(super) fn check_memory_cap(engine: &wasmtime::Engine, bytes: &[u8]) -> Result<(), LoadError> {
    let Some(cap) = super::engine::memory_cap_of(engine).map(|cap| cap as u64) else { return Ok(()) };
    match largest_initial_memory(bytes) {
        Some(initial) if initial > cap => Err(LoadError::MemoryCap { initial, cap }),
        _ => Ok(()),
    }
}

/// Whether every memory `component` (compiled code, a cache hit) starts
/// with surely fits `engine`'s cap. `false` sends the caller to
/// [`check_memory_cap`] on the component's bytes, which says why, or finds
/// that it fits after all: the compiled code counts in 64 KiB pages, whatever
/// a memory's own page size, and cannot tell for a component that imports
/// its core modules. With instances allocated on demand, nothing else
/// refuses such a component before its first instance fails.
pub(super) fn surely_within_memory_cap(engine: &wasmtime::Engine, component: &Component) -> bool {
    const PAGE: u64 = 64 << 10;
    let Some(cap) = super::engine::memory_cap_of(engine) else { return true };
    component
        .resources_required()
        .is_some_and(|needs| needs.max_initial_memory_size.unwrap_or(0).saturating_mul(PAGE) <= cap as u64)
}

/// The largest initial size, in bytes, among the memories `bytes` (a
/// component or a core module) declare, its nested modules included.
fn largest_initial_memory(bytes: &[u8]) -> Option<u64> {
    use wasmparser::{Parser, Payload};
    let mut largest = None;
    for payload in Parser::new(0).parse_all(bytes) {
        if let Ok(Payload::MemorySection(memories)) = payload {
            for memory in memories.into_iter().flatten() {
                let page = 1u64 << memory.page_size_log2.unwrap_or(16);
                let size = memory.initial.saturating_mul(page);
                largest = Some(largest.map_or(size, |l: u64| l.max(size)));
            }
        }
    }
    largest
}
