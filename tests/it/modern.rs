// MCP 2026-07-28 beside the 2025 era, on stdio and Streamable HTTP: the
// per-request envelope, `server/discover`, stamped results, the errors of
// the validation ladder (with their HTTP statuses), `subscriptions/listen`,
// and legacy sessions served unchanged beside modern requests. Every message
// the server sends is validated against the schema of its request's revision
// (2026-07-28 for modern requests, 2025-11-25 for legacy ones).

use std::time::Duration;

use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::http::{EventReader, HttpServer, RawClient};
use support::{RawServer, error_code, fixture_arg, initialize_params, text};

const MODERN: &str = "2026-07-28";
const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";

/// The 2026-07-28 envelope, as a client sends it.
fn envelope() -> Value {
    json!({
        PROTOCOL_VERSION_KEY: MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "modern-test", "version": "1.0.0" },
    })
}

/// `params` with the envelope in its `_meta`.
fn modern(mut params: Value) -> Value {
    let meta = params.as_object_mut().expect("params are an object").entry("_meta").or_insert_with(|| json!({}));
    for (key, value) in envelope().as_object().unwrap() {
        meta[key] = value.clone();
    }
    params
}

fn request(id: Value, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

/// Asserts the stamp of a complete modern result; `cacheable` for lists,
/// reads and discover.
fn assert_stamped(result: &Value, cacheable: bool) {
    assert_eq!(result["resultType"], "complete", "{result}");
    assert_eq!(result["_meta"][SERVER_INFO_KEY]["name"], "mcp-wit-conformance", "{result}");
    assert!(result["_meta"][SERVER_INFO_KEY]["version"].is_string(), "{result}");
    if cacheable {
        assert!(result["ttlMs"].as_u64().is_some(), "{result}");
        assert!(matches!(result["cacheScope"].as_str(), Some("public" | "private")), "{result}");
    } else {
        assert!(result.get("ttlMs").is_none() && result.get("cacheScope").is_none(), "{result}");
    }
}

#[tokio::test]
async fn stdio_serves_modern_requests_on_their_own() {
    let mut server = RawServer::in_process("conformance");
    let discover = server.request(1, "server/discover", modern(json!({}))).await;
    let result = &discover["result"];
    assert_eq!(result["supportedVersions"], json!([MODERN]), "{discover}");
    assert_stamped(result, true);
    // Capabilities say what is handled: list changes and subscriptions where
    // the router can signal them (it imports the client interface).
    let caps = &result["capabilities"];
    assert!(caps["tools"].is_object() && caps["resources"].is_object() && caps["prompts"].is_object(), "{caps}");
    assert!(caps.get("logging").is_none(), "{caps}");
    assert_eq!(caps["tools"], json!({ "listChanged": true }), "{caps}");
    assert_eq!(caps["prompts"], json!({ "listChanged": true }), "{caps}");
    assert_eq!(caps["resources"], json!({ "subscribe": true }), "{caps}");

    let tools = server.request(2, "tools/list", modern(json!({}))).await;
    assert_stamped(&tools["result"], true);
    let listed: Vec<&str> =
        tools["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(listed.contains(&"test_simple_text"), "{listed:?}");

    let call = server.request(3, "tools/call", modern(json!({ "name": "test_simple_text" }))).await;
    assert_stamped(&call["result"], false);
    assert_eq!(text(&call), "This is a simple text response for testing.");

    // A stdio connection is one client: its modern requests share its
    // instance, as a 2025 session's do (the guest's counter goes on).
    for (id, count) in [(4, "1"), (5, "2"), (6, "3")] {
        let counted = server.request(id, "tools/call", modern(json!({ "name": "counter", "arguments": {} }))).await;
        assert_eq!(text(&counted), count, "{counted}");
    }

    let read = server.request(7, "resources/read", modern(json!({ "uri": "test://static-text" }))).await;
    assert_stamped(&read["result"], true);
    let templates = server.request(8, "resources/templates/list", modern(json!({}))).await;
    assert_stamped(&templates["result"], true);
    // A missing resource is an invalid parameter in 2026-07-28 (-32002 before).
    let missing = server.request(9, "resources/read", modern(json!({ "uri": "test://nope" }))).await;
    assert_eq!(error_code(&missing), -32602, "{missing}");
    assert_eq!(missing["error"]["data"]["uri"], "test://nope", "{missing}");
    let prompt = server.request(10, "prompts/get", modern(json!({ "name": "test_simple_prompt" }))).await;
    assert_stamped(&prompt["result"], false);

    // The connection now speaks 2026-07-28: `initialize` names the versions served.
    let init = server.request(11, "initialize", initialize_params("2025-11-25")).await;
    assert_eq!(error_code(&init), -32022, "{init}");
    assert_eq!(init["error"]["data"], json!({ "supported": [MODERN], "requested": "2025-11-25" }), "{init}");
    // Methods 2026-07-28 removed are unknown, with or without a legacy look.
    for (id, method) in [(12, "ping"), (13, "logging/setLevel"), (14, "resources/subscribe"), (15, "initialize")] {
        let removed = server.request(id, method, modern(json!({}))).await;
        assert_eq!(error_code(&removed), -32601, "{method}: {removed}");
    }
    // A request without its envelope on a modern connection.
    let bare = server.request(16, "tools/list", json!({})).await;
    assert_eq!(error_code(&bare), -32602, "{bare}");
    assert!(bare["error"]["data"]["envelope"].is_object(), "{bare}");
    server.finish().await;
}

#[tokio::test]
async fn a_discover_probe_leaves_a_2025_client_free_to_initialize() {
    let mut server = RawServer::in_process("conformance");
    let discover = server.request(1, "server/discover", modern(json!({}))).await;
    assert_eq!(discover["result"]["supportedVersions"], json!([MODERN]));
    let init = server.request(2, "initialize", initialize_params("2025-11-25")).await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    let call = server.call(3, "test_simple_text", json!({})).await;
    assert_eq!(text(&call), "This is a simple text response for testing.");
    assert!(call["result"].get("resultType").is_none(), "legacy results are not stamped: {call}");
    let missing = server.request(4, "resources/read", json!({ "uri": "test://nope" })).await;
    assert_eq!(error_code(&missing), -32002, "{missing}");
    // A legacy session's guest state lives across its calls.
    for expected in ["1", "2"] {
        let counted = server.call(5, "counter", json!({})).await;
        assert_eq!(text(&counted), expected);
    }
    // A modern request on a 2025 connection.
    let modern_call = server.request(6, "tools/list", modern(json!({}))).await;
    assert_eq!(error_code(&modern_call), -32600, "{modern_call}");
    // Without a claim, `server/discover` is not a 2025 method.
    let probe = server.request(7, "server/discover", json!({})).await;
    assert_eq!(error_code(&probe), -32601, "{probe}");
    server.finish().await;
}

#[tokio::test]
async fn bad_envelopes_get_exact_errors_and_the_server_goes_on() {
    let mut server = RawServer::in_process("conformance");
    let cases = [
        (json!({ "_meta": { PROTOCOL_VERSION_KEY: MODERN } }), -32602),
        (json!({ "_meta": { PROTOCOL_VERSION_KEY: 2026, "io.modelcontextprotocol/clientCapabilities": {} } }), -32602),
        (
            json!({ "_meta": { PROTOCOL_VERSION_KEY: MODERN, "io.modelcontextprotocol/clientCapabilities": "all" } }),
            -32602,
        ),
        (
            json!({ "_meta": { PROTOCOL_VERSION_KEY: MODERN, "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/logLevel": "loud" } }),
            -32602,
        ),
        (
            json!({ "_meta": { PROTOCOL_VERSION_KEY: "1900-01-01", "io.modelcontextprotocol/clientCapabilities": {} } }),
            -32022,
        ),
    ];
    for (i, (params, code)) in cases.into_iter().enumerate() {
        let id = i as i64 + 1;
        let answer = server.request(id, "tools/list", params.clone()).await;
        assert_eq!(error_code(&answer), code, "{params} → {answer}");
    }
    let unsupported = server
        .request(9, "server/discover", json!({ "_meta": { PROTOCOL_VERSION_KEY: "1900-01-01", "io.modelcontextprotocol/clientCapabilities": {} } }))
        .await;
    assert_eq!(unsupported["error"]["data"], json!({ "supported": [MODERN], "requested": "1900-01-01" }));
    // A batch holding a modern request is refused whole.
    server.send(&json!([request(json!(10), "tools/list", modern(json!({})))]).to_string()).await;
    let batch = server.receive().await;
    assert_eq!(error_code(&batch), -32600, "{batch}");
    // And the connection still serves.
    let discover = server.request(11, "server/discover", modern(json!({}))).await;
    assert_stamped(&discover["result"], true);
    server.finish().await;
}

#[tokio::test]
async fn a_router_that_cannot_signal_advertises_no_changes() {
    // `everything` declares listChanged but only exports the 25.3.26 router:
    // it has no way to say that anything changed.
    let mut server = RawServer::in_process("everything");
    let discover = server.request(1, "server/discover", modern(json!({}))).await;
    let caps = &discover["result"]["capabilities"];
    assert_eq!(caps["tools"], json!({}), "{caps}");
    assert_eq!(caps["resources"], json!({}), "{caps}");
    let listen = request(
        json!(2),
        "subscriptions/listen",
        modern(json!({ "notifications": { "toolsListChanged": true, "resourceSubscriptions": ["test://x"] } })),
    );
    server.send(&listen.to_string()).await;
    let ack = server.receive().await;
    assert_eq!(ack["params"]["notifications"], json!({}), "nothing is honoured: {ack}");
    server.finish().await;
}

#[tokio::test]
async fn listen_on_stdio_acknowledges_first_and_ends_with_the_connection() {
    // The stdio transport itself (a process): it answers open listens at the end of input.
    let fixture = fixture_arg("conformance");
    let mut server = RawServer::start(&["serve", fixture.as_str()]);
    let listen = |id: i64| {
        request(json!(id), "subscriptions/listen", modern(json!({ "notifications": { "toolsListChanged": true } })))
    };
    server.send(&listen(1).to_string()).await;
    let ack = server.receive().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged", "{ack}");
    assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_ID_KEY], 1, "{ack}");
    assert_eq!(ack["params"]["notifications"], json!({ "toolsListChanged": true }), "{ack}");
    // Cancelled by the client: nothing more is sent for it.
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#).await;
    server.send(&listen(2).to_string()).await;
    let ack = server.receive().await;
    assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_ID_KEY], 2, "{ack}");
    // Other requests are served while subscriptions are open.
    let call = server.request(3, "tools/call", modern(json!({ "name": "test_simple_text" }))).await;
    assert_eq!(text(&call), "This is a simple text response for testing.");
    // A change a router reports reaches the open subscription (only it),
    // tagged with its id, while the request that caused it runs; a prompt
    // change is not what it listens for.
    for (id, tool) in [(4, "test_trigger_prompt_change"), (5, "test_trigger_tool_change")] {
        server.send(&request(json!(id), "tools/call", modern(json!({ "name": tool }))).to_string()).await;
    }
    let answer = server.receive().await;
    assert_eq!(answer["id"], 4, "{answer}");
    let change = server.receive().await;
    assert_eq!(
        change,
        json!({
            "jsonrpc": "2.0",
            "method": "notifications/tools/list_changed",
            "params": { "_meta": { SUBSCRIPTION_ID_KEY: 2 } }
        })
    );
    let answer = server.receive().await;
    assert_eq!(text(&answer), "Tool list change announced");
    server.close_input();
    let end: Value = serde_json::from_str(&server.next_line().await.expect("the open listen is answered")).unwrap();
    assert_eq!(end["id"], 2, "{end}");
    assert_eq!(end["result"]["resultType"], "complete", "{end}");
    assert_eq!(end["result"]["_meta"][SUBSCRIPTION_ID_KEY], 2, "{end}");
    assert_eq!(server.next_line().await, None, "nothing for the cancelled subscription");
}

/// A conformance server and a client with no session and no default version.
async fn http_server() -> (HttpServer, RawClient) {
    let fixture = fixture_arg("conformance");
    let server = HttpServer::start(&[fixture.as_str()]).await;
    let client = server.client();
    (server, client)
}

/// The headers a 2026-07-28 client sends with a request.
fn modern_headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![("mcp-protocol-version", MODERN), ("mcp-method", method)];
    if let Some(name) = name {
        headers.push(("mcp-name", name));
    }
    headers
}

#[tokio::test]
async fn http_modern_posts_climb_the_validation_ladder() {
    let (server, client) = http_server().await;
    let list = |id: i64, meta: Value| request(json!(id), "tools/list", json!({ "_meta": meta }));
    let bad_version = json!({ PROTOCOL_VERSION_KEY: "v999.0.0", "io.modelcontextprotocol/clientCapabilities": {} });
    // What, headers, body, then the status and code it must get.
    type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, Value, StatusCode, i64);
    let cases: Vec<Case<'_>> = vec![
        ("no version header", vec![("mcp-method", "tools/list")], list(1, envelope()), StatusCode::BAD_REQUEST, -32020),
        (
            "header and body disagree (checked before the version)",
            modern_headers("tools/list", None),
            list(2, bad_version.clone()),
            StatusCode::BAD_REQUEST,
            -32020,
        ),
        (
            "unsupported version",
            vec![("mcp-protocol-version", "v999.0.0"), ("mcp-method", "tools/list")],
            list(3, bad_version),
            StatusCode::BAD_REQUEST,
            -32022,
        ),
        (
            "modern header, no envelope",
            modern_headers("tools/list", None),
            request(json!(4), "tools/list", json!({})),
            StatusCode::BAD_REQUEST,
            -32602,
        ),
        (
            "malformed envelope",
            modern_headers("tools/list", None),
            list(5, json!({ PROTOCOL_VERSION_KEY: MODERN })),
            StatusCode::BAD_REQUEST,
            -32602,
        ),
        (
            "initialize under a modern header",
            modern_headers("initialize", None),
            request(json!(6), "initialize", initialize_params("2025-11-25")),
            StatusCode::BAD_REQUEST,
            -32020,
        ),
        (
            "initialize with a modern claim",
            modern_headers("initialize", None),
            request(json!(7), "initialize", modern(json!({}))),
            StatusCode::NOT_FOUND,
            -32601,
        ),
        (
            "ping",
            modern_headers("ping", None),
            request(json!(8), "ping", modern(json!({}))),
            StatusCode::NOT_FOUND,
            -32601,
        ),
        (
            "unknown method",
            modern_headers("unknown/method", None),
            request(json!(9), "unknown/method", modern(json!({}))),
            StatusCode::NOT_FOUND,
            -32601,
        ),
        (
            "no Mcp-Method",
            vec![("mcp-protocol-version", MODERN)],
            list(10, envelope()),
            StatusCode::BAD_REQUEST,
            -32020,
        ),
        (
            "Mcp-Method disagrees",
            modern_headers("prompts/list", None),
            list(11, envelope()),
            StatusCode::BAD_REQUEST,
            -32020,
        ),
        (
            "no Mcp-Name on tools/call",
            modern_headers("tools/call", None),
            request(json!(12), "tools/call", modern(json!({ "name": "test_simple_text" }))),
            StatusCode::BAD_REQUEST,
            -32020,
        ),
        (
            "Mcp-Name disagrees",
            modern_headers("tools/call", Some("test_error_handling")),
            request(json!(13), "tools/call", modern(json!({ "name": "test_simple_text" }))),
            StatusCode::BAD_REQUEST,
            -32020,
        ),
        (
            "an unknown tool is the handler's error, in-band",
            modern_headers("tools/call", Some("no_such_tool")),
            request(json!(14), "tools/call", modern(json!({ "name": "no_such_tool" }))),
            StatusCode::OK,
            -32602,
        ),
    ];
    for (what, headers, body, status, code) in cases {
        let reply = client.post_raw(&headers, body.to_string()).await;
        assert_eq!(reply.status, status, "{what}: {reply:?}");
        let response = reply.response();
        assert_eq!(error_code(response), code, "{what}: {response}");
        assert_eq!(response["id"], body["id"], "{what}: errors echo the request id");
        assert!(reply.header("mcp-session-id").is_none(), "{what}: no session for modern traffic");
    }

    // The base64 sentinel is decoded before comparing.
    let call = request(json!(20), "tools/call", modern(json!({ "name": "test_simple_text" })));
    let encoded = "=?base64?dGVzdF9zaW1wbGVfdGV4dA==?=";
    let reply = client.post_raw(&modern_headers("tools/call", Some(encoded)), call.to_string()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(text(reply.response()), "This is a simple text response for testing.");

    // Notifications are accepted and dropped; GET and DELETE are 2025 only.
    let note = json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 1 } });
    let reply = client.post_raw(&[("mcp-protocol-version", MODERN)], note.to_string()).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{reply:?}");
    let get = client.get_stream(&client.url, &[("mcp-protocol-version", MODERN)]).await;
    assert_eq!(get.status(), StatusCode::METHOD_NOT_ALLOWED);
    // A batch with a modern element: 400, -32600.
    let batch = json!([request(json!(30), "tools/list", modern(json!({})))]);
    let reply = client.post_raw(&modern_headers("tools/list", None), batch.to_string()).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    assert_eq!(error_code(&reply.messages[0]), -32600, "{reply:?}");
    server.stop().await;
}

#[tokio::test]
async fn http_serves_both_eras_side_by_side() {
    let (server, mut legacy) = http_server().await;
    legacy.initialize("2025-11-25").await;
    let modern_client = server.client();

    let discover = request(json!("d"), "server/discover", modern(json!({})));
    let reply = modern_client.post_raw(&modern_headers("server/discover", None), discover.to_string()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_stamped(&reply.response()["result"], true);

    // Progress travels on the request's own stream, before its result.
    let mut params = modern(json!({ "name": "test_tool_with_progress", "arguments": {} }));
    params["_meta"]["progressToken"] = json!("p-1");
    let call = request(json!(2), "tools/call", params);
    let reply =
        modern_client.post_raw(&modern_headers("tools/call", Some("test_tool_with_progress")), call.to_string()).await;
    assert!(reply.is_sse(), "{reply:?}");
    let methods: Vec<&str> = reply.messages.iter().map(|m| m["method"].as_str().unwrap_or("(response)")).collect();
    assert_eq!(methods, ["notifications/progress", "notifications/progress", "notifications/progress", "(response)"]);
    assert!(!reply.body.contains("\nid:"), "modern streams carry no event ids: {}", reply.body);

    // Modern requests meanwhile run on fresh instances; the 2025 session keeps its own.
    for expected in ["1", "2", "3"] {
        let counted = legacy.request(10, "tools/call", json!({ "name": "counter", "arguments": {} })).await;
        assert_eq!(text(&counted), expected);
        let modern_count = request(json!(11), "tools/call", modern(json!({ "name": "counter", "arguments": {} })));
        let reply =
            modern_client.post_raw(&modern_headers("tools/call", Some("counter")), modern_count.to_string()).await;
        assert_eq!(text(reply.response()), "1");
    }
    let missing = legacy.request(12, "resources/read", json!({ "uri": "test://nope" })).await;
    assert_eq!(error_code(&missing), -32002);
    server.stop().await;
}

#[tokio::test]
async fn http_listen_stream_is_acknowledged_kept_alive_and_ended_at_shutdown() {
    let fixture = fixture_arg("conformance");
    let mut server = HttpServer::start(&[fixture.as_str(), "--sse-keep-alive", "200ms"]).await;
    let client = server.client();
    let listen =
        request(json!(7), "subscriptions/listen", modern(json!({ "notifications": { "promptsListChanged": true } })));
    client.note_request(&listen.to_string());
    let mut headers = client.default_headers();
    for (name, value) in modern_headers("subscriptions/listen", None) {
        headers.insert(name, value.parse().unwrap());
    }
    let response = client.http.post(&client.url).headers(headers).body(listen.to_string()).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let mut events = EventReader::new(response);
    let ack = events.next_event(Duration::from_secs(10)).await.expect("an acknowledgement");
    let ack: Value = serde_json::from_str(&ack.data).unwrap();
    client.check_at(support::schema::Revision::Modern, &ack);
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_ID_KEY], 7);
    assert_eq!(ack["params"]["notifications"], json!({ "promptsListChanged": true }), "{ack}");
    // Keep-alive comments flow while nothing happens (the reader skips them,
    // so the stream simply stays open past several keep-alive periods).
    assert!(events.next_event(Duration::from_millis(700)).await.is_none(), "nothing but keep-alives yet");
    // Changes caused by any client reach the stream, if it listens for them:
    // a tool change (filtered out), then prompt changes from a modern request
    // and from a 2025 session.
    for tool in ["test_trigger_tool_change", "test_trigger_prompt_change"] {
        let call = request(json!(8), "tools/call", modern(json!({ "name": tool })));
        let reply = client.post_raw(&modern_headers("tools/call", Some(tool)), call.to_string()).await;
        assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    }
    let mut legacy = server.client();
    legacy.initialize("2025-11-25").await;
    legacy.request(9, "tools/call", json!({ "name": "test_trigger_prompt_change" })).await;
    for _ in 0..2 {
        let change = events.next_event(Duration::from_secs(10)).await.expect("a prompt list change");
        let change: Value = serde_json::from_str(&change.data).unwrap();
        client.check_at(support::schema::Revision::Modern, &change);
        assert_eq!(change["method"], "notifications/prompts/list_changed", "{change}");
        assert_eq!(change["params"]["_meta"][SUBSCRIPTION_ID_KEY], 7, "{change}");
    }
    server.terminate();
    let end = events.next_event(Duration::from_secs(10)).await.expect("a final result at shutdown");
    let end: Value = serde_json::from_str(&end.data).unwrap();
    client.check_at(support::schema::Revision::Modern, &end);
    assert_eq!(end["id"], 7, "{end}");
    assert_eq!(end["result"]["_meta"][SUBSCRIPTION_ID_KEY], 7, "{end}");
    let status = server.wait().await;
    assert!(status.success(), "{status}");
}

#[tokio::test]
async fn http_closing_the_response_stream_cancels_the_request() {
    let fixture = fixture_arg("conformance");
    let server = HttpServer::start(&[fixture.as_str(), "-v"]).await;
    let client = server.client();
    let call = request(json!(5), "tools/call", modern(json!({ "name": "wait", "arguments": { "ms": 10000 } })));
    let mut headers = client.default_headers();
    for (name, value) in modern_headers("tools/call", Some("wait")) {
        headers.insert(name, value.parse().unwrap());
    }
    let response = client.http.post(&client.url).headers(headers).body(call.to_string()).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    drop(response);
    // The guest call is interrupted long before its 10 s are up.
    let deadline = std::time::Instant::now() + Duration::from_secs(8);
    loop {
        let logs = server.stderr.lock().unwrap().clone();
        if logs.contains("the client closed the stream: cancelling its request") && logs.contains("cancel") {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no cancellation logged:\n{logs}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // And the server goes on serving.
    let discover = request(json!(6), "server/discover", modern(json!({})));
    let reply = client.post_raw(&modern_headers("server/discover", None), discover.to_string()).await;
    assert_eq!(reply.status, StatusCode::OK);
    server.stop().await;
}

#[test]
fn the_cli_inspects_and_calls_in_either_era() {
    let fixture = fixture_arg("conformance");
    let run = |args: &[&str]| {
        let output = std::process::Command::new(support::binary()).args(args).output().expect("mcp-wit runs");
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice::<Value>(&output.stdout).expect("JSON on stdout")
    };
    let modern_call = run(&["call", &fixture, "test_simple_text", "--protocol", MODERN]);
    assert_stamped(&modern_call, false);
    let legacy_call = run(&["call", &fixture, "test_simple_text"]);
    assert!(legacy_call.get("resultType").is_none(), "{legacy_call}");
    let report = run(&["inspect", &fixture, "--json", "--protocol", MODERN]);
    assert_eq!(report["protocolVersion"], MODERN, "{report}");
    assert_eq!(report["serverInfo"]["name"], "mcp-wit-conformance", "{report}");
    assert!(report["tools"].as_array().is_some_and(|t| !t.is_empty()), "{report}");
}

#[tokio::test]
async fn a_capability_the_request_did_not_declare_is_32021_and_400_over_http() {
    let (server, client) = http_server().await;
    // `test_missing_capability` asks the client's model: its envelope
    // declares nothing, so the request fails before anything is asked.
    // From a client that takes JSON alone: the server waits for the whole
    // answer, so the refusal's status is the response's however long the
    // call takes (an SSE answer's headers go out, with 200, once the
    // request has run for 10 ms; a loaded machine can take that long).
    let call = request(json!(1), "tools/call", modern(json!({ "name": "test_missing_capability", "arguments": {} })));
    let mut headers = modern_headers("tools/call", Some("test_missing_capability"));
    headers.push(("accept", "application/json"));
    let reply = client.post_raw(&headers, call.to_string()).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    let error = &reply.response()["error"];
    assert_eq!(error["code"], -32021, "{reply:?}");
    assert_eq!(error["data"], json!({ "requiredCapabilities": { "sampling": {} } }), "{reply:?}");
    assert_eq!(reply.response()["id"], 1);

    // Declared, the question ends the round instead (and the server keeps serving).
    let mut params = modern(json!({ "name": "test_missing_capability", "arguments": {} }));
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = json!({ "sampling": {} });
    let call = request(json!(2), "tools/call", params);
    let reply = client.post_raw(&modern_headers("tools/call", Some("test_missing_capability")), call.to_string()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(reply.response()["result"]["resultType"], "input_required", "{reply:?}");
    assert_eq!(reply.response()["result"]["inputRequests"]["q1"]["method"], "sampling/createMessage", "{reply:?}");
    server.stop().await;
}

#[tokio::test]
async fn x_mcp_header_arguments_must_come_as_mcp_param_headers_too() {
    let (server, client) = http_server().await;
    let call = |id: i64, region: &str| {
        request(
            json!(id),
            "tools/call",
            modern(json!({ "name": "test_custom_header", "arguments": { "region": region } })),
        )
        .to_string()
    };
    let headers = |param: Option<&'static str>| {
        let mut headers = modern_headers("tools/call", Some("test_custom_header"));
        if let Some(value) = param {
            headers.push(("mcp-param-region", value));
        }
        headers
    };
    // The header matches the argument, literally or base64-encoded.
    let reply = client.post_raw(&headers(Some("eu-west")), call(1, "eu-west")).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(reply.response()["result"]["content"][0]["text"], "region: eu-west", "{reply:?}");
    let reply = client.post_raw(&headers(Some("=?base64?ZXUtd2VzdA==?=")), call(2, "eu-west")).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    // Missing, different or broken base64: 400 with -32020, and the guest is not run.
    for (id, value) in [(3, None), (4, Some("us-east")), (5, Some("=?base64?!!!?="))] {
        let reply = client.post_raw(&headers(value), call(id, "eu-west")).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{value:?}: {reply:?}");
        assert_eq!(reply.response()["error"]["code"], -32020, "{value:?}: {reply:?}");
    }
    server.stop().await;
}
