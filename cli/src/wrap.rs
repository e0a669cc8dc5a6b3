//! `mcp-wit wrap`: a router plugged into the adapter (`components/adapter`,
//! embedded in this binary), one component for engines that run components
//! but know nothing of MCP (`wasmtime serve`, `wasmtime run`, …).

use std::path::PathBuf;

use anyhow::{Context, bail};
use mcp_wit::runtime::ROUTER_INTERFACE;
use wac_graph::types::Package;
use wac_graph::{CompositionGraph, EncodeOptions};

/// The adapter, built by `build.rs`.
static ADAPTER: &[u8] = include_bytes!(env!("MCP_WIT_ADAPTER_COMPONENT"));

#[derive(clap::Args)]
pub struct WrapArgs {
    /// The router component (`.wasm`) to serve.
    router: PathBuf,
    /// Where to write the server component.
    #[arg(short, long)]
    output: PathBuf,
}

pub fn wrap(args: WrapArgs) -> anyhow::Result<()> {
    let router = std::fs::read(&args.router).with_context(|| format!("cannot read {}", args.router.display()))?;
    let composed = compose(&router).with_context(|| format!("cannot wrap {}", args.router.display()))?;
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
        args.router.display(),
    );
    Ok(())
}

/// `wac plug adapter --plug router`, checked: the router must export the
/// contract, and the result may import only what every engine offers (WASI
/// and `wasi:http`).
fn compose(router: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut graph = CompositionGraph::new();
    let router = Package::from_bytes("router", None, router, graph.types_mut())
        .context("it is not a WebAssembly component (build it with `--target wasm32-wasip2`)")?;
    if !graph.types()[router.ty()].exports.contains_key(ROUTER_INTERFACE) {
        bail!("it does not export {ROUTER_INTERFACE}: only a router can be wrapped");
    }
    let adapter = Package::from_bytes("mcp-wit:adapter", None, ADAPTER, graph.types_mut())
        .expect("the embedded adapter is a component");
    let adapter = graph.register_package(adapter)?;
    let router = graph.register_package(router)?;
    wac_graph::plug(&mut graph, vec![router], adapter).context("the router does not fit the adapter")?;
    let composed = graph.encode(EncodeOptions::default()).context("the composition does not validate")?;
    let mut check = CompositionGraph::new();
    let package = Package::from_bytes("server", None, composed.clone(), check.types_mut())?;
    let foreign: Vec<&String> =
        check.types()[package.ty()].imports.keys().filter(|name| !name.starts_with("wasi:")).collect();
    if !foreign.is_empty() {
        let names: Vec<&str> = foreign.iter().map(|s| s.as_str()).collect();
        bail!(
            "the router imports {}, which engines do not provide (a router that talks back, or a middleware \
             without its router): serve it with `mcp-wit serve` instead",
            names.join(", ")
        );
    }
    Ok(composed)
}
