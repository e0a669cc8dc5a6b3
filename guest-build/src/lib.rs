//! Builds guest components from a build script: the crates of `components/`
//! (a workspace of their own), for `wasm32-wasip2`, and the Extism plugins of
//! `plugins/`, for `wasm32-wasip1`, with a nested cargo.
//!
//! Two profiles: `release` (small, LTO) for the components a release build
//! of the `mcp-wit` binary ships (the demo router, the adapter `wrap`
//! composes with), and `fixture` (release without LTO, codegen in parallel)
//! for the test fixtures, which are built often and whose size matters to
//! nobody, and for what any other build of the binary embeds (see
//! [`Profile::embedded`]). Each workspace that builds guests defines
//! `fixture` in its `Cargo.toml`.
//!
//! Every build goes to one target directory, `<target-dir>/guests`, beside
//! the profile directories, found from `OUT_DIR` (so `CARGO_TARGET_DIR`,
//! `--target-dir` and `--target` are followed) and shared by every profile
//! and every package that builds guests: cargo's lock on that directory
//! serialises them.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The profile a guest is built with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// `release`: what the `mcp-wit` binary embeds.
    Release,
    /// `fixture`: release without LTO, for the tests' fixtures.
    Fixture,
}

impl Profile {
    /// The profile for the guests an executable embeds, by the outer
    /// build's (cargo's `PROFILE`): `release` in a release build (what
    /// `cargo install` and the benchmarks build); `fixture` in any other
    /// (the tests' debug build), whose guests the tests' build script
    /// builds too, so the two share one build instead of adding a second,
    /// with LTO, that nothing there measures.
    pub fn embedded() -> Profile {
        match std::env::var("PROFILE").as_deref() {
            Ok("release") => Profile::Release,
            _ => Profile::Fixture,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Profile::Release => "release",
            Profile::Fixture => "fixture",
        }
    }
}

/// Builds `packages` of the workspace `dir` (every one when empty) for
/// `target` (`wasm32-wasip2` for components, `wasm32-wasip1` for Extism
/// plugins) with `profile`, and returns the directory holding the `.wasm`
/// files. Panics with what to do when the build fails: build scripts report
/// by panicking.
pub fn build_profile(dir: &Path, packages: &[&str], target: &str, profile: Profile) -> PathBuf {
    cargo_build(dir, packages, &[], target, profile.name())
}

/// Builds `package` of `components/` with `features` on, with the profile
/// `<profile>-<features joined by ->` (which `components/Cargo.toml` defines,
/// inheriting `profile`), and returns the directory holding the `.wasm`.
///
/// A profile of its own gives the build a directory of its own inside the
/// one guest target directory: a `.wasm` has no hash in its name, so the
/// same package built with other features in the same profile would
/// overwrite the default build's (and rebuild it, by turns).
pub fn build_profile_with_features(components: &Path, package: &str, features: &[&str], profile: Profile) -> PathBuf {
    let profile = format!("{}-{}", profile.name(), features.join("-"));
    cargo_build(components, &[package], features, "wasm32-wasip2", &profile)
}

fn cargo_build(components: &Path, packages: &[&str], features: &[&str], target: &str, profile: &str) -> PathBuf {
    // A target dir of its own: the outer build holds a lock on its profile's.
    let target_dir = target_dir().join("guests");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.current_dir(components).args(["build", "--profile", profile, "--target", target]);
    for package in packages {
        command.args(["-p", package]);
    }
    if !features.is_empty() {
        command.arg("--features").arg(features.join(","));
    }
    command.arg("--target-dir").arg(&target_dir);
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
        let hint = if stderr.contains(target) && stderr.contains("target") {
            format!("\nhint: install the guest target with `rustup target add {target}`")
        } else {
            String::new()
        };
        panic!("building the guest components ({}) failed:\n{stderr}{hint}", components.display());
    }
    target_dir.join(target).join(profile)
}

/// Tells cargo to rerun the build script when `dir` changes: every entry in
/// it but the `target/` a manual `cargo build` there leaves, which would
/// rebuild for nothing.
pub fn watch(dir: &Path) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a readable directory entry").path();
        if path.file_name().is_some_and(|name| name == "target") {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The target directory of this build, from `OUT_DIR`:
/// `<target-dir>[/<triple>]/<profile>/build/<package>-<hash>/out`.
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
