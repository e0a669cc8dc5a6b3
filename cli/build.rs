//! Builds the demo router that `mcp-wit serve` runs with no component
//! (`components/hello`, see `mcp-wit-guest-build`) and points
//! `MCP_WIT_DEMO_COMPONENT` at it for `include_bytes!`. Only `hello` is
//! built: the other guests are test fixtures, built by the `tests` package.

use std::path::PathBuf;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().expect("cli/ sits in the workspace").to_path_buf();
    let components = root.join("components");
    for watched in [components.join("hello"), components.join("Cargo.toml"), root.join("wit")] {
        println!("cargo:rerun-if-changed={}", watched.display());
    }
    let demo = mcp_wit_guest_build::build(&components, &["hello"]).join("hello.wasm");
    assert!(demo.exists(), "the guest build produced no {}", demo.display());
    println!("cargo:rustc-env=MCP_WIT_DEMO_COMPONENT={}", demo.display());
}
