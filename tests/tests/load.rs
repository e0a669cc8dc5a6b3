//! A load test over Streamable HTTP: 200 concurrent sessions × 50 calls on
//! 127.0.0.1, every answer checked, zero errors, bounded server memory. It
//! stops by itself; nothing in it is timed.

use mcp_wit_tests::support;
use serde_json::json;
use support::http::HttpServer;
use support::rss_bytes;

const SESSIONS: usize = 200;
const CALLS: usize = 50;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hundred_sessions_of_fifty_calls_without_an_error() {
    let echo = support::fixture_arg("echo");
    let server = HttpServer::start(&[&echo, "--json-response", "--guest-output", "discard"]).await;
    let pid = server.pid();
    let before = rss_bytes(pid);

    let mut tasks = Vec::new();
    for session in 0..SESSIONS {
        let mut client = server.client();
        tasks.push(tokio::spawn(async move {
            client.initialize("2025-11-25").await;
            for call in 0..CALLS {
                let text = format!("session {session} call {call}");
                let id = call as i64 + 1;
                let params = json!({ "name": "echo", "arguments": { "text": text } });
                let answer = client.request(id, "tools/call", params).await;
                assert_eq!(answer["result"]["content"][0]["text"], text, "{answer}");
            }
            client
        }));
    }
    let mut clients = Vec::new();
    for task in tasks {
        clients.push(task.await.expect("a session failed"));
    }
    let peak = rss_bytes(pid);
    // 200 live sessions, each with its own instance: bounded well below
    // 2 MiB per session on top of the idle server.
    let per_session = peak.saturating_sub(before) / SESSIONS as u64;
    assert!(per_session < 2 << 20, "{per_session} bytes per session (RSS {before} → {peak})");
    for client in &clients {
        assert_eq!(client.delete().await.status, reqwest::StatusCode::NO_CONTENT);
    }
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(!stderr.contains("ERROR") && !stderr.contains("WARN"), "{stderr}");
    server.stop().await;
}
