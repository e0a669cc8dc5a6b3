//! The serving executable, `mcp-wit-serve`: `serve` over stdio, with the
//! same flags, file and code, in an executable that links neither the
//! compiler, the HTTP transports (its guests' or its own), the registry
//! client, the trace exporter nor Extism plugins, and so starts sooner: a
//! client that starts its server for each session waits for that start
//! every time (bench/results/2026-11-30-serving-executable).
//!
//! What it does not serve it hands, before it reads a message, to `mcp-wit
//! serve` with the same command line: this process becomes that one
//! (`exec`), and the client sees one server.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use mcp_wit_registry::ComponentSource;

use crate::command;
use crate::config_file::{ConfigFile, Logging};
use crate::registry::RegistryArgs;
use crate::serve::{Resolve, ServeArgs, load_for_stdio, over_stdio};
use crate::settings::MetricsSetting;
use crate::telemetry;

/// Runs `mcp-wit-serve ARGS` as `mcp-wit serve ARGS`, serving over stdio
/// what it can and handing the rest to `mcp-wit serve`.
pub fn run_serve_only() -> ExitCode {
    // With `outgoing-http`, guests make TLS clients: the process's provider
    // first. (Without it nothing here speaks TLS: no provider is linked.)
    #[cfg(feature = "outgoing-http")]
    mcp_wit_registry::install_crypto_provider();
    let given: Vec<OsString> = std::env::args_os().collect();
    let Some((global, args)) = command::parse_serve_line(&serve_line(&given)) else {
        // Help, a mistake: `mcp-wit serve` says it as it always has.
        return hand_off(&given, "this command line");
    };
    // The file read once, for how to log and for what goes over.
    let file = given_file(&args);
    let logging = args.logging_over(file.as_ref().map(ConfigFile::logging_said).unwrap_or_default());
    if let Some(reason) = file.and_then(|file| hand_off_reason(&args, file, &logging)) {
        return hand_off(&given, reason);
    }
    global.start_logging(Some(&logging), false, None);
    let resolve: Resolve = RegistryArgs::resolve_file;
    let loaded = match load_for_stdio(&args, resolve) {
        Ok(loaded) => loaded,
        Err(e) if beyond_this_build(&e) => {
            tracing::debug!("{e:#}");
            mcp_wit::stderr::finish();
            return hand_off(&given, "a guest it does not load");
        }
        Err(e) => return command::ended(Err(e)),
    };
    command::ended(over_stdio(args, loaded, resolve))
}

/// `mcp-wit-serve ARGS` as the `mcp-wit serve ARGS` it stands for.
fn serve_line(given: &[OsString]) -> Vec<OsString> {
    let mut line = vec![OsString::from("mcp-wit"), OsString::from("serve")];
    line.extend(given.iter().skip(1).cloned());
    line
}

/// The file `args` name (an empty one when none); `None` when it cannot
/// be read: loading it says what is wrong, as `mcp-wit serve` would.
fn given_file(args: &ServeArgs) -> Option<ConfigFile> {
    match &args.file {
        Some(path) => ConfigFile::read(path).ok(),
        None => Some(ConfigFile::default()),
    }
}

/// What in `args` and their `file` this executable does not serve, if
/// anything.
fn hand_off_reason(args: &ServeArgs, file: ConfigFile, logging: &Logging) -> Option<&'static str> {
    if telemetry::exports_traces(logging.otlp_endpoint.as_deref()) {
        return Some("exporting traces");
    }
    let settings = args.settings.clone().over(file.settings);
    if settings.http.listen.is_some() {
        return Some("serving over HTTP");
    }
    if matches!(settings.telemetry.metrics_for(None), MetricsSetting::At(_)) {
        return Some("a metrics listener");
    }
    // Following the files means compiling what changes.
    if settings.watch == Some(true) {
        return Some("--watch");
    }
    let named = match args.components.is_empty() {
        true => file.components.iter().map(|section| section.path.clone()).collect(),
        false => args.components.clone(),
    };
    let pulled =
        |path: &PathBuf| matches!(ComponentSource::parse(&path.to_string_lossy()), Ok(ComponentSource::Registry(_)));
    named.iter().any(pulled).then_some("a component from a registry")
}

/// Whether `error` is a guest this build does not load: a component its
/// cache lacks (no compiler), a core module (an Extism plugin), a component
/// that imports `wasi:http` or serves MCP over it (unless built with
/// `outgoing-http`). Each is known before anything is served; in a build
/// that has the part, the same errors are the guest's own, and `mcp-wit
/// serve` says so.
fn beyond_this_build(error: &anyhow::Error) -> bool {
    use mcp_wit::LoadError;
    let beyond = |cause: &(dyn std::error::Error + 'static)| {
        matches!(
            cause.downcast_ref::<LoadError>(),
            Some(
                LoadError::NoCompiler { .. }
                    | LoadError::CoreModule
                    | LoadError::Link(_)
                    | LoadError::ShapeNotServed { .. }
            )
        )
    };
    error.chain().any(beyond)
}

/// Becomes `mcp-wit serve` with the command line `given` (this
/// executable's), for `reason`.
fn hand_off(given: &[OsString], reason: &str) -> ExitCode {
    let full = full_executable();
    let mut command = std::process::Command::new(&full);
    command.arg("serve").args(given.iter().skip(1));
    #[cfg(unix)]
    let failed = std::os::unix::process::CommandExt::exec(&mut command);
    #[cfg(not(unix))]
    let failed = match command.status() {
        Ok(status) => return ExitCode::from(status.code().map_or(1, |code| code as u8)),
        Err(e) => e,
    };
    eprintln!(
        "error: mcp-wit-serve hands {reason} to `mcp-wit serve`, and cannot run {}: {failed} (install mcp-wit \
         beside mcp-wit-serve, or on PATH)",
        full.display()
    );
    ExitCode::FAILURE
}

/// `mcp-wit` beside this executable, else the one on `PATH`.
fn full_executable() -> PathBuf {
    let name = format!("mcp-wit{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe().ok().and_then(|exe| Some(exe.parent()?.join(&name)));
    beside.filter(|path| path.is_file()).unwrap_or_else(|| PathBuf::from(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(line: &str) -> Option<&'static str> {
        let given: Vec<OsString> = line.split_whitespace().map(OsString::from).collect();
        let (_, args) = command::parse_serve_line(&serve_line(&given)).expect(line);
        hand_off_reason(&args, given_file(&args).expect("a readable file"), &args.logging())
    }

    #[test]
    fn stdio_from_files_is_served_here() {
        for line in [
            "mcp-wit-serve a.wasm",
            "mcp-wit-serve a.wasm b.cwasm --name b.cwasm=bee --timeout 5s --dir ./data:/data:ro",
            "mcp-wit-serve -v a.wasm --metrics on --log-format json",
            "mcp-wit-serve",
        ] {
            assert_eq!(reason(line), None, "{line}");
        }
    }

    #[test]
    fn the_rest_goes_to_mcp_wit_serve() {
        for (line, expected) in [
            ("mcp-wit-serve a.wasm --http 8080", "serving over HTTP"),
            ("mcp-wit-serve a.wasm --metrics 127.0.0.1:9464", "a metrics listener"),
            ("mcp-wit-serve a.wasm --watch", "--watch"),
            ("mcp-wit-serve oci://127.0.0.1:5000/tools/echo:1", "a component from a registry"),
            ("mcp-wit-serve a.wasm --otlp-endpoint http://127.0.0.1:4318", "exporting traces"),
        ] {
            assert_eq!(reason(line), Some(expected), "{line}");
        }
    }

    #[test]
    fn guests_a_build_lacks_the_parts_for_go_to_mcp_wit_serve() {
        use mcp_wit::LoadError;
        let loading = |error: LoadError| anyhow::Error::new(error).context("cannot serve a.wasm");
        assert!(beyond_this_build(&loading(LoadError::NoCompiler { refused: None })));
        assert!(beyond_this_build(&loading(LoadError::CoreModule)));
        let http_server = LoadError::ShapeNotServed { shape: "an HTTP server", exports: Vec::new() };
        assert!(beyond_this_build(&loading(http_server)));
        // The settings' own mistakes are told here.
        assert!(!beyond_this_build(&anyhow::anyhow!("--name b.wasm=bee: `b.wasm` is not one of the components")));
    }

    #[test]
    fn what_the_file_says_counts_as_the_flags_do() {
        let dir = tempfile::tempdir().unwrap();
        for (body, expected) in [
            ("[http]\nlisten = \"127.0.0.1:0\"\n[[component]]\npath = \"a.wasm\"", Some("serving over HTTP")),
            ("[[component]]\npath = \"oci://127.0.0.1:5000/echo:1\"", Some("a component from a registry")),
            ("[[component]]\npath = \"a.wasm\"", None),
        ] {
            let file = dir.path().join("mcp-wit.toml");
            std::fs::write(&file, body).unwrap();
            assert_eq!(reason(&format!("mcp-wit-serve -f {}", file.display())), expected, "{body}");
        }
    }
}
