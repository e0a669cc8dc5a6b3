//! Builds the demo router that `mcp-wit serve` runs with no component
//! (`components/hello`, for `wasm32-wasip2`) with a nested cargo, and
//! points `MCP_WIT_DEMO_COMPONENT` at it for `include_bytes!`.
//!
//! Only `hello` is built: the other guests are test fixtures, built by the
//! `tests` package. It goes to `<target-dir>/guests` (found from `OUT_DIR`,
//! so `CARGO_TARGET_DIR` is followed), which the fixtures share.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().expect("cli/ sits in the workspace").to_path_buf();
    let components = root.join("components");
    for watched in [components.join("hello"), components.join("Cargo.toml"), root.join("wit")] {
        println!("cargo:rerun-if-changed={}", watched.display());
    }

    // A target dir of its own: the outer build holds a lock on its profile's.
    let target_dir = target_dir().join("guests");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(&components)
        .args(["build", "--release", "--target", "wasm32-wasip2", "-p", "hello", "--target-dir"])
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
    let output = command.output().expect("cannot run cargo to build the demo component");
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let hint = if stderr.contains("wasm32-wasip2") && stderr.contains("target") {
            "\nhint: install the guest target with `rustup target add wasm32-wasip2`"
        } else {
            ""
        };
        panic!("building the demo component (components/hello) failed:\n{stderr}{hint}");
    }
    let demo = target_dir.join("wasm32-wasip2").join("release").join("hello.wasm");
    assert!(demo.exists(), "the guest build produced no {}", demo.display());
    println!("cargo:rustc-env=MCP_WIT_DEMO_COMPONENT={}", demo.display());
}

/// The target directory, from `OUT_DIR`
/// (`<target-dir>[/<triple>]/<profile>/build/<package>-<hash>/out`).
fn target_dir() -> PathBuf {
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let build = out_dir
        .ancestors()
        .find(|dir| dir.file_name().is_some_and(|name| name == "build"))
        .unwrap_or_else(|| panic!("OUT_DIR {} is not under a `build` directory", out_dir.display()));
    let mut dir = build.parent().and_then(|profile| profile.parent()).expect("a target directory");
    if let Some(triple) = std::env::var_os("TARGET")
        && dir.file_name() == Some(triple.as_os_str())
        && let Some(parent) = dir.parent()
    {
        dir = parent;
    }
    dir.to_path_buf()
}
