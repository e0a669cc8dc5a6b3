//! Builds the fixture components: every guest in `components/` (see
//! `mcp-wit-guest-build`), into `<target-dir>/guests`, so one build serves
//! every profile. The library finds them through `MCP_WIT_FIXTURES` (see
//! `fixture()` in `src/lib.rs`), and so does everything else in the
//! repository: `cargo run -p mcp-wit-tests --bin fixture-path -- NAME`.

use std::path::PathBuf;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().expect("tests/ sits in the workspace").to_path_buf();
    let components = root.join("components");
    // A new guest crate shows up in `components/Cargo.toml`'s members.
    mcp_wit_guest_build::watch(&components);
    println!("cargo:rerun-if-changed={}", root.join("wit").display());

    let fixtures = mcp_wit_guest_build::build(&components, &[]);
    let probe = fixtures.join("echo.wasm");
    assert!(probe.exists(), "the guest build produced no {}", probe.display());
    println!("cargo:rustc-env=MCP_WIT_FIXTURES={}", fixtures.display());
}
