//! What the guest SDKs' tests share (`tests/tests/python_sdk.rs`,
//! `tests/tests/typescript_sdk.rs`): where things are, a command run with
//! its output kept for the failure, a component compiled into a cache of
//! its own before a client meets it, a Python SDK client session against
//! it, and the check every `mcp-wit new` template passes: `reverse`
//! (validated arguments, structured output), `template://readme`, and the
//! `welcome` prompt with an argument, in both eras.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use super::binary;
use super::peers::{Peer, PeerRun, run_peer};

/// A built component and the compile cache it is warm in.
pub struct Built {
    pub wasm: PathBuf,
    pub cache: PathBuf,
}

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is in the repository").to_path_buf()
}

/// `<target-dir>`, where the binary under test was built.
pub fn target_dir() -> PathBuf {
    let binary = binary();
    binary.parent().and_then(Path::parent).expect("the binary is in <target-dir>/<profile>").to_path_buf()
}

/// Runs `command`; on a failure, what it printed.
pub fn run(command: &mut Command, what: &str) -> Result<(), String> {
    let output = command.output().map_err(|e| format!("cannot run {what}: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    Err(format!(
        "{what} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    ))
}

/// `wasm` served once with `cache` (filled if it is not already): a client
/// negotiating the era could give up on a server that is still compiling.
pub fn compiled(wasm: PathBuf, cache: PathBuf) -> Built {
    run(
        Command::new(binary()).arg("serve").arg(&wasm).arg("--cache-dir").arg(&cache).stdin(Stdio::null()),
        "mcp-wit serve (compiling into the cache)",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    Built { wasm, cache }
}

/// A Python SDK client run against `built`; `steps` are the peer's
/// options, `serve` extra options of `mcp-wit serve`.
pub async fn session(built: &Built, steps: &[&str], serve: &[&str]) -> PeerRun {
    let mut args: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
    args.extend(["--".into(), binary().display().to_string(), "serve".into()]);
    args.push(built.wasm.display().to_string());
    args.extend(["--cache-dir".into(), built.cache.display().to_string()]);
    args.extend(serve.iter().map(|s| s.to_string()));
    run_peer(Peer::Python, args).await
}

/// The one text item of a tool result.
pub fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text content: {result}"))
}

/// Serves `wasm` (built from a template renamed `name`, compiled by
/// `mcp-wit build` into `NAME.cache` beside it) and checks it.
pub async fn check_served(wasm: &Path, name: &str) {
    let built = compiled(wasm.to_path_buf(), wasm.with_extension("cache"));
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let steps = |arguments| {
            [
                "--mode",
                mode,
                "--tool",
                "reverse",
                "--args",
                arguments,
                "--resource",
                "template://readme",
                "--prompt",
                "welcome",
                "--prompt-args",
                r#"{"name":"Ada"}"#,
            ]
        };
        let (good_steps, bad_steps) = (steps(r#"{"text":"hello"}"#), steps(r#"{"text":""}"#));
        let (good, bad) = tokio::join!(session(&built, &good_steps, &[]), session(&built, &bad_steps, &[]));
        let report = &good.report;
        assert_eq!(report["protocolVersion"], version, "{report}");
        assert_eq!(report["serverInfo"]["name"], name, "{report}");
        assert_eq!(report["call"]["structuredContent"], json!({ "text": "olleh", "length": 5 }), "{report}");
        let readme = report["read"]["contents"][0]["text"].as_str().unwrap_or_default();
        assert!(readme.starts_with(&format!("# {name}")), "{report}");
        let message = &report["prompt"]["messages"][0]["content"]["text"];
        assert_eq!(message, "Write a one-line welcome for Ada.", "{report}");
        let refused = &bad.report["call"];
        assert_eq!(refused["isError"], true, "{refused}");
        assert!(text(refused).contains("shorter than 1 character"), "{refused}");
    }
}
