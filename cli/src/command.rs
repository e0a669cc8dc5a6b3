//! The command line: its commands and global flags (clap's definitions), and
//! the one place each command is run.

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::config_file::Logging;
use crate::inspect::{self, CallArgs, CompileArgs, InspectArgs};
use crate::logging::{self, LogFormat};
use crate::new::{self, NewArgs};
use crate::serve::{self, ServeArgs};
use crate::{build, record, registry, replay, telemetry, wrap};

#[derive(Parser)]
#[command(name = "mcp-wit", version, about = "Serve MCP routers written as WebAssembly components")]
pub struct Cli {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(subcommand)]
    command: Command,
}

/// The flags every command takes.
#[derive(Args)]
pub(crate) struct GlobalArgs {
    /// More log output on stderr (-v: debug, -vv: trace). `RUST_LOG` overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// How log lines on stderr are written: `text`, or `json` (one object
    /// per line: timestamp, level, target, message and fields), for log
    /// collectors [default: text].
    #[arg(long, value_enum, value_name = "FORMAT", global = true)]
    log_format: Option<LogFormat>,
}

impl GlobalArgs {
    /// Logs as these flags say, over what `serve`'s file says (`file`).
    pub(crate) fn start_logging(&self, file: Option<&Logging>, quiet: bool, traces: Option<logging::Traces>) {
        let format = self.log_format.or(file.and_then(|file| file.format)).unwrap_or(LogFormat::Text);
        let verbose = self.verbose.max(file.and_then(|file| file.verbose).unwrap_or(0));
        logging::init(verbose, format, quiet, traces);
    }
}

/// `args` (an `mcp-wit` command line) as a `serve` line, parsed with the
/// global flags and `serve`'s alone; `None` for anything they do not take
/// (help, a mistake, another command).
pub(crate) fn parse_serve_line(args: &[OsString]) -> Option<(GlobalArgs, ServeArgs)> {
    let matches = Cli::serve_parser().try_get_matches_from(args).ok()?;
    let global = GlobalArgs::from_arg_matches(&matches).ok()?;
    let serve = ServeArgs::from_arg_matches(matches.subcommand_matches("serve")?).ok()?;
    Some((global, serve))
}

impl Cli {
    /// The command line `args`, as [`Parser::parse_from`] reads it. A
    /// `serve` line is first given to a parser of `serve`'s flags alone:
    /// clap builds every command's flags, with their help, before it
    /// parses, and a server's start need not (a tenth of a millisecond of a
    /// three-millisecond cached start). What that parser does not take
    /// (help, a mistake) goes to the whole one, which prints what it always did.
    fn parse_args(args: Vec<OsString>) -> Cli {
        let serve = args.get(1).is_some_and(|first| first == "serve");
        serve.then(|| Self::serve_alone(&args)).flatten().unwrap_or_else(|| Cli::parse_from(args))
    }

    /// `args` as a `serve` line ([`parse_serve_line`]); `None` for anything
    /// it does not take.
    fn serve_alone(args: &[OsString]) -> Option<Cli> {
        let (global, serve) = parse_serve_line(args)?;
        Some(Cli { global, command: Command::Serve(Box::new(serve)) })
    }

    /// The global flags, and the `serve` command with its flags alone.
    fn serve_parser() -> clap::Command {
        let serve = ServeArgs::augment_args(clap::Command::new("serve"));
        GlobalArgs::augment_args(clap::Command::new("mcp-wit")).subcommand(serve)
    }
}

#[derive(Subcommand)]
enum Command {
    /// Serve a router component to one MCP client over stdio, or to many over HTTP.
    #[command(after_help = "Examples:\n  mcp-wit serve                     serve the built-in demo router\n  \
                            mcp-wit serve router.wasm         serve a component over stdio\n  \
                            mcp-wit serve router.wasm --http 8080   serve it at http://127.0.0.1:8080/mcp\n  \
                            mcp-wit serve a.wasm b.wasm --name b.wasm=bee\n                                    serve two routers as one (tools `a_…`, `bee_…`)\n  \
                            mcp-wit serve -f mcp-wit.toml     serve what the file says (flags override it)\n  \
                            mcp-wit-serve router.wasm         the same over stdio, from the serving executable, which\n                                    \
                            starts sooner and hands the rest to `mcp-wit serve`")]
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
    /// Make a key pair for `sign` and `--verify-key`, as `cosign
    /// generate-key-pair` does: `cosign.key` (encrypted with
    /// `COSIGN_PASSWORD`) and `cosign.pub`.
    #[command(after_help = "Examples:\n  COSIGN_PASSWORD=… mcp-wit keygen\n  \
                            mcp-wit keygen --output-key-prefix release      release.key, release.pub")]
    Keygen(registry::KeygenArgs),
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

#[derive(clap::Args)]
struct CompletionsArgs {
    /// The shell.
    shell: clap_complete::Shell,
}

/// A command that prints (`inspect`, `call`, `log`, …) ends as other Unix
/// tools do when its reader goes away (`mcp-wit log x.mcp | head`): killed
/// by `SIGPIPE`, quietly, where Rust's default (the signal ignored) makes
/// the next `println!` panic. `serve` keeps the default: a client that
/// closes its end of stdio is a session's ordinary end, handled as an error.
fn end_quietly_on_a_closed_pipe() {
    #[cfg(unix)]
    {
        use nix::sys::signal::{SigHandler, Signal, signal};
        // SAFETY: the default disposition runs no handler of ours, and it is
        // set before the command starts any thread.
        let _ = unsafe { signal(Signal::SIGPIPE, SigHandler::SigDfl) };
    }
}

/// Runs the command line's command, logging set up as its flags say.
pub fn run() -> ExitCode {
    // Before any TLS client is made (guests' outgoing HTTPS among them).
    mcp_wit_registry::install_crypto_provider();
    let cli = Cli::parse_args(std::env::args_os().collect());
    if !matches!(cli.command, Command::Serve(_)) {
        end_quietly_on_a_closed_pipe();
    }
    // Commands that print their answer (inspect, call) say only what goes
    // wrong unless asked for more; a server narrates.
    let quiet = matches!(cli.command, Command::Inspect(_) | Command::Call(_));
    // `serve -f FILE`: the file may say how to log, read before the rest.
    let file = match &cli.command {
        Command::Serve(args) => Some(args.logging()),
        _ => None,
    };
    let traces = match &file {
        Some(file) => match telemetry::layer(file.otlp_endpoint.as_deref()) {
            Ok(layer) => layer.map(|layer| Box::new(layer) as logging::Traces),
            Err(e) => {
                eprintln!("error: cannot export traces: {e:#}");
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    cli.global.start_logging(file.as_ref(), quiet, traces);
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
        Command::Keygen(args) => registry::keygen(args),
        Command::Verify(args) => registry::verify(args),
        Command::Log(args) => record::log(args),
        Command::Replay(args) => replay::replay(*args),
        Command::Completions(args) => {
            clap_complete::generate(args.shell, &mut Cli::command(), "mcp-wit", &mut std::io::stdout());
            Ok(())
        }
    };
    telemetry::flush();
    ended(result)
}

/// The exit of a command that ended with `result`: logs still queued go out
/// before the error, if any.
pub(crate) fn ended(result: anyhow::Result<()>) -> ExitCode {
    mcp_wit::stderr::finish();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    /// What `serve` was given, as a parser of `command`'s shape reads `line`.
    fn serve_matches(command: clap::Command, line: &str) -> clap::ArgMatches {
        let matches = command.try_get_matches_from(words(line)).unwrap_or_else(|e| panic!("{line}: {e}"));
        matches.subcommand_matches("serve").expect("a serve line").clone()
    }

    #[test]
    fn a_serve_line_reads_alone_as_it_reads_whole() {
        for line in [
            "mcp-wit serve",
            "mcp-wit serve a.wasm",
            "mcp-wit -vv serve a.wasm --log-format json",
            "mcp-wit serve a.wasm b.wasm --name b.wasm=bee -v --http 8080 --max-memory 64MiB --timeout 5s",
            "mcp-wit serve -f mcp-wit.toml --dir ./data:/data:ro --env KEY=value --guest-output discard",
            "mcp-wit serve a.wasm --log-requests=false --cache-dir /tmp/cache -- b.wasm",
        ] {
            assert_eq!(serve_matches(Cli::serve_parser(), line), serve_matches(Cli::command(), line), "{line}");
            let alone = Cli::serve_alone(&words(line)).expect(line);
            let whole = Cli::try_parse_from(words(line)).expect(line);
            assert_eq!(
                (alone.global.verbose, alone.global.log_format),
                (whole.global.verbose, whole.global.log_format),
                "{line}"
            );
            assert!(matches!(alone.command, Command::Serve(_)));
        }
    }

    #[test]
    fn help_mistakes_and_other_commands_are_left_to_the_whole_parser() {
        for line in [
            "mcp-wit serve --help",
            "mcp-wit serve --no-such-flag",
            "mcp-wit serve a.wasm --max-memory lots",
            "mcp-wit inspect a.wasm",
            "mcp-wit --version",
        ] {
            assert!(Cli::serve_alone(&words(line)).is_none(), "{line}");
        }
    }
}
