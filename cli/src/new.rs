//! `mcp-wit new NAME`: a guest crate from `guest-template/`.
//!
//! The template's files are built into the binary, so `new` works wherever
//! `mcp-wit` is installed; the crate is renamed and otherwise unchanged (it
//! builds and serves as is, see the test `new_makes_a_crate_that_builds_and_serves`).
//! The Rust SDK it is written with (`sdk/rust/`) is not published yet, so
//! its sources go along under `vendor/`, where the template's own
//! `vendor/` links to them.

use std::path::{Path, PathBuf};

use anyhow::Context;

/// The template, path by path. `my-router` / `my_router` are the names
/// replaced.
const TEMPLATE: &[(&str, &str)] = &[
    ("Cargo.toml", include_str!("../../guest-template/Cargo.toml")),
    ("Cargo.lock", include_str!("../../guest-template/Cargo.lock")),
    ("README.md", include_str!("../../guest-template/README.md")),
    ("rust-toolchain.toml", include_str!("../../guest-template/rust-toolchain.toml")),
    (".gitignore", include_str!("../../guest-template/.gitignore")),
    ("src/lib.rs", include_str!("../../guest-template/src/lib.rs")),
    ("wit/wasix-mcp-router@25.3.26.wit", include_str!("../../guest-template/wit/wasix-mcp-router@25.3.26.wit")),
    ("wit/mcp-wit-extension.wit", include_str!("../../guest-template/wit/mcp-wit-extension.wit")),
    ("vendor/mcp-wit-sdk/Cargo.toml", include_str!("../../sdk/rust/mcp-wit-sdk/Cargo.toml")),
    ("vendor/mcp-wit-sdk/README.md", include_str!("../../sdk/rust/mcp-wit-sdk/README.md")),
    ("vendor/mcp-wit-sdk/src/lib.rs", include_str!("../../sdk/rust/mcp-wit-sdk/src/lib.rs")),
    ("vendor/mcp-wit-sdk/src/base64.rs", include_str!("../../sdk/rust/mcp-wit-sdk/src/base64.rs")),
    ("vendor/mcp-wit-sdk/src/bindings.rs", include_str!("../../sdk/rust/mcp-wit-sdk/src/bindings.rs")),
    ("vendor/mcp-wit-sdk/src/context.rs", include_str!("../../sdk/rust/mcp-wit-sdk/src/context.rs")),
    ("vendor/mcp-wit-sdk/src/error.rs", include_str!("../../sdk/rust/mcp-wit-sdk/src/error.rs")),
    ("vendor/mcp-wit-sdk/src/outcome.rs", include_str!("../../sdk/rust/mcp-wit-sdk/src/outcome.rs")),
    ("vendor/mcp-wit-sdk/src/routing.rs", include_str!("../../sdk/rust/mcp-wit-sdk/src/routing.rs")),
    ("vendor/mcp-wit-sdk/src/schema.rs", include_str!("../../sdk/rust/mcp-wit-sdk/src/schema.rs")),
    ("vendor/mcp-wit-sdk/src/types.rs", include_str!("../../sdk/rust/mcp-wit-sdk/src/types.rs")),
    (
        "vendor/mcp-wit-sdk/wit/wasix-mcp-router@25.3.26.wit",
        include_str!("../../sdk/rust/mcp-wit-sdk/wit/wasix-mcp-router@25.3.26.wit"),
    ),
    (
        "vendor/mcp-wit-sdk/wit/mcp-wit-extension.wit",
        include_str!("../../sdk/rust/mcp-wit-sdk/wit/mcp-wit-extension.wit"),
    ),
    ("vendor/mcp-wit-sdk-macros/Cargo.toml", include_str!("../../sdk/rust/mcp-wit-sdk-macros/Cargo.toml")),
    ("vendor/mcp-wit-sdk-macros/README.md", include_str!("../../sdk/rust/mcp-wit-sdk-macros/README.md")),
    ("vendor/mcp-wit-sdk-macros/src/lib.rs", include_str!("../../sdk/rust/mcp-wit-sdk-macros/src/lib.rs")),
    ("vendor/mcp-wit-sdk-macros/src/options.rs", include_str!("../../sdk/rust/mcp-wit-sdk-macros/src/options.rs")),
];

#[derive(clap::Args)]
pub struct NewArgs {
    /// The directory to create; its last part is the crate's and the
    /// router's name (letters, digits, `-` and `_`, starting with a letter).
    path: PathBuf,
}

pub fn new(args: NewArgs) -> anyhow::Result<()> {
    let name = crate_name(&args.path)?;
    if args.path.exists() && std::fs::read_dir(&args.path).map(|mut d| d.next().is_some()).unwrap_or(true) {
        anyhow::bail!("{} already exists and is not empty; pick another name or remove it", args.path.display());
    }
    let snake = name.replace('-', "_");
    for (file, text) in TEMPLATE {
        let target = args.path.join(file);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        // The contract and the SDK are copied byte for byte; only the crate's
        // own files are renamed.
        let text = if file.starts_with("wit/") || file.starts_with("vendor/") {
            (*text).to_string()
        } else {
            text.replace("my-router", &name).replace("my_router", &snake)
        };
        std::fs::write(&target, text).with_context(|| format!("cannot write {}", target.display()))?;
    }
    let wasm = format!("target/wasm32-wasip2/release/{snake}.wasm");
    println!("Created the router `{name}` in {}. Next:", args.path.display());
    println!("  cd {}", args.path.display());
    println!("  cargo build --release --target wasm32-wasip2");
    println!("  mcp-wit inspect {wasm}");
    println!("  mcp-wit serve {wasm}");
    Ok(())
}

/// The crate name `path` gives, checked against cargo's rules.
fn crate_name(path: &Path) -> anyhow::Result<String> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("`{}` does not end in a name", path.display()))?;
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    anyhow::ensure!(
        valid,
        "`{name}` cannot name a crate: use letters, digits, `-` and `_`, starting with a letter (e.g. `weather-tools`)"
    );
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_cargo_rules() {
        assert_eq!(crate_name(Path::new("a/b/weather-tools")).unwrap(), "weather-tools");
        for bad in ["1tool", "my tool", "tool!", "-x", "", "é"] {
            assert!(crate_name(Path::new(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_file_of_the_sdk_goes_along() {
        // A file added to the SDK must be added to TEMPLATE, or new crates
        // would not build.
        let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sdk/rust");
        for krate in ["mcp-wit-sdk", "mcp-wit-sdk-macros"] {
            for dir in ["src", "wit"] {
                let Ok(entries) = std::fs::read_dir(sdk.join(krate).join(dir)) else { continue };
                for entry in entries {
                    let file = format!("vendor/{krate}/{dir}/{}", entry.unwrap().file_name().to_string_lossy());
                    assert!(TEMPLATE.iter().any(|(path, _)| *path == file), "{file} is missing from TEMPLATE");
                }
            }
        }
    }
}
