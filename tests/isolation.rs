//! Isolation, limits and fault tolerance, proven with the `hostile`
//! component: whatever a guest does, the caller gets the documented error
//! within the deadline, the host's memory returns to its level, and the next
//! call in the same session succeeds.

mod support;

use std::time::Duration;

use serde_json::{Value, json};
use support::{RawServer, component};

fn hostile() -> String {
    component("hostile").display().to_string()
}

fn error_message(answer: &Value, code: i64) -> String {
    assert_eq!(answer["error"]["code"], code, "{answer}");
    answer["error"]["message"].as_str().unwrap().to_string()
}

fn tool_error(answer: &Value) -> String {
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    answer["result"]["content"][0]["text"].as_str().unwrap().to_string()
}

fn text(answer: &Value) -> String {
    answer["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text: {answer}")).to_string()
}

/// The session still serves, from a fresh instance when `fresh`.
async fn assert_next_call_succeeds(server: &mut RawServer, id: i64, fresh: bool) {
    let answer = server.call(id, "counter", json!({})).await;
    let count: u64 = text(&answer).parse().unwrap();
    if fresh {
        assert_eq!(count, 1, "the faulted instance was replaced: {answer}");
    } else {
        assert!(count > 1, "the same instance goes on: {answer}");
    }
}

#[tokio::test]
async fn a_guest_that_spins_forever_times_out_and_the_session_goes_on() {
    let path = hostile();
    let mut server = RawServer::initialized(&["serve", &path, "--timeout", "1s"], "2025-11-25").await;
    assert_next_call_succeeds(&mut server, 1, true).await;
    let message = error_message(&server.call(2, "spin", json!({})).await, -32603);
    assert!(message.contains("timed out after 1s"), "{message}");
    assert_next_call_succeeds(&mut server, 3, true).await;
    server.finish().await;
}

#[tokio::test]
async fn a_guest_that_allocates_forever_hits_the_memory_cap_and_memory_is_returned() {
    let path = hostile();
    let mut server = RawServer::initialized(&["serve", &path, "--max-memory", "64MiB"], "2025-11-25").await;
    assert_next_call_succeeds(&mut server, 1, true).await;
    let before = server.rss_bytes();
    let message = error_message(&server.call(2, "allocate", json!({})).await, -32603);
    assert!(message.contains("memory limit of 64 MiB"), "{message}");
    assert_next_call_succeeds(&mut server, 3, true).await;
    let after = server.rss_bytes();
    assert!(after < before + (16 << 20), "RSS grew from {before} to {after} bytes after the fault");
    server.finish().await;
}

#[tokio::test]
async fn endless_recursion_is_a_stack_overflow_trap() {
    let mut server = RawServer::initialized(&["serve", &hostile()], "2025-11-25").await;
    let message = error_message(&server.call(1, "recurse", json!({})).await, -32603);
    assert!(message.contains("call-tool") && message.contains("stack"), "{message}");
    assert_next_call_succeeds(&mut server, 2, true).await;
    server.finish().await;
}

#[tokio::test]
async fn a_panic_is_reported_with_its_message() {
    let mut server = RawServer::initialized(&["serve", &hostile()], "2025-11-25").await;
    assert_next_call_succeeds(&mut server, 1, true).await;
    let message = error_message(&server.call(2, "panic", json!({})).await, -32603);
    assert!(message.contains("hostile guest panics on purpose"), "{message}");
    assert_next_call_succeeds(&mut server, 3, true).await;
    server.finish().await;
}

#[tokio::test]
async fn printing_100_mb_is_rate_limited_and_never_reaches_stdout() {
    let mut server = RawServer::initialized(&["serve", &hostile()], "2025-11-25").await;
    assert_next_call_succeeds(&mut server, 0, true).await;
    assert_eq!(text(&server.call(1, "print", json!({ "mib": 100 })).await), "printed 100 MiB");
    // Every stdout line so far was a schema-valid JSON-RPC message (checked
    // by RawServer); stderr got a bounded share and a notice of the rest.
    assert_next_call_succeeds(&mut server, 2, false).await;
    server.finish_and_wait_for_stderr().await;
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(stderr.len() < 8 << 20, "{} bytes of guest output passed the rate limit", stderr.len());
    assert!(stderr.contains("dropped: over the rate limit"), "no drop notice");
}

#[tokio::test]
async fn a_100_mb_result_is_refused_whole() {
    let mut server = RawServer::initialized(&["serve", &hostile()], "2025-11-25").await;
    assert_next_call_succeeds(&mut server, 1, true).await;
    let before = server.rss_bytes();
    let message = error_message(&server.call(2, "huge-result", json!({ "mib": 100 })).await, -32603);
    assert!(message.contains("exceeds the output limit"), "{message}");
    // The instance that grew to hold it was replaced.
    assert_next_call_succeeds(&mut server, 3, true).await;
    // A result under the cap passes.
    let answer = server.call(4, "huge-result", json!({ "mib": 1 })).await;
    assert_eq!(text(&answer).len(), 1 << 20);
    let after = server.rss_bytes();
    assert!(after < before + (64 << 20), "RSS grew from {before} to {after} bytes");
    server.finish().await;
}

#[tokio::test]
async fn the_guest_sees_no_file_no_env_and_no_network_by_default() {
    let mut server = RawServer::initialized(&["serve", &hostile()], "2025-11-25").await;
    assert_next_call_succeeds(&mut server, 0, true).await;
    let error = tool_error(&server.call(1, "read-file", json!({ "path": "/etc/passwd" })).await);
    assert!(error.starts_with("reading /etc/passwd:"), "{error}");
    let error = tool_error(&server.call(2, "list-dir", json!({ "path": "/" })).await);
    assert!(error.starts_with("listing /:"), "{error}");
    let error = tool_error(&server.call(3, "env", json!({ "name": "PATH" })).await);
    assert!(error.contains("$PATH"), "{error}");
    assert_eq!(text(&server.call(4, "env", json!({})).await), "", "no variables at all");
    let error = tool_error(&server.call(5, "connect", json!({ "addr": "127.0.0.1:9" })).await);
    assert!(error.starts_with("connecting to 127.0.0.1:9:"), "{error}");
    assert_next_call_succeeds(&mut server, 6, false).await;
    server.finish().await;
}

#[tokio::test]
async fn granted_directories_and_variables_are_visible_as_granted() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("note.txt"), "granted").unwrap();
    let ro = format!("{}:/data:ro", dir.path().display());
    let path = hostile();
    let args = ["serve", &path, "--dir", &ro, "--env", "GREETING=hello", "--env", "EMPTY="];
    let mut server = RawServer::initialized(&args, "2025-11-25").await;
    assert_eq!(text(&server.call(1, "read-file", json!({ "path": "/data/note.txt" })).await), "granted");
    let error = tool_error(&server.call(2, "write-file", json!({ "path": "/data/new.txt" })).await);
    assert!(error.starts_with("writing /data/new.txt:"), "read-only: {error}");
    assert!(!dir.path().join("new.txt").exists());
    let error = tool_error(&server.call(3, "read-file", json!({ "path": "/etc/passwd" })).await);
    assert!(error.starts_with("reading /etc/passwd:"), "only the grant: {error}");
    assert_eq!(text(&server.call(4, "env", json!({ "name": "GREETING" })).await), "hello");
    assert_eq!(text(&server.call(5, "env", json!({})).await), "GREETING=hello\nEMPTY=");
    server.finish().await;

    let rw = format!("{}:/data", dir.path().display());
    let mut server = RawServer::initialized(&["serve", &path, "--dir", &rw], "2025-11-25").await;
    let answer = server.call(1, "write-file", json!({ "path": "/data/new.txt", "text": "from the guest" })).await;
    assert_eq!(text(&answer), "wrote /data/new.txt");
    assert_eq!(std::fs::read_to_string(dir.path().join("new.txt")).unwrap(), "from the guest");
    server.finish().await;
}

#[tokio::test]
async fn a_cancelled_call_is_stopped_and_gets_no_response() {
    let mut server = RawServer::initialized(&["serve", &hostile()], "2025-11-25").await;
    assert_next_call_succeeds(&mut server, 1, true).await;
    // The spinning call runs; a cancellation arrives while it does.
    server.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"spin","arguments":{}}}"#).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    server
        .send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"enough"}}"#)
        .await;
    // Without cancellation the next message would be request 2's timeout
    // error, 30 s later; instead it is the answer to this ping.
    let answer = server.request(3, "ping", json!({})).await;
    assert_eq!(answer["result"], json!({}));
    assert_next_call_succeeds(&mut server, 4, true).await;
    server.finish().await;
}

#[tokio::test]
async fn requests_cancelled_while_queued_are_dropped() {
    let mut server = RawServer::initialized(&["serve", &hostile()], "2025-11-25").await;
    // All in one write: both calls are cancelled before their turn.
    let batch = [
        r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"spin","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":"eleven","method":"tools/call","params":{"name":"counter","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"eleven"}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":10}}"#,
    ]
    .join("\n");
    server.send(&batch).await;
    let answer = server.request(12, "ping", json!({})).await;
    assert_eq!(answer["result"], json!({}));
    // `counter` never ran: the instance is still fresh.
    assert_next_call_succeeds(&mut server, 13, true).await;
    server.finish().await;
}

#[tokio::test]
async fn instance_modes_decide_what_state_survives() {
    let path = hostile();
    let mut server = RawServer::initialized(&["serve", &path, "--instances", "per-request"], "2025-11-25").await;
    for id in 1..=3 {
        assert_eq!(text(&server.call(id, "counter", json!({})).await), "1", "a fresh instance per request");
    }
    server.finish().await;
    for mode in ["per-session", "shared"] {
        let mut server = RawServer::initialized(&["serve", &path, "--instances", mode], "2025-11-25").await;
        for id in 1..=3 {
            assert_eq!(text(&server.call(id, "counter", json!({})).await), id.to_string(), "{mode}");
        }
        server.finish().await;
    }
}

#[tokio::test]
async fn missing_required_config_is_reported_at_start_up_naming_tool_and_key() {
    let everything = component("everything").display().to_string();
    let mut server = RawServer::initialized(&["serve", &everything], "2025-11-25").await;
    server.finish_and_wait_for_stderr().await;
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(
        stderr.contains("tool `annotated` needs the config `GREETING` (Greeting word); pass --config GREETING=VALUE"),
        "{stderr}"
    );
    // The optional secret is not worth a warning.
    assert!(!stderr.contains("API_TOKEN"), "{stderr}");

    let mut server = RawServer::initialized(&["serve", &everything, "--config", "GREETING=hi"], "2025-11-25").await;
    server.finish_and_wait_for_stderr().await;
    assert!(!server.stderr.lock().unwrap().contains("GREETING"), "supplied: no report");
}

#[tokio::test]
async fn config_and_secrets_reach_the_guest_and_secrets_are_never_logged() {
    let dir = tempfile::tempdir().unwrap();
    let secret_file = dir.path().join("token");
    std::fs::write(&secret_file, "s3cr3t-from-file\n").unwrap();
    let from_file = format!("FILE_TOKEN=@{}", secret_file.display());
    let path = hostile();
    let args =
        ["-vv", "serve", &path, "--config", "REGION=eu", "--secret", &from_file, "--secret", "MCP_WIT_TEST_SECRET"];
    let mut server = RawServer::start_with_env(&args, &[("MCP_WIT_TEST_SECRET", "s3cr3t-from-env")]);
    server.request(0, "initialize", support::initialize_params("2025-11-25")).await;
    assert_eq!(text(&server.call(1, "env", json!({ "name": "REGION" })).await), "eu");
    assert_eq!(text(&server.call(2, "env", json!({ "name": "FILE_TOKEN" })).await), "s3cr3t-from-file");
    assert_eq!(text(&server.call(3, "env", json!({ "name": "MCP_WIT_TEST_SECRET" })).await), "s3cr3t-from-env");
    server.finish_and_wait_for_stderr().await;
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(!stderr.is_empty(), "trace logging was on");
    assert!(!stderr.contains("s3cr3t"), "a secret value reached the log:\n{stderr}");
}
