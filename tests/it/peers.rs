// The official SDK clients against `mcp-wit serve` with the conformance
// fixture, on stdio and Streamable HTTP: the Python SDK's `Client` in its
// default mode and the TypeScript SDK v2 client with `versionNegotiation:
// 'auto'` negotiate 2026-07-28 and call tools, resources, prompts and
// completions; a 2025 client on the same server at the same time is served
// as before. Every message the server sent a modern client validates
// against the 2026-07-28 schema. (The peers install on first use, see
// `support::peers`.)

use mcp_wit_tests::support;
use serde_json::Value;
use support::http::HttpServer;
use support::peers::{Peer, PeerRun, run_peer};
use support::schema::{self, Revision};
use support::{binary, fixture_arg};

const SIMPLE_TEXT: &str = "This is a simple text response for testing.";

/// The steps every run takes, in the peer scripts' options.
fn steps(mode: &str) -> Vec<String> {
    [
        "--mode",
        mode,
        "--tool",
        "test_simple_text",
        "--resource",
        "test://static-text",
        "--prompt",
        "test_simple_prompt",
        "--complete-prompt",
        "test_prompt_with_arguments",
        "--complete-arg",
        "arg1=te",
    ]
    .map(String::from)
    .to_vec()
}

fn over_stdio(mode: &str) -> Vec<String> {
    let mut args = steps(mode);
    args.extend(["--".into(), binary().display().to_string(), "serve".into(), fixture_arg("conformance")]);
    args
}

fn over_http(mode: &str, url: &str) -> Vec<String> {
    let mut args = steps(mode);
    args.extend(["--url".into(), url.into()]);
    args
}

/// Checks what a peer reported after negotiating `version`.
fn assert_served(run: &PeerRun, version: &str) {
    let report = &run.report;
    assert_eq!(report["protocolVersion"], version, "{report}");
    let tools: Vec<&str> =
        report["tools"].as_array().expect("tools").iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(tools.contains(&"test_simple_text"), "{report}");
    assert_eq!(report["call"]["content"][0]["text"], SIMPLE_TEXT, "{report}");
    assert!(report["read"]["contents"][0]["text"].is_string(), "{report}");
    assert!(report["resources"].as_array().is_some_and(|r| !r.is_empty()), "{report}");
    assert!(report["prompts"].as_array().is_some_and(|p| !p.is_empty()), "{report}");
    assert!(report["prompt"]["messages"].as_array().is_some_and(|m| !m.is_empty()), "{report}");
    assert!(report["templates"].is_array(), "{report}");
    assert!(report["complete"]["completion"]["values"].is_array(), "{report}");
}

/// Checks every message a modern client received against the 2026-07-28
/// schema: each as a JSON-RPC message, results as one of the server's results.
fn assert_modern_wire(run: &PeerRun) {
    assert!(!run.trace.is_empty(), "the peer traced nothing");
    for message in &run.trace {
        schema::check_at(Revision::Modern, "JSONRPCMessage", message).unwrap();
        if let Some(result) = message.get("result") {
            schema::check_at(Revision::Modern, "ServerResult", result).unwrap();
            assert_eq!(result["resultType"], "complete", "{message}");
        }
        if message.get("method").and_then(Value::as_str).is_some() {
            schema::check_at(Revision::Modern, "ServerNotification", message).unwrap();
        }
    }
}

#[tokio::test]
async fn python_sdk_negotiates_2026_over_stdio() {
    let run = run_peer(Peer::Python, over_stdio("auto")).await;
    assert_served(&run, "2026-07-28");
    assert_eq!(run.report["serverInfo"]["name"], "mcp-wit-conformance", "{}", run.report);
    assert_modern_wire(&run);
}

#[tokio::test]
async fn typescript_sdk_negotiates_2026_over_stdio() {
    let run = run_peer(Peer::TypeScript, over_stdio("auto")).await;
    assert_served(&run, "2026-07-28");
    assert_modern_wire(&run);
}

#[tokio::test]
async fn sdk_clients_of_both_eras_share_one_http_server() {
    let fixture = fixture_arg("conformance");
    let server = HttpServer::start(&[fixture.as_str()]).await;
    let url = server.url();
    let (python_modern, python_legacy, ts_modern, ts_legacy) = tokio::join!(
        run_peer(Peer::Python, over_http("auto", &url)),
        run_peer(Peer::Python, over_http("legacy", &url)),
        run_peer(Peer::TypeScript, over_http("auto", &url)),
        run_peer(Peer::TypeScript, over_http("legacy", &url)),
    );
    assert_served(&python_modern, "2026-07-28");
    assert_modern_wire(&python_modern);
    assert_served(&ts_modern, "2026-07-28");
    assert_modern_wire(&ts_modern);
    assert_served(&python_legacy, "2025-11-25");
    assert_served(&ts_legacy, "2025-11-25");
    for legacy in [&python_legacy, &ts_legacy] {
        assert!(legacy.trace.iter().all(|m| m["result"].get("resultType").is_none()), "legacy results are not stamped");
    }
    server.stop().await;
}

/// The texts of the `counter` calls a peer made (`--repeat`).
fn counted(run: &PeerRun) -> Vec<String> {
    let calls = run.report["calls"].as_array().unwrap_or_else(|| panic!("no calls: {}", run.report));
    calls
        .iter()
        .map(|call| call["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{call}")).to_string())
        .collect()
}

/// A stdio connection is one client: the router's state lives across its
/// calls in both eras, with either SDK (the fixture's `counter` counts the
/// calls its instance served).
#[tokio::test]
async fn a_stdio_client_keeps_its_instance_in_both_eras() {
    let counting = |mode: &str| {
        let mut args = vec!["--mode".to_string(), mode.into(), "--tool".into(), "counter".into(), "--repeat".into()];
        args.extend([
            "4".into(),
            "--".into(),
            binary().display().to_string(),
            "serve".into(),
            fixture_arg("conformance"),
        ]);
        args
    };
    let (python_modern, python_legacy, ts_modern, ts_legacy) = tokio::join!(
        run_peer(Peer::Python, counting("auto")),
        run_peer(Peer::Python, counting("legacy")),
        run_peer(Peer::TypeScript, counting("auto")),
        run_peer(Peer::TypeScript, counting("legacy")),
    );
    for (run, version) in [
        (&python_modern, "2026-07-28"),
        (&python_legacy, "2025-11-25"),
        (&ts_modern, "2026-07-28"),
        (&ts_legacy, "2025-11-25"),
    ] {
        assert_eq!(run.report["protocolVersion"], version, "{}", run.report);
        assert_eq!(counted(run), ["1", "2", "3", "4"], "{version}: {}", run.report);
    }
    assert_modern_wire(&python_modern);
    assert_modern_wire(&ts_modern);
}

/// A v1-draft plugin's results reach the client whole: the Python SDK
/// checks `get_time`'s `structuredContent` against its output schema (it
/// refuses a result of a tool with an output schema that has none), and a
/// `resource_link`, titles and `_meta` arrive as the plugin wrote them, in
/// both eras, every message valid at its revision.
#[tokio::test]
async fn a_v1_draft_plugins_structured_content_links_titles_and_meta_reach_the_python_sdk() {
    let plugin = support::plugin_fixture("structured-plugin").display().to_string();
    let args = |mode: &str, tool: &str| {
        ["--mode", mode, "--tool", tool, "--", &binary().display().to_string(), "serve", &plugin]
            .map(String::from)
            .to_vec()
    };
    let (modern_time, legacy_time, modern_link, legacy_link) = tokio::join!(
        run_peer(Peer::Python, args("auto", "get_time")),
        run_peer(Peer::Python, args("legacy", "get_time")),
        run_peer(Peer::Python, args("auto", "link")),
        run_peer(Peer::Python, args("legacy", "link")),
    );
    for (run, version) in [(&modern_time, "2026-07-28"), (&legacy_time, "2025-11-25")] {
        let report = &run.report;
        assert_eq!(report["protocolVersion"], version, "{report}");
        let structured = &report["call"]["structuredContent"];
        assert!(structured["time"].is_string() && structured["hour"].is_u64(), "{version}: {report}");
        assert_eq!(report["call"]["content"][0]["text"], structured["time"], "{report}");
        let tools = report["tools"].as_array().expect("tools");
        assert!(tools.iter().any(|t| t["title"] == "Time of day" && t["outputSchema"].is_object()), "{report}");
    }
    for (run, version) in [(&modern_link, "2026-07-28"), (&legacy_link, "2025-11-25")] {
        let report = &run.report;
        assert_eq!(report["protocolVersion"], version, "{report}");
        let link = &report["call"]["content"][1];
        assert_eq!(link["type"], "resource_link", "{report}");
        assert_eq!(link["uri"], "file:///reports/2026-11.md", "{report}");
        assert_eq!(
            (&link["title"], &link["mimeType"], &link["size"]),
            (&"November report".into(), &"text/markdown".into(), &1234.into()),
            "{report}"
        );
        assert_eq!(link["_meta"]["example.com/origin"], "structured-plugin", "{report}");
        assert_eq!(report["call"]["_meta"]["example.com/trace"]["id"], 7, "{report}");
    }
    assert_modern_wire(&modern_time);
    assert_modern_wire(&modern_link);
    for run in [&legacy_time, &legacy_link] {
        for message in &run.trace {
            schema::check_at(Revision::Legacy, "JSONRPCMessage", message).unwrap();
        }
    }
}

/// The first fenced block of `language` in the book's page `page`, with the
/// `mcp-wit` it starts replaced by the binary under test.
fn book_snippet(page: &str, language: &str, command: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs").join(page);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let start = text.find(&format!("```{language}\n")).unwrap_or_else(|| panic!("no {language} block in {page}"));
    let block = &text[start + language.len() + 4..];
    let block = &block[..block.find("```").expect("the block ends")];
    assert!(block.contains(command), "{page}: the {language} example starts `mcp-wit` as {command}");
    block.replace(command, &command.replace("mcp-wit", binary().to_str().unwrap()))
}

/// The client examples of the book (docs/users/clients.md) run as written
/// against the built-in demo router, with the Python and TypeScript SDKs.
#[tokio::test]
async fn the_books_client_examples_run_as_written() {
    let python = book_snippet("users/clients.md", "python", r#"command="mcp-wit""#);
    let js = book_snippet("users/clients.md", "js", "command: 'mcp-wit'");
    let outputs = tokio::task::spawn_blocking(move || {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("client.py");
        std::fs::write(&script, python).unwrap();
        let from_python = std::process::Command::new(support::peers::python()).arg(&script).output().unwrap();
        // Beside the SDK's node_modules, for the imports to resolve.
        let module = support::peers::node_modules_home().join(format!("book-client-{}.mjs", std::process::id()));
        std::fs::write(&module, js).unwrap();
        let from_node = std::process::Command::new("node").arg(&module).output().unwrap();
        let _ = std::fs::remove_file(&module);
        (from_python, from_node)
    })
    .await
    .unwrap();
    for (sdk, output) in [("Python", outputs.0), ("TypeScript", outputs.1)] {
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.trim() == "Hello, Ada!",
            "{sdk}: {stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
