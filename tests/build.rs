//! Builds the fixture components: the guests in `components/` (a workspace
//! of their own), for `wasm32-wasip2`, in release mode, with a nested cargo.
//!
//! They go to `<target-dir>/guests`, next to the profile directories
//! (`debug/`, `release/`), so one build serves every profile and respects
//! `CARGO_TARGET_DIR`. The library finds them through `MCP_WIT_FIXTURES`
//! (see `fixture()` in `src/lib.rs`), and so does everything else in the
//! repository: `cargo run -p mcp-wit-tests --bin fixture-path -- NAME`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().expect("tests/ sits in the workspace").to_path_buf();
    let components = root.join("components");
    watch(&components);
    println!("cargo:rerun-if-changed={}", root.join("wit").display());

    // A target dir of its own: the outer build holds a lock on its profile's.
    let target_dir = target_dir().join("guests");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(&components)
        .args(["build", "--release", "--target", "wasm32-wasip2", "--target-dir"])
        .arg(&target_dir);
    // Settings meant for the host build must not leak into the guest build.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_PRIMARY_PACKAGE",
    ] {
        command.env_remove(var);
    }
    let output = command.output().expect("cannot run cargo to build the guest components");
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let hint = if stderr.contains("wasm32-wasip2") && stderr.contains("target") {
            "\nhint: install the guest target with `rustup target add wasm32-wasip2`"
        } else {
            ""
        };
        panic!("building the guest components failed:\n{stderr}{hint}");
    }
    let fixtures = target_dir.join("wasm32-wasip2").join("release");
    let probe = fixtures.join("echo.wasm");
    assert!(probe.exists(), "the guest build produced no {}", probe.display());
    println!("cargo:rustc-env=MCP_WIT_FIXTURES={}", fixtures.display());
}

/// The target directory of this build, from `OUT_DIR`:
/// `<target-dir>[/<triple>]/<profile>/build/<package>-<hash>/out`. Going up
/// from there (rather than assuming `<root>/target`) follows
/// `CARGO_TARGET_DIR`, `--target-dir` and `--target <triple>`.
fn target_dir() -> PathBuf {
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let build = out_dir
        .ancestors()
        .skip(1)
        .find(|dir| dir.file_name().is_some_and(|name| name == "build"))
        .unwrap_or_else(|| panic!("OUT_DIR {} is not under a `build` directory", out_dir.display()));
    let profile = build.parent().expect("a profile directory holds `build`");
    let mut dir = profile.parent().expect("the target directory holds the profile directory");
    // `--target <triple>` puts the profiles under `<target-dir>/<triple>`.
    if let Some(triple) = std::env::var_os("TARGET")
        && dir.file_name() == Some(triple.as_os_str())
        && let Some(parent) = dir.parent()
    {
        dir = parent;
    }
    dir.to_path_buf()
}

/// Reruns on changes to the guests' sources: everything in `components/`
/// (cargo scans a directory recursively) but the `target/` a manual
/// `cargo build` there leaves, which would rebuild this package for nothing.
/// A new guest crate shows up in `components/Cargo.toml`'s members.
fn watch(components: &Path) {
    let entries = std::fs::read_dir(components).unwrap_or_else(|e| panic!("cannot read {}: {e}", components.display()));
    for entry in entries {
        let path = entry.expect("a readable directory entry").path();
        if path.file_name().is_some_and(|name| name == "target") {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
