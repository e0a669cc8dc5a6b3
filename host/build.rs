//! Builds the guest components in `components/` for `wasm32-wasip2`.
//!
//! The `hello` component is embedded in the binary as the demo that
//! `mcp-wit serve` runs with no argument; the others are fixtures for the
//! integration tests, which find them through `MCP_WIT_COMPONENTS`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().unwrap().to_path_buf();
    let components = root.join("components");
    println!("cargo:rerun-if-changed={}", components.display());
    println!("cargo:rerun-if-changed={}", root.join("wit").display());

    // A target dir of its own: the outer build holds a lock on the main one.
    let target_dir = root.join("target").join("guests");
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
    let out = target_dir.join("wasm32-wasip2").join("release");
    let demo = out.join("hello.wasm");
    assert!(Path::new(&demo).exists(), "the guest build produced no {}", demo.display());
    println!("cargo:rustc-env=MCP_WIT_COMPONENTS={}", out.display());
    println!("cargo:rustc-env=MCP_WIT_DEMO_COMPONENT={}", demo.display());
}
