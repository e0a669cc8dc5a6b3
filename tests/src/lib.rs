//! The integration tests of mcp-wit (one binary, `tests/it/`), and what they share.
//!
//! - The fixture components: the guests in `components/`, which this
//!   package's build script builds for `wasm32-wasip2` (profile `fixture`) into
//!   `<target-dir>/guests`. [`fixture`] gives the path of one, [`FIXTURES`]
//!   their directory. This is the one way the repository finds them: outside
//!   Rust, `cargo run -q -p mcp-wit-tests --no-default-features --bin
//!   fixture-path -- NAME` prints the path of `NAME.wasm` (no argument: the
//!   directory).
//! - [`support`] (the default `support` feature): the `mcp-wit` binary under
//!   test, clients for it (stdio and HTTP) that check every message against
//!   the MCP schema, and small helpers the test files share. Without the
//!   feature the library is only the fixture paths, and builds none of the
//!   clients' dependencies.

use std::path::PathBuf;

#[cfg(feature = "support")]
pub mod support;

/// The directory of the fixture components (`<name>.wasm`), an absolute path.
pub const FIXTURES: &str = env!("MCP_WIT_FIXTURES");

/// Where the fixture Extism plugins are: `plugins/*`, built for
/// `wasm32-wasip1` by the build script.
pub const PLUGIN_FIXTURES: &str = env!("MCP_WIT_PLUGIN_FIXTURES");

/// `count_vowels.wasm`, the plugin `extism-pdk` ships: real, and not an MCP
/// plugin.
pub const COUNT_VOWELS: &str = env!("MCP_WIT_COUNT_VOWELS");

/// The absolute path of the fixture plugin `name` (a crate of `plugins/`,
/// `-` spelled `_` as cargo names the file).
///
/// # Panics
///
/// If there is no such plugin.
pub fn plugin_fixture(name: &str) -> PathBuf {
    let path = PathBuf::from(PLUGIN_FIXTURES).join(format!("{}.wasm", name.replace('-', "_")));
    assert!(path.is_file(), "no fixture plugin `{name}`: {} is missing", path.display());
    path
}

/// The absolute path of the fixture component `name` (`<FIXTURES>/<name>.wasm`,
/// built from `components/<name>`).
///
/// # Panics
///
/// If there is no such component.
pub fn fixture(name: &str) -> PathBuf {
    let path = PathBuf::from(FIXTURES).join(format!("{name}.wasm"));
    assert!(
        path.is_file(),
        "no fixture component `{name}`: {} is missing (the fixtures are the crates in components/, \
         built by the build script of mcp-wit-tests)",
        path.display()
    );
    path
}
