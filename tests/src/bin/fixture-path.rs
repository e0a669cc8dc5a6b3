//! Prints where the fixture components are, for scripts:
//!
//! ```text
//! cargo run -q -p mcp-wit-tests --no-default-features --bin fixture-path -- NAME   # .../NAME.wasm
//! cargo run -q -p mcp-wit-tests --no-default-features --bin fixture-path           # their directory
//! cargo run -q -p mcp-wit-tests --no-default-features --bin fixture-path -- --plugin NAME   # a plugin of plugins/
//! ```
//!
//! The paths are absolute. Building this builds the fixtures (the package's
//! build script does); `--no-default-features` leaves out the test support,
//! which this does not need. Fails, naming the fixtures there are, when
//! `NAME.wasm` does not exist.

use std::path::Path;
use std::process::ExitCode;

use mcp_wit_tests::{FIXTURES, PLUGIN_FIXTURES};

const USAGE: &str = "usage: fixture-path [NAME | --plugin NAME]\n\
                     prints the absolute path of the fixture component NAME.wasm (or of the plugin NAME of plugins/), \
                     or with no NAME their directory";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => {
            println!("{FIXTURES}");
            ExitCode::SUCCESS
        }
        [flag] if flag == "-h" || flag == "--help" => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        [name] if !name.starts_with('-') => print_fixture(FIXTURES, name),
        [flag, name] if flag == "--plugin" => print_fixture(PLUGIN_FIXTURES, &name.replace('-', "_")),
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Prints the path of `name.wasm` in `dir`, or fails naming what is there.
fn print_fixture(dir: &str, name: &str) -> ExitCode {
    let path = Path::new(dir).join(format!("{name}.wasm"));
    if path.is_file() {
        println!("{}", path.display());
        ExitCode::SUCCESS
    } else {
        eprintln!("fixture-path: no fixture `{name}` ({} is missing); there are: {}", path.display(), names(dir));
        ExitCode::FAILURE
    }
}

/// The fixtures in `dir`, by name.
fn names(dir: &str) -> String {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".wasm").map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names.join(", ")
}
