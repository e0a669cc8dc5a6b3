//! Builds the demo router that `mcp-wit serve` runs with no component
//! (`components/hello`, see `mcp-wit-guest-build`) and the components that
//! `mcp-wit wrap` composes routers with (`components/adapter`, twice: for
//! each router contract, `unplugged`,
//! `plain-extension`, `caller-cell` and `client-cell`), and points `MCP_WIT_*_COMPONENT` at them for
//! `include_bytes!`. The other guests are test fixtures, built by the
//! `tests` package; a build other than release embeds these from that same
//! build (`Profile::embedded`). It also links `mcp-wit` with packed relative
//! relocations where they work (`build/packed_relocations.rs`).

use std::path::PathBuf;

use mcp_wit_guest_build::Profile;

include!("build/packed_relocations.rs");

fn main() {
    link_executables_with_packed_relocations();
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().expect("cli/ sits in the workspace").to_path_buf();
    let components = root.join("components");
    for watched in [
        components.join("hello"),
        components.join("adapter"),
        components.join("unplugged"),
        components.join("plain-extension"),
        components.join("caller-cell"),
        components.join("client-cell"),
        components.join("Cargo.toml"),
        root.join("wit"),
        root.join("protocol"),
    ] {
        println!("cargo:rerun-if-changed={}", watched.display());
    }
    let profile = Profile::embedded();
    let packages: &[&str] = match profile {
        Profile::Release => &["hello", "adapter", "unplugged", "plain-extension", "caller-cell", "client-cell"],
        // Every guest, as the tests' build script asks: whichever of the two
        // runs first builds them, the other finds them built.
        Profile::Fixture => &[],
    };
    let built = mcp_wit_guest_build::build_profile(&components, packages, "wasm32-wasip2", profile);
    // The adapter again, for routers of the contract's successor.
    let successor =
        mcp_wit_guest_build::build_profile_with_features(&components, "adapter", &["contract-25-6-18"], profile);
    println!("cargo:rustc-env=MCP_WIT_ADAPTER_25_6_18_COMPONENT={}", successor.join("adapter.wasm").display());
    for (variable, name) in [
        ("MCP_WIT_DEMO_COMPONENT", "hello"),
        ("MCP_WIT_ADAPTER_COMPONENT", "adapter"),
        ("MCP_WIT_UNPLUGGED_COMPONENT", "unplugged"),
        ("MCP_WIT_PLAIN_EXTENSION_COMPONENT", "plain_extension"),
        ("MCP_WIT_CALLER_CELL_COMPONENT", "caller_cell"),
        ("MCP_WIT_CLIENT_CELL_COMPONENT", "client_cell"),
    ] {
        let path = built.join(format!("{name}.wasm"));
        assert!(path.exists(), "the guest build produced no {}", path.display());
        println!("cargo:rustc-env={variable}={}", path.display());
    }
}
