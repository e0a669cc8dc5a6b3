//! Isolation, limits and fault tolerance, proven with the `hostile`
//! component: whatever a guest does, the caller gets the documented error
//! within the deadline, the host's memory returns to its level, and the next
//! call in the same session succeeds.

use std::time::Duration;

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::{RawServer, fixture_arg, text};

fn error_message(answer: &Value, code: i64) -> String {
    assert_eq!(answer["error"]["code"], code, "{answer}");
    answer["error"]["message"].as_str().unwrap().to_string()
}

fn tool_error(answer: &Value) -> String {
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    answer["result"]["content"][0]["text"].as_str().unwrap().to_string()
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
    let path = fixture_arg("hostile");
    let mut server = RawServer::initialized(&["serve", &path, "--timeout", "1s"], "2025-11-25").await;
    assert_next_call_succeeds(&mut server, 1, true).await;
    let message = error_message(&server.call(2, "spin", json!({})).await, -32603);
    assert!(message.contains("timed out after 1s"), "{message}");
    assert_next_call_succeeds(&mut server, 3, true).await;
    server.finish().await;
}

#[tokio::test]
async fn a_guest_that_allocates_forever_hits_the_memory_cap_and_memory_is_returned() {
    let path = fixture_arg("hostile");
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
    let mut server = RawServer::initialized(&["serve", &fixture_arg("hostile")], "2025-11-25").await;
    let message = error_message(&server.call(1, "recurse", json!({})).await, -32603);
    // The client hears that the router failed; the log says how.
    assert_eq!(
        message,
        "the router `hostile` failed with an error it did not handle (the server's log has the details)"
    );
    assert_next_call_succeeds(&mut server, 2, true).await;
    server.finish_and_wait_for_stderr().await;
    let log = server.stderr.lock().unwrap().clone();
    assert!(log.contains("guest trapped in `call-tool`: wasm trap: call stack exhausted"), "{log}");
}

#[tokio::test]
async fn a_panic_is_reported_with_its_message() {
    let mut server = RawServer::initialized(&["serve", &fixture_arg("hostile")], "2025-11-25").await;
    assert_next_call_succeeds(&mut server, 1, true).await;
    let message = error_message(&server.call(2, "panic", json!({})).await, -32603);
    assert!(message.contains("hostile guest panics on purpose"), "{message}");
    assert_next_call_succeeds(&mut server, 3, true).await;
    server.finish().await;
}

#[tokio::test]
async fn printing_100_mb_is_rate_limited_and_never_reaches_stdout() {
    let mut server = RawServer::initialized(&["serve", &fixture_arg("hostile")], "2025-11-25").await;
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
    let mut server = RawServer::initialized(&["serve", &fixture_arg("hostile")], "2025-11-25").await;
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
    let mut server = RawServer::initialized(&["serve", &fixture_arg("hostile")], "2025-11-25").await;
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
    let path = fixture_arg("hostile");
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
    let mut server = RawServer::initialized(&["serve", &fixture_arg("hostile")], "2025-11-25").await;
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
    let mut server = RawServer::initialized(&["serve", &fixture_arg("hostile")], "2025-11-25").await;
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
    let path = fixture_arg("hostile");
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
    let everything = fixture_arg("everything");
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
    let path = fixture_arg("hostile");
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

/// A one-route HTTP server on 127.0.0.1 that counts the requests it gets.
async fn http_origin() -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = std::sync::Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buf = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                let body = "hello from the origin";
                let head = format!("HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n", body.len());
                let _ = socket.write_all(format!("{head}{body}").as_bytes()).await;
            });
        }
    });
    (port, hits)
}

#[tokio::test]
async fn outgoing_http_is_denied_unless_the_host_is_allowed() {
    use std::sync::atomic::Ordering;
    let (port, hits) = http_origin().await;
    let url = format!("http://127.0.0.1:{port}/data");
    let path = fixture_arg("hostile");

    // No grant: the guest gets wasi:http's HTTP-request-denied; nothing is sent.
    let mut server = RawServer::initialized(&["serve", &path], "2025-11-25").await;
    assert_next_call_succeeds(&mut server, 1, true).await;
    let error = tool_error(&server.call(2, "http-get", json!({ "url": url })).await);
    assert_eq!(error, format!("GET {url}: ErrorCode::HttpRequestDenied"));
    assert_next_call_succeeds(&mut server, 3, false).await;
    server.finish_and_wait_for_stderr().await;
    assert!(server.stderr.lock().unwrap().contains("--allow-http"), "the log says how to allow it");
    assert_eq!(hits.load(Ordering::SeqCst), 0, "a denied request reached the network");

    // Granted: that host and port only.
    let grant = format!("127.0.0.1:{port}");
    let mut server = RawServer::initialized(&["serve", &path, "--allow-http", &grant], "2025-11-25").await;
    assert_eq!(text(&server.call(1, "http-get", json!({ "url": url })).await), "200 hello from the origin");
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    let other_port = format!("http://127.0.0.1:{}/", port.wrapping_add(1).max(1));
    let error = tool_error(&server.call(2, "http-get", json!({ "url": other_port })).await);
    assert!(error.ends_with("HttpRequestDenied"), "another port: {error}");
    let other_host = format!("http://localhost:{port}/");
    let error = tool_error(&server.call(3, "http-get", json!({ "url": other_host })).await);
    assert!(error.ends_with("HttpRequestDenied"), "another host name: {error}");
    // No fault on the way: the instance that made the calls goes on.
    assert_next_call_succeeds(&mut server, 4, true).await;
    assert_next_call_succeeds(&mut server, 5, false).await;
    server.finish().await;
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_guests_https_request_gets_an_error_not_a_host_fault() {
    // The binary links two rustls crypto providers (ring, and aws-lc-rs for
    // signature checks): without a process default, building the guest's
    // TLS client panics. The origin speaks plain HTTP, so the handshake
    // fails: the guest gets that error, and the server goes on.
    // An origin that answers whatever it is sent at once, in plain HTTP.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut hello = [0u8; 1024];
            let _ = socket.read(&mut hello).await;
            let _ = socket.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi").await;
        }
    });
    let url = format!("https://127.0.0.1:{port}/data");
    let grant = format!("127.0.0.1:{port}");
    let mut server =
        RawServer::initialized(&["serve", &fixture_arg("hostile"), "--allow-http", &grant], "2025-11-25").await;
    let error = tool_error(&server.call(1, "http-get", json!({ "url": url })).await);
    assert_eq!(error, format!("GET {url}: ErrorCode::TlsProtocolError"));
    assert_next_call_succeeds(&mut server, 2, true).await;
    server.finish().await;
}

#[tokio::test]
async fn a_trap_is_logged_naming_the_tool_and_json_logs_are_one_object_a_line() {
    let args = ["serve", &fixture_arg("hostile"), "--log-format", "json"];
    let mut server = RawServer::initialized(&args, "2025-11-25").await;
    let message = error_message(&server.call(1, "panic", json!({})).await, -32603);
    assert!(message.contains("hostile guest panics on purpose"), "{message}");
    assert_next_call_succeeds(&mut server, 2, true).await;
    server.finish_and_wait_for_stderr().await;
    let stderr = server.stderr.lock().unwrap().clone();
    let lines: Vec<serde_json::Value> = stderr
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect();
    let trap = lines.iter().find(|line| {
        line["level"] == "WARN" && line["message"].as_str().is_some_and(|m| m.starts_with("tool `panic`: "))
    });
    let trap = trap.unwrap_or_else(|| panic!("no WARN line naming the tool: {stderr}"));
    assert_eq!(trap["component"], "hostile", "{trap}");
    assert!(trap["message"].as_str().unwrap().contains("the next request gets a fresh instance"), "{trap}");
    // The guest's own output is a line of the log too: its panic report
    // (where, then what) one event, with the id of the request it served.
    let said = lines.iter().find(|line| {
        line["message"]
            .as_str()
            .is_some_and(|m| m.contains(" panicked at ") && m.ends_with("\nhostile guest panics on purpose"))
    });
    let said = said.unwrap_or_else(|| panic!("the guest's panic is not logged as one event: {stderr}"));
    assert_eq!((&said["component"], &said["stream"]), (&json!("hostile"), &json!("stderr")), "{said}");
    assert_eq!(said["request_id"], "1", "{said}");
}

#[tokio::test]
async fn a_secret_is_masked_in_the_guests_output_and_in_the_panic_quoted_to_the_client() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("token");
    std::fs::write(&file, "hunter2-s3cret\n").unwrap();
    let secret = format!("TOKEN=@{}", file.display());
    let mut server =
        RawServer::initialized(&["serve", &fixture_arg("hostile"), "--secret", &secret], "2025-11-25").await;
    let message = error_message(&server.call(1, "leak", json!({ "name": "TOKEN" })).await, -32603);
    assert!(message.contains("leaking [redacted]") && !message.contains("hunter2"), "{message}");
    // The guest still reads the real value: only its output is masked.
    assert_eq!(text(&server.call(2, "env", json!({ "name": "TOKEN" })).await), "hunter2-s3cret");
    server.finish_and_wait_for_stderr().await;
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(stderr.contains("the token is [redacted]") && !stderr.contains("hunter2"), "{stderr}");
}

#[tokio::test]
async fn a_guest_sleeping_in_a_host_call_still_times_out() {
    let path = fixture_arg("hostile");
    let mut server = RawServer::initialized(&["serve", &path, "--timeout", "1s"], "2025-11-25").await;
    let started = std::time::Instant::now();
    let message = error_message(&server.call(1, "sleep", json!({ "secs": 3600 })).await, -32603);
    assert!(message.contains("timed out after 1s"), "{message}");
    assert!(started.elapsed() < Duration::from_secs(20), "the sleep was not cut at the deadline");
    assert_next_call_succeeds(&mut server, 2, true).await;
    // A sleep within the budget is kept whole.
    assert_eq!(text(&server.call(3, "sleep", json!({ "secs": 0.2 })).await), "slept 0.2s");
    server.finish().await;
}

#[tokio::test]
async fn a_cancelled_sleep_ends_at_once() {
    let mut server = RawServer::initialized(&["serve", &fixture_arg("hostile")], "2025-11-25").await;
    assert_next_call_succeeds(&mut server, 1, true).await;
    let started = std::time::Instant::now();
    server
        .send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sleep","arguments":{"secs":3600}}}"#)
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#).await;
    // No answer to request 2; the next message is this ping's answer, long
    // before the 30 s deadline.
    assert_eq!(server.request(3, "ping", json!({})).await["result"], json!({}));
    assert!(started.elapsed() < Duration::from_secs(10), "the sleep outlived its cancellation");
    assert_next_call_succeeds(&mut server, 4, true).await;
    server.finish().await;
}
