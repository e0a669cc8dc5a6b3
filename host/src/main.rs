//! The `mcp-wit` command line.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use mcp_wit::sandbox::DirGrant;
use mcp_wit::sandbox::guest_output::OutputTarget;
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
    /// Serve a router component to one MCP client over stdio.
    #[command(after_help = "Examples:\n  mcp-wit serve                     serve the built-in demo router\n  \
                            mcp-wit serve router.wasm         serve a component over stdio")]
    Serve(ServeArgs),
}

#[derive(clap::Args)]
struct ServeArgs {
    /// The component (`.wasm`) exporting `wasix:mcp/router@25.3.26`; the
    /// built-in demo when omitted.
    component: Option<PathBuf>,
    /// Longest accepted JSON-RPC message, in bytes.
    #[arg(long, default_value_t = stdio::DEFAULT_MAX_MESSAGE_SIZE)]
    max_message_size: usize,
    /// Page size for tools/resources/prompts lists (default: one page).
    #[arg(long)]
    page_size: Option<usize>,
    /// Where the guest's stdout and stderr go.
    #[arg(long, value_enum, default_value_t = GuestOutputArg::Stderr)]
    guest_output: GuestOutputArg,
    /// Grant an environment variable: `KEY=VALUE`, or `KEY` to pass the
    /// host's value. Repeatable. The guest sees no other variable.
    #[arg(long = "env", value_name = "KEY[=VALUE]")]
    env: Vec<String>,
    /// Grant a host directory: `HOST[:GUEST][:ro]`. Repeatable. The guest sees
    /// no other file.
    #[arg(long = "dir", value_name = "HOST[:GUEST][:ro]")]
    dirs: Vec<DirGrant>,
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
    }
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let engine = mcp_wit::runtime::engine::build_engine()
        .map_err(|e| anyhow::anyhow!("cannot set up the WebAssembly engine: {e:#}"))?;
    let output = match args.guest_output {
        GuestOutputArg::Stderr => OutputTarget::Stderr,
        GuestOutputArg::Discard => OutputTarget::Discard,
    };
    let label = match &args.component {
        Some(path) => path.file_stem().map_or_else(|| "guest".into(), |s| s.to_string_lossy().into_owned()),
        None => "hello".to_string(),
    };
    let policy = sandbox_policy(label, output, &args)?;
    let component = match &args.component {
        Some(path) => LoadedComponent::from_file(&engine, path, policy)?,
        None => {
            tracing::info!("no component given: serving the built-in demo router (`hello`)");
            LoadedComponent::from_bytes(&engine, DEMO_COMPONENT, policy)?
        }
    };
    let mut session = Session::new(component, SessionOptions { page_size: args.page_size });
    let options = StdioOptions { max_message_size: args.max_message_size };
    stdio::serve_stdio(&mut session, &options).context("stdio transport failed")
}

/// The sandbox from the grant flags; nothing is granted by default.
fn sandbox_policy(label: String, output: OutputTarget, args: &ServeArgs) -> anyhow::Result<SandboxPolicy> {
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
    for dir in &args.dirs {
        anyhow::ensure!(
            dir.host.is_dir(),
            "--dir {}: no such directory on the host (create it, or fix the path)",
            dir.host.display()
        );
        policy = policy.dir(dir.clone());
    }
    Ok(policy.build())
}
