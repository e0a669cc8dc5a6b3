//! The 2024-11-05 HTTP+SSE transport.

use std::time::{Duration, Instant};

use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::http::{EventReader, HttpServer, RawClient};
use support::text;

use super::fixture::{conformance, next_message, ping};

#[tokio::test]
async fn legacy_sse_transport() {
    let server = HttpServer::start(&[&conformance()]).await;
    let client = server.client();
    let stream = client.get_stream(&server.at("/sse"), &[("mcp-protocol-version", "")]).await;
    assert_eq!(stream.status(), StatusCode::OK);
    let mut events = EventReader::new(stream);
    let (event, endpoint) = events.next(Duration::from_secs(10)).await.expect("the endpoint event");
    assert_eq!(event, "endpoint");
    assert!(endpoint.starts_with("/messages?sessionId="), "{endpoint}");
    let messages = server.at(&endpoint);

    let init = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params("2024-11-05") });
    assert_eq!(post_legacy(&client, &messages, init).await.status, StatusCode::ACCEPTED);
    let answer = next_message(&mut events, &client).await;
    assert_eq!(answer["result"]["protocolVersion"], "2024-11-05", "{answer}");

    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    assert_eq!(post_legacy(&client, &messages, initialized).await.status, StatusCode::ACCEPTED);
    let request = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "test_tool_with_progress", "arguments": {}, "_meta": { "progressToken": 9 } }
    });
    assert_eq!(post_legacy(&client, &messages, request).await.status, StatusCode::ACCEPTED);
    let mut received = Vec::new();
    for _ in 0..4 {
        received.push(next_message(&mut events, &client).await);
    }
    assert!(received[..3].iter().all(|m| m["method"] == "notifications/progress"), "{received:?}");
    assert_eq!(text(&received[3]), "Progress test completed");

    // Unknown or missing session ids.
    let unknown = client
        .read(
            client
                .http
                .post(server.at("/messages?sessionId=nope"))
                .header("content-type", "application/json")
                .body(ping(2).to_string()),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let missing = client
        .read(
            client
                .http
                .post(server.at("/messages"))
                .header("content-type", "application/json")
                .body(ping(2).to_string()),
        )
        .await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);
    // A Streamable HTTP request cannot borrow a legacy session.
    let session_id = endpoint.trim_start_matches("/messages?sessionId=").to_string();
    let mut borrowed = server.client();
    borrowed.session = Some(session_id);
    assert_eq!(borrowed.post(ping(3)).await.status, StatusCode::NOT_FOUND);

    // Closing the stream ends the session.
    drop(events);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let reply = post_legacy(&client, &messages, ping(4)).await;
        if reply.status == StatusCode::NOT_FOUND {
            break;
        }
        assert!(Instant::now() < deadline, "the session outlived its stream");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.stop().await;
}

/// POSTs one message to the legacy endpoint.
async fn post_legacy(client: &RawClient, url: &str, body: Value) -> support::http::Reply {
    let body = body.to_string();
    client.note_request(&body);
    client.read(client.http.post(url).header("content-type", "application/json").body(body)).await
}
