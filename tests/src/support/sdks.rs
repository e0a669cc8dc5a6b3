//! What the guest SDKs' tests share (`tests/it/python_sdk.rs`,
//! `tests/it/typescript_sdk.rs`): where things are, a command run with
//! its output kept for the failure, a component compiled into a cache of
//! its own before a client meets it, a Python SDK client session against
//! it, and the check every `mcp-wit new` template passes, over stdio and
//! Streamable HTTP in both eras: `reverse` (validated arguments, structured
//! output), `template://readme`, the `welcome` prompt with an argument, and
//! `greet` (progress, a log line, an elicitation the client answers).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use super::binary;
use super::http::HttpServer;
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

/// How a check reaches the router: a server of its own per client over
/// stdio, or one Streamable HTTP server every client shares.
#[derive(Clone, Copy)]
pub enum Reach<'a> {
    Stdio(&'a Built),
    Http(&'a str),
}

/// A Python SDK client run against the router `reach` gets to.
pub async fn session_by(reach: Reach<'_>, steps: &[&str]) -> PeerRun {
    match reach {
        Reach::Stdio(built) => session(built, steps, &[]).await,
        Reach::Http(url) => {
            let mut args: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
            args.extend(["--url".into(), url.into()]);
            run_peer(Peer::Python, args).await
        }
    }
}

/// Serves `wasm` (built from a template renamed `name`, compiled by
/// `mcp-wit build` into `NAME.cache` beside it) and checks it over stdio
/// and Streamable HTTP, in both eras: `reverse` (an argument checked
/// against its schema, structured output), `template://readme`, the
/// `welcome` prompt with an argument, and `greet`, which reports progress
/// and asks the user their name (answered by the client).
pub async fn check_served(wasm: &Path, name: &str) {
    let built = compiled(wasm.to_path_buf(), wasm.with_extension("cache"));
    let cache = built.cache.display().to_string();
    let http = HttpServer::start(&[&wasm.display().to_string(), "--cache-dir", &cache]).await;
    let url = http.url();
    for (transport, reach) in [("stdio", Reach::Stdio(&built)), ("http", Reach::Http(&url))] {
        for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
            let context = format!("{name} over {transport}, {version}");
            check_template(reach, mode, version, name, &context).await;
        }
    }
    http.stop().await;
}

/// One era of [`check_served`], its three clients at once.
async fn check_template(reach: Reach<'_>, mode: &str, version: &str, name: &str, context: &str) {
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
    let mut talk_steps = vec!["--mode", mode, "--tool", "greet", "--talk-back", "accept"];
    talk_steps.extend(["--elicit-content", r#"{"name":"Ada"}"#]);
    // Log messages are asked for with `logging/setLevel`, a 2025 request.
    if mode == "legacy" {
        talk_steps.extend(["--log-level", "info"]);
    }
    let (good, bad, talk) =
        tokio::join!(session_by(reach, &good_steps), session_by(reach, &bad_steps), session_by(reach, &talk_steps));
    let report = &good.report;
    assert_eq!(report["protocolVersion"], version, "{context}: {report}");
    assert_eq!(report["serverInfo"]["name"], name, "{context}: {report}");
    assert_eq!(report["call"]["structuredContent"], json!({ "text": "olleh", "length": 5 }), "{context}: {report}");
    let readme = report["read"]["contents"][0]["text"].as_str().unwrap_or_default();
    assert!(readme.starts_with(&format!("# {name}")), "{context}: {report}");
    let message = &report["prompt"]["messages"][0]["content"]["text"];
    assert_eq!(message, "Write a one-line welcome for Ada.", "{context}: {report}");
    let refused = &bad.report["call"];
    assert_eq!(refused["isError"], true, "{context}: {refused}");
    assert!(text(refused).contains("shorter than 1 character"), "{context}: {refused}");

    let report = &talk.report;
    assert_eq!(text(&report["call"]), "Hello, Ada!", "{context}: {report}");
    let asked = &report["talkBack"]["elicited"][0];
    assert_eq!(asked["message"], "What is your name?", "{context}: {report}");
    let field = &asked["requestedSchema"]["properties"]["name"];
    assert_eq!(field["type"], "string", "{context}: {report}");
    let progress = report["talkBack"]["progress"].as_array().expect("progress is recorded");
    let steps: Vec<_> = progress.iter().map(|p| (p["progress"].as_f64(), p["message"].as_str())).collect();
    // A 2026-07-28 call runs again with the answer, so "asking" may repeat.
    assert_eq!(steps.first(), Some(&(Some(0.0), Some("asking"))), "{context}: {report}");
    assert_eq!(steps.last(), Some(&(Some(2.0), Some("done"))), "{context}: {report}");
    if mode == "legacy" {
        let logs = &report["talkBack"]["logs"];
        assert_eq!(logs[0]["level"], "info", "{context}: {report}");
        assert_eq!(logs[0]["data"], "greeting someone", "{context}: {report}");
    }
}
