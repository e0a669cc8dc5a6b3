//! Overload degrades, never collapses: a saturated session is told "server
//! busy" and its admitted calls complete; connections beyond the limit and
//! sessions beyond theirs get 503 with `Retry-After`; `/healthz` and
//! `/readyz` say whether the server lives and takes more; memory stays
//! bounded while ten times more clients than it holds knock. Nothing in it
//! is timed: waits are bounded polls of the server's own answers.

use std::time::Duration;

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::http::HttpServer;
use support::rss_bytes;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One HTTP/1.1 exchange on a fresh connection: status, headers (lower
/// case) and body.
async fn exchange(server: &HttpServer, request: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(server.addr).await.expect("connects");
    stream.write_all(request.as_bytes()).await.expect("writes");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("reads");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head.to_ascii_lowercase(), body.to_string())
}

async fn get(server: &HttpServer, path: &str) -> (u16, String, String) {
    let host = server.addr;
    exchange(server, &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")).await
}

/// `/readyz` once it answers `status` (the server notices connections
/// opening and closing on its own time).
async fn ready_once(server: &HttpServer, status: u16) -> Value {
    for _ in 0..200 {
        let (got, _, body) = get(server, "/readyz").await;
        if got == status {
            return serde_json::from_str(&body).expect("a JSON body");
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("/readyz never answered {status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_saturated_session_is_told_it_is_busy_and_its_admitted_calls_complete() {
    let conformance = support::fixture_arg("conformance");
    let args = [&*conformance, "--json-response", "--guest-output", "discard", "--max-queued-requests", "2"];
    let server = HttpServer::start(&args).await;
    let mut first = server.client();
    first.initialize("2025-11-25").await;
    let mut calls = Vec::new();
    for id in 1..=6 {
        let mut client = server.client();
        client.session = first.session.clone();
        client.version = first.version.clone();
        let params = json!({ "name": "wait", "arguments": { "ms": 1000 } });
        calls.push(tokio::spawn(async move { client.request(id, "tools/call", params).await }));
    }
    let (mut busy, mut done) = (0, 0);
    for call in calls {
        let answer = call.await.expect("a call task");
        if answer["result"]["content"][0]["text"] == "waited 1000 ms" {
            done += 1;
        } else {
            assert_eq!(answer["error"]["code"], -32603, "{answer}");
            assert!(answer["error"]["message"].as_str().unwrap().starts_with("server busy"), "{answer}");
            busy += 1;
        }
    }
    // Six calls of a second each on one session, two admitted at a time.
    assert!(busy >= 1 && done >= 2, "{busy} busy, {done} done");
    // Once the queue drains, the session serves again.
    let answer = first.request(7, "tools/call", json!({ "name": "wait", "arguments": { "ms": 1 } })).await;
    assert_eq!(answer["result"]["content"][0]["text"], "waited 1 ms", "{answer}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn connections_beyond_the_limit_are_turned_away_at_once_and_the_probes_say_why() {
    let echo = support::fixture_arg("echo");
    let server = HttpServer::start(&[&echo, "--json-response", "--max-connections", "2"]).await;
    let (status, _, body) = get(&server, "/healthz").await;
    assert_eq!((status, body.as_str()), (200, "ok\n"));
    let ready = ready_once(&server, 200).await;
    assert_eq!(ready["ready"], true, "{ready}");

    // Two connections that hold their slots with requests in progress:
    // their bodies never come. (Idle connections, or ones whose headers
    // never end, give way to new ones instead.)
    let mut held = Vec::new();
    while held.len() < 2 {
        let mut stream = TcpStream::connect(server.addr).await.expect("connects");
        let head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: \
                    application/json, text/event-stream\r\nContent-Length: 64\r\n\r\n";
        stream.write_all(head.as_bytes()).await.expect("writes");
        // Served, it waits for its body in silence; turned away (a slot
        // still held by an earlier probe), it hears 503 at once: again.
        let mut first = [0u8; 1];
        match tokio::time::timeout(Duration::from_millis(300), stream.read(&mut first)).await {
            Err(_) => held.push(stream),
            Ok(_) => continue,
        }
    }
    let saturated = ready_once(&server, 503).await;
    assert_eq!(saturated["ready"], false);
    assert!(saturated["reason"].as_str().unwrap().contains("--max-connections"), "{saturated}");
    assert_eq!(saturated["connections"], 2);

    // An MCP request beyond the limit: 503 and when to retry, not a wait.
    let host = server.addr;
    let initialize = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } })
    .to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, \
         text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{initialize}",
        initialize.len()
    );
    let (status, head, body) = exchange(&server, &request).await;
    assert_eq!(status, 503, "{head}{body}");
    assert!(head.contains("retry-after: 1"), "{head}");
    assert!(body.contains("connection limit"), "{body}");
    // Still alive while saturated.
    assert_eq!(get(&server, "/healthz").await.0, 200);

    drop(held);
    // Ready again, and both held slots given back (the probe holds one).
    let mut freed = false;
    for _ in 0..200 {
        if ready_once(&server, 200).await["connections"] == 1 {
            freed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(freed, "the held connections' slots were never given back");
    // The last probe's own connection holds its slot until the server has
    // seen it close, which a loaded machine may take a while to do; idle
    // for the server's 500 ms, it gives way to a new connection. Past
    // that, a client that opens two connections always finds room.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let mut client = server.client();
    client.initialize("2025-11-25").await;
    let answer = client.request(2, "tools/call", json!({ "name": "echo", "arguments": { "text": "back" } })).await;
    assert_eq!(answer["result"]["content"][0]["text"], "back", "{answer}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ten_times_more_clients_than_sessions_get_503_and_memory_stays_bounded() {
    const SESSIONS: usize = 20;
    let echo = support::fixture_arg("echo");
    let max = SESSIONS.to_string();
    let server = HttpServer::start(&[
        &echo,
        "--json-response",
        "--guest-output",
        "discard",
        "--max-sessions",
        &max,
        "--max-sessions-per-client",
        &max,
    ])
    .await;
    let before = rss_bytes(server.pid());
    let mut knocks = Vec::new();
    for client in 0..SESSIONS * 10 {
        let mut raw = server.client();
        knocks.push(tokio::spawn(async move {
            let params = support::initialize_params("2025-11-25");
            let reply = raw.post(json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params })).await;
            if reply.status == reqwest::StatusCode::SERVICE_UNAVAILABLE {
                assert!(reply.headers.contains_key("retry-after"), "{reply:?}");
                return None;
            }
            assert_eq!(reply.status, reqwest::StatusCode::OK, "{reply:?}");
            raw.session = reply.header("mcp-session-id").map(str::to_string);
            raw.version = Some("2025-11-25".into());
            let notified = raw.post(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })).await;
            assert_eq!(notified.status, reqwest::StatusCode::ACCEPTED, "{notified:?}");
            let text = format!("client {client}");
            let answer = raw.request(2, "tools/call", json!({ "name": "echo", "arguments": { "text": text } })).await;
            assert_eq!(answer["result"]["content"][0]["text"], text, "{answer}");
            Some(raw)
        }));
    }
    let mut admitted = Vec::new();
    for knock in knocks {
        admitted.extend(knock.await.expect("a client task"));
    }
    assert_eq!(admitted.len(), SESSIONS, "exactly the sessions it holds were admitted");
    let readiness = ready_once(&server, 503).await;
    assert!(readiness["reason"].as_str().unwrap().contains("--max-sessions"), "{readiness}");
    let grown = rss_bytes(server.pid()).saturating_sub(before);
    assert!(grown < 64 << 20, "{grown} bytes more after {} refused clients", SESSIONS * 9);
    for client in &admitted {
        assert_eq!(client.delete().await.status, reqwest::StatusCode::NO_CONTENT);
    }
    ready_once(&server, 200).await;
    server.stop().await;
}

#[tokio::test]
async fn the_probes_can_be_turned_off() {
    let echo = support::fixture_arg("echo");
    let server = HttpServer::start(&[&echo, "--health=false"]).await;
    assert_eq!(get(&server, "/healthz").await.0, 404);
    assert_eq!(get(&server, "/readyz").await.0, 404);
    server.stop().await;
}

/// The head of an HTTP/1.1 POST to `/mcp` of `server` whose body is
/// `length` bytes, in `session` if given.
fn post_head(server: &HttpServer, length: usize, session: Option<&str>) -> String {
    let host = server.addr;
    let session = session.map(|id| format!("Mcp-Session-Id: {id}\r\nMCP-Protocol-Version: 2025-11-25\r\n"));
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, \
         text/event-stream\r\nContent-Length: {length}\r\n{}\r\n",
        session.unwrap_or_default()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn killed_clients_half_open_connections_slow_bodies_and_trapping_guests_leave_it_serving() {
    let hostile = support::fixture_arg("hostile");
    let args = [&*hostile, "--json-response", "--guest-output", "discard", "--body-timeout", "1s"];
    let server = HttpServer::start(&args).await;
    let before = rss_bytes(server.pid());

    // Half-open connections: connected, and never a byte.
    let mut silent = Vec::new();
    for _ in 0..16 {
        silent.push(TcpStream::connect(server.addr).await.expect("connects"));
    }

    // Slow bodies: the headers, then a tenth of the body, then nothing:
    // 408 once the body timeout passes, whatever the client does.
    let mut slow = Vec::new();
    for _ in 0..8 {
        let head = post_head(&server, 100, None);
        let addr = server.addr;
        slow.push(tokio::spawn(async move {
            let mut stream = TcpStream::connect(addr).await.expect("connects");
            stream.write_all(head.as_bytes()).await.expect("writes");
            stream.write_all(b"{\"jsonrpc\"").await.expect("writes");
            let mut answer = Vec::new();
            let _ = stream.read_to_end(&mut answer).await;
            String::from_utf8_lossy(&answer).into_owned()
        }));
    }

    // Clients killed mid-call: a call that takes a while, its connection
    // closed as soon as it is sent.
    let mut victim = server.client();
    victim.initialize("2025-11-25").await;
    let session = victim.session.clone().expect("a session");
    for id in 1..=8 {
        let call = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": "sleep", "arguments": { "secs": 0.2 } } })
        .to_string();
        let mut stream = TcpStream::connect(server.addr).await.expect("connects");
        let request = post_head(&server, call.len(), Some(&session)) + &call;
        stream.write_all(request.as_bytes()).await.expect("writes");
        drop(stream);
    }

    // A guest that traps on every tenth call, from eight sessions at once.
    let mut sessions = Vec::new();
    for _ in 0..8 {
        let mut client = server.client();
        sessions.push(tokio::spawn(async move {
            client.initialize("2025-11-25").await;
            let (mut trapped, mut counted) = (0, 0);
            for id in 1..=30 {
                let tool = if id % 10 == 0 { "panic" } else { "counter" };
                let answer = client.request(id, "tools/call", json!({ "name": tool })).await;
                if tool == "panic" {
                    assert_eq!(answer["error"]["code"], -32603, "{answer}");
                    trapped += 1;
                } else {
                    assert!(answer["result"]["content"][0]["text"].as_str().is_some(), "{answer}");
                    counted += 1;
                }
            }
            (trapped, counted)
        }));
    }
    for session in sessions {
        assert_eq!(session.await.expect("a session task"), (3, 27));
    }
    for answer in slow {
        let answer = answer.await.expect("a slow client task");
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    }

    // The killed clients' session still serves; its instance finished the
    // abandoned calls or was replaced, and counts on.
    let answer = victim.request(100, "tools/call", json!({ "name": "counter" })).await;
    assert!(answer["result"]["content"][0]["text"].as_str().is_some(), "{answer}");
    drop(silent);
    let grown = rss_bytes(server.pid()).saturating_sub(before);
    assert!(grown < 64 << 20, "{grown} bytes more");
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(!stderr.contains("ERROR"), "{stderr}");
    server.stop().await;
}
