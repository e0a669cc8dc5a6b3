//! Prints where the fixture components are, for scripts:
//!
//! ```text
//! cargo run -q -p mcp-wit-tests --no-default-features --bin fixture-path -- NAME   # .../NAME.wasm
//! cargo run -q -p mcp-wit-tests --no-default-features --bin fixture-path           # their directory
//! ```
//!
//! The paths are absolute. Building this builds the fixtures (the package's
//! build script does); `--no-default-features` leaves out the test support,
//! which this does not need. Fails, naming the fixtures there are, when
//! `NAME.wasm` does not exist.

use std::path::Path;
use std::process::ExitCode;

use mcp_wit_tests::FIXTURES;

const USAGE: &str = "usage: fixture-path [NAME]\n\
                     prints the absolute path of the fixture component NAME.wasm, or with no NAME their directory";

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
        [name] if !name.starts_with('-') => {
            let path = Path::new(FIXTURES).join(format!("{name}.wasm"));
            if path.is_file() {
                println!("{}", path.display());
                ExitCode::SUCCESS
            } else {
                eprintln!("fixture-path: no fixture `{name}` ({} is missing); there are: {}", path.display(), names());
                ExitCode::FAILURE
            }
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// The fixtures there are, by name.
fn names() -> String {
    let mut names: Vec<String> = std::fs::read_dir(FIXTURES)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".wasm").map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names.join(", ")
}
