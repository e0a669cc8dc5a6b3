//! `baseline-wasm-router`: the floor of a WebAssembly host. The least a
//! host does to answer a tool call with a `wasix:mcp` router.
//!
//! ```text
//! baseline-wasm-router --precompile router.wasm router.cwasm  # built with `baseline-compiler`
//! baseline-wasm-router router.cwasm                           # stdio
//! baseline-wasm-router router.cwasm --http 127.0.0.1:PORT    # Streamable HTTP at /mcp
//! ```
//!
//! `baseline-serde`'s floor ([`mcp_wit_bench::floor`]), with `tools/call`
//! answered by the router's `call-tool` on an instance made once (per
//! connection over HTTP) and reused for every call. The call is blocking, on
//! the thread that parsed the request: no fiber, no pool, no epoch
//! interruption, no fuel, no limits, no schema check, no telemetry, the
//! engine's default settings. No server that runs code it does not trust can
//! do this little: the gap between it and `baseline-serde` is what running
//! the tool in WebAssembly costs at the least, and the gap between
//! `mcp-wit serve` and it what the runtime adds.
//!
//! Built alone (`cargo build --release -p mcp-wit-bench --bin
//! baseline-wasm-router`), as `baseline-wasmtime` is, so that the workspace's
//! wasmtime features do not unify into it.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use mcp_wit_bench::floor::{self, Tools};
use mcp_wit_bench::wasm_host::{self, Host};
use serde_json::value::RawValue;
use wasmtime::component::{Component, Linker};
use wasmtime::{Engine, Result, Store, bail};
use wasmtime_wasi::WasiCtx;

wasmtime::component::bindgen!({
    path: "../wit",
    world: "wasix:mcp/mcp-router",
});

use exports::wasix::mcp::router::{Content, ToolError, Value};

/// What every instance is made from.
struct Loaded {
    component: Component,
    linker: Linker<Host>,
    engine: Engine,
}

/// One instance of the router, and the tool list it gave at start.
struct Instance {
    store: Mutex<(Store<Host>, McpRouter)>,
    tools: Arc<str>,
}

impl Loaded {
    /// Loads the precompiled router at `path`.
    fn new(path: &str) -> Result<Loaded> {
        let engine = wasm_host::engine()?;
        let component = wasm_host::load(&engine, path)?;
        let mut linker = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
        Ok(Loaded { component, linker, engine })
    }

    /// A new instance; `tools` is the list the first one gave.
    fn instantiate(&self, tools: Option<Arc<str>>) -> Result<Instance> {
        // No stdio: the guest's output is not the server's.
        let mut store = Store::new(&self.engine, Host::new(WasiCtx::builder().build()));
        let router = McpRouter::instantiate(&mut store, &self.component, &self.linker)?;
        let tools = match tools {
            Some(tools) => tools,
            None => tool_list(&mut store, &router)?.into(),
        };
        Ok(Instance { store: Mutex::new((store, router)), tools })
    }
}

/// The router's `list-tools`, as a `tools/list` result.
fn tool_list(store: &mut Store<Host>, router: &McpRouter) -> Result<String> {
    let tools = router.wasix_mcp_router().call_list_tools(store)?;
    let tools: Vec<_> = tools
        .iter()
        .map(|tool| {
            let schema = RawValue::from_string(tool.input_schema.json.clone())?;
            Ok(serde_json::json!({"name": tool.name, "description": tool.description, "inputSchema": schema}))
        })
        .collect::<Result<_>>()?;
    Ok(serde_json::json!({ "tools": tools }).to_string())
}

impl Tools for Instance {
    type Arguments<'a> = &'a RawValue;

    fn list(&self) -> &str {
        &self.tools
    }

    fn call<'a>(&self, name: &str, arguments: Option<Self::Arguments<'a>>) -> Option<(Cow<'a, str>, bool)> {
        let arguments = Value { json: arguments.map_or("{}", RawValue::get).to_owned() };
        let mut guard = self.store.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let (store, router) = &mut *guard;
        let answer = match router.wasix_mcp_router().call_call_tool(store, name, &arguments) {
            Ok(Ok(result)) => {
                let text = result.content.into_iter().find_map(|content| match content {
                    Content::Text(text) => Some(text.text),
                    _ => None,
                });
                (text.unwrap_or_default(), result.is_error.unwrap_or(false))
            }
            Ok(Err(ToolError::NotFound(_))) => return None,
            Ok(Err(
                ToolError::InvalidParameters(message)
                | ToolError::ExecutionError(message)
                | ToolError::SchemaError(message),
            )) => (message, true),
            Err(trap) => (format!("the router failed: {trap}"), true),
        };
        Some((Cow::Owned(answer.0), answer.1))
    }
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag, input, output] if flag == "--precompile" => wasm_host::precompile(&wasm_host::engine()?, input, output),
        [component] if !component.starts_with('-') => {
            let loaded = Loaded::new(component)?;
            let instance = loaded.instantiate(None)?;
            Ok(floor::serve_stdio(&instance, "baseline-wasm-router")?)
        }
        [component, flag, addr] if flag == "--http" => {
            let loaded = Loaded::new(component)?;
            let tools = loaded.instantiate(None)?.tools;
            // An instance per connection, made as it opens; one that cannot
            // be made is the end of the server (a floor has no fallback).
            let connected = move || loaded.instantiate(Some(tools.clone())).expect("a new instance of the router");
            Ok(floor::serve_http(addr, "baseline-wasm-router", connected)?)
        }
        _ => bail!("usage: baseline-wasm-router ROUTER.cwasm [--http ADDR] | --precompile ROUTER.wasm OUT.cwasm"),
    }
}
