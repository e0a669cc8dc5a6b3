//! `inspect`, `call` and `compile`: one component, no client.

use std::path::PathBuf;

use anyhow::Context;
use serde_json::value::RawValue;

use mcp_wit::{EngineOptions, LoadedRouter, Method, ProtocolVersion, Session, SessionOptions};

use crate::demo;
use crate::progress::CompileProgress;
use crate::registry::RegistryArgs;
use crate::sandbox_args::{Origin, SandboxArgs, sandbox_policy};
use crate::settings::{LimitSettings, ToolChecks};
use mcp_wit_registry::ComponentSource;

#[derive(clap::Args)]
pub struct InspectArgs {
    /// The component (`.wasm` or `.cwasm`, or a registry reference
    /// `oci://REGISTRY/REPO:TAG`); the built-in demo router when omitted.
    component: Option<PathBuf>,
    /// Print JSON (what an MCP client would see) instead of a table.
    #[arg(long)]
    json: bool,
    /// Speak this protocol revision to the router: a 2025 one (through
    /// `initialize`) or 2026-07-28 (`server/discover`, then stateless
    /// requests).
    #[arg(long, value_name = "VERSION", default_value = "2025-11-25", value_parser = parse_protocol)]
    protocol: ProtocolVersion,
    #[command(flatten)]
    checks: ToolChecks,
    /// The guest's limits and the compile cache, as `serve` takes them.
    #[command(flatten)]
    limits: LimitSettings,
    #[command(flatten)]
    sandbox: SandboxArgs,
    #[command(flatten)]
    registry: RegistryArgs,
}

#[derive(clap::Args)]
pub struct CallArgs {
    /// The component (`.wasm` or `.cwasm`, or a registry reference), then
    /// the tool to call; the tool alone calls it on the built-in demo
    /// router.
    #[arg(value_name = "[COMPONENT] TOOL", num_args = 1..=2, required = true)]
    targets: Vec<String>,
    /// The arguments, a JSON object.
    #[arg(long, default_value = "{}")]
    args: String,
    /// Speak this protocol revision to the router (2025 ones, or 2026-07-28).
    #[arg(long, value_name = "VERSION", default_value = "2025-11-25", value_parser = parse_protocol)]
    protocol: ProtocolVersion,
    #[command(flatten)]
    checks: ToolChecks,
    /// The guest's limits and the compile cache, as `serve` takes them.
    #[command(flatten)]
    limits: LimitSettings,
    #[command(flatten)]
    sandbox: SandboxArgs,
    #[command(flatten)]
    registry: RegistryArgs,
}

fn parse_protocol(text: &str) -> Result<ProtocolVersion, String> {
    ProtocolVersion::parse(text).ok_or_else(|| {
        let known: Vec<&str> = ProtocolVersion::ALL.iter().map(|v| v.as_str()).collect();
        format!("unknown revision {text:?}; known: {}", known.join(", "))
    })
}

#[derive(clap::Args)]
pub struct CompileArgs {
    /// The component (`.wasm`, or a registry reference) to compile.
    component: PathBuf,
    /// Where to write the compiled component.
    #[arg(short, long)]
    output: PathBuf,
    #[command(flatten)]
    registry: RegistryArgs,
}

/// The `.cwasm` of `wasm` for `engine`.
#[cfg(feature = "compiler")]
fn compiled(engine: &mcp_wit::Engine, wasm: &[u8]) -> anyhow::Result<Vec<u8>> {
    Ok(mcp_wit::runtime::compile(engine, wasm)?)
}

/// A build without the `compiler` feature (the serving executable's) has
/// none to compile with.
#[cfg(not(feature = "compiler"))]
fn compiled(_engine: &mcp_wit::Engine, _wasm: &[u8]) -> anyhow::Result<Vec<u8>> {
    anyhow::bail!("this build has no compiler (the `compiler` feature of mcp-wit-cli): compile with `mcp-wit compile`")
}

pub fn compile(args: CompileArgs) -> anyhow::Result<()> {
    let engine = EngineOptions::default().build()?;
    let source = args.registry.resolve(&args.component, None)?;
    let wasm = mcp_wit::runtime::read_guest_file(&source.path)?;
    let started = std::time::Instant::now();
    let compiled = {
        let _progress = CompileProgress::start(&source.path);
        compiled(&engine, &wasm)?
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

/// Loads one component for `inspect` and `call` (as `serve` would, with
/// the limits and the cache given): the one at `path`, else the built-in
/// demo router.
fn load_one(
    given: Option<&std::path::Path>,
    registry: &RegistryArgs,
    sandbox: &SandboxArgs,
    (checks, limits): (ToolChecks, &LimitSettings),
) -> anyhow::Result<LoadedRouter> {
    let cache = limits.cache();
    let source = given.map(|given| registry.resolve(given, limits.cache_dir.as_deref())).transpose()?;
    let path = source.as_ref().map(|source| source.path.as_path());
    let label = source.as_ref().map_or_else(|| demo::NAME.into(), |source| source.label.clone());
    let granted = sandbox_policy(label, &[(Origin::Flags, sandbox)])?;
    let limits = granted.capped(limits.limits());
    let engine =
        EngineOptions { pool_instances: 8, max_memory: limits.max_memory, ..EngineOptions::default() }.build()?;
    let policy = granted.policy;
    let Some(path) = path else {
        tracing::info!("no component given: the built-in demo router (`{}`)", demo::NAME);
        return Ok(
            LoadedRouter::from_bytes_cached(&engine, demo::COMPONENT, policy, cache.as_ref())?.with_limits(limits)
        );
    };
    let component = {
        let _progress = CompileProgress::unless_cached(path, &engine, cache.as_ref());
        LoadedRouter::load(&engine, path, policy, cache.as_ref())?.with_limits(limits)
    };
    checks.check(&component, cache.as_ref())?;
    Ok(component)
}

/// `call`'s component (none: the demo router) and tool, from its one or
/// two positional arguments. One that names a component file is refused:
/// the tool is missing, not the component.
fn call_targets(targets: &[String]) -> anyhow::Result<(Option<PathBuf>, &str)> {
    match targets {
        [component, tool] => Ok((Some(PathBuf::from(component)), tool)),
        [only]
            if only.ends_with(".wasm")
                || only.ends_with(".cwasm")
                || std::path::Path::new(only).is_file()
                || matches!(ComponentSource::parse(only), Ok(ComponentSource::Registry(_))) =>
        {
            anyhow::bail!(
                "name the tool to call after the component: `mcp-wit call {only} TOOL` (`mcp-wit inspect {only}` lists them)"
            )
        }
        [tool] => Ok((None, tool)),
        _ => anyhow::bail!("give the component, then the tool: `mcp-wit call [COMPONENT] TOOL`"),
    }
}

/// A session with `component`, initialized as a client named `mcp-wit`;
/// returns it and the `initialize` result.
/// Who these commands say they are, as a client.
const CLIENT: (&str, &str) = ("mcp-wit", env!("CARGO_PKG_VERSION"));

/// A session spoken to in process, in one era.
struct Client {
    session: Session,
    version: ProtocolVersion,
}

/// Opens a session at `version`: `initialize` for a 2025 revision,
/// `server/discover` for 2026-07-28. Returns what the server says of itself
/// (`serverInfo`, `instructions`, `capabilities`).
fn open_session(
    component: LoadedRouter,
    version: ProtocolVersion,
    (checks, limits): (ToolChecks, &LimitSettings),
) -> anyhow::Result<(Client, serde_json::Value)> {
    let defaults = SessionOptions::default();
    let options = SessionOptions {
        validate_input: checks.validate_input(),
        validation_budget: checks.validation_budget(),
        max_output: limits.max_output.unwrap_or(defaults.max_output),
        ..defaults
    };
    let session = Session::new(component, options);
    let mut client = Client { session, version };
    if version.is_modern() {
        let discover = client.request(0, Method::Discover, None)?;
        let about = serde_json::json!({
            "serverInfo": discover["_meta"]["io.modelcontextprotocol/serverInfo"],
            "instructions": discover.get("instructions"),
            "capabilities": discover["capabilities"],
            "protocolVersion": version.as_str(),
        });
        return Ok((client, about));
    }
    let init = client.session.initialize_in_process(CLIENT, version).map_err(rpc_failure("initialize"))?;
    Ok((client, serde_json::from_str(init.get())?))
}

impl Client {
    /// Sends one request and returns its result. A 2026-07-28 request
    /// carries its envelope in `params._meta`, by which the session serves it
    /// as such.
    fn request(&mut self, id: u32, method: Method, params: Option<&RawValue>) -> anyhow::Result<serde_json::Value> {
        let enveloped;
        let params = if self.version.is_modern() {
            let mut value: serde_json::Value = match params {
                Some(p) => serde_json::from_str(p.get())?,
                None => serde_json::json!({}),
            };
            value["_meta"] = serde_json::json!({
                "io.modelcontextprotocol/protocolVersion": self.version.as_str(),
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": { "name": CLIENT.0, "version": CLIENT.1 },
            });
            enveloped = serde_json::value::to_raw_value(&value)?;
            Some(&*enveloped)
        } else {
            params
        };
        let id = RawValue::from_string(id.to_string())?;
        let mut notifications: Vec<Vec<u8>> = Vec::new();
        let result =
            self.session.call(&id, method, params, &mut notifications).map_err(rpc_failure(method.as_str()))?;
        Ok(serde_json::from_str(result.get())?)
    }
}

fn rpc_failure(method: &str) -> impl FnOnce(mcp_wit::RpcError) -> anyhow::Error + '_ {
    move |error| anyhow::anyhow!("{method} failed: {} ({})", error.message, error.code)
}

pub fn inspect(args: InspectArgs) -> anyhow::Result<()> {
    let settings = (args.checks, &args.limits);
    let component = load_one(args.component.as_deref(), &args.registry, &args.sandbox, settings)?;
    let kind = component.kind();
    let (mut client, init) = open_session(component, args.protocol, settings)?;
    let offers = |kind: &str| init["capabilities"].get(kind).is_some();
    // The items of one list (`key` in its result), of the capability `kind`.
    let list = |client: &mut Client, (kind, key): (&str, &str), id, method| -> anyhow::Result<serde_json::Value> {
        // A 2026-07-28 server answers lists of kinds it does not offer with -32601.
        if client.version.is_modern() && !offers(kind) {
            return Ok(serde_json::json!([]));
        }
        Ok(client.request(id, method, None)?[key].take())
    };
    let tools = list(&mut client, ("tools", "tools"), 1, Method::ListTools)?;
    let resources = list(&mut client, ("resources", "resources"), 2, Method::ListResources)?;
    let prompts = list(&mut client, ("prompts", "prompts"), 3, Method::ListPrompts)?;
    let templates = list(&mut client, ("resources", "resourceTemplates"), 4, Method::ListResourceTemplates)?;
    if args.json {
        let report = serde_json::json!({
            "kind": kind,
            "protocolVersion": init["protocolVersion"],
            "serverInfo": init["serverInfo"],
            "instructions": init.get("instructions"),
            "capabilities": init["capabilities"],
            "tools": tools,
            "resources": resources,
            "resourceTemplates": templates,
            "prompts": prompts,
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    let list = |v: &serde_json::Value| v.as_array().cloned().unwrap_or_default();
    println!("name          {}", text(&init["serverInfo"]["name"]));
    println!("kind          {kind}");
    if let Some(instructions) = init["instructions"].as_str() {
        println!("instructions  {instructions}");
    }
    let caps = init["capabilities"].as_object().map(|c| c.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
    println!("capabilities  {}", caps.join(", "));
    println!("\ntools ({})", list(&tools).len());
    for tool in list(&tools) {
        println!("  {:<24} {}", text(&tool["name"]), text(&tool["description"]));
        println!("  {:<24} input: {}", "", tool["inputSchema"]);
        if let Some(output) = tool.get("outputSchema") {
            println!("  {:<24} output: {output}", "");
        }
    }
    println!("\nresources ({})", list(&resources).len());
    for r in list(&resources) {
        println!("  {:<32} {:<16} {}", text(&r["uri"]), text(&r["name"]), text(&r["mimeType"]));
    }
    println!("\nresource templates ({})", list(&templates).len());
    for t in list(&templates) {
        println!("  {:<32} {:<16} {}", text(&t["uriTemplate"]), text(&t["name"]), text(&t["mimeType"]));
    }
    println!("\nprompts ({})", list(&prompts).len());
    for p in list(&prompts) {
        let arguments: Vec<String> = list(&p["arguments"]).iter().map(|a| text(&a["name"])).collect();
        println!("  {:<24} ({}) {}", text(&p["name"]), arguments.join(", "), text(&p["description"]));
    }
    Ok(())
}

pub fn call(args: CallArgs) -> anyhow::Result<()> {
    let arguments: serde_json::Value =
        serde_json::from_str(&args.args).with_context(|| format!("--args is not JSON: {}", args.args))?;
    anyhow::ensure!(arguments.is_object(), "--args must be a JSON object, like '{{\"text\":\"hi\"}}'");
    let (path, tool) = call_targets(&args.targets)?;
    let settings = (args.checks, &args.limits);
    let component = load_one(path.as_deref(), &args.registry, &args.sandbox, settings)?;
    let (mut client, _) = open_session(component, args.protocol, settings)?;
    #[derive(serde::Serialize)]
    struct CallParams<'a> {
        name: &'a str,
        arguments: &'a serde_json::Value,
    }
    let params = serde_json::value::to_raw_value(&CallParams { name: tool, arguments: &arguments })?;
    let result = client.request(1, Method::CallTool, Some(&params))?;
    println!("{}", serde_json::to_string_pretty(&result)?);
    anyhow::ensure!(result["isError"] != true, "the tool reported an error");
    Ok(())
}
