//! `mcp-wit build [DIR]`: builds the router project in DIR with its
//! language's own toolchain (cargo, componentize-py, jco), which it finds by
//! the project's files. The toolchain's output passes through as it comes;
//! what `build` adds is the component's path at the end, or one line saying
//! which tool is missing and how to get it.

use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, bail};
use mcp_wit::{CompileCache, EngineOptions, LoadedRouter, SandboxPolicy};

#[derive(clap::Args)]
pub struct BuildArgs {
    /// The project: a directory `mcp-wit new` made, or any with a
    /// `Cargo.toml` (Rust), `pyproject.toml` (Python) or `package.json`
    /// (TypeScript).
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// Where `serve` will find the compiled component: it is compiled here
    /// after the build, so the first start does not wait for the compiler
    /// (seconds for a Python or JavaScript router) [default: the user cache
    /// directory, as `serve`'s].
    #[arg(long, value_name = "DIR", env = "MCP_WIT_CACHE_DIR", hide_env_values = true)]
    cache_dir: Option<PathBuf>,
    /// Do not compile the component into the cache after building it.
    #[arg(long)]
    no_compile: bool,
}

/// A project's language, told by its files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Language {
    /// A crate built for `wasm32-wasip2` (`Cargo.toml`).
    Rust,
    /// A package bundled by componentize-py (`pyproject.toml`).
    Python,
    /// A package built by jco (`package.json`).
    Typescript,
}

impl Language {
    /// The file that marks a project of this language.
    fn marker(self) -> &'static str {
        match self {
            Language::Rust => "Cargo.toml",
            Language::Python => "pyproject.toml",
            Language::Typescript => "package.json",
        }
    }

    /// The language of the project in `dir`.
    pub fn of(dir: &Path) -> anyhow::Result<Language> {
        let found: Vec<Language> = [Language::Rust, Language::Python, Language::Typescript]
            .into_iter()
            .filter(|language| dir.join(language.marker()).is_file())
            .collect();
        match found.as_slice() {
            [one] => Ok(*one),
            [] => bail!(
                "{} holds no project `mcp-wit build` knows: it looks for Cargo.toml (Rust), pyproject.toml \
                 (Python) or package.json (TypeScript); start one with `mcp-wit new NAME --lang rust|python|typescript`",
                dir.display()
            ),
            several => bail!(
                "{} holds a project of several languages ({}); build the one you mean in its own directory",
                dir.display(),
                several.iter().map(|l| l.marker()).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

pub fn build(args: BuildArgs) -> anyhow::Result<()> {
    anyhow::ensure!(args.dir.is_dir(), "{} is not a directory", args.dir.display());
    let wasm = match Language::of(&args.dir)? {
        Language::Rust => build_rust(&args.dir)?,
        Language::Python => build_python(&args.dir)?,
        Language::Typescript => build_typescript(&args.dir)?,
    };
    eprintln!("built {}", wasm.display());
    if !args.no_compile {
        compile_into_cache(&wasm, args.cache_dir, "built")?;
    }
    eprintln!("next: mcp-wit inspect {0}   or   mcp-wit serve {0}", wasm.display());
    println!("{}", wasm.display());
    Ok(())
}

/// Compiles `wasm` into the compile cache `serve` reads, checking on the way
/// that it is a router mcp-wit can serve (it exports the contract, its
/// imports are ones the host provides).
pub(crate) fn compile_into_cache(wasm: &Path, dir: Option<PathBuf>, done: &str) -> anyhow::Result<()> {
    let Some(dir) = dir.or_else(CompileCache::default_dir) else {
        eprintln!("no cache directory (no home directory): the first `serve` compiles the component");
        return Ok(());
    };
    let started = std::time::Instant::now();
    // A `serve --watch` of the component just written serves it with
    // baseline code meanwhile, and comes first.
    #[cfg(feature = "compiler")]
    mcp_wit::runtime::lower_this_threads_priority();
    let engine = EngineOptions { pool_instances: 1, ..EngineOptions::default() }.build()?;
    let label = wasm.file_stem().map_or_else(|| "router".into(), |s| s.to_string_lossy().into_owned());
    LoadedRouter::load(&engine, wasm, SandboxPolicy::builder(label).build(), Some(&CompileCache::new(&dir)))
        .with_context(|| format!("{} is {done}, but mcp-wit cannot serve it", wasm.display()))?;
    eprintln!(
        "compiled in {:.1} s into {}: the first `serve` starts without compiling",
        started.elapsed().as_secs_f64(),
        dir.display()
    );
    Ok(())
}

/// `cargo build --release --target wasm32-wasip2`; the component is the
/// crate's `cdylib`, where cargo's metadata says its target directory is.
fn build_rust(dir: &Path) -> anyhow::Result<PathBuf> {
    let mut cargo = Command::new("cargo");
    cargo.args(["build", "--release", "--target", "wasm32-wasip2"]).current_dir(dir);
    run(cargo, "cargo", "install Rust with rustup (rustup.rs), then `rustup target add wasm32-wasip2`", |line| {
        // rustc's words when the target's standard library is not installed.
        (line.contains("wasm32-wasip2")
            && (line.contains("target may not be installed") || line.contains("can't find crate")))
        .then_some("the wasm32-wasip2 target is missing: `rustup target add wasm32-wasip2`")
    })?;
    let metadata = Command::new("cargo")
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(dir)
        .stderr(Stdio::inherit())
        .output()
        .context("cannot run `cargo metadata`")?;
    anyhow::ensure!(metadata.status.success(), "`cargo metadata` failed in {}", dir.display());
    let metadata: serde_json::Value = serde_json::from_slice(&metadata.stdout).context("`cargo metadata` output")?;
    let manifest = std::fs::canonicalize(dir.join("Cargo.toml"))?;
    let package = metadata["packages"]
        .as_array()
        .and_then(|packages| {
            packages.iter().find(|p| p["manifest_path"].as_str().map(PathBuf::from).as_deref() == Some(&*manifest))
        })
        .with_context(|| {
            format!(
                "{} is not a package (a workspace's root?): build in the router's own directory",
                manifest.display()
            )
        })?;
    let name = package["name"].as_str().unwrap_or_default().replace('-', "_");
    let target = metadata["target_directory"].as_str().context("`cargo metadata` names no target directory")?;
    let wasm = Path::new(target).join("wasm32-wasip2/release").join(format!("{name}.wasm"));
    anyhow::ensure!(
        wasm.is_file(),
        "cargo built no {}: is the crate a `cdylib` (`[lib] crate-type = [\"cdylib\"]`)?",
        wasm.display()
    );
    Ok(wasm)
}

/// `python -m mcp_wit build APP -o build/NAME.wasm`: the SDK's build
/// (componentize-py over a staged copy, so no `__pycache__` lands in the
/// sources), run by the project's Python: its `.venv`, the active virtual
/// environment, else `python3`. `[project] name` names the component and
/// `[tool.mcp-wit] app` the module whose router is served (`app.py`).
fn build_python(dir: &Path) -> anyhow::Result<PathBuf> {
    let manifest = dir.join("pyproject.toml");
    let text = std::fs::read_to_string(&manifest).with_context(|| format!("cannot read {}", manifest.display()))?;
    let project: toml::Table = toml::from_str(&text).with_context(|| format!("{} is not TOML", manifest.display()))?;
    let name = project
        .get("project")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        .with_context(|| format!("{} has no `[project] name`", manifest.display()))?;
    let app = project
        .get("tool")
        .and_then(|t| t.get("mcp-wit"))
        .and_then(|m| m.get("app"))
        .and_then(|a| a.as_str())
        .unwrap_or("app.py");
    anyhow::ensure!(
        dir.join(app).is_file(),
        "{} has no {app}, the module whose `router` is served (`[tool.mcp-wit] app` in pyproject.toml names another)",
        dir.display()
    );
    let python = [dir.join(".venv/bin/python")]
        .into_iter()
        .chain(std::env::var_os("VIRTUAL_ENV").map(|venv| PathBuf::from(venv).join("bin/python")))
        .find(|python| python.is_file())
        .unwrap_or_else(|| PathBuf::from("python3"));
    let output = Path::new("build").join(format!("{name}.wasm"));
    let mut command = Command::new(&python);
    command.args(["-m", "mcp_wit", "build", app, "-o"]).arg(&output).current_dir(dir);
    let install =
        "install Python 3.11 or later, then `python3 -m venv .venv && .venv/bin/pip install -r requirements-build.txt`";
    run(command, &python.display().to_string(), install, |line| {
        if line.contains("componentize-py not found") {
            Some(
                "componentize-py is missing: `.venv/bin/pip install -r requirements-build.txt` (in the project's venv)",
            )
        } else if line.contains("No module named mcp_wit") {
            Some("the SDK is not importable: keep the `mcp_wit` folder beside the app, or `pip install mcp-wit-sdk`")
        } else {
            None
        }
    })?;
    let wasm = dir.join(output);
    anyhow::ensure!(wasm.is_file(), "the build wrote no {}", wasm.display());
    Ok(wasm)
}

/// `npm run build`: the project's own script (`mcp-wit new` writes
/// `mcp-wit-build router.ts -o build/NAME.wasm`, the SDK's bundler and
/// componentizer); the component is `build/NAME.wasm`, NAME from
/// package.json.
fn build_typescript(dir: &Path) -> anyhow::Result<PathBuf> {
    let manifest = dir.join("package.json");
    let text = std::fs::read_to_string(&manifest).with_context(|| format!("cannot read {}", manifest.display()))?;
    let package: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", manifest.display()))?;
    let name = package["name"].as_str().with_context(|| format!("{} has no `name`", manifest.display()))?;
    anyhow::ensure!(
        package["scripts"]["build"].is_string(),
        "{} has no `build` script: add `\"build\": \"mcp-wit-build router.ts -o build/{name}.wasm\"` to its scripts",
        manifest.display()
    );
    anyhow::ensure!(
        dir.join("node_modules").is_dir(),
        "{} has no node_modules: run `npm install` in it first",
        dir.display()
    );
    let mut npm = Command::new("npm");
    npm.args(["run", "--silent", "build"]).current_dir(dir);
    run(npm, "npm", "install Node.js 20 or later (it comes with npm)", |line| {
        line.contains("mcp-wit-build: not found")
            .then_some("the SDK's builder is missing: run `npm install` (the project depends on @mcp-wit/sdk)")
    })?;
    let wasm = dir.join("build").join(format!("{}.wasm", name.rsplit('/').next().unwrap_or(name)));
    anyhow::ensure!(
        wasm.is_file(),
        "the build script wrote no {}: it should write the component there",
        wasm.display()
    );
    Ok(wasm)
}

/// Runs `command` (the toolchain `tool`), its stdout and stderr passed
/// through to stderr as they come; each stderr line is also shown to `hint`, whose
/// first answer is said once the tool fails. A tool that is not installed
/// gets `install` as its hint.
fn run(
    mut command: Command,
    tool: &str,
    install: &str,
    hint: impl Fn(&str) -> Option<&'static str>,
) -> anyhow::Result<()> {
    // The toolchain's stdout goes to stderr too: stdout carries only the
    // component's path, for `mcp-wit serve "$(mcp-wit build)"`.
    let to_stderr = std::io::stderr().as_fd().try_clone_to_owned().context("cannot duplicate stderr")?;
    let mut child = match command.stdout(Stdio::from(to_stderr)).stderr(Stdio::piped()).spawn() {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!("`{tool}` is not installed: {install}"),
        Err(e) => return Err(e).with_context(|| format!("cannot run `{tool}`")),
    };
    let mut found = None;
    let stderr = child.stderr.take().expect("piped");
    let mut out = std::io::stderr().lock();
    for line in BufReader::new(stderr).lines() {
        let line = line?;
        let _ = writeln!(out, "{line}");
        found = found.or_else(|| hint(&line));
    }
    drop(out);
    let status = child.wait()?;
    if status.success() {
        return Ok(());
    }
    match found {
        Some(hint) => bail!("`{tool}` failed (its errors are above): {hint}"),
        None => bail!("`{tool}` failed (its errors are above)"),
    }
}
