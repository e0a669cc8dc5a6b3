//! `mcp-wit new NAME`: a guest crate from `guest-template/`.
//!
//! The template's files are built into the binary, so `new` works wherever
//! `mcp-wit` is installed; the crate is renamed and otherwise unchanged (it
//! builds and serves as is, see the test `new_makes_a_crate_that_builds_and_serves`).

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
        // The contract is copied byte for byte; only the crate's own files are renamed.
        let text = if file.starts_with("wit/") {
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
}
