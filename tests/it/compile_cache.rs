//! Ahead-of-time compilation and the on-disk compile cache: a cached
//! component loads without compiling, and a corrupt, foreign or stale entry
//! is recompiled with a warning, never loaded.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use mcp_wit::runtime::cache::CompileCache;
use mcp_wit_tests::support;
use serde_json::{Value, json};

/// Runs `mcp-wit ARGS` with an initialize and an echo call on stdin.
fn serve(args: &[&str]) -> (Output, Vec<Value>) {
    use std::io::Write;
    let mut child = Command::new(support::binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = [
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":support::initialize_params("2025-11-25")}),
        json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"cached"}}}),
    ]
    .map(|m| m.to_string())
    .join("\n");
    child.stdin.take().unwrap().write_all(format!("{input}\n").as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let messages = String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (output, messages)
}

fn assert_served(output: &Output, messages: &[Value]) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(messages.len(), 2, "{messages:?} {stderr}");
    assert_eq!(messages[1]["result"]["content"][0]["text"], "cached", "{messages:?}");
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn entries(dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir).map(|d| d.map(|e| e.unwrap().path()).collect()).unwrap_or_default()
}

/// The compiled components in `cache` (beside them: the checks noted as
/// passed, in `passed/`).
fn compiled_entries(cache: &Path) -> Vec<std::path::PathBuf> {
    entries(cache).into_iter().filter(|path| path.extension().is_some_and(|e| e == "cwasm")).collect()
}

#[test]
fn compile_writes_a_cwasm_that_serve_runs() {
    let dir = tempfile::tempdir().unwrap();
    let cwasm = dir.path().join("echo.cwasm");
    let echo = support::fixture("echo");
    let status = Command::new(support::binary())
        .args(["compile", echo.to_str().unwrap(), "-o", cwasm.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(std::fs::read(&cwasm).unwrap().starts_with(b"\x7fELF"), "a .cwasm is an ELF image");
    let (output, messages) = serve(&["serve", cwasm.to_str().unwrap(), "--no-cache"]);
    assert_served(&output, &messages);
}

#[test]
fn a_cwasm_from_another_engine_is_refused_with_advice() {
    let dir = tempfile::tempdir().unwrap();
    let cwasm = dir.path().join("foreign.cwasm");
    let wasm = std::fs::read(support::fixture("echo")).unwrap();
    let mut config = wasmtime::Config::new();
    config.cranelift_opt_level(wasmtime::OptLevel::None).epoch_interruption(false);
    let foreign = wasmtime::Engine::new(&config).unwrap();
    let bytes = wasmtime::component::Component::new(&foreign, &wasm).unwrap().serialize().unwrap();
    std::fs::write(&cwasm, bytes).unwrap();
    let (output, _) = serve(&["serve", cwasm.to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("recompile it with `mcp-wit compile`"), "{}", stderr(&output));
}

#[test]
fn the_cache_is_filled_then_hit() {
    let cache = tempfile::tempdir().unwrap();
    let echo = support::fixture("echo");
    let args = ["-v", "serve", echo.to_str().unwrap(), "--cache-dir", cache.path().to_str().unwrap()];
    let (output, messages) = serve(&args);
    assert_served(&output, &messages);
    // Served at once with the baseline compiler's code; the optimised code
    // compiled beside it, and finished when the client left.
    assert!(stderr(&output).contains("serving code from the baseline compiler"), "{}", stderr(&output));
    assert!(stderr(&output).contains("outcome=Compiled"), "{}", stderr(&output));
    assert_eq!(compiled_entries(cache.path()).len(), 1, "one entry");
    // The echo tool's schemas compiled, and that is noted: the next start
    // does not compile them again.
    assert_eq!(entries(&cache.path().join("passed")).len(), 1, "one passed check");
    let (output, messages) = serve(&args);
    assert_served(&output, &messages);
    assert!(stderr(&output).contains("outcome=Hit"), "{}", stderr(&output));
    assert!(!stderr(&output).contains("baseline"), "{}", stderr(&output));
}

/// The cache entry `serve` would use for the echo component.
fn entry_for_echo(cache: &Path) -> std::path::PathBuf {
    let engine = mcp_wit::runtime::engine::build_engine().unwrap();
    let wasm = std::fs::read(support::fixture("echo")).unwrap();
    CompileCache::new(cache).entry_path(&engine, &wasm)
}

#[test]
fn corrupt_foreign_and_stale_entries_are_recompiled_with_a_warning() {
    let cache = tempfile::tempdir().unwrap();
    let echo = support::fixture("echo");
    let args = ["-v", "serve", echo.to_str().unwrap(), "--cache-dir", cache.path().to_str().unwrap()];
    let (output, _) = serve(&args);
    assert!(output.status.success());
    let entry = entry_for_echo(cache.path());
    assert!(entry.exists(), "the entry is where the library says: {}", entry.display());
    let good = std::fs::read(&entry).unwrap();

    // Corrupt: one byte of the compiled code flipped.
    let mut corrupt = good.clone();
    let last = corrupt.len() - 1;
    corrupt[last] ^= 0xff;
    // Truncated: half of it.
    let truncated = good[..good.len() / 2].to_vec();
    // Foreign: not an entry at all.
    let foreign = b"this is not a compiled component".to_vec();
    // Stale: a well-formed entry holding code for another engine.
    let stale = {
        let mut config = wasmtime::Config::new();
        config.cranelift_opt_level(wasmtime::OptLevel::None).epoch_interruption(false);
        let other = wasmtime::Engine::new(&config).unwrap();
        let wasm = std::fs::read(&echo).unwrap();
        let payload = wasmtime::component::Component::new(&other, &wasm).unwrap().serialize().unwrap();
        let mut entry = good[..8].to_vec();
        entry.extend_from_slice(blake3::hash(&payload).as_bytes());
        entry.extend_from_slice(&payload);
        entry
    };
    for (what, bytes, why) in [
        ("corrupt", corrupt, "checksum mismatch"),
        ("truncated", truncated, "checksum mismatch"),
        ("foreign", foreign, "not an mcp-wit cache entry"),
        ("stale", stale, "unusable compile cache entry"),
    ] {
        std::fs::write(&entry, bytes).unwrap();
        let (output, messages) = serve(&args);
        assert_served(&output, &messages);
        let log = stderr(&output);
        assert!(log.contains("recompiling") && log.contains(why), "{what}: {log}");
        assert!(log.contains("outcome=Replaced"), "{what}: {log}");
        assert_eq!(std::fs::read(&entry).unwrap(), good, "{what}: the entry was rewritten");
    }
}

#[test]
fn one_entry_serves_every_memory_cap_timeout_and_pool_and_call_takes_them_too() {
    let cache = tempfile::tempdir().unwrap();
    let echo = support::fixture("echo");
    let (echo, dir) = (echo.to_str().unwrap(), cache.path().to_str().unwrap());
    let base = ["-v", "serve", echo, "--cache-dir", dir];
    let (output, messages) = serve(&base);
    assert_served(&output, &messages);
    assert!(stderr(&output).contains("outcome=Compiled"), "{}", stderr(&output));
    for limit in [["--max-memory", "8MiB"], ["--max-memory", "1GiB"], ["--timeout", "2s"], ["--pool-instances", "3"]] {
        let (output, messages) = serve(&[&base[..], &limit[..]].concat());
        assert_served(&output, &messages);
        assert!(stderr(&output).contains("outcome=Hit"), "{limit:?} compiled again: {}", stderr(&output));
    }
    assert_eq!(compiled_entries(cache.path()).len(), 1, "one entry");
    // `call` takes serve's limit and cache flags, and its code is the same.
    let call = |limits: &[&str]| {
        let args = ["-v", "call", echo, "echo", "--args", r#"{"text":"hi"}"#, "--cache-dir", dir];
        Command::new(support::binary()).args(args).args(limits).output().unwrap()
    };
    let called = call(&["--max-memory", "16MiB", "--timeout", "3s", "--max-output", "1MiB"]);
    assert!(called.status.success(), "{}", stderr(&called));
    assert!(String::from_utf8_lossy(&called.stdout).contains("hi"), "{called:?}");
    assert!(stderr(&called).contains("outcome=Hit"), "{}", stderr(&called));
    // A cap below what the echo router's memory starts at (1,088 KiB) is
    // refused as `serve` refuses it.
    let refused = call(&["--max-memory", "1MiB"]);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("more than the memory cap of 1MiB"), "{}", stderr(&refused));
}

/// An engine that serves baseline code first: a component the cache lacks
/// is served at once with Winch's code, the optimised code is compiled into
/// the cache beside it, and instances made after that run it; the next load
/// finds it in the cache and never runs baseline code. The same whether the
/// engine pools its instances (HTTP) or allocates each on demand (stdio).
#[test]
fn a_miss_serves_baseline_code_at_once_then_the_optimised_code_from_the_cache() {
    baseline_then_optimised(true);
    baseline_then_optimised(false);
}

fn baseline_then_optimised(pooling: bool) {
    use mcp_wit::{EngineOptions, LoadedRouter, SandboxPolicy};
    let cache_dir = tempfile::tempdir().unwrap();
    let cache = CompileCache::new(cache_dir.path());
    let options = EngineOptions { pool_instances: 8, pooling, baseline_first: true, ..EngineOptions::default() };
    let engine = options.build().unwrap();
    let echo = support::fixture("echo");
    let load = || LoadedRouter::load(&engine, &echo, SandboxPolicy::builder("echo").build(), Some(&cache)).unwrap();
    let echoed = |router: &LoadedRouter| {
        let mut instance = router.instantiate().expect("an instance");
        let result = instance.call_tool("echo", r#"{"text":"tiered"}"#).expect("no fault").expect("a result");
        match &result.content[..] {
            [mcp_wit::contract::Content::Text(text)] => text.text.clone(),
            other => panic!("one text item expected: {other:?}"),
        }
    };

    let router = load();
    // Served before the optimised code can be ready (the compile that
    // makes it runs on another thread; this one may already have ended on a
    // fast machine, hence no assertion that it has not).
    assert_eq!(echoed(&router), "tiered");
    mcp_wit::runtime::finish_optimising();
    assert!(router.optimised(), "new instances run the optimised code once it is ready");
    assert_eq!(echoed(&router), "tiered");
    assert_eq!(compiled_entries(cache_dir.path()).len(), 1, "the optimised code is in the cache");

    let again = load();
    assert!(again.optimised(), "a hit serves the optimised code at once");
    assert_eq!(echoed(&again), "tiered");
}
