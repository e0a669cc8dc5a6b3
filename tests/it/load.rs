//! A load test over Streamable HTTP: 200 concurrent sessions × 50 calls on
//! 127.0.0.1, every answer checked, zero errors, bounded server memory. It
//! stops by itself; nothing in it is timed.

use mcp_wit_tests::support;
use serde_json::json;
use support::http::{HttpServer, RawClient};
use support::rss_bytes;

const SESSIONS: usize = 200;
const CALLS: i64 = 50;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hundred_sessions_of_fifty_calls_without_an_error() {
    let echo = support::fixture_arg("echo");
    let server = HttpServer::start(&[&echo, "--json-response", "--guest-output", "discard"]).await;
    let pid = server.pid();
    let before = rss_bytes(pid);

    let clients = sessions_answer(&server, SESSIONS, CALLS).await;
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

/// Sessions of `server`, each `initialize` then `calls` echo calls, all at
/// once, every answer checked; their clients.
async fn sessions_answer(server: &HttpServer, sessions: usize, calls: i64) -> Vec<RawClient> {
    let mut tasks = Vec::new();
    for session in 0..sessions {
        let mut client = server.client();
        tasks.push(tokio::spawn(async move {
            client.initialize("2025-11-25").await;
            for call in 1..=calls {
                let text = format!("session {session} call {call}");
                let params = json!({ "name": "echo", "arguments": { "text": text } });
                let answer = client.request(call, "tools/call", params).await;
                assert_eq!(answer["result"]["content"][0]["text"], text, "{answer}");
            }
            client
        }));
    }
    let mut clients = Vec::new();
    for task in tasks {
        clients.push(task.await.expect("a session failed"));
    }
    clients
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sessions_beyond_the_instance_pool_are_served_on_demand() {
    let echo = support::fixture_arg("echo");
    let server =
        HttpServer::start(&[&echo, "--json-response", "--guest-output", "discard", "--pool-instances", "8"]).await;
    // 40 live sessions, each with its own instance: 32 of them beyond the pool.
    sessions_answer(&server, 40, 3).await;
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(stderr.contains("further instances are allocated on demand"), "{stderr}");
    assert!(!stderr.contains("ERROR"), "{stderr}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hundred_thousand_sessions_are_accepted_and_a_pool_too_large_says_what_to_lower() {
    let echo = support::fixture_arg("echo");
    let server =
        HttpServer::start(&[&echo, "--json-response", "--guest-output", "discard", "--max-sessions", "100000"]).await;
    sessions_answer(&server, 4, 3).await;
    server.stop().await;

    // More address space than the machine has: refused at start, once, with
    // what was asked and which setting lowers it.
    let refused = std::process::Command::new(support::binary())
        .args(["serve", &echo, "--http", "127.0.0.1:0", "--pool-instances", "100000"])
        .output()
        .expect("mcp-wit runs");
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("cannot set up the WebAssembly engine"), "{stderr}");
    assert!(stderr.contains("100000 instance slots") && stderr.contains("`--pool-instances`"), "{stderr}");
    assert_eq!(stderr.matches("Cannot allocate memory").count(), 1, "said once: {stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_idle_sessions_instance_is_released_and_made_afresh_on_its_next_call() {
    let hostile = support::fixture_arg("hostile");
    let args = [&*hostile, "--json-response", "--guest-output", "discard", "--instance-idle-timeout", "200ms"];
    let server = HttpServer::start(&args).await;
    let mut client = server.client();
    client.initialize("2025-11-25").await;
    // `counter` counts the calls its instance has had.
    let count = async |client: &RawClient, id| {
        let answer = client.request(id, "tools/call", json!({ "name": "counter", "arguments": {} })).await;
        answer["result"]["content"][0]["text"].as_str().expect("a count").to_string()
    };
    assert_eq!(count(&client, 1).await, "1");
    assert_eq!(count(&client, 2).await, "2", "one instance while the session is busy");
    // Idle for longer than the timeout: the sweeper (every 100 ms here)
    // releases the instance; the next call gets a fresh one.
    let mut fresh = false;
    for id in 3..50 {
        tokio::time::sleep(std::time::Duration::from_millis(400)).await;
        if count(&client, id).await == "1" {
            fresh = true;
            break;
        }
    }
    assert!(fresh, "the idle instance was never released");
    server.stop().await;

    // Without the setting, the instance lives as long as its session.
    let server = HttpServer::start(&[&hostile, "--json-response", "--guest-output", "discard"]).await;
    let mut client = server.client();
    client.initialize("2025-11-25").await;
    assert_eq!(count(&client, 1).await, "1");
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert_eq!(count(&client, 2).await, "2");
    server.stop().await;
}

/// The tools a new session of `server` is offered.
async fn tools_of_a_new_session(server: &HttpServer) -> Vec<String> {
    let mut client = server.client();
    client.initialize("2025-11-25").await;
    let listed = client.request(1, "tools/list", json!({})).await;
    listed["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

/// Polls until a new session is offered `tool` (a reload is the server's
/// own business: it is waited for, not timed).
async fn offered_soon(server: &HttpServer, tool: &str) {
    for _ in 0..100 {
        if tools_of_a_new_session(server).await.iter().any(|name| name == tool) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("`{tool}` was never offered; stderr:\n{}", server.stderr.lock().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reload_serves_the_checked_new_version_and_a_broken_one_never_replaces_it() {
    let dir = std::env::temp_dir().join(format!("mcp-wit-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("mcp-wit.toml");
    let serving = |component: &str| std::fs::write(&config, format!("[[component]]\npath = {component:?}\n")).unwrap();
    serving(&support::fixture_arg("echo"));
    let file = config.display().to_string();

    // SIGHUP: the file now names hostile.
    let server = HttpServer::start(&["--file", &file, "--json-response", "--guest-output", "discard"]).await;
    let mut before = server.client();
    before.initialize("2025-11-25").await;
    serving(&support::fixture_arg("hostile"));
    let pid = server.pid().to_string();
    assert!(std::process::Command::new("kill").args(["-HUP", &pid]).status().unwrap().success());
    offered_soon(&server, "counter").await;
    // A session from before keeps the version it started with.
    let answer = before.request(2, "tools/call", json!({ "name": "echo", "arguments": { "text": "kept" } })).await;
    assert_eq!(answer["result"]["content"][0]["text"], "kept", "{answer}");

    // A broken new version: refused with the reason; the running one serves on.
    let broken = dir.join("broken.wasm");
    std::fs::write(&broken, b"not WebAssembly").unwrap();
    serving(&broken.display().to_string());
    assert!(std::process::Command::new("kill").args(["-HUP", &pid]).status().unwrap().success());
    for _ in 0..100 {
        if server.stderr.lock().unwrap().contains("the reload failed") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(
        stderr.contains("the reload failed; the running version keeps serving") && stderr.contains("broken.wasm"),
        "{stderr}"
    );
    assert!(tools_of_a_new_session(&server).await.iter().any(|t| t == "counter"));
    server.stop().await;

    // --watch: a change of the file is a reload of its own.
    serving(&support::fixture_arg("echo"));
    let server = HttpServer::start(&["--file", &file, "--json-response", "--guest-output", "discard", "--watch"]).await;
    assert!(tools_of_a_new_session(&server).await.iter().any(|t| t == "echo"));
    // The file's time must move on: some file systems count whole seconds.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    serving(&support::fixture_arg("hostile"));
    offered_soon(&server, "counter").await;
    server.stop().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
