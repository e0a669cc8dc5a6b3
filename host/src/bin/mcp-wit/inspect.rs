//! `inspect`, `call` and `compile`: one component, no client.

use anyhow::Context;
use std::path::PathBuf;

use mcp_wit::runtime::cache::CompileCache;
use mcp_wit::runtime::engine::EngineOptions;
use mcp_wit::{LoadedComponent, Session, SessionOptions};

use crate::progress::CompileProgress;
use crate::sandbox_args::{Origin, SandboxArgs, sandbox_policy};

#[derive(clap::Args)]
pub struct InspectArgs {
    /// The component (`.wasm` or `.cwasm`).
    component: PathBuf,
    /// Print JSON (what an MCP client would see) instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    sandbox: SandboxArgs,
}

#[derive(clap::Args)]
pub struct CallArgs {
    /// The component (`.wasm` or `.cwasm`).
    component: PathBuf,
    /// The tool to call.
    tool: String,
    /// The arguments, a JSON object.
    #[arg(long, default_value = "{}")]
    args: String,
    #[command(flatten)]
    sandbox: SandboxArgs,
}

#[derive(clap::Args)]
pub struct CompileArgs {
    /// The component (`.wasm`) to compile.
    component: PathBuf,
    /// Where to write the compiled component.
    #[arg(short, long)]
    output: PathBuf,
}

pub fn compile(args: CompileArgs) -> anyhow::Result<()> {
    let engine = mcp_wit::runtime::engine::build_engine()?;
    let wasm = std::fs::read(&args.component).with_context(|| format!("cannot read {}", args.component.display()))?;
    let started = std::time::Instant::now();
    let compiled = {
        let _progress = CompileProgress::start(&args.component);
        mcp_wit::runtime::compile(&engine, &wasm)?
    };
    std::fs::write(&args.output, &compiled).with_context(|| format!("cannot write {}", args.output.display()))?;
    tracing::info!(
        "compiled {} ({} bytes) to {} ({} bytes) in {:.0?}",
        args.component.display(),
        wasm.len(),
        args.output.display(),
        compiled.len(),
        started.elapsed()
    );
    Ok(())
}

/// Loads one component for `inspect` and `call` (default limits, the cache).
fn load_one(path: &std::path::Path, sandbox: &SandboxArgs) -> anyhow::Result<LoadedComponent> {
    let engine =
        mcp_wit::runtime::engine::build_engine_with(&EngineOptions { max_instances: 8, ..EngineOptions::default() })?;
    let label = path.file_stem().map_or_else(|| "guest".into(), |s| s.to_string_lossy().into_owned());
    let cache = CompileCache::default_dir().map(CompileCache::new);
    let policy = sandbox_policy(label, &[(Origin::Flags, sandbox)])?;
    let _progress = CompileProgress::start(path);
    Ok(LoadedComponent::load(&engine, path, policy, cache.as_ref())?)
}

/// Runs `requests` through a session as a client would, returning each
/// response's `result`, or the first JSON-RPC error.
fn exchange(component: LoadedComponent, requests: &[serde_json::Value]) -> anyhow::Result<Vec<serde_json::Value>> {
    let mut session = Session::new(component, SessionOptions::default());
    let mut results = Vec::new();
    for (id, request) in requests.iter().enumerate() {
        let mut message = request.clone();
        message["jsonrpc"] = "2.0".into();
        message["id"] = id.into();
        let mut out: Vec<Vec<u8>> = Vec::new();
        session.handle(message.to_string().as_bytes(), &mut out);
        let response: serde_json::Value =
            serde_json::from_slice(out.last().context("no answer")?).context("the answer is not JSON")?;
        if let Some(error) = response.get("error") {
            anyhow::bail!("{} failed: {} ({})", request["method"], error["message"], error["code"]);
        }
        results.push(response["result"].clone());
    }
    Ok(results)
}

fn initialize_request() -> serde_json::Value {
    serde_json::json!({ "method": "initialize", "params": {
        "protocolVersion": mcp_wit::ProtocolVersion::LATEST.as_str(),
        "capabilities": {},
        "clientInfo": { "name": "mcp-wit", "version": env!("CARGO_PKG_VERSION") }
    }})
}

pub fn inspect(args: InspectArgs) -> anyhow::Result<()> {
    let component = load_one(&args.component, &args.sandbox)?;
    let results = exchange(
        component,
        &[
            initialize_request(),
            serde_json::json!({ "method": "tools/list" }),
            serde_json::json!({ "method": "resources/list" }),
            serde_json::json!({ "method": "prompts/list" }),
        ],
    )?;
    let [init, tools, resources, prompts] = <[serde_json::Value; 4]>::try_from(results).expect("four answers");
    if args.json {
        let report = serde_json::json!({
            "serverInfo": init["serverInfo"],
            "instructions": init.get("instructions"),
            "capabilities": init["capabilities"],
            "tools": tools["tools"],
            "resources": resources["resources"],
            "prompts": prompts["prompts"],
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    let list = |v: &serde_json::Value| v.as_array().cloned().unwrap_or_default();
    println!("name          {}", text(&init["serverInfo"]["name"]));
    if let Some(instructions) = init["instructions"].as_str() {
        println!("instructions  {instructions}");
    }
    let caps = init["capabilities"].as_object().map(|c| c.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
    println!("capabilities  {}", caps.join(", "));
    println!("\ntools ({})", list(&tools["tools"]).len());
    for tool in list(&tools["tools"]) {
        println!("  {:<24} {}", text(&tool["name"]), text(&tool["description"]));
        println!("  {:<24} input: {}", "", tool["inputSchema"]);
        if let Some(output) = tool.get("outputSchema") {
            println!("  {:<24} output: {output}", "");
        }
    }
    println!("\nresources ({})", list(&resources["resources"]).len());
    for r in list(&resources["resources"]) {
        println!("  {:<32} {:<16} {}", text(&r["uri"]), text(&r["name"]), text(&r["mimeType"]));
    }
    println!("\nprompts ({})", list(&prompts["prompts"]).len());
    for p in list(&prompts["prompts"]) {
        let arguments: Vec<String> = list(&p["arguments"]).iter().map(|a| text(&a["name"])).collect();
        println!("  {:<24} ({}) {}", text(&p["name"]), arguments.join(", "), text(&p["description"]));
    }
    Ok(())
}

pub fn call(args: CallArgs) -> anyhow::Result<()> {
    let arguments: serde_json::Value =
        serde_json::from_str(&args.args).with_context(|| format!("--args is not JSON: {}", args.args))?;
    anyhow::ensure!(arguments.is_object(), "--args must be a JSON object, like '{{\"text\":\"hi\"}}'");
    let component = load_one(&args.component, &args.sandbox)?;
    let results = exchange(
        component,
        &[
            initialize_request(),
            serde_json::json!({ "method": "tools/call", "params": { "name": args.tool, "arguments": arguments } }),
        ],
    )?;
    let result = &results[1];
    println!("{}", serde_json::to_string_pretty(result)?);
    anyhow::ensure!(result["isError"] != true, "the tool reported an error");
    Ok(())
}
