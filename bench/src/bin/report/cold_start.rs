//! Cold starts: spawn to the `initialize` answer, for components of several
//! sizes (a padded copy, an unoptimised build) and for the native servers.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, ensure};
use mcp_wit_bench::load::{self, ColdStart};
use serde::Serialize;

use crate::servers::{Cache, Host, Server};

/// Size the padded component is grown to for the cold-start measurement.
const PADDED_SIZE: usize = 1024 * 1024;

#[derive(Serialize)]
pub(crate) struct ColdStartRow {
    pub(crate) server: String,
    pub(crate) component_bytes: Option<u64>,
    #[serde(flatten)]
    pub(crate) result: ColdStart,
}

/// Spawn → `initialize` answer for mcp-wit with components of several sizes
/// (compiling each time, and from the compile cache where the build has
/// one), and for the two native servers.
pub(crate) fn cold_starts(
    host: &Host,
    servers: &[Server],
    guests: &Path,
    unoptimized: Option<PathBuf>,
    root: &Path,
    runs: usize,
    show_stderr: bool,
) -> anyhow::Result<Vec<ColdStartRow>> {
    let padded = root.join("target").join("bench").join("echo-padded-1mib.wasm");
    write_padded_component(&guests.join("echo.wasm"), &padded, PADDED_SIZE)?;
    let mut components = vec![
        ("echo.wasm".to_string(), guests.join("echo.wasm")),
        ("everything.wasm".to_string(), guests.join("everything.wasm")),
    ];
    if let Some(path) = unoptimized {
        components.push(("everything.wasm, unoptimised build".to_string(), path));
    }
    components.push(("echo.wasm padded to 1 MiB".to_string(), padded));
    let mut cases: Vec<(String, Vec<String>, Option<PathBuf>)> = Vec::new();
    for (name, path) in components {
        if host.has_cache {
            // The uncounted first run of `cold_start` fills the cache.
            let compiling = host.serve(&path, Cache::Off);
            cases.push((format!("mcp-wit serve {name}, compiling (--no-cache)"), compiling, Some(path.clone())));
            cases.push((format!("mcp-wit serve {name}, cached"), host.serve(&path, Cache::On), Some(path)));
        } else {
            cases.push((format!("mcp-wit serve {name}"), host.serve(&path, Cache::On), Some(path)));
        }
    }
    for server in &servers[1..] {
        cases.push((server.label.to_string(), server.command.clone(), None));
    }
    let mut rows = Vec::new();
    for (name, command, component) in cases {
        let result = load::cold_start(&command, runs, show_stderr).with_context(|| format!("cold start of {name}"))?;
        eprintln!("cold start {name:>36}: median {:>7.2} ms", result.median_ms);
        let component_bytes = component.map(|p| std::fs::metadata(p).map(|m| m.len())).transpose()?;
        rows.push(ColdStartRow { server: name, component_bytes, result });
    }
    Ok(rows)
}

/// A larger component of real code for the cold-start measurement: the
/// `everything` guest built without optimisation (and without debug info, so
/// the size is code, not custom sections). Built once into `target/bench/`;
/// `None` (with a warning) when that build fails.
pub(crate) fn unoptimized_component(root: &Path, build: bool) -> Option<PathBuf> {
    let target_dir = root.join("target").join("bench").join("guests-dev");
    let path = target_dir.join("wasm32-wasip2").join("debug").join("everything.wasm");
    if build {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        eprintln!("building: the `everything` guest without optimisation (for the cold-start table)");
        let mut command = Command::new(cargo);
        command
            .current_dir(root.join("components"))
            .args(["build", "--target", "wasm32-wasip2", "-p", "everything", "--target-dir"])
            .arg(&target_dir)
            .env("CARGO_PROFILE_DEV_DEBUG", "false");
        // As in tests/build.rs: settings meant for the host build stay out.
        for var in
            ["CARGO_ENCODED_RUSTFLAGS", "RUSTFLAGS", "CARGO_BUILD_RUSTFLAGS", "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET"]
        {
            command.env_remove(var);
        }
        match command.status() {
            Ok(status) if status.success() => {}
            _ => {
                eprintln!(
                    "warning: cannot build the unoptimised `everything` guest; leaving it out of the cold-start table"
                );
                return None;
            }
        }
    }
    path.exists().then_some(path)
}

/// Copies the component at `from` to `to`, grown to `size` bytes by one
/// custom section at the end. Custom sections are skipped by compilation, so
/// this measures what the file's size alone costs (reading, parsing, hashing),
/// not the cost of more code.
fn write_padded_component(from: &Path, to: &Path, size: usize) -> anyhow::Result<()> {
    let mut bytes = std::fs::read(from).with_context(|| format!("cannot read {}", from.display()))?;
    const NAME: &[u8] = b"mcp-wit-bench-padding";
    // Section: id 0, LEB128 size; body: LEB128 name length, name, payload.
    // Size the payload so the whole file lands on `size` (LEB128 of the
    // section size is taken at its 5-byte maximum, padded).
    let overhead = 1 + 5 + 1 + NAME.len();
    ensure!(bytes.len() + overhead < size, "{} is already {} bytes", from.display(), bytes.len());
    let payload = size - bytes.len() - overhead;
    let body = 1 + NAME.len() + payload;
    bytes.push(0);
    bytes.extend_from_slice(&leb128_padded(body as u32));
    bytes.push(NAME.len() as u8);
    bytes.extend_from_slice(NAME);
    bytes.resize(bytes.len() + payload, 0);
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(to, &bytes).with_context(|| format!("cannot write {}", to.display()))
}

/// `value` as unsigned LEB128 in exactly 5 bytes (valid: continuation bits
/// on zero groups are allowed).
fn leb128_padded(mut value: u32) -> [u8; 5] {
    let mut out = [0u8; 5];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = (value & 0x7f) as u8;
        value >>= 7;
        if i < 4 {
            *byte |= 0x80;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padded_leb128_decodes() {
        let bytes = leb128_padded(1_048_000);
        let value = bytes.iter().enumerate().fold(0u32, |acc, (i, b)| acc | (u32::from(b & 0x7f) << (7 * i)));
        assert_eq!(value, 1_048_000);
        assert_eq!(bytes[4] & 0x80, 0);
    }
}
