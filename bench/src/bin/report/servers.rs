//! The servers under test: `mcp-wit serve` (the host measured, with or
//! without its compile cache), rmcp and the floor, and their release build.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, ensure};
use mcp_wit_bench::http::{self};

/// One server under test.
pub(crate) struct Server {
    pub(crate) key: &'static str,
    pub(crate) label: &'static str,
    /// Its name in the HTTP tables.
    pub(crate) http_label: &'static str,
    pub(crate) color: &'static str,
    pub(crate) dashed: bool,
    /// Serves stdio.
    pub(crate) command: Vec<String>,
    /// Serves Streamable HTTP on `{addr}`.
    pub(crate) http_command: Vec<String>,
}

/// Builds the bench binaries (and `mcp-wit`, of the `mcp-wit-cli` package,
/// unless another build is named) in release mode. `cargo run` has released
/// its lock by the time this runs, so the nested build is fine.
pub(crate) fn build(root: &Path, host: bool) -> anyhow::Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut args = vec!["build", "--release", "-p", "mcp-wit-bench"];
    if host {
        args.extend(["-p", "mcp-wit-cli"]);
    }
    args.push("--bins");
    eprintln!("building: cargo {}", args.join(" "));
    let status = Command::new(cargo).current_dir(root).args(&args).status().context("cannot run cargo")?;
    ensure!(status.success(), "the release build failed");
    Ok(())
}

/// The `mcp-wit` binary under test and what its `serve` accepts.
pub(crate) struct Host {
    pub(crate) binary: PathBuf,
    version: String,
    /// Whether this build has a compile cache (`--cache-dir`, `--no-cache`);
    /// the report also measures older builds, which have none.
    pub(crate) has_cache: bool,
    /// Whether this build serves Streamable HTTP (`serve --http`).
    pub(crate) has_http: bool,
    /// The report's own cache: it never touches the user's.
    cache_dir: PathBuf,
}

#[derive(Clone, Copy)]
pub(crate) enum Cache {
    /// Compile the component at every start.
    Off,
    /// Use the report's cache directory (where the build has a cache).
    On,
}

impl Host {
    pub(crate) fn detect(binary: PathBuf, root: &Path) -> anyhow::Result<Self> {
        let run = |args: &[&str]| -> anyhow::Result<String> {
            let output = Command::new(&binary)
                .args(args)
                .output()
                .with_context(|| format!("cannot run {} (build it with `cargo build --release`)", binary.display()))?;
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        };
        let help = run(&["serve", "--help"])?;
        let version = run(&["--version"])?.trim().to_string();
        let has_cache = help.contains("--no-cache") && help.contains("--cache-dir");
        let has_http = help.contains("--http");
        Ok(Host { binary, version, has_cache, has_http, cache_dir: root.join("target").join("bench").join("cache") })
    }

    /// The command line serving `component` with guest output discarded.
    pub(crate) fn serve(&self, component: &Path, cache: Cache) -> Vec<String> {
        let mut command: Vec<String> = vec![
            self.binary.display().to_string(),
            "serve".into(),
            component.display().to_string(),
            "--guest-output".into(),
            "discard".into(),
        ];
        match (self.has_cache, cache) {
            (false, _) => {}
            (true, Cache::Off) => command.push("--no-cache".into()),
            (true, Cache::On) => command.extend(["--cache-dir".into(), self.cache_dir.display().to_string()]),
        }
        command
    }

    /// The command line serving `component` over Streamable HTTP on `{addr}`,
    /// with the defaults of `serve --http` (sessions, SSE answers).
    pub(crate) fn serve_http(&self, component: &Path) -> Vec<String> {
        let mut command = self.serve(component, Cache::On);
        command.extend(["--http".into(), http::ADDR.into()]);
        command
    }

    pub(crate) fn describe(&self) -> String {
        format!("{} ({})", self.binary.display(), self.version)
    }
}
