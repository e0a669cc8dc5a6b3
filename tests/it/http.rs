// The HTTP transports end to end: `mcp-wit serve --http 127.0.0.1:0` with the
// `conformance` fixture, driven by rmcp's Streamable HTTP client and by plain
// HTTP requests that check each status code and header rule. Every JSON-RPC
// message the server sends (JSON bodies and SSE events alike) is validated
// against the MCP 2025-11-25 schema.

use std::time::{Duration, Instant};

use mcp_wit_tests::support;
use reqwest::StatusCode;
use rmcp::model::{CallToolRequestParams, CallToolResult, GetPromptRequestParams, ReadResourceRequestParams};
use serde_json::{Value, json};
use support::http::{EventReader, HttpServer, RawClient, connect};
use support::{error_message, fixture_arg, text};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const VERSION: &str = "2025-11-25";

/// The `conformance` fixture, as a command-line argument.
fn conformance() -> String {
    fixture_arg("conformance")
}

fn ping(id: i64) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "ping" })
}

fn call(id: i64, tool: &str, arguments: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": tool, "arguments": arguments } })
}

fn tool_text(result: &CallToolResult) -> &str {
    result.content[0].as_text().unwrap_or_else(|| panic!("expected text: {result:?}")).text.as_str()
}

/// A server with `extra` flags and a raw client initialized on it.
async fn initialized(extra: &[&str]) -> (HttpServer, RawClient) {
    let path = conformance();
    let mut args = vec![path.as_str()];
    args.extend_from_slice(extra);
    let server = HttpServer::start(&args).await;
    let mut client = server.client();
    client.initialize(VERSION).await;
    (server, client)
}

// ---------------------------------------------------------------------------
// A real client
// ---------------------------------------------------------------------------

#[tokio::test]
async fn rmcp_client_over_sse_responses() {
    let server = HttpServer::start(&[&conformance()]).await;
    let (client, record) = connect(&server.url(), (), false).await;
    let info = client.peer_info().expect("initialized");
    assert_eq!(info.server_info.as_ref().map(|s| s.name.as_str()), Some("mcp-wit-conformance"));

    let tools = client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| &*t.name).collect();
    for expected in ["test_simple_text", "test_image_content", "test_error_handling", "json_schema_2020_12_tool"] {
        assert!(names.contains(&expected), "{expected} in {names:?}");
    }
    let schema_tool = tools.iter().find(|t| t.name == "json_schema_2020_12_tool").unwrap();
    assert_eq!(schema_tool.input_schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(schema_tool.input_schema["additionalProperties"], false);

    let result = client.call_tool(CallToolRequestParams::new("test_simple_text")).await.expect("tools/call");
    assert_eq!(tool_text(&result), "This is a simple text response for testing.");
    let result = client.call_tool(CallToolRequestParams::new("test_error_handling")).await.expect("tools/call");
    assert_eq!(result.is_error, Some(true));

    // rmcp attaches a progress token to every request: the three progress
    // notifications arrive on the request's own stream, before its response.
    let result = client.call_tool(CallToolRequestParams::new("test_tool_with_progress")).await.expect("progress");
    assert_eq!(tool_text(&result), "Progress test completed");
    {
        let record = record.lock().unwrap();
        let progress: Vec<f64> = record
            .notifications("notifications/progress")
            .iter()
            .map(|n| n["params"]["progress"].as_f64().unwrap())
            .collect();
        assert_eq!(progress, [0.0, 50.0, 100.0]);
        let last_progress = record.messages.iter().rposition(|(_, m)| m["method"] == "notifications/progress").unwrap();
        let response = record
            .messages
            .iter()
            .rposition(|(method, m)| method.as_deref() == Some("tools/call") && m.get("result").is_some())
            .unwrap();
        assert!(last_progress < response, "progress before the result");
    }

    let read = client.read_resource(ReadResourceRequestParams::new("test://static-text")).await.expect("read");
    assert_eq!(read.contents.len(), 1);
    let prompt = client.get_prompt(GetPromptRequestParams::new("test_simple_prompt")).await.expect("prompts/get");
    assert_eq!(prompt.messages.len(), 1);

    let session = {
        let record = record.lock().unwrap();
        assert!(record.answers.contains(&"sse"), "requests answered as SSE: {:?}", record.answers);
        assert!(!record.answers.contains(&"json"), "no JSON answers: {:?}", record.answers);
        assert!(record.violations.is_empty(), "schema violations:\n{}", record.violations.join("\n"));
        record.sessions.last().cloned().expect("the client sent a session id")
    };
    assert!(session.len() >= 32 && session.bytes().all(|b| b.is_ascii_graphic()), "{session}");

    // Closing the client ends the session (DELETE): its id is now unknown.
    client.cancel().await.expect("close");
    let mut raw = server.client();
    raw.session = Some(session);
    let reply = raw.post(ping(1)).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
    server.stop().await;
}

#[tokio::test]
async fn rmcp_client_with_json_responses() {
    let server = HttpServer::start(&[&conformance(), "--json-response"]).await;
    let (client, record) = connect(&server.url(), (), false).await;
    let result = client.call_tool(CallToolRequestParams::new("test_image_content")).await.expect("tools/call");
    assert!(result.content[0].as_image().is_some(), "{result:?}");
    let tools = client.list_all_tools().await.expect("tools/list");
    assert!(!tools.is_empty());
    {
        let record = record.lock().unwrap();
        assert!(record.answers.contains(&"json"), "{:?}", record.answers);
        assert!(!record.answers.contains(&"sse"), "{:?}", record.answers);
        assert!(record.violations.is_empty(), "schema violations:\n{}", record.violations.join("\n"));
    }
    client.cancel().await.expect("close");
    server.stop().await;
}

#[tokio::test]
async fn rmcp_client_against_a_stateless_server() {
    let server = HttpServer::start(&[&conformance(), "--stateless"]).await;
    let (client, record) = connect(&server.url(), (), true).await;
    let result = client.call_tool(CallToolRequestParams::new("test_simple_text")).await.expect("tools/call");
    assert_eq!(tool_text(&result), "This is a simple text response for testing.");
    let read = client.read_resource(ReadResourceRequestParams::new("test://template/42/data")).await.expect("read");
    assert_eq!(read.contents.len(), 1);
    {
        let record = record.lock().unwrap();
        assert!(record.sessions.is_empty(), "no session ids in stateless mode: {:?}", record.sessions);
        assert!(record.violations.is_empty(), "schema violations:\n{}", record.violations.join("\n"));
    }
    client.cancel().await.expect("close");
    server.stop().await;
}

// ---------------------------------------------------------------------------
// POST: answers and status codes
// ---------------------------------------------------------------------------

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
    assert!(first.is_sse(), "SSE by default: {first:?}");
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

// ---------------------------------------------------------------------------
// GET and DELETE
// ---------------------------------------------------------------------------

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
async fn post_wait(client: &RawClient, id: i64, ms: u64) -> support::http::Reply {
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

// ---------------------------------------------------------------------------
// Guest calls on the runtime's threads
// ---------------------------------------------------------------------------

/// A session of its own on `server`.
async fn session(server: &HttpServer) -> RawClient {
    let mut client = server.client();
    client.initialize(VERSION).await;
    client
}

#[tokio::test]
async fn guests_that_spin_hold_up_no_other_session() {
    // Three guests spinning until their deadline, more than the server has
    // worker threads (one per CPU): each call gives its thread back at every
    // epoch tick, so a fourth session is served all along.
    let path = fixture_arg("hostile");
    let server = HttpServer::start(&[&path, "--timeout", "5s"]).await;
    let spinners = [session(&server).await, session(&server).await, session(&server).await];
    let other = session(&server).await;
    let spinning = futures_util::future::join_all(spinners.iter().map(|c| c.post(call(1, "spin", json!({})))));
    let served = async {
        // Let the spinners start first.
        tokio::time::sleep(Duration::from_millis(300)).await;
        for id in 1..=20 {
            let answer = other.request(id, "tools/call", json!({ "name": "counter" })).await;
            assert_eq!(text(&answer), id.to_string());
        }
    };
    tokio::pin!(spinning);
    tokio::select! {
        replies = &mut spinning => panic!("the spinners ended before the other session was served: {replies:?}"),
        () = served => {}
    }
    for reply in spinning.await {
        assert_eq!(reply.response()["error"]["code"], -32603, "{reply:?}");
        assert!(error_message(reply.response()).contains("timed out after 5s"), "{reply:?}");
    }
    server.stop().await;
}

#[tokio::test]
async fn guest_waits_end_at_the_deadline_or_on_cancellation() {
    let path = fixture_arg("hostile");
    let server = HttpServer::start(&[&path, "--timeout", "1s"]).await;
    let client = session(&server).await;
    // A guest sleeping in a host call is held to the deadline.
    let reply = client.post(call(1, "sleep", json!({ "secs": 3600 }))).await;
    assert!(error_message(reply.response()).contains("timed out after 1s"), "{reply:?}");
    assert_eq!(text(&client.request(2, "tools/call", json!({ "name": "counter" })).await), "1");

    // A cancelled spin ends without a response; the session goes on.
    let spin = client.post(call(3, "spin", json!({})));
    let cancel = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        client
            .post(json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 3 } }))
            .await
    };
    let (spin, cancel) = tokio::join!(spin, cancel);
    assert_eq!(cancel.status, StatusCode::ACCEPTED, "{cancel:?}");
    assert!(spin.messages.is_empty(), "a cancelled request gets no response: {spin:?}");
    assert_eq!(text(&client.request(4, "tools/call", json!({ "name": "counter" })).await), "1");
    server.stop().await;
}

#[tokio::test]
async fn a_guest_that_logs_forever_to_a_client_that_does_not_read_stops_at_its_deadline() {
    let path = fixture_arg("hostile");
    let server = HttpServer::start(&[&path, "--timeout", "1s"]).await;
    let client = session(&server).await;
    client.request(1, "logging/setLevel", json!({ "level": "info" })).await;
    // The call's stream is opened, then not read while the guest floods it.
    let body = call(2, "log-forever", json!({})).to_string();
    client.note_request(&body);
    let unread = client.http.post(&client.url).headers(client.default_headers()).body(body).send().await.unwrap();
    assert_eq!(unread.status(), StatusCode::OK);
    // What has no room is dropped, so the guest runs on to its deadline and
    // the session serves the next request (on a fresh instance).
    assert_eq!(text(&client.request(3, "tools/call", json!({ "name": "counter" })).await), "1");
    // The stream holds as many log messages as it had room for, then the end.
    let mut events = EventReader::new(unread);
    let mut logs = 0;
    let answer = loop {
        let message = next_message(&mut events, &client).await;
        if message.get("id").is_some() {
            break message;
        }
        assert_eq!(message["method"], "notifications/message", "{message}");
        logs += 1;
    };
    assert!(logs > 0, "the stream carried the guest's first messages");
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    assert!(error_message(&answer).contains("timed out after 1s"), "{answer}");
    server.stop().await;
}

#[tokio::test]
async fn guests_that_print_panic_or_overflow_are_contained_over_http() {
    let path = fixture_arg("hostile");
    let server = HttpServer::start(&[&path, "--timeout", "10s"]).await;
    let client = session(&server).await;
    let answer = client.request(1, "tools/call", json!({ "name": "print", "arguments": { "mib": 20 } })).await;
    assert_eq!(text(&answer), "printed 20 MiB");
    let answer = client.request(2, "tools/call", json!({ "name": "panic" })).await;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    let answer = client.request(3, "tools/call", json!({ "name": "recurse" })).await;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    let answer = client.request(4, "tools/call", json!({ "name": "huge-result", "arguments": { "mib": 100 } })).await;
    assert!(error_message(&answer).contains("exceeds the output limit"), "{answer}");
    // After all that, a fresh instance serves the session.
    assert_eq!(text(&client.request(5, "tools/call", json!({ "name": "counter" })).await), "1");
    server.stop().await;
}

#[tokio::test]
async fn instance_modes_hold_over_http() {
    let path = fixture_arg("hostile");
    for (mode, expected) in
        [("shared", ["1", "2", "3", "4"]), ("per-session", ["1", "1", "2", "2"]), ("per-request", ["1", "1", "1", "1"])]
    {
        let server = HttpServer::start(&[&path, "--instances", mode]).await;
        let (a, b) = (session(&server).await, session(&server).await);
        let mut counts = Vec::new();
        for (id, client) in [(1, &a), (2, &b), (3, &a), (4, &b)] {
            counts.push(text(&client.request(id, "tools/call", json!({ "name": "counter" })).await).to_owned());
        }
        assert_eq!(counts, expected, "{mode}");
        server.stop().await;
    }
}

// ---------------------------------------------------------------------------
// Stateless mode
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Security
// ---------------------------------------------------------------------------

#[tokio::test]
async fn origin_and_host_are_checked() {
    let server = HttpServer::start(&[&conformance()]).await;
    let port = server.addr.port();
    let client = server.client();
    let init = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params(VERSION)
    })
    .to_string();

    // DNS rebinding: a foreign Host or Origin is refused before anything else.
    for overrides in [
        vec![("host", "evil.example.com")],
        vec![("origin", "http://evil.example.com")],
        vec![("host", "evil.example.com"), ("origin", "http://evil.example.com")],
        vec![("origin", "null")],
    ] {
        let reply = client.post_raw(&overrides, init.clone()).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{overrides:?}: {reply:?}");
    }
    let get = client.get_stream(&server.at("/sse"), &[("host", "evil.example.com")]).await;
    assert_eq!(get.status(), StatusCode::FORBIDDEN, "the legacy endpoints too");

    // Loopback names and origins are fine.
    let local = format!("localhost:{port}");
    let origin = "http://localhost:5173";
    for overrides in [
        vec![("host", local.as_str())],
        vec![("origin", origin)],
        vec![("host", "[::1]"), ("origin", "https://127.0.0.1")],
    ] {
        let reply = client.post_raw(&overrides, init.clone()).await;
        assert_eq!(reply.status, StatusCode::OK, "{overrides:?}: {reply:?}");
    }

    // CORS for allowed origins.
    let preflight = client
        .http
        .request(reqwest::Method::OPTIONS, server.url())
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type, mcp-session-id")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{preflight:?}");
    assert_eq!(preflight.headers()["access-control-allow-origin"], origin);
    let reply = client.post_raw(&[("origin", origin)], init.clone()).await;
    assert_eq!(reply.header("access-control-allow-origin"), Some(origin));
    assert!(reply.header("access-control-expose-headers").unwrap_or_default().contains("mcp-session-id"), "{reply:?}");
    server.stop().await;

    // The flags widen the allowed sets.
    let server = HttpServer::start(&[
        &conformance(),
        "--allow-origin",
        "https://app.example.com",
        "--allow-host",
        "mcp.example.com",
    ])
    .await;
    let client = server.client();
    let reply = client.post_raw(&[("origin", "https://app.example.com")], init.clone()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let reply = client.post_raw(&[("host", "mcp.example.com")], init.clone()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let reply = client.post_raw(&[("origin", "https://other.example.com")], init.clone()).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{reply:?}");
    server.stop().await;
}

#[tokio::test]
async fn slow_clients_are_cut_off() {
    let server = HttpServer::start(&[&conformance(), "--header-timeout", "1s", "--body-timeout", "1s"]).await;

    // Headers that never finish: the connection is closed.
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n").await.unwrap();
    let started = Instant::now();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), slow.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the connection stayed open");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());

    // An idle keep-alive connection is closed too.
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), idle.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the idle connection stayed open");

    // A body that never finishes: 408.
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    let head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
                Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"";
    slow.write_all(head.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(10), slow.read(&mut buf)).await.expect("no answer").unwrap();
    let answer = String::from_utf8_lossy(&buf[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    server.stop().await;
}

// ---------------------------------------------------------------------------
// The 2024-11-05 HTTP+SSE transport
// ---------------------------------------------------------------------------

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

/// The next `message` event on a legacy stream, checked against the schema.
/// The next message on a stream (skipping priming events, which carry
/// none), checked against the schema.
async fn next_message(events: &mut EventReader, client: &RawClient) -> Value {
    let (event, data) = loop {
        let (event, data) = events.next(Duration::from_secs(10)).await.expect("a message event");
        if !data.is_empty() {
            break (event, data);
        }
    };
    assert_eq!(event, "message");
    let message: Value = serde_json::from_str(&data).unwrap();
    client.check(&message);
    message
}

// ---------------------------------------------------------------------------
// Shutdown
// ---------------------------------------------------------------------------

#[tokio::test]
async fn sigterm_lets_requests_in_flight_finish() {
    let (mut server, client) = initialized(&[]).await;
    let stream = client.get_stream(&server.url(), &[]).await;
    assert_eq!(stream.status(), StatusCode::OK);
    let events = EventReader::new(stream);
    let slow = post_wait(&client, 1, 1500);
    let stop = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        server.terminate();
        // Open streams end at once.
        events.end(Duration::from_secs(5)).await;
    };
    // The request in flight still gets its answer.
    let (slow, ()) = tokio::join!(slow, stop);
    assert_eq!(slow.status, StatusCode::OK);
    assert_eq!(text(slow.response()), "waited 1500 ms");
    let status = server.wait().await;
    assert!(status.success(), "exit status {status}; stderr:\n{}", server.stderr.lock().unwrap());
    // Nothing listens any more.
    assert!(TcpStream::connect(server.addr).await.is_err());
}

#[tokio::test]
async fn resource_updates_reach_only_the_sessions_subscribed() {
    let (server, watcher) = initialized(&[]).await;
    let mut other = server.client();
    other.initialize(VERSION).await;
    let mut watching = EventReader::new(watcher.get_stream(&server.url(), &[]).await);
    let mut not_watching = EventReader::new(other.get_stream(&server.url(), &[]).await);
    let uri = "test://watched-resource";
    let subscribed = watcher.request(1, "resources/subscribe", json!({ "uri": uri })).await;
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");
    // Another session's request says the resource (then a sub-resource, then
    // an unrelated one) changed.
    for changed in [uri, "test://watched-resource/part", "test://static-text"] {
        let call =
            other.request(2, "tools/call", json!({ "name": "test_update_resource", "arguments": { "uri": changed } }));
        assert_eq!(text(&call.await), "Resource update announced");
    }
    for changed in [uri, "test://watched-resource/part"] {
        let update = next_message(&mut watching, &watcher).await;
        assert_eq!(
            update,
            json!({ "jsonrpc": "2.0", "method": "notifications/resources/updated", "params": { "uri": changed } })
        );
    }
    // A list change, which every session hears of, shows what came before it.
    other.request(3, "tools/call", json!({ "name": "test_trigger_tool_change" })).await;
    assert_eq!(next_message(&mut watching, &watcher).await["method"], "notifications/tools/list_changed");
    assert_eq!(
        next_message(&mut not_watching, &other).await["method"],
        "notifications/tools/list_changed",
        "no update first"
    );
    // Unsubscribed: no more updates.
    watcher.request(4, "resources/unsubscribe", json!({ "uri": uri })).await;
    other.request(5, "tools/call", json!({ "name": "test_update_resource", "arguments": { "uri": uri } })).await;
    other.request(6, "tools/call", json!({ "name": "test_trigger_tool_change" })).await;
    assert_eq!(
        next_message(&mut watching, &watcher).await["method"],
        "notifications/tools/list_changed",
        "no update first"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_list_change_reaches_every_session_that_listens() {
    let (server, first) = initialized(&[]).await;
    let mut second = server.client();
    second.initialize(VERSION).await;
    // The second session listens on its GET stream; the first one's guest
    // says its tools changed.
    let mut listening = EventReader::new(second.get_stream(&server.url(), &[]).await);
    let answer = first.request(1, "tools/call", json!({ "name": "test_trigger_tool_change", "arguments": {} })).await;
    assert_eq!(text(&answer), "Tool list change announced");
    let message = next_message(&mut listening, &second).await;
    assert_eq!(message, json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {} }));
    server.stop().await;
}
