//! `mcp-wit new NAME --lang rust|python|typescript`: a router project from
//! a template: `guest-template/` for Rust, `sdk/python/template/` for
//! Python, `sdk/typescript/template/` for TypeScript; with `--contract
//! 25.6.18`, `guest-template-25.6.18/` (Rust on the successor contract,
//! without an SDK).
//!
//! The templates' files are built into the binary, so `new` works wherever
//! `mcp-wit` is installed; the project is renamed and otherwise unchanged (it
//! builds and serves as is, see the tests `new_makes_a_crate_that_builds_and_serves`
//! and `tests/it/python_sdk.rs`). The SDKs are not published yet, so
//! their sources go along: the Rust one under `vendor/` (where the
//! template's own `vendor/` links to them), the Python one as the `mcp_wit`
//! package beside `app.py`, the TypeScript one under `vendor/mcp-wit-sdk`
//! (a `file:` dependency).

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::build::Language;

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
    ("vendor/mcp-wit-sdk/src/presentation.rs", include_str!("../../sdk/rust/mcp-wit-sdk/src/presentation.rs")),
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
    ("vendor/mcp-wit-sdk-macros/src/expand.rs", include_str!("../../sdk/rust/mcp-wit-sdk-macros/src/expand.rs")),
    ("vendor/mcp-wit-sdk-macros/src/handler.rs", include_str!("../../sdk/rust/mcp-wit-sdk-macros/src/handler.rs")),
    ("vendor/mcp-wit-sdk-macros/src/lib.rs", include_str!("../../sdk/rust/mcp-wit-sdk-macros/src/lib.rs")),
    ("vendor/mcp-wit-sdk-macros/src/options.rs", include_str!("../../sdk/rust/mcp-wit-sdk-macros/src/options.rs")),
    ("vendor/mcp-wit-sdk-macros/src/prompts.rs", include_str!("../../sdk/rust/mcp-wit-sdk-macros/src/prompts.rs")),
    ("vendor/mcp-wit-sdk-macros/src/resources.rs", include_str!("../../sdk/rust/mcp-wit-sdk-macros/src/resources.rs")),
    ("vendor/mcp-wit-sdk-macros/src/snippets.rs", include_str!("../../sdk/rust/mcp-wit-sdk-macros/src/snippets.rs")),
    ("vendor/mcp-wit-sdk-macros/src/tools.rs", include_str!("../../sdk/rust/mcp-wit-sdk-macros/src/tools.rs")),
];

/// The Rust template on `wasix:mcp/router@25.6.18`, which uses the WIT
/// directly (the SDKs write 25.3.26).
const TEMPLATE_25_6_18: &[(&str, &str)] = &[
    ("Cargo.toml", include_str!("../../guest-template-25.6.18/Cargo.toml")),
    ("Cargo.lock", include_str!("../../guest-template-25.6.18/Cargo.lock")),
    ("README.md", include_str!("../../guest-template-25.6.18/README.md")),
    ("rust-toolchain.toml", include_str!("../../guest-template-25.6.18/rust-toolchain.toml")),
    (".gitignore", include_str!("../../guest-template-25.6.18/.gitignore")),
    ("src/lib.rs", include_str!("../../guest-template-25.6.18/src/lib.rs")),
    ("wit/wasix-mcp@25.06.18.wit", include_str!("../../guest-template-25.6.18/wit/wasix-mcp@25.06.18.wit")),
    ("wit/LICENSE", include_str!("../../guest-template-25.6.18/wit/LICENSE")),
];

/// The Python template and the SDK package it imports.
const PYTHON_TEMPLATE: &[(&str, &str)] = &[
    ("app.py", include_str!("../../sdk/python/template/app.py")),
    ("test_app.py", include_str!("../../sdk/python/template/test_app.py")),
    ("pyproject.toml", include_str!("../../sdk/python/template/pyproject.toml")),
    ("requirements-build.txt", include_str!("../../sdk/python/template/requirements-build.txt")),
    ("README.md", include_str!("../../sdk/python/template/README.md")),
    (".gitignore", include_str!("../../sdk/python/template/.gitignore")),
    ("mcp_wit/__init__.py", include_str!("../../sdk/python/mcp_wit/__init__.py")),
    ("mcp_wit/__main__.py", include_str!("../../sdk/python/mcp_wit/__main__.py")),
    ("mcp_wit/_apps.py", include_str!("../../sdk/python/mcp_wit/_apps.py")),
    ("mcp_wit/_component.py", include_str!("../../sdk/python/mcp_wit/_component.py")),
    ("mcp_wit/_content.py", include_str!("../../sdk/python/mcp_wit/_content.py")),
    ("mcp_wit/_context.py", include_str!("../../sdk/python/mcp_wit/_context.py")),
    ("mcp_wit/_errors.py", include_str!("../../sdk/python/mcp_wit/_errors.py")),
    ("mcp_wit/_router.py", include_str!("../../sdk/python/mcp_wit/_router.py")),
    ("mcp_wit/_types.py", include_str!("../../sdk/python/mcp_wit/_types.py")),
    (
        "mcp_wit/wit/wasix-mcp-router@25.3.26.wit",
        include_str!("../../sdk/python/mcp_wit/wit/wasix-mcp-router@25.3.26.wit"),
    ),
    ("mcp_wit/wit/mcp-wit-extension.wit", include_str!("../../sdk/python/mcp_wit/wit/mcp-wit-extension.wit")),
];

/// The TypeScript template and the SDK package it imports (used from its
/// TypeScript sources, which the build's bundler reads: no build step).
const TYPESCRIPT_TEMPLATE: &[(&str, &str)] = &[
    ("router.ts", include_str!("../../sdk/typescript/template/router.ts")),
    ("package.json", include_str!("../../sdk/typescript/template/package.json")),
    ("tsconfig.json", include_str!("../../sdk/typescript/template/tsconfig.json")),
    ("README.md", include_str!("../../sdk/typescript/template/README.md")),
    (".gitignore", include_str!("../../sdk/typescript/template/.gitignore")),
    ("notes/welcome.md", include_str!("../../sdk/typescript/template/notes/welcome.md")),
    ("vendor/mcp-wit-sdk/package.json", include_str!("../../sdk/typescript/template/vendor-package.json")),
    ("vendor/mcp-wit-sdk/README.md", include_str!("../../sdk/typescript/README.md")),
    ("vendor/mcp-wit-sdk/bin/mcp-wit-build.mjs", include_str!("../../sdk/typescript/bin/mcp-wit-build.mjs")),
    ("vendor/mcp-wit-sdk/src/context.ts", include_str!("../../sdk/typescript/src/context.ts")),
    ("vendor/mcp-wit-sdk/src/errors.ts", include_str!("../../sdk/typescript/src/errors.ts")),
    ("vendor/mcp-wit-sdk/src/fs.ts", include_str!("../../sdk/typescript/src/fs.ts")),
    ("vendor/mcp-wit-sdk/src/fs-promises.ts", include_str!("../../sdk/typescript/src/fs-promises.ts")),
    ("vendor/mcp-wit-sdk/src/host.d.ts", include_str!("../../sdk/typescript/src/host.d.ts")),
    ("vendor/mcp-wit-sdk/src/index.ts", include_str!("../../sdk/typescript/src/index.ts")),
    ("vendor/mcp-wit-sdk/src/router.ts", include_str!("../../sdk/typescript/src/router.ts")),
    ("vendor/mcp-wit-sdk/src/schema.ts", include_str!("../../sdk/typescript/src/schema.ts")),
    ("vendor/mcp-wit-sdk/src/settle.ts", include_str!("../../sdk/typescript/src/settle.ts")),
    ("vendor/mcp-wit-sdk/src/types.ts", include_str!("../../sdk/typescript/src/types.ts")),
    ("vendor/mcp-wit-sdk/src/uri-template.ts", include_str!("../../sdk/typescript/src/uri-template.ts")),
    ("vendor/mcp-wit-sdk/src/utf8.ts", include_str!("../../sdk/typescript/src/utf8.ts")),
    ("vendor/mcp-wit-sdk/src/values.ts", include_str!("../../sdk/typescript/src/values.ts")),
    (
        "vendor/mcp-wit-sdk/wit/wasix-mcp-router@25.3.26.wit",
        include_str!("../../sdk/typescript/wit/wasix-mcp-router@25.3.26.wit"),
    ),
    ("vendor/mcp-wit-sdk/wit/mcp-wit-extension.wit", include_str!("../../sdk/typescript/wit/mcp-wit-extension.wit")),
];

/// What `--template app` puts in place of each language's router (an MCP
/// App: a tool with an HTML view that calls a tool back), beside the view.
const RUST_APP: &[(&str, &str)] = &[
    ("src/lib.rs", include_str!("../../guest-template/app/lib.rs")),
    ("src/view.html", include_str!("../../guest-template/app/view.html")),
];
const PYTHON_APP: &[(&str, &str)] = &[
    ("app.py", include_str!("../../sdk/python/template/app-view/app.py")),
    ("test_app.py", include_str!("../../sdk/python/template/app-view/test_app.py")),
    ("view.html", include_str!("../../guest-template/app/view.html")),
];
const TYPESCRIPT_APP: &[(&str, &str)] = &[
    ("router.ts", include_str!("../../sdk/typescript/template/app-view/router.ts")),
    ("view.html", include_str!("../../guest-template/app/view.html")),
];

#[derive(clap::Args)]
pub struct NewArgs {
    /// The directory to create; its last part is the project's and the
    /// router's name (letters, digits, `-` and `_`, starting with a letter).
    path: PathBuf,
    /// The language to write the router in.
    #[arg(long, value_enum, default_value = "rust")]
    lang: Language,
    /// The contract the router exports: `25.3.26`, which the SDKs write
    /// (with mcp-wit's extension: templates, prompt arguments, talking
    /// back), or its successor `25.6.18` (titles, structured content and
    /// elicitation in the contract; Rust only, without an SDK).
    #[arg(long, value_enum, default_value = "25.3.26")]
    contract: Contract,
    /// What the router starts as: `router` (tools, a resource, a prompt,
    /// talking back) or `app` (an MCP App: a tool with an HTML view that
    /// calls a tool back; on 25.3.26).
    #[arg(long, value_enum, default_value = "router")]
    template: Template,
}

/// What a new router starts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Template {
    /// Tools, a resource, a prompt, talking back.
    Router,
    /// An MCP App: a tool with an HTML view that calls a tool back.
    App,
}

/// A router contract `new` starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Contract {
    /// `wasix:mcp/router@25.3.26`.
    #[value(name = "25.3.26")]
    V25_3_26,
    /// `wasix:mcp/router@25.6.18`.
    #[value(name = "25.6.18")]
    V25_6_18,
}

/// A README's client configuration made to work as it is: the `mcp-wit`
/// that wrote the project by its full path (a desktop client starts servers
/// with a minimal `PATH`), and the component where the project builds it.
fn client_config(readme: String, project: &Path, name: &str) -> String {
    let json = |path: &Path| serde_json::to_string(&path.display().to_string()).expect("a string serialises");
    let mut readme = readme;
    if let Ok(binary) = std::env::current_exe() {
        readme = readme.replace(r#""command": "mcp-wit""#, &format!(r#""command": {}"#, json(&binary)));
    }
    if let Ok(project) = std::path::absolute(project) {
        let wasm = project.join("build").join(format!("{name}.wasm"));
        readme = readme.replace(&format!(r#""/path/to/build/{name}.wasm""#), &json(&wasm));
        let notes = format!("{}:/notes:ro", project.join("notes").display());
        readme = readme.replace(r#""/path/to/notes:/notes:ro""#, &json(Path::new(&notes)));
    }
    readme
}

pub fn new(args: NewArgs) -> anyhow::Result<()> {
    let name = crate_name(&args.path)?;
    if args.path.exists() && std::fs::read_dir(&args.path).map(|mut d| d.next().is_some()).unwrap_or(true) {
        anyhow::bail!("{} already exists and is not empty; pick another name or remove it", args.path.display());
    }
    let snake = name.replace('-', "_");
    let (template, verbatim): (&[(&str, &str)], &[&str]) = match (args.lang, args.contract) {
        (Language::Rust, Contract::V25_3_26) => (TEMPLATE, &["wit/", "vendor/"]),
        (Language::Rust, Contract::V25_6_18) => (TEMPLATE_25_6_18, &["wit/"]),
        (Language::Python, Contract::V25_3_26) => (PYTHON_TEMPLATE, &["mcp_wit/"]),
        (Language::Typescript, Contract::V25_3_26) => (TYPESCRIPT_TEMPLATE, &["vendor/"]),
        (lang, Contract::V25_6_18) => anyhow::bail!(
            "the {lang:?} SDK writes wasix:mcp/router@25.3.26; a router on 25.6.18 is started in Rust \
             (`--lang rust --contract 25.6.18`)"
        ),
    };
    let app: &[(&str, &str)] = match (args.template, args.lang, args.contract) {
        (Template::Router, ..) => &[],
        (Template::App, _, Contract::V25_6_18) => {
            anyhow::bail!("the app template is on wasix:mcp/router@25.3.26: leave out `--contract 25.6.18`")
        }
        (Template::App, Language::Rust, _) => RUST_APP,
        (Template::App, Language::Python, _) => PYTHON_APP,
        (Template::App, Language::Typescript, _) => TYPESCRIPT_APP,
    };
    // The app's files take the place of the router's of the same path.
    let template = template.iter().filter(|(file, _)| !app.iter().any(|(replaced, _)| replaced == file)).chain(app);
    for (file, text) in template {
        let target = args.path.join(file);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        // The contract and the SDK are copied byte for byte; only the
        // project's own files are renamed.
        let text = if verbatim.iter().any(|prefix| file.starts_with(prefix)) {
            (*text).to_string()
        } else {
            text.replace("my-router", &name).replace("my_router", &snake)
        };
        let text = if *file == "README.md" { client_config(text, &args.path, &name) } else { text };
        std::fs::write(&target, text).with_context(|| format!("cannot write {}", target.display()))?;
    }
    let (setup, wasm) = match args.lang {
        Language::Rust => (None, format!("target/wasm32-wasip2/release/{snake}.wasm")),
        Language::Python => (
            Some("python3 -m venv .venv && .venv/bin/pip install -r requirements-build.txt"),
            format!("build/{name}.wasm"),
        ),
        Language::Typescript => (Some("npm install"), format!("build/{name}.wasm")),
    };
    println!("Created the router `{name}` in {}. Next:", args.path.display());
    println!("  cd {}", args.path.display());
    if let Some(setup) = setup {
        println!("  {setup}");
    }
    println!("  mcp-wit build");
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
    fn every_file_of_the_25_6_18_template_goes_along() {
        let template = Path::new(env!("CARGO_MANIFEST_DIR")).join("../guest-template-25.6.18");
        for dir in ["src", "wit"] {
            for entry in std::fs::read_dir(template.join(dir)).unwrap() {
                let file = format!("{dir}/{}", entry.unwrap().file_name().to_string_lossy());
                assert!(
                    TEMPLATE_25_6_18.iter().any(|(path, _)| *path == file),
                    "{file} is missing from TEMPLATE_25_6_18"
                );
            }
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
        let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sdk/python/mcp_wit");
        for dir in [package.clone(), package.join("wit")] {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let entry = entry.unwrap();
                let name = entry.file_name().to_string_lossy().into_owned();
                if entry.path().is_dir() || name.ends_with(".pyc") {
                    continue;
                }
                let relative = entry.path().strip_prefix(package.parent().unwrap()).unwrap().to_owned();
                let file = relative.to_string_lossy().into_owned();
                assert!(
                    PYTHON_TEMPLATE.iter().any(|(path, _)| *path == file),
                    "{file} is missing from PYTHON_TEMPLATE"
                );
            }
        }
        let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sdk/typescript");
        for dir in ["src", "wit", "bin"] {
            for entry in std::fs::read_dir(package.join(dir)).unwrap() {
                let file = format!("vendor/mcp-wit-sdk/{dir}/{}", entry.unwrap().file_name().to_string_lossy());
                assert!(
                    TYPESCRIPT_TEMPLATE.iter().any(|(path, _)| *path == file),
                    "{file} is missing from TYPESCRIPT_TEMPLATE"
                );
            }
        }
    }
}
