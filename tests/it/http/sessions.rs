//! GET and DELETE, sessions and their instances, and stateless mode.

use std::time::{Duration, Instant};

use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::json;
use support::http::{EventReader, HttpServer, RawClient};
use support::text;

use super::fixture::{VERSION, call, conformance, initialized, ping};

#[tokio::test]
async fn get_opens_a_stream_and_delete_ends_the_session() {
    let (server, client) = initialized(&[]).await;
    let url = server.url();

    let no_session = client.get_stream(&url, &[("mcp-session-id", "")]).await;
    assert_eq!(no_session.status(), StatusCode::BAD_REQUEST);
    let unknown = client.get_stream(&url, &[("mcp-session-id", "feedfacefeedfacefeedfacefeedface")]).await;
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    let not_sse = client.get_stream(&url, &[("accept", "application/json")]).await;
    assert_eq!(not_sse.status(), StatusCode::NOT_ACCEPTABLE);
    let bad_version = client.get_stream(&url, &[("mcp-protocol-version", "2000-01-01")]).await;
    assert_eq!(bad_version.status(), StatusCode::BAD_REQUEST);

    let stream = client.get_stream(&url, &[]).await;
    assert_eq!(stream.status(), StatusCode::OK);
    assert!(stream.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let events = EventReader::new(stream);

    // Requests go on while the stream is open.
    let response = client.request(1, "tools/call", json!({ "name": "counter" })).await;
    assert_eq!(text(&response), "1");

    // DELETE: 204, the stream ends, the session is gone.
    let reply = client.delete().await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{reply:?}");
    events.end(Duration::from_secs(10)).await;
    let reply = client.post(ping(2)).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
    let reply = client.delete().await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
    let gone = client.get_stream(&url, &[]).await;
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);

    let unsupported = client.read(client.http.put(&url)).await;
    assert_eq!(unsupported.status, StatusCode::METHOD_NOT_ALLOWED);
    server.stop().await;
}

// ---------------------------------------------------------------------------
// Sessions and instances
// ---------------------------------------------------------------------------

#[tokio::test]
async fn each_session_has_its_own_instance_and_idle_ones_expire() {
    let (server, first) = initialized(&["--session-timeout", "1s"]).await;
    let mut second = server.client();
    second.initialize(VERSION).await;
    for (id, expected) in [(1, "1"), (2, "2")] {
        assert_eq!(text(&first.request(id, "tools/call", json!({ "name": "counter" })).await), expected);
    }
    assert_eq!(text(&second.request(1, "tools/call", json!({ "name": "counter" })).await), "1");

    // A request longer than the timeout keeps its session alive while it runs.
    let response = first.request(3, "tools/call", json!({ "name": "wait", "arguments": { "ms": 1500 } })).await;
    assert_eq!(text(&response), "waited 1500 ms");
    assert_eq!(text(&first.request(4, "tools/call", json!({ "name": "counter" })).await), "3");

    // Idle for longer than the timeout: gone.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let reply = first.post(ping(5)).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
    let reply = second.post(ping(2)).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
    server.stop().await;
}

#[tokio::test]
async fn sessions_run_in_parallel_and_a_session_runs_in_order() {
    let (server, first) = initialized(&[]).await;
    let mut second = server.client();
    second.initialize(VERSION).await;
    // Two sessions: both calls at once.
    let started = Instant::now();
    let (a, b) = tokio::join!(post_wait(&first, 1, 800), post_wait(&second, 1, 800));
    let parallel = started.elapsed();
    assert_eq!((a.status, b.status), (StatusCode::OK, StatusCode::OK));
    assert_eq!(text(a.response()), "waited 800 ms");
    assert_eq!(text(b.response()), "waited 800 ms");

    // One session: one call after the other, each answered on its own stream.
    let started = Instant::now();
    let (a, b, c) = tokio::join!(post_wait(&first, 2, 800), post_wait(&first, 3, 800), post_wait(&first, 4, 800));
    let serial = started.elapsed();
    for (reply, id) in [(a, 2), (b, 3), (c, 4)] {
        assert_eq!(reply.response()["id"], id);
        assert_eq!(text(reply.response()), "waited 800 ms");
    }
    assert!(serial >= Duration::from_millis(2400), "one session's calls are serialised: {serial:?}");
    assert!(parallel < Duration::from_millis(1500), "sessions run in parallel: {parallel:?}");
    server.stop().await;
}

/// POSTs a `wait` call on the client's session without waiting for earlier ones.
pub(super) async fn post_wait(client: &RawClient, id: i64, ms: u64) -> support::http::Reply {
    client.post(call(id, "wait", json!({ "ms": ms }))).await
}

#[tokio::test]
async fn cancellation_reaches_a_queued_request() {
    let (server, client) = initialized(&[]).await;
    // Occupy the session, queue a second call behind it, then cancel that one.
    let busy = post_wait(&client, 1, 1000);
    let queued = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        client.post(call(2, "counter", json!({}))).await
    };
    let cancel = async {
        tokio::time::sleep(Duration::from_millis(400)).await;
        client
            .post(json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 2 } }))
            .await
    };
    let (busy, queued, cancel) = tokio::join!(busy, queued, cancel);
    assert_eq!(cancel.status, StatusCode::ACCEPTED, "{cancel:?}");
    assert_eq!(text(busy.response()), "waited 1000 ms");
    assert_eq!(queued.status, StatusCode::OK);
    assert!(queued.messages.is_empty(), "a cancelled request gets no response: {queued:?}");
    // The counter never ran.
    assert_eq!(text(&client.request(3, "tools/call", json!({ "name": "counter" })).await), "1");
    server.stop().await;
}

#[tokio::test]
async fn stateless_requests_stand_alone() {
    let server = HttpServer::start(&[&conformance(), "--stateless"]).await;
    let mut client = server.client();

    // No initialize needed; no session id is ever issued.
    let reply = client.post(call(1, "test_simple_text", json!({}))).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(text(reply.response()), "This is a simple text response for testing.");
    assert!(reply.header("mcp-session-id").is_none());
    // No state survives a request: a fresh instance each time.
    for id in 2..4 {
        assert_eq!(text(&client.request(id, "tools/call", json!({ "name": "counter" })).await), "1");
    }
    // initialize still works, and still issues no session.
    let reply = client.initialize(VERSION).await;
    assert!(reply.header("mcp-session-id").is_none(), "{reply:?}");
    // The header picks the revision: audio only exists from 2025-03-26 on.
    let audio = call(5, "test_audio_content", json!({}));
    let reply = client.post_raw(&[("mcp-protocol-version", "2024-11-05")], audio.to_string()).await;
    assert_eq!(reply.response()["result"]["content"][0]["type"], "resource", "{reply:?}");
    let reply = client.post_raw(&[("mcp-protocol-version", "")], audio.to_string()).await;
    assert_eq!(reply.response()["result"]["content"][0]["type"], "audio", "2025-03-26 when absent: {reply:?}");
    let reply = client.post_raw(&[("mcp-protocol-version", "2030-01-01")], audio.to_string()).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");

    let get = client.get_stream(&server.url(), &[]).await;
    assert_eq!(get.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(client.delete().await.status, StatusCode::METHOD_NOT_ALLOWED);
    let legacy = client.get_stream(&server.at("/sse"), &[]).await;
    assert_eq!(legacy.status(), StatusCode::NOT_FOUND, "no HTTP+SSE transport without sessions");
    server.stop().await;
}
