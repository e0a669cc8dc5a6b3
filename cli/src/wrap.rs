//! `mcp-wit wrap`: a router plugged into the adapter (`components/adapter`,
//! embedded in this binary), one component for engines that run components
//! but know nothing of MCP (`wasmtime serve`, `wasmtime run`, …).

use std::path::PathBuf;

use anyhow::{Context, bail};
use mcp_wit::runtime::{
    CALLER_INTERFACE, CLIENT_INTERFACE, EXTENSION_INTERFACE, ROUTER_INTERFACE, ROUTER_INTERFACE_25_6_18,
};
use mcp_wit::{CompileCache, EngineOptions, LoadedRouter, SandboxPolicy};

use crate::demo;
use crate::registry::RegistryArgs;
use wac_graph::types::{ItemKind, Package};
use wac_graph::{CompositionGraph, EncodeOptions};

// Built by `build.rs` from `components/`.
/// The adapter: the router's server, for engines.
static ADAPTER: &[u8] = include_bytes!(env!("MCP_WIT_ADAPTER_COMPONENT"));
/// The adapter built for routers of `wasix:mcp/router@25.6.18`.
static ADAPTER_25_6_18: &[u8] = include_bytes!(env!("MCP_WIT_ADAPTER_25_6_18_COMPONENT"));
/// What a router imports of the extension that no engine provides.
static UNPLUGGED: &[u8] = include_bytes!(env!("MCP_WIT_UNPLUGGED_COMPONENT"));
/// The extension of a router that exports none.
static PLAIN_EXTENSION: &[u8] = include_bytes!(env!("MCP_WIT_PLAIN_EXTENSION_COMPONENT"));
/// Keeps the caller the adapter authenticated for the router to read.
static CALLER_CELL: &[u8] = include_bytes!(env!("MCP_WIT_CALLER_CELL_COMPONENT"));
/// Relays the request's client to the router.
static CLIENT_CELL: &[u8] = include_bytes!(env!("MCP_WIT_CLIENT_CELL_COMPONENT"));

/// The adapter's import the caller cell answers.
const REQUEST_CALLER_INTERFACE: &str = "mcp-wit:adapter/request-caller@0.1.0";
/// The adapter's import the client cell answers (`caller-cell` for a
/// router without the client).
const CLIENT_RELAY_INTERFACE: &str = "mcp-wit:adapter/client-relay@0.1.0";
/// What every release of the environment interface is named with: the
/// router's import, and `caller-cell`'s export of the engine's environment
/// less the adapter's secrets (the key that signs `requestState`), whose
/// release the build of the cell settles.
const ENVIRONMENT_INTERFACE_PREFIX: &str = "wasi:cli/environment@";

#[derive(clap::Args)]
pub struct WrapArgs {
    /// The router component (`.wasm`, or a registry reference) to serve;
    /// the built-in demo router when omitted.
    router: Option<PathBuf>,
    /// Where to write the server component.
    #[arg(short, long)]
    output: PathBuf,
    #[command(flatten)]
    registry: RegistryArgs,
}

pub fn wrap(args: WrapArgs) -> anyhow::Result<()> {
    let (router, name) = match &args.router {
        Some(given) => {
            let source = args.registry.resolve(given, None)?;
            (mcp_wit::runtime::read_guest_file(&source.path)?, given.display().to_string())
        }
        None => (demo::COMPONENT.to_vec(), format!("the built-in demo router (`{}`)", demo::NAME)),
    };
    let Wrapped { component: composed, talks_back } = check_router(&router)
        .and_then(|contract| compose(&router, contract))
        .with_context(|| format!("cannot wrap {name}"))?;
    std::fs::write(&args.output, &composed).with_context(|| format!("cannot write {}", args.output.display()))?;
    let out = args.output.display();
    println!(
        "wrote {out} ({} bytes): {} behind the MCP adapter.\n\n\
         Run it on an engine (settings through the environment, e.g. --env MCP_WIT_ALLOW_ORIGINS=https://app.example):\n  \
         wasmtime serve -Scli --addr 127.0.0.1:8080 {out}    # Streamable HTTP, each request on its own\n  \
         wasmtime run -Shttp {out}                           # stdio\n\
         Spin: `source = \"{out}\"` under an HTTP trigger; wasmCloud: the component of a workload exporting \
         wasi:http/incoming-handler.",
        composed.len(),
        name,
    );
    if talks_back {
        println!(
            "\nThe router may ask its client questions: over HTTP, give every instance and replica the same key \
             (--env MCP_WIT_STATE_KEY=…, 32 bytes or more, or MCP_WIT_STATE_KEY_FILE) to sign the requestState \
             of its 2026-07-28 rounds, so that a retry resumes on any of them."
        );
    }
    Ok(())
}

/// Refuses what `mcp-wit serve` would refuse, with the same errors: not a
/// component, not a router, a middleware without its router (found by
/// loading it, as the host does); and Extism plugins, which `serve` takes
/// but no engine runs. Returns the router contract the component exports.
fn check_router(router: &[u8]) -> anyhow::Result<&'static str> {
    let engine = EngineOptions { pool_instances: 8, ..EngineOptions::default() }.build()?;
    let cache = CompileCache::default_dir().map(CompileCache::new);
    let loaded =
        LoadedRouter::from_bytes_cached(&engine, router, SandboxPolicy::builder("router").build(), cache.as_ref())?;
    if loaded.is_plugin() {
        bail!(
            "it is an {}, a core module: engines run components, and the adapter serves a component's router \
             (serve the plugin with `mcp-wit serve`)",
            loaded.kind()
        );
    }
    match loaded.router_interface() {
        Some(ROUTER_INTERFACE) => Ok(ROUTER_INTERFACE),
        Some(ROUTER_INTERFACE_25_6_18) => Ok(ROUTER_INTERFACE_25_6_18),
        _ => bail!(
            "it is a {}: the adapter serves routers of {ROUTER_INTERFACE} and {ROUTER_INTERFACE_25_6_18} (serve this \
             one natively with `mcp-wit serve`)",
            loaded.kind()
        ),
    }
}

/// The router plugged into the adapter, with what it imports that no engine
/// provides answered in the composition: the client by `client-cell`,
/// which relays the request's client from the adapter; the caller by
/// `caller-cell`, which carries the caller the adapter authenticates (and
/// tells the adapter of a router without the client that there is nothing
/// to relay); a middleware composition's dangling extension and router
/// imports by `unplugged`; and, for a router without the extension, the
/// adapter's extension import by `plain-extension`. The result may import
/// only what every engine offers (WASI and `wasi:http`).
///
/// A router of `contract` 25.6.18 has no extension: the adapter built for
/// it imports none.
fn compose(router: &[u8], contract: &str) -> anyhow::Result<Wrapped> {
    let successor = contract == ROUTER_INTERFACE_25_6_18;
    let mut graph = CompositionGraph::new();
    let router = Package::from_bytes("router", None, router, graph.types_mut())?;
    let world = &graph.types()[router.ty()];
    let unplugged_imports: Vec<&str> =
        [EXTENSION_INTERFACE, ROUTER_INTERFACE].into_iter().filter(|name| world.imports.contains_key(*name)).collect();
    // A middleware that imports the extension passes through one its router
    // lacks: the host serves such a composition as a router without it.
    let offers_extension =
        world.exports.contains_key(EXTENSION_INTERFACE) && !world.imports.contains_key(EXTENSION_INTERFACE);

    let embedded = |graph: &mut CompositionGraph, name: &str, bytes: &[u8]| {
        let package = Package::from_bytes(name, None, bytes.to_vec(), graph.types_mut())
            .expect("the embedded components are components");
        graph.register_package(package)
    };
    let imports_caller = world.imports.contains_key(CALLER_INTERFACE);
    let imports_client = world.imports.contains_key(CLIENT_INTERFACE);
    let environment = world.imports.keys().find(|name| name.starts_with(ENVIRONMENT_INTERFACE_PREFIX)).cloned();
    let router = graph.register_package(router)?;
    let router = graph.instantiate(router);
    let cell_package = embedded(&mut graph, "mcp-wit:caller-cell", CALLER_CELL)?;
    let cell_environment = graph.types()[graph[cell_package].ty()]
        .exports
        .keys()
        .find(|name| name.starts_with(ENVIRONMENT_INTERFACE_PREFIX))
        .cloned()
        .expect("caller-cell exports the router's environment");
    let cell = graph.instantiate(cell_package);
    // The engine gives the adapter's settings to the whole composition: the
    // router reads the environment through the cell, which leaves out the
    // state key (with it, a router could forge the answers of its rounds).
    if let Some(environment) = environment {
        let filtered = graph.alias_instance_export(cell, &cell_environment)?;
        graph.set_instantiation_argument(router, &environment, filtered).with_context(|| {
            format!(
                "the router imports {environment}, which the adapter cannot give it without its own secrets (it \
                 passes on the functions of {cell_environment})"
            )
        })?;
    }
    if imports_caller {
        let current = graph.alias_instance_export(cell, CALLER_INTERFACE)?;
        graph.set_instantiation_argument(router, CALLER_INTERFACE, current)?;
    }
    if !unplugged_imports.is_empty() {
        let unplugged = embedded(&mut graph, "mcp-wit:unplugged", UNPLUGGED)?;
        let unplugged = graph.instantiate(unplugged);
        for name in unplugged_imports {
            let export = graph.alias_instance_export(unplugged, name)?;
            graph.set_instantiation_argument(router, name, export)?;
        }
    }
    let relay = match imports_client {
        false => graph.alias_instance_export(cell, CLIENT_RELAY_INTERFACE)?,
        true => {
            let client_cell = embedded(&mut graph, "mcp-wit:client-cell", CLIENT_CELL)?;
            let client_cell = graph.instantiate(client_cell);
            let client = graph.alias_instance_export(client_cell, CLIENT_INTERFACE)?;
            graph.set_instantiation_argument(router, CLIENT_INTERFACE, client)?;
            graph.alias_instance_export(client_cell, CLIENT_RELAY_INTERFACE)?
        }
    };
    let router_export = graph.alias_instance_export(router, contract)?;
    let adapter_package = match successor {
        false => embedded(&mut graph, "mcp-wit:adapter", ADAPTER)?,
        true => embedded(&mut graph, "mcp-wit:adapter-successor", ADAPTER_25_6_18)?,
    };
    let adapter = graph.instantiate(adapter_package);
    graph
        .set_instantiation_argument(adapter, contract, router_export)
        .context("the router does not fit the adapter")?;
    if !successor {
        let extension_export = if offers_extension {
            graph.alias_instance_export(router, EXTENSION_INTERFACE)?
        } else {
            let plain = embedded(&mut graph, "mcp-wit:plain-extension", PLAIN_EXTENSION)?;
            let plain = graph.instantiate(plain);
            graph.set_instantiation_argument(plain, ROUTER_INTERFACE, router_export)?;
            graph.alias_instance_export(plain, EXTENSION_INTERFACE)?
        };
        graph
            .set_instantiation_argument(adapter, EXTENSION_INTERFACE, extension_export)
            .context("the router's extension does not fit the adapter")?;
    }
    let set_caller = graph.alias_instance_export(cell, REQUEST_CALLER_INTERFACE)?;
    graph.set_instantiation_argument(adapter, REQUEST_CALLER_INTERFACE, set_caller)?;
    graph.set_instantiation_argument(adapter, CLIENT_RELAY_INTERFACE, relay)?;
    // The identity type the setter takes comes with the interface it is
    // defined in, when the adapter's world keeps that import.
    if graph.types()[graph[adapter_package].ty()].imports.contains_key(CALLER_INTERFACE) {
        let current = graph.alias_instance_export(cell, CALLER_INTERFACE)?;
        graph.set_instantiation_argument(adapter, CALLER_INTERFACE, current)?;
    }
    let adapter_exports: Vec<String> = graph.types()[graph[adapter_package].ty()].exports.keys().cloned().collect();
    for name in adapter_exports {
        let export = graph.alias_instance_export(adapter, &name)?;
        graph.export(export, &name)?;
    }
    let composed = graph.encode(EncodeOptions::default()).context("the composition does not validate")?;

    let mut check = CompositionGraph::new();
    let package = Package::from_bytes("server", None, composed.clone(), check.types_mut())?;
    // An import of types alone (a middleware's view of the contract's
    // types) needs nothing from the engine.
    let foreign: Vec<&str> = check.types()[package.ty()]
        .imports
        .iter()
        .filter(|(name, item)| !name.starts_with("wasi:") && has_functions(&check, item))
        .map(|(name, _)| name.as_str())
        .collect();
    if !foreign.is_empty() {
        bail!(
            "the composition imports {}, which engines do not provide: serve the router with `mcp-wit serve` instead",
            foreign.join(", ")
        );
    }
    Ok(Wrapped { component: composed, talks_back: imports_client || successor })
}

/// A router behind the adapter.
struct Wrapped {
    component: Vec<u8>,
    /// Whether the router may ask its client questions (it imports the
    /// client, or its contract elicits).
    talks_back: bool,
}

/// Whether an import or export holds anything to call (not only types).
fn has_functions(graph: &CompositionGraph, item: &ItemKind) -> bool {
    match item {
        ItemKind::Instance(interface) => {
            graph.types()[*interface].exports.values().any(|item| !matches!(item, ItemKind::Type(_)))
        }
        _ => true,
    }
}
