//! POST: answers and status codes, progress before the result, streams that
//! resume after a lost connection.

use std::time::{Duration, Instant};

use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::http::{EventReader, HttpServer};
use support::text;

use super::fixture::{VERSION, call, conformance, initialized, ping};

#[tokio::test]
async fn post_answers_and_status_codes() {
    let server = HttpServer::start(&[&conformance(), "--max-message-size", "4096"]).await;
    let mut client = server.client();

    // Before initialize: no session, so anything but `initialize` is 400.
    let reply = client.post(ping(1)).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    let reply = client.post(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");

    // initialize: 200 with a fresh, random, visible-ASCII session id.
    let first = client.initialize(VERSION).await;
    // One whole message, to a client that takes both: JSON.
    assert!(!first.is_sse(), "JSON: {first:?}");
    let session = client.session.clone().expect("Mcp-Session-Id");
    assert!(session.len() >= 32 && session.bytes().all(|b| b.is_ascii_graphic()), "{session}");
    let mut other = server.client();
    other.initialize(VERSION).await;
    assert_ne!(other.session, client.session, "each initialize gets its own session");

    // A request: 200, as SSE or JSON as the client's Accept says.
    let reply = client.post(ping(2)).await;
    assert_eq!((reply.status, reply.is_sse()), (StatusCode::OK, true), "{reply:?}");
    assert_eq!(reply.response(), &json!({ "jsonrpc": "2.0", "id": 2, "result": {} }));
    assert_eq!(reply.header("cache-control"), Some("no-cache"));
    let reply = client.post_raw(&[("accept", "application/json")], ping(3).to_string()).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.content_type().starts_with("application/json"), "{reply:?}");
    assert_eq!(reply.messages, [json!({ "jsonrpc": "2.0", "id": 3, "result": {} })]);
    let reply = client.post_raw(&[("accept", "text/html")], ping(4).to_string()).await;
    assert_eq!(reply.status, StatusCode::NOT_ACCEPTABLE, "{reply:?}");

    // A notification or a response: 202, no body.
    let reply = client.post(json!({ "jsonrpc": "2.0", "method": "notifications/roots/list_changed" })).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    assert!(reply.body.is_empty());
    let reply = client.post(json!({ "jsonrpc": "2.0", "id": "s1", "result": {} })).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    assert!(reply.body.is_empty());

    // Session rules.
    let reply = client.post_raw(&[("mcp-session-id", "")], ping(5).to_string()).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "no session id after initialize: {reply:?}");
    let reply = client.post_raw(&[("mcp-session-id", "0123456789abcdef0123456789abcdef")], ping(6).to_string()).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
    assert_eq!(reply.error_code(), Some(-32001));

    // MCP-Protocol-Version: unsupported → 400; absent → fine.
    let reply = client.post_raw(&[("mcp-protocol-version", "1999-01-01")], ping(7).to_string()).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    let reply = client.post_raw(&[("mcp-protocol-version", "")], ping(8).to_string()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    // Another supported revision than the negotiated one is accepted.
    let reply = client.post_raw(&[("mcp-protocol-version", "2025-03-26")], ping(9).to_string()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");

    // Bodies: not JSON → 415, broken JSON → 400 with -32700, batch → 400,
    // over the size limit → 413.
    let reply = client.post_raw(&[("content-type", "text/plain")], ping(10).to_string()).await;
    assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{reply:?}");
    let reply = client.post_raw(&[], "{nope").await;
    assert_eq!((reply.status, reply.error_code()), (StatusCode::BAD_REQUEST, Some(-32700)), "{reply:?}");
    let reply = client.post_raw(&[], format!("[{}]", ping(11))).await;
    assert_eq!((reply.status, reply.error_code()), (StatusCode::BAD_REQUEST, Some(-32600)), "{reply:?}");
    let big = call(12, "test_simple_text", json!({ "padding": "x".repeat(5000) }));
    let reply = client.post(big).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE, "{reply:?}");

    // JSON-RPC errors are answers: 200.
    let response = client.request(13, "tools/call", json!({ "name": "no-such-tool" })).await;
    assert_eq!(response["error"]["code"], -32602, "{response}");
    let response = client.request(14, "resources/read", json!({ "uri": "test://template/7/data" })).await;
    assert!(response["result"]["contents"][0]["text"].as_str().unwrap().contains("\"id\":\"7\""), "{response}");
    server.stop().await;
}

#[tokio::test]
async fn sse_answers_carry_progress_before_the_result() {
    let (server, client) = initialized(&[]).await;
    let request = json!({
        "jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": { "name": "test_tool_with_progress", "arguments": {}, "_meta": { "progressToken": "p-1" } }
    });
    let reply = client.post(request.clone()).await;
    assert!(reply.is_sse(), "{reply:?}");
    assert_eq!(reply.messages.len(), 4, "{reply:?}");
    for (message, progress) in reply.messages[..3].iter().zip([0.0, 50.0, 100.0]) {
        assert_eq!(message["method"], "notifications/progress", "{message}");
        assert_eq!(message["params"]["progressToken"], "p-1");
        assert_eq!(message["params"]["progress"].as_f64(), Some(progress));
    }
    assert_eq!(text(&reply.messages[3]), "Progress test completed");

    // One JSON body carries only the response.
    let reply = client.post_raw(&[("accept", "application/json")], request.to_string()).await;
    assert_eq!(reply.messages.len(), 1, "{reply:?}");
    assert_eq!(text(reply.response()), "Progress test completed");
    server.stop().await;
}

#[tokio::test]
async fn quick_answers_come_whole_and_slow_ones_stream() {
    let (server, client) = initialized(&[]).await;
    // Done at once: the whole SSE body is known before the headers go out.
    let quick = client.post(ping(11)).await;
    assert!(quick.is_sse(), "{quick:?}");
    assert_eq!(quick.header("content-length"), Some(quick.body.len().to_string().as_str()), "{quick:?}");
    assert_eq!(quick.messages.len(), 1, "{quick:?}");

    // A call that takes 1.5 s: its headers (and, at 2025-11-25, the priming
    // event) come while the guest still runs, and the body streams.
    let mut headers = client.default_headers();
    headers.insert("accept", "application/json, text/event-stream".parse().unwrap());
    let body = call(12, "wait", json!({ "ms": 1500 })).to_string();
    client.note_request(&body);
    let sent = Instant::now();
    let response = reqwest::Client::new().post(server.url()).headers(headers).body(body).send().await.unwrap();
    let headers_after = sent.elapsed();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers().get("content-length").is_none(), "{:?}", response.headers());
    let mut events = EventReader::new(response);
    let priming = events.next_event(Duration::from_secs(5)).await.expect("a priming event");
    assert!(priming.data.is_empty() && priming.id.is_some(), "{priming:?}");
    let answer = events.next_event(Duration::from_secs(10)).await.expect("the answer");
    let answered_after = sent.elapsed();
    let answer: Value = serde_json::from_str(&answer.data).unwrap();
    client.check(&answer);
    assert_eq!(text(&answer), "waited 1500 ms");
    assert!(
        headers_after < answered_after && answered_after >= Duration::from_millis(1500),
        "headers after {headers_after:?}, answer after {answered_after:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn request_streams_resume_after_a_lost_connection() {
    let (server, client) = initialized(&[]).await;

    // At 2025-11-25 a request stream opens with a priming event: an id, a
    // retry hint and no data; every message event has an id.
    let reply = client.post(ping(1)).await;
    let events = support::http::parse_events(&reply.body);
    assert_eq!(events[0].data, "", "{reply:?}");
    assert_eq!(events[0].retry, Some(2000));
    let primed = events[0].id.clone().expect("the priming event has an id");
    let answered = events[1].id.clone().expect("message events have ids");
    assert_ne!(primed, answered);

    // The connection drops while the call runs...
    let body = call(2, "wait", json!({ "ms": 1000 })).to_string();
    client.note_request(&body);
    let request = client.http.post(&client.url).headers(client.default_headers()).body(body);
    let mut stream = EventReader::new(request.send().await.unwrap());
    let priming = stream.next_event(Duration::from_secs(10)).await.expect("the priming event");
    let last_id = priming.id.expect("an id to resume from");
    drop(stream);

    // ...and the client picks the stream up again with Last-Event-ID: the
    // response arrives there, then the stream ends.
    let resumed = client.get_stream(&server.url(), &[("last-event-id", &last_id)]).await;
    assert_eq!(resumed.status(), StatusCode::OK);
    let mut resumed = EventReader::new(resumed);
    let event = resumed.next_event(Duration::from_secs(10)).await.expect("the response");
    let response: Value = serde_json::from_str(&event.data).unwrap();
    client.check(&response);
    assert_eq!(text(&response), "waited 1000 ms");
    assert!(event.id.is_some_and(|id| id != last_id));
    assert!(resumed.next_event(Duration::from_secs(10)).await.is_none(), "the stream ends with its request");

    // Older revisions get no event ids (a 2025-06-18 client may not expect them).
    let mut older = server.client();
    older.initialize("2025-06-18").await;
    let reply = older.post(ping(1)).await;
    assert!(reply.is_sse() && !reply.body.contains("id:"), "{reply:?}");
    server.stop().await;
}
