//! The `mcp-wit` command line.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use std::time::Duration;

use mcp_wit::protocol::Routers;
use mcp_wit::protocol::session::InstanceMode;
use mcp_wit::runtime::cache::CompileCache;
use mcp_wit::runtime::engine::EngineOptions;
use mcp_wit::runtime::limits::Limits;
use mcp_wit::sandbox::guest_output::OutputTarget;
use mcp_wit::sandbox::outgoing_http::HttpGrant;
use mcp_wit::sandbox::{DirGrant, requirements};
use mcp_wit::transport::http::{self, HttpArgs};
use mcp_wit::transport::stdio::{self, StdioOptions};
use mcp_wit::{LoadedComponent, SandboxPolicy, Session, SessionOptions};

/// The demo router served when `serve` is given no component.
static DEMO_COMPONENT: &[u8] = include_bytes!(env!("MCP_WIT_DEMO_COMPONENT"));

#[derive(Parser)]
#[command(name = "mcp-wit", version, about = "Serve MCP routers written as WebAssembly components")]
struct Cli {
    /// More log output on stderr (-v: debug, -vv: trace). `RUST_LOG` overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve a router component to one MCP client over stdio, or to many over HTTP.
    #[command(after_help = "Examples:\n  mcp-wit serve                     serve the built-in demo router\n  \
                            mcp-wit serve router.wasm         serve a component over stdio\n  \
                            mcp-wit serve router.wasm --http 8080   serve it at http://127.0.0.1:8080/mcp\n  \
                            mcp-wit serve a.wasm b.wasm --name b.wasm=bee\n                                    serve two routers as one (tools `a_…`, `bee_…`)")]
    Serve(ServeArgs),
    /// Compile a component ahead of time into a `.cwasm` that `serve` loads
    /// without compiling (same mcp-wit version and machine type only).
    #[command(after_help = "Examples:\n  mcp-wit compile router.wasm -o router.cwasm\n  \
                            mcp-wit serve router.cwasm")]
    Compile(CompileArgs),
    /// Show what a component offers: name, instructions, capabilities,
    /// tools (with schemas), resources and prompts.
    #[command(
        after_help = "Examples:\n  mcp-wit inspect router.wasm\n  mcp-wit inspect router.wasm --json | jq .tools"
    )]
    Inspect(InspectArgs),
    /// Call one tool without a client, for scripts and debugging; prints the
    /// result as JSON. Exits 1 when the call fails or the result is an error.
    #[command(after_help = "Examples:\n  mcp-wit call router.wasm echo --args '{\"text\":\"hi\"}'")]
    Call(CallArgs),
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  mcp-wit completions bash > ~/.local/share/bash-completion/completions/mcp-wit\n  \
                            mcp-wit completions zsh > ~/.zfunc/_mcp-wit\n  \
                            mcp-wit completions fish > ~/.config/fish/completions/mcp-wit.fish"
    )]
    Completions(CompletionsArgs),
}

/// What a guest may reach (nothing unless granted).
#[derive(clap::Args)]
#[command(next_help_heading = "Sandbox")]
struct SandboxArgs {
    /// Where the guest's stdout and stderr go.
    #[arg(long, value_enum, default_value_t = GuestOutputArg::Stderr)]
    guest_output: GuestOutputArg,
    /// Grant an environment variable: `KEY=VALUE`, or `KEY` to pass the
    /// host's value. Repeatable. The guest sees no other variable.
    #[arg(long = "env", value_name = "KEY[=VALUE]")]
    env: Vec<String>,
    /// Supply a configuration value a tool declares (`tool-meta.config`);
    /// the guest reads it as an environment variable. Repeatable.
    #[arg(long = "config", value_name = "KEY=VALUE")]
    config: Vec<String>,
    /// Supply a secret a tool declares (`tool-meta.secrets`): `KEY` takes the
    /// host's variable `KEY`, `KEY=@FILE` reads a file. The guest reads it as
    /// an environment variable; it is never logged. Repeatable.
    #[arg(long = "secret", value_name = "KEY[=@FILE]")]
    secrets: Vec<String>,
    /// Grant a host directory: `HOST[:GUEST][:ro]`. Repeatable. The guest sees
    /// no other file.
    #[arg(long = "dir", value_name = "HOST[:GUEST][:ro]")]
    dirs: Vec<DirGrant>,
    /// Allow outgoing HTTP(S) requests (`wasi:http`) to `HOST[:PORT]`:
    /// `api.example.com` (ports 80/443), `localhost:8080`, `*.example.com`,
    /// `HOST:*` (any port). Repeatable. Every other destination is refused.
    #[arg(long = "allow-http", value_name = "HOST[:PORT]")]
    allow_http: Vec<HttpGrant>,
}

#[derive(clap::Args)]
struct InspectArgs {
    /// The component (`.wasm` or `.cwasm`).
    component: PathBuf,
    /// Print JSON (what an MCP client would see) instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    sandbox: SandboxArgs,
}

#[derive(clap::Args)]
struct CallArgs {
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
struct CompletionsArgs {
    /// The shell.
    shell: clap_complete::Shell,
}

#[derive(clap::Args)]
struct CompileArgs {
    /// The component (`.wasm`) to compile.
    component: PathBuf,
    /// Where to write the compiled component.
    #[arg(short, long)]
    output: PathBuf,
}

#[derive(clap::Args)]
struct ServeArgs {
    /// The components (`.wasm` or `.cwasm`) exporting
    /// `wasix:mcp/router@25.3.26`; the built-in demo when omitted. Several
    /// are served as one server, each under a prefix.
    components: Vec<PathBuf>,
    /// The prefix of a component when several are served (`FILE=PREFIX`,
    /// repeatable); default: the router's own `name()`.
    #[arg(long = "name", value_name = "FILE=PREFIX")]
    names: Vec<String>,
    /// Longest accepted JSON-RPC message, in bytes.
    #[arg(long, default_value_t = stdio::DEFAULT_MAX_MESSAGE_SIZE)]
    max_message_size: usize,
    /// Page size for tools/resources/prompts lists (default: one page).
    #[arg(long)]
    page_size: Option<usize>,
    #[command(flatten)]
    sandbox: SandboxArgs,
    /// Wall-clock budget of one guest call (e.g. `30s`, `500ms`); on expiry
    /// the caller gets -32603 and the instance is replaced.
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    timeout: Duration,
    /// Memory cap of one guest instance (e.g. `256MiB`); growing past it traps.
    #[arg(long, default_value = "256MiB", value_parser = parse_size)]
    max_memory: usize,
    /// Largest result a guest may return (e.g. `16MiB`); a larger one is
    /// replaced by -32603.
    #[arg(long, default_value = "16MiB", value_parser = parse_size)]
    max_output: usize,
    /// How guest instances map onto sessions.
    #[arg(long, value_enum, default_value_t = InstancesArg::PerSession)]
    instances: InstancesArg,
    /// Where compiled components are cached (default: the user cache
    /// directory, e.g. ~/.cache/mcp-wit).
    #[arg(long, env = "MCP_WIT_CACHE_DIR")]
    cache_dir: Option<PathBuf>,
    /// Compile without reading or writing the cache.
    #[arg(long)]
    no_cache: bool,
    #[command(flatten)]
    http: Box<HttpArgs>,
}

#[derive(Clone, Copy, ValueEnum)]
enum InstancesArg {
    /// One instance per session; guest state lives across its calls.
    PerSession,
    /// A fresh instance for every request; nothing survives a call.
    PerRequest,
    /// One instance for all sessions; calls are serialised.
    Shared,
}

impl From<InstancesArg> for InstanceMode {
    fn from(arg: InstancesArg) -> Self {
        match arg {
            InstancesArg::PerSession => InstanceMode::PerSession,
            InstancesArg::PerRequest => InstanceMode::PerRequest,
            InstancesArg::Shared => InstanceMode::Shared,
        }
    }
}

/// Parses `30s`, `1.5s`, `500ms`, `2m`.
fn parse_duration(text: &str) -> Result<Duration, String> {
    humantime::parse_duration(text).map_err(|e| format!("`{text}` is not a duration like 30s or 500ms ({e})"))
}

/// Parses `1048576`, `512KiB`, `256MiB`, `1GiB` (also `K`, `M`, `G`, `KB`, `MB`, `GB` as powers of 1024).
fn parse_size(text: &str) -> Result<usize, String> {
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(format!("`{text}`: unknown unit (use KiB, MiB or GiB)")),
    };
    let n: usize = number.parse().map_err(|_| format!("`{text}` is not a size like 256MiB"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("`{text}` is too large"))
}

#[derive(Clone, Copy, ValueEnum)]
enum GuestOutputArg {
    /// The host's stderr, each line prefixed with the component's name.
    Stderr,
    /// Dropped.
    Discard,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.verbose);
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "info",
        1 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(format!("mcp_wit={default},warn")));
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(false).init();
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(args) => serve(args),
        Command::Compile(args) => compile(args),
        Command::Inspect(args) => inspect(args),
        Command::Call(args) => call(args),
        Command::Completions(args) => {
            use clap::CommandFactory;
            clap_complete::generate(args.shell, &mut Cli::command(), "mcp-wit", &mut std::io::stdout());
            Ok(())
        }
    }
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    // Pool slots for every instance that can be alive at once: one per
    // session and component, plus transient ones (start-up checks, a fault's
    // replacement).
    let components = args.components.len().max(1);
    let sessions = match (args.http.http.is_some(), args.http.stateless) {
        (false, _) => 1,
        (true, false) => args.http.max_sessions,
        (true, true) => args.http.max_connections,
    };
    let max_instances = u32::try_from((sessions + 8) * components + 8).unwrap_or(u32::MAX);
    let engine_options = EngineOptions { max_memory: args.max_memory, max_instances, ..EngineOptions::default() };
    let engine = mcp_wit::runtime::engine::build_engine_with(&engine_options)
        .map_err(|e| anyhow::anyhow!("cannot set up the WebAssembly engine: {e:#}"))?;
    let cache = match (&args.cache_dir, args.no_cache) {
        (_, true) => None,
        (Some(dir), false) => Some(CompileCache::new(dir)),
        (None, false) => CompileCache::default_dir().map(CompileCache::new),
    };
    let limits = Limits { timeout: args.timeout, max_memory: args.max_memory };
    let mut prefixes = parse_names(&args.names, &args.components)?;
    let mut mounted = Vec::new();
    for path in &args.components {
        let label = path.file_stem().map_or_else(|| "guest".into(), |s| s.to_string_lossy().into_owned());
        let policy = sandbox_policy(label, &args.sandbox)?;
        let component = LoadedComponent::load(&engine, path, policy, cache.as_ref())
            .with_context(|| format!("cannot serve {}", path.display()))?
            .with_limits(limits);
        report_requirements(&component)?;
        let prefix = match prefixes.remove(path) {
            Some(prefix) => prefix,
            None if args.components.len() > 1 => default_prefix(&component)?,
            None => String::new(),
        };
        mounted.push((prefix, component));
    }
    if mounted.is_empty() {
        tracing::info!("no component given: serving the built-in demo router (`hello`)");
        let policy = sandbox_policy("hello".into(), &args.sandbox)?;
        let demo = LoadedComponent::from_bytes(&engine, DEMO_COMPONENT, policy)?.with_limits(limits);
        mounted.push((String::new(), demo));
    }
    let mut seen = std::collections::HashMap::new();
    for ((prefix, _), path) in mounted.iter().zip(&args.components) {
        if let Some(first) = seen.insert(prefix.clone(), path) {
            anyhow::bail!(
                "{} and {} would both be served under the prefix `{prefix}`; give one another prefix with --name {}=PREFIX",
                first.display(),
                path.display(),
                path.display()
            );
        }
    }
    let component = Routers::new(mounted)?;
    component.check_collisions().map_err(|e| anyhow::anyhow!("{e}"))?;
    let session_options =
        SessionOptions { page_size: args.page_size, max_output: args.max_output, instances: args.instances.into() };
    if let Some(options) = args.http.options(args.max_message_size)? {
        return http::serve_http(component, session_options, options).context("HTTP transport failed");
    }
    let mut session = Session::new(component, session_options);
    let options = StdioOptions { max_message_size: args.max_message_size };
    stdio::serve_stdio(&mut session, &options).context("stdio transport failed")
}

fn compile(args: CompileArgs) -> anyhow::Result<()> {
    let engine = mcp_wit::runtime::engine::build_engine()
        .map_err(|e| anyhow::anyhow!("cannot set up the WebAssembly engine: {e:#}"))?;
    let wasm = std::fs::read(&args.component).with_context(|| format!("cannot read {}", args.component.display()))?;
    let started = std::time::Instant::now();
    let compiled = mcp_wit::runtime::compile(&engine, &wasm)?;
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
        mcp_wit::runtime::engine::build_engine_with(&EngineOptions { max_instances: 8, ..EngineOptions::default() })
            .map_err(|e| anyhow::anyhow!("cannot set up the WebAssembly engine: {e:#}"))?;
    let label = path.file_stem().map_or_else(|| "guest".into(), |s| s.to_string_lossy().into_owned());
    let cache = CompileCache::default_dir().map(CompileCache::new);
    let policy = sandbox_policy(label, sandbox)?;
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

fn inspect(args: InspectArgs) -> anyhow::Result<()> {
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

fn call(args: CallArgs) -> anyhow::Result<()> {
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

/// Warns (naming tool and key) about each config or secret a tool needs that
/// was not supplied; the other tools are served regardless.
fn report_requirements(component: &LoadedComponent) -> anyhow::Result<()> {
    let declared = requirements::declared(component)
        .map_err(|fault| anyhow::anyhow!("cannot list the tools of `{}`: {}", component.label(), fault.message))?;
    let supplied: Vec<&str> = component.policy().env().iter().map(|(k, _)| k.as_str()).collect();
    for missing in requirements::missing(&declared, &supplied) {
        if missing.required {
            tracing::warn!(component = component.label(), "missing: {missing}");
        } else {
            tracing::debug!(component = component.label(), "not supplied: {missing}");
        }
    }
    Ok(())
}

/// `--name FILE=PREFIX` flags by the component path they name.
fn parse_names(names: &[String], components: &[PathBuf]) -> anyhow::Result<std::collections::HashMap<PathBuf, String>> {
    let mut prefixes = std::collections::HashMap::new();
    for spec in names {
        let (file, prefix) = spec.split_once('=').with_context(|| format!("--name {spec}: expected FILE=PREFIX"))?;
        let path = PathBuf::from(file);
        anyhow::ensure!(
            components.contains(&path),
            "--name {spec}: `{file}` is not one of the components given ({})",
            components.iter().map(|c| c.display().to_string()).collect::<Vec<_>>().join(", ")
        );
        prefixes.insert(path, prefix.to_string());
    }
    Ok(prefixes)
}

/// A component's prefix when none is given: its router name, made safe
/// (letters, digits and `-`).
fn default_prefix(component: &LoadedComponent) -> anyhow::Result<String> {
    let name = component
        .instantiate()
        .and_then(|mut instance| instance.name())
        .map_err(|fault| anyhow::anyhow!("cannot ask `{}` for its name: {}", component.label(), fault.message))?;
    let prefix: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '-' }).collect();
    anyhow::ensure!(!prefix.is_empty(), "`{}` has an empty name(); give it a prefix with --name", component.label());
    Ok(prefix)
}

/// The sandbox from the grant flags; nothing is granted by default.
fn sandbox_policy(label: String, args: &SandboxArgs) -> anyhow::Result<SandboxPolicy> {
    let output = match args.guest_output {
        GuestOutputArg::Stderr => OutputTarget::Stderr,
        GuestOutputArg::Discard => OutputTarget::Discard,
    };
    let mut policy = SandboxPolicy::builder(label).guest_output(output);
    for spec in &args.env {
        let (key, value) = match spec.split_once('=') {
            Some((key, value)) => (key.to_string(), value.to_string()),
            None => {
                let value = std::env::var(spec)
                    .with_context(|| format!("--env {spec}: the host has no such variable; pass --env {spec}=VALUE"))?;
                (spec.clone(), value)
            }
        };
        anyhow::ensure!(!key.is_empty(), "--env {spec}: the variable name is empty");
        policy = policy.env(key, value);
    }
    for spec in &args.config {
        let (key, value) = spec.split_once('=').with_context(|| format!("--config {spec}: expected KEY=VALUE"))?;
        anyhow::ensure!(!key.is_empty(), "--config {spec}: the key is empty");
        policy = policy.env(key, value);
    }
    for spec in &args.secrets {
        let (key, value) = match spec.split_once("=@") {
            Some((key, file)) => {
                let value = std::fs::read_to_string(file)
                    .with_context(|| format!("--secret {key}: cannot read the file {file}"))?;
                (key, value.trim_end_matches(['\n', '\r']).to_string())
            }
            None => {
                let value = std::env::var(spec).with_context(|| {
                    format!("--secret {spec}: the host has no variable {spec}; set it, or pass --secret {spec}=@FILE")
                })?;
                (spec.as_str(), value)
            }
        };
        anyhow::ensure!(!key.is_empty(), "--secret {spec}: the key is empty");
        policy = policy.env(key, value);
    }
    for dir in &args.dirs {
        anyhow::ensure!(
            dir.host.is_dir(),
            "--dir {}: no such directory on the host (create it, or fix the path)",
            dir.host.display()
        );
        policy = policy.dir(dir.clone());
    }
    for grant in &args.allow_http {
        policy = policy.allow_http(grant.clone());
    }
    Ok(policy.build())
}
