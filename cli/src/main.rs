//! The `mcp-wit` command line: a thin layer over the `mcp_wit` library.
//!
//! One module per command; `serve` reads its settings from flags and
//! `mcp-wit.toml` into one typed configuration ([`settings`], [`config_file`],
//! [`units`]), builds sandbox policies ([`sandbox_args`]) and hands the
//! loaded components to a transport. Logging is set up here, for the binary
//! only: the library just emits `tracing` events.

mod build;
mod config_file;
mod demo;
mod inspect;
mod new;
mod progress;
mod record;
mod reference;
mod registry;
mod replay;
mod sandbox_args;
mod serve;
mod settings;
mod telemetry;
mod units;
mod wrap;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use inspect::{CallArgs, CompileArgs, InspectArgs};
use new::NewArgs;
use serve::ServeArgs;

#[derive(Parser)]
#[command(name = "mcp-wit", version, about = "Serve MCP routers written as WebAssembly components")]
struct Cli {
    /// More log output on stderr (-v: debug, -vv: trace). `RUST_LOG` overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// How log lines on stderr are written: `text`, or `json` (one object
    /// per line: timestamp, level, target, message and fields), for log
    /// collectors.
    #[arg(long, value_enum, value_name = "FORMAT", global = true, default_value = "text")]
    log_format: LogFormat,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve a router component to one MCP client over stdio, or to many over HTTP.
    #[command(after_help = "Examples:\n  mcp-wit serve                     serve the built-in demo router\n  \
                            mcp-wit serve router.wasm         serve a component over stdio\n  \
                            mcp-wit serve router.wasm --http 8080   serve it at http://127.0.0.1:8080/mcp\n  \
                            mcp-wit serve a.wasm b.wasm --name b.wasm=bee\n                                    serve two routers as one (tools `a_…`, `bee_…`)\n  \
                            mcp-wit serve -f mcp-wit.toml     serve what the file says (flags override it)")]
    Serve(Box<ServeArgs>),
    /// Create a new router project from a template: Rust (the default),
    /// Python or TypeScript, with a tool, a resource, a prompt and a tool that
    /// talks back, written with the language's SDK.
    #[command(after_help = "Examples:\n  mcp-wit new weather-tools\n  \
                            mcp-wit new weather-tools --lang python\n  \
                            mcp-wit new weather-tools --lang typescript\n  \
                            cd weather-tools && mcp-wit build")]
    New(NewArgs),
    /// Build the router project in a directory with its language's
    /// toolchain (cargo, componentize-py, jco); prints the component's path.
    #[command(after_help = "Examples:\n  mcp-wit build                     the project here\n  \
                            mcp-wit build weather-tools && mcp-wit serve \"$(mcp-wit build weather-tools)\"")]
    Build(build::BuildArgs),
    /// Compile a component ahead of time into a `.cwasm` that `serve` loads
    /// without compiling (same mcp-wit version and machine type only).
    #[command(after_help = "Examples:\n  mcp-wit compile router.wasm -o router.cwasm\n  \
                            mcp-wit serve router.cwasm")]
    Compile(CompileArgs),
    /// Show what a component offers: name, instructions, capabilities,
    /// tools (with schemas), resources and prompts.
    #[command(after_help = "Examples:\n  mcp-wit inspect                   the built-in demo router\n  \
                      mcp-wit inspect router.wasm\n  mcp-wit inspect router.wasm --json | jq .tools")]
    Inspect(InspectArgs),
    /// Call one tool without a client, for scripts and debugging; prints the
    /// result as JSON. Exits 1 when the call fails or the result is an error.
    #[command(after_help = "Examples:\n  mcp-wit call router.wasm echo --args '{\"text\":\"hi\"}'\n  \
                            mcp-wit call hello --args '{\"name\":\"Ada\"}'   a tool of the built-in demo router")]
    Call(CallArgs),
    /// Wrap a router for engines that run components (wasmtime serve, wasmtime
    /// run, Spin, wasmCloud): one component that serves it over Streamable
    /// HTTP and stdio, importing only WASI and wasi:http.
    #[command(after_help = "Examples:\n  mcp-wit wrap router.wasm -o server.wasm\n  \
                            mcp-wit wrap -o server.wasm       the built-in demo router\n  \
                            wasmtime serve -Scli --addr 127.0.0.1:8080 server.wasm")]
    Wrap(wrap::WrapArgs),
    /// Print a recording (`serve --record FILE.mcp`) as JSON lines: one
    /// message per line, with its session, direction and time.
    #[command(after_help = "Examples:\n  mcp-wit log session.mcp\n  \
                            mcp-wit log session.mcp | jq 'select(.direction == \"in\") | .message.method'")]
    Log(record::LogArgs),
    /// Send a recording's client messages again, session by session, to
    /// routers in process, and compare every answer with the recorded one;
    /// exits 1 when any differs (a readable diff says where).
    #[command(after_help = "Examples:\n  mcp-wit serve router.wasm --record golden.mcp   record a session\n  \
                            mcp-wit replay golden.mcp router-v2.wasm          check the next version\n  \
                            mcp-wit replay golden.mcp router-v2.wasm --ignore result._meta\n  \
                            mcp-wit replay golden.mcp router-v2.wasm --update   accept the new answers")]
    Replay(Box<replay::ReplayArgs>),
    /// Fetch a component from an OCI registry into the local store and
    /// compile it; prints the reference pinned to its digest.
    #[command(after_help = "Examples:\n  mcp-wit pull ghcr.io/example/weather:1.0\n  \
                            mcp-wit serve \"$(mcp-wit pull ghcr.io/example/weather:1.0)\"   serve exactly what was pulled")]
    Pull(registry::PullArgs),
    /// Publish a component (or an Extism plugin) to an OCI registry in the
    /// Wasm OCI artifact layout; prints the reference pinned to its digest.
    #[command(
        after_help = "Examples:\n  mcp-wit push router.wasm ghcr.io/example/weather:1.0 --version 1.0 \\\n      \
                            --source https://github.com/example/weather --description 'Weather tools'"
    )]
    Push(registry::PushArgs),
    /// Sign a component in a registry with a cosign key: the signature goes
    /// to its `.sig` tag, as `cosign sign --key` puts it.
    #[command(
        after_help = "Examples:\n  COSIGN_PASSWORD=… mcp-wit sign ghcr.io/example/weather:1.0 --key cosign.key\n  \
                            mcp-wit serve ghcr.io/example/weather:1.0 --verify-key cosign.pub"
    )]
    Sign(registry::SignArgs),
    /// Show what a component's signatures prove: whether they satisfy
    /// --verify-key or --verify-identity, or each signature found.
    #[command(after_help = "Examples:\n  mcp-wit verify ghcr.io/example/weather:1.0 --verify-key cosign.pub\n  \
                            mcp-wit verify ghcr.io/example/weather:1.0 --verify-identity ci@example.com \\\n      \
                            --verify-issuer https://accounts.google.com\n  \
                            mcp-wit verify ghcr.io/example/weather:1.0         list the signatures")]
    Verify(registry::VerifyArgs),
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  mcp-wit completions bash > ~/.local/share/bash-completion/completions/mcp-wit\n  \
                            mcp-wit completions zsh > ~/.zfunc/_mcp-wit\n  \
                            mcp-wit completions fish > ~/.config/fish/completions/mcp-wit.fish"
    )]
    Completions(CompletionsArgs),
}

/// `--log-format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum LogFormat {
    Text,
    Json,
}

#[derive(clap::Args)]
struct CompletionsArgs {
    /// The shell.
    shell: clap_complete::Shell,
}

fn main() -> ExitCode {
    // Before any TLS client is made (guests' outgoing HTTPS among them).
    mcp_wit_registry::install_crypto_provider();
    let cli = Cli::parse();
    // Commands that print their answer (inspect, call) say only what goes
    // wrong unless asked for more; a server narrates.
    let quiet = matches!(cli.command, Command::Inspect(_) | Command::Call(_));
    let otlp = match &cli.command {
        Command::Serve(args) => Some(args.otlp_endpoint()),
        _ => None,
    };
    if let Err(e) = init_logging(cli.verbose, cli.log_format, quiet, otlp) {
        eprintln!("error: cannot export traces: {e:#}");
        return ExitCode::FAILURE;
    }
    let result = match cli.command {
        Command::Serve(args) => serve::serve(*args),
        Command::New(args) => new::new(args),
        Command::Build(args) => build::build(args),
        Command::Compile(args) => inspect::compile(args),
        Command::Inspect(args) => inspect::inspect(args),
        Command::Call(args) => inspect::call(args),
        Command::Wrap(args) => wrap::wrap(args),
        Command::Pull(args) => registry::pull(args),
        Command::Push(args) => registry::push(args),
        Command::Sign(args) => registry::sign(args),
        Command::Verify(args) => registry::verify(args),
        Command::Log(args) => record::log(args),
        Command::Replay(args) => replay::replay(*args),
        Command::Completions(args) => {
            clap_complete::generate(args.shell, &mut Cli::command(), "mcp-wit", &mut std::io::stdout());
            Ok(())
        }
    };
    telemetry::flush();
    // Logs still queued go out before the error, if any.
    mcp_wit::stderr::finish();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Logs on stderr (text or JSON lines) and, for a server with a collector
/// named (`otlp`: `Some` for `serve`, with its `--otlp-endpoint`), traces.
fn init_logging(verbose: u8, format: LogFormat, quiet: bool, otlp: Option<Option<&str>>) -> anyhow::Result<()> {
    use tracing_subscriber::Layer;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;

    let default = match (verbose, quiet) {
        (0, true) => "warn",
        (0, false) => "info",
        (1, _) => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        // The library, its protocol core and this binary (`mcp_wit` too).
        tracing_subscriber::EnvFilter::new(format!("mcp_wit={default},mcp_wit_protocol={default},warn"))
    });
    // `--secret` values masked in every line, whatever quotes them (see
    // `serve`, which gives them as it loads them).
    let writer = || mcp_wit::redact::MaskedWriter(mcp_wit::stderr::writer());
    let logs = tracing_subscriber::fmt::layer().with_writer(writer).with_ansi(false);
    let logs: Box<dyn Layer<tracing_subscriber::Registry> + Send + Sync> = match format {
        // Escaped: a client's name or a guest's text cannot forge a line.
        LogFormat::Text => {
            let format = mcp_wit::telemetry::EscapedText(tracing_subscriber::fmt::format());
            logs.event_format(format).with_filter(filter).boxed()
        }
        LogFormat::Json => {
            mcp_wit::stderr::set_json_lines(true);
            logs.json().flatten_event(true).with_filter(filter).boxed()
        }
    };
    let traces = match otlp {
        Some(flag) => telemetry::layer(flag)?,
        None => None,
    };
    tracing_subscriber::registry().with(logs).with(traces).init();
    Ok(())
}
