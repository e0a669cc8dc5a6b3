//! What every `mcp-wit new` template serves, checked the same way for each
//! language: `reverse` (validated arguments, structured output),
//! `template://readme`, and the `welcome` prompt with an argument, in both
//! eras, with the Python SDK client.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::json;

use super::binary;
use super::peers::{Peer, run_peer};

/// Serves `wasm` (built from a template renamed `name`, compiled by
/// `mcp-wit build` into `NAME.cache` beside it) and checks it.
pub async fn check_served(wasm: &Path, name: &str) {
    let cache = wasm.with_extension("cache");
    // Served once first: a client negotiating the era could give up on a
    // server that is still compiling, were the cache not filled.
    let compiled = Command::new(binary())
        .arg("serve")
        .arg(wasm)
        .arg("--cache-dir")
        .arg(&cache)
        .stdin(Stdio::null())
        .output()
        .expect("mcp-wit serve runs");
    assert!(compiled.status.success(), "{}", String::from_utf8_lossy(&compiled.stderr));
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let run = |arguments: &str| {
            let mut args: Vec<String> = [
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
                "--",
            ]
            .map(String::from)
            .to_vec();
            args.extend([binary().display().to_string(), "serve".into(), wasm.display().to_string()]);
            args.extend(["--cache-dir".into(), cache.display().to_string()]);
            run_peer(Peer::Python, args)
        };
        let (good, bad) = tokio::join!(run(r#"{"text":"hello"}"#), run(r#"{"text":""}"#));
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
        let reason = refused["content"][0]["text"].as_str().unwrap_or_default();
        assert!(reason.contains("shorter than 1 character"), "{refused}");
    }
}
