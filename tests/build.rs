//! Builds the fixture components: every guest in `components/` (see
//! `mcp-wit-guest-build`), with the guests' `fixture` profile (release
//! without LTO), into `<target-dir>/guests/wasm32-wasip2/fixture`, so one
//! build serves every profile of this package. The library finds them
//! through `MCP_WIT_FIXTURES` (see `fixture()` in `src/lib.rs`), and so does
//! everything else in the repository: `cargo run -p mcp-wit-tests --bin
//! fixture-path -- NAME`.
//!
//! The middlewares are built a second time for `wasix:mcp/router@25.6.18`
//! routers (their `contract-25-6-18` feature) and join the others as
//! `<name>_25_6_18.wasm` (see [`MIDDLEWARES_25_6_18`]).

use std::path::PathBuf;

use mcp_wit_guest_build::Profile;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().expect("tests/ sits in the workspace").to_path_buf();
    let components = root.join("components");
    // A new guest crate shows up in `components/Cargo.toml`'s members.
    mcp_wit_guest_build::watch(&components);
    println!("cargo:rerun-if-changed={}", root.join("wit").display());

    let fixtures = mcp_wit_guest_build::build_profile(&components, &[], "wasm32-wasip2", Profile::Fixture);
    let probe = fixtures.join("echo.wasm");
    assert!(probe.exists(), "the guest build produced no {}", probe.display());
    println!("cargo:rustc-env=MCP_WIT_FIXTURES={}", fixtures.display());
    for middleware in MIDDLEWARES_25_6_18 {
        let built = mcp_wit_guest_build::build_profile_with_features(
            &components,
            middleware,
            &["contract-25-6-18"],
            Profile::Fixture,
        );
        let from = built.join(format!("{middleware}.wasm"));
        let to = fixtures.join(format!("{middleware}_25_6_18.wasm"));
        std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("cannot copy {} to {}: {e}", from.display(), to.display()));
    }

    // The Extism plugins, for wasm32-wasip1.
    let plugins = root.join("plugins");
    mcp_wit_guest_build::watch(&plugins);
    let built = mcp_wit_guest_build::build_profile(&plugins, &[], "wasm32-wasip1", Profile::Fixture);
    println!("cargo:rustc-env=MCP_WIT_PLUGIN_FIXTURES={}", built.display());
    println!("cargo:rustc-env=MCP_WIT_COUNT_VOWELS={}", count_vowels(&plugins).display());
}

/// The middlewares also built for 25.6.18 routers. The build goes to a
/// profile directory of its own (`fixture-contract-25-6-18`), where each
/// `.wasm` has its default build's name; a copy beside the other fixtures,
/// renamed, is what `fixture()` finds.
const MIDDLEWARES_25_6_18: [&str; 3] = ["namespace", "filter", "audit"];

/// `count_vowels.wasm`, the plugin `extism-pdk` ships in its crate (a
/// dependency of the plugins, so its sources are where cargo put them).
fn count_vowels(plugins: &std::path::Path) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = std::process::Command::new(cargo)
        .current_dir(plugins)
        .args(["metadata", "--format-version", "1"])
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).expect("cargo metadata gives JSON");
    let manifest = metadata["packages"]
        .as_array()
        .and_then(|packages| packages.iter().find(|p| p["name"] == "extism-pdk"))
        .and_then(|pdk| pdk["manifest_path"].as_str())
        .expect("extism-pdk is a dependency of the plugins");
    let path = PathBuf::from(manifest).with_file_name("count_vowels.wasm");
    assert!(path.exists(), "extism-pdk ships no {}", path.display());
    path
}
