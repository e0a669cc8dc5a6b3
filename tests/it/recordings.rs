// `.mcp` recordings: `serve --record` under the Python SDK client over stdio
// and Streamable HTTP, `mcp-wit log`, `mcp-wit replay` clean against the same
// router and exact about a changed one (`--ignore`, `--update`), the files
// read by flatc's Python code with the official FlatBuffers runtime, and
// files that are no recording refused with where.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::http::HttpServer;
use support::peers::{Peer, run_peer};
use support::schema::{self, Revision};
use support::{RawServer, binary, fixture_arg, plugin_fixture};

fn mcp_wit(args: &[&str]) -> Output {
    Command::new(binary()).args(args).output().expect("mcp-wit runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `mcp-wit log FILE`: each line as JSON.
fn log(file: &Path) -> Vec<Value> {
    let output = mcp_wit(&["log", &file.display().to_string()]);
    assert!(output.status.success(), "{}", stderr(&output));
    String::from_utf8(output.stdout).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

fn replay(file: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["replay".to_string(), file.display().to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(["--guest-output".into(), "discard".into()]);
    Command::new(binary()).args(&args).output().expect("mcp-wit runs")
}

fn temp_file(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

#[tokio::test]
async fn a_python_sdk_session_over_stdio_is_recorded_and_replays_clean() {
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(&dir, "stdio.mcp");
    let fixture = fixture_arg("conformance");
    let args: Vec<String> = ["--mode", "legacy", "--talk-back", "accept", "--tool", "test_sampling"]
        .into_iter()
        .map(String::from)
        .chain(["--args".into(), json!({ "prompt": "Say hi" }).to_string(), "--".into()])
        .chain([binary().display().to_string(), "serve".into(), fixture.clone()])
        .chain(["--record".into(), file.display().to_string(), "--guest-output".into(), "discard".into()])
        .collect();
    let run = run_peer(Peer::Python, args).await;
    assert_eq!(run.report["call"]["content"][0]["text"], "LLM response: This is a test response from the client");

    let records = log(&file);
    assert!(records.iter().all(|r| r["session"] == "stdio"), "{records:?}");
    let methods: Vec<(&str, &str)> =
        records.iter().filter_map(|r| Some((r["direction"].as_str()?, r["message"]["method"].as_str()?))).collect();
    for expected in [("in", "initialize"), ("in", "tools/call"), ("out", "sampling/createMessage")] {
        assert!(methods.contains(&expected), "{expected:?} in {methods:?}");
    }
    // The client's answer to the router's question is recorded as it came.
    let question = records.iter().find(|r| r["message"]["method"] == "sampling/createMessage").unwrap();
    let answer = records
        .iter()
        .find(|r| {
            r["direction"] == "in"
                && r["message"]["id"] == question["message"]["id"]
                && r["message"].get("result").is_some()
        })
        .expect("the client's answer");
    assert_eq!(answer["message"]["result"]["model"], "test-model");
    for record in &records {
        schema::check_at(Revision::Legacy, "JSONRPCMessage", &record["message"]).unwrap();
    }
    // The Python SDK's trace and the recording agree on what the server sent.
    let sent: Vec<&Value> = records.iter().filter(|r| r["direction"] == "out").map(|r| &r["message"]).collect();
    assert_eq!(sent.len(), run.trace.len(), "recorded {sent:?}, the client received {:?}", run.trace);

    let replayed = replay(&file, &[&fixture]);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(stderr(&replayed).contains("all as recorded"), "{}", stderr(&replayed));
}

#[tokio::test]
async fn python_sdk_sessions_over_http_in_both_eras_are_recorded_by_session_and_replay_clean() {
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(&dir, "http.mcp");
    let fixture = fixture_arg("conformance");
    let path = file.display().to_string();
    let server = HttpServer::start(&[&fixture, "--record", &path, "--guest-output", "discard"]).await;
    for mode in ["legacy", "2026-07-28"] {
        let args: Vec<String> = ["--mode", mode, "--tool", "test_simple_text", "--url", &server.url()]
            .into_iter()
            .map(String::from)
            .collect();
        let run = run_peer(Peer::Python, args).await;
        assert_eq!(run.report["call"]["content"][0]["text"], "This is a simple text response for testing.");
    }
    server.stop().await;

    let records = log(&file);
    let sessions: std::collections::BTreeSet<&str> = records.iter().map(|r| r["session"].as_str().unwrap()).collect();
    // One 2025 session (its Mcp-Session-Id) and the 2026-07-28 requests, each on its own.
    assert!(sessions.iter().any(|s| s.starts_with("request-")), "{sessions:?}");
    assert!(sessions.iter().any(|s| !s.starts_with("request-")), "{sessions:?}");
    let calls = records.iter().filter(|r| r["message"]["method"] == "tools/call").count();
    assert_eq!(calls, 2, "{records:?}");
    let answers = records
        .iter()
        .filter(|r| r["message"]["result"]["content"][0]["text"] == "This is a simple text response for testing.")
        .count();
    assert_eq!(answers, 2, "both answers, from a JSON body or an SSE event: {records:?}");

    let replayed = replay(&file, &[&fixture]);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
}

#[tokio::test]
async fn replay_reports_exactly_what_a_changed_router_answers() {
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(&dir, "greet.mcp");
    let servlet = plugin_fixture("servlet").display().to_string();
    let path = file.display().to_string();
    let mut server =
        RawServer::initialized(&["serve", &servlet, "--env", "GREETING=Hello", "--record", &path], "2025-11-25").await;
    assert_eq!(support::text(&server.call(1, "greet", json!({})).await), "Hello (call 1)");
    assert_eq!(support::text(&server.call(2, "echo", json!({ "text": "same" })).await), "same");
    server.finish().await;

    assert!(replay(&file, &[&servlet, "--env", "GREETING=Hello"]).status.success());
    let changed = replay(&file, &[&servlet, "--env", "GREETING=Bonjour"]);
    assert_eq!(changed.status.code(), Some(1));
    let report = stderr(&changed);
    assert!(report.contains("the answer to tools/call `greet` (id 1)"), "{report}");
    assert!(
        report.contains(
            "result.content.0.text\n    - recorded: \"Hello (call 1)\"\n    + replayed: \"Bonjour (call 1)\""
        ),
        "{report}"
    );
    assert!(report.contains("1 of 3 messages from the server differ"), "only the greeting: {report}");
    // A field left out of the comparison; then the recording brought up to date.
    assert!(replay(&file, &[&servlet, "--env", "GREETING=Bonjour", "--ignore", "result.content"]).status.success());
    assert!(replay(&file, &[&servlet, "--env", "GREETING=Bonjour", "--update"]).status.success());
    assert!(replay(&file, &[&servlet, "--env", "GREETING=Bonjour"]).status.success());
    let greeting = log(&file).into_iter().find(|r| r["message"]["id"] == 1 && r["direction"] == "out").unwrap();
    assert_eq!(greeting["message"]["result"]["content"][0]["text"], "Bonjour (call 1)");
}

#[tokio::test]
async fn a_recording_is_standard_flatbuffers_that_flatcs_python_reads() {
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(&dir, "std.mcp");
    let echo = fixture_arg("echo");
    let path = file.display().to_string();
    let secret_file = dir.path().join("token");
    std::fs::write(&secret_file, "tok-3.14159").unwrap();
    let secret = format!("TOKEN=@{}", secret_file.display());
    let mut server =
        RawServer::initialized(&["serve", &echo, "--record", &path, "--secret", &secret], "2025-11-25").await;
    server.call(1, "echo", json!({ "text": "the token is tok-3.14159" })).await;
    server.send(r#"{"jsonrpc":"2.0","id":"a string id","method":"ping"}"#).await;
    server.receive().await;
    server.send("not json").await;
    server.receive().await;
    server.finish().await;
    let bytes = std::fs::read(&file).unwrap();
    assert!(!String::from_utf8_lossy(&bytes).contains("tok-3.14159"), "a --secret value reached the recording");

    let generated = dir.path().join("generated");
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../record/schema/mcp.fbs");
    let flatc = Command::new("flatc")
        .args(["--python", "-o"])
        .arg(&generated)
        .arg(&schema)
        .output()
        .expect("flatc runs (install Debian's flatbuffers-compiler)");
    assert!(flatc.status.success(), "{}", String::from_utf8_lossy(&flatc.stderr));
    let read = Command::new(support::peers::python())
        .arg(support::peers::scripts().join("read_recording.py"))
        .arg(&generated)
        .arg(&file)
        .output()
        .expect("python runs");
    assert!(read.status.success(), "{}", String::from_utf8_lossy(&read.stderr));
    let lines: Vec<Value> =
        String::from_utf8(read.stdout).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(lines[0], json!({ "transportType": 1 }), "a StdioTransport header");
    assert_eq!(lines[1..], log(&file)[..], "flatc's Python reads what mcp-wit log reads");
    let texts: Vec<&Value> = lines.iter().map(|l| &l["message"]).collect();
    assert!(texts.contains(&&json!("not json")), "a message that is not JSON is kept as text");
    assert!(texts.iter().any(|m| m["id"] == "a string id"), "string ids are kept");
}

#[test]
fn what_is_not_a_recording_is_refused_with_where_and_a_cut_tail_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let json = temp_file(&dir, "x.mcp");
    std::fs::write(&json, br#"{"jsonrpc":"2.0"}"#).unwrap();
    let output = mcp_wit(&["log", &json.display().to_string()]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("at byte 0") && stderr(&output).contains("not an .mcp recording"),
        "{}",
        stderr(&output)
    );
    let missing = mcp_wit(&["log", "/nonexistent/x.mcp"]);
    assert!(stderr(&missing).contains("cannot read /nonexistent/x.mcp"), "{}", stderr(&missing));
    let replay_missing = mcp_wit(&["replay", "/nonexistent/x.mcp", &fixture_arg("echo")]);
    assert!(!replay_missing.status.success());

    // A recording cut short: what was complete is read, and the cut is said.
    let whole = temp_file(&dir, "whole.mcp");
    let path = whole.display().to_string();
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let recorded = Command::new(binary())
        .args(["serve", &fixture_arg("echo"), "--record", &path])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(&[&ping[..], b"\n", &ping[..], b"\n"].concat())?;
            child.wait()
        })
        .unwrap();
    assert!(recorded.success());
    let bytes = std::fs::read(&whole).unwrap();
    let cut = temp_file(&dir, "cut.mcp");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let output = mcp_wit(&["log", &cut.display().to_string()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 3, "the 4th record was cut");
    assert!(stderr(&output).contains("incomplete"), "{}", stderr(&output));
    // A corrupt buffer in the middle: refused, with its offset.
    let mut corrupt = bytes.clone();
    let second = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize + 4;
    corrupt[second + 8..second + 12].copy_from_slice(b"XXXX");
    let bad = temp_file(&dir, "bad.mcp");
    std::fs::write(&bad, &corrupt).unwrap();
    let output = mcp_wit(&["log", &bad.display().to_string()]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains(&format!("at byte {second}")), "{}", stderr(&output));
}

#[tokio::test]
async fn redacted_tools_are_kept_out_of_the_recording_and_not_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(&dir, "redacted.mcp");
    let servlet = plugin_fixture("servlet").display().to_string();
    let path = file.display().to_string();
    let args = ["serve", &servlet, "--env", "GREETING=Hi", "--record", &path, "--record-redact", "echo"];
    let mut server = RawServer::initialized(&args, "2025-11-25").await;
    assert_eq!(support::text(&server.call(1, "echo", json!({ "text": "password123" })).await), "password123");
    assert_eq!(support::text(&server.call(2, "greet", json!({})).await), "Hi (call 1)");
    server.finish().await;
    assert!(!String::from_utf8_lossy(&std::fs::read(&file).unwrap()).contains("password123"));
    let records = log(&file);
    let call = records.iter().find(|r| r["message"]["params"]["name"] == "echo").unwrap();
    assert_eq!(call["message"]["params"]["arguments"], "[redacted]");
    let answer = records.iter().find(|r| r["direction"] == "out" && r["message"]["id"] == 1).unwrap();
    assert_eq!(answer["message"]["result"]["content"][0]["text"], "[redacted]");
    // The redacted call is not sent again; the rest replays clean.
    let replayed = replay(&file, &[&servlet, "--env", "GREETING=Hi"]);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(stderr(&replayed).contains("1 calls of tools recorded with --record-redact were not replayed"));
}
