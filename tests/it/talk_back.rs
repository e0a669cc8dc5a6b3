// Routers that talk back (`mcp-wit:extension/client`) in a 2025 session:
// the conformance fixture logs, reports progress, samples and elicits while
// a tool runs. First with the Python SDK's `Client` and its real callbacks,
// over stdio and Streamable HTTP, then line by line over stdio for what no
// real client sends: garbage answers, unknown ids, silence, questions
// without the capability.

use std::time::Duration;

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::http::HttpServer;
use support::peers::{Peer, PeerRun, run_peer};
use support::schema::{self, Revision};
use support::{RawServer, binary, fixture_arg};

/// The Python SDK client over stdio in the 2025 era, answering questions
/// (elicitations with `action`), calling `tool` with `arguments`.
async fn python_legacy(tool: &str, arguments: Value, action: &str) -> PeerRun {
    python_stdio("legacy", tool, arguments, action).await
}

/// The Python SDK client over stdio in `mode`.
async fn python_stdio(mode: &str, tool: &str, arguments: Value, action: &str) -> PeerRun {
    let mut args = python_steps(mode, tool, &arguments, action);
    args.extend(["--".into(), binary().display().to_string(), "serve".into(), fixture_arg("conformance")]);
    run_peer(Peer::Python, args).await
}

/// The same over Streamable HTTP at `url`.
async fn python_legacy_http(url: &str, tool: &str, arguments: Value, action: &str) -> PeerRun {
    python_http("legacy", url, tool, arguments, action).await
}

/// The Python SDK client over Streamable HTTP in `mode`.
async fn python_http(mode: &str, url: &str, tool: &str, arguments: Value, action: &str) -> PeerRun {
    let mut args = python_steps(mode, tool, &arguments, action);
    args.extend(["--url".into(), url.into()]);
    run_peer(Peer::Python, args).await
}

fn python_steps(mode: &str, tool: &str, arguments: &Value, action: &str) -> Vec<String> {
    let mut steps: Vec<String> =
        ["--mode", mode, "--talk-back", action, "--tool", tool, "--args", &arguments.to_string()]
            .map(String::from)
            .to_vec();
    // 2026-07-28 removed `logging/setLevel`.
    if mode == "legacy" {
        steps.extend(["--log-level".into(), "debug".into()]);
    }
    steps
}

/// Every message the server sent validates against the 2025-11-25 schema.
fn assert_legacy_wire(run: &PeerRun) {
    for message in &run.trace {
        schema::check_at(Revision::Legacy, "JSONRPCMessage", message).unwrap();
    }
}

/// The call's text.
fn call_text(run: &PeerRun) -> &str {
    run.report["call"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text: {}", run.report))
}

#[tokio::test]
async fn python_sdk_answers_a_sampling_request_the_guest_made() {
    let run = python_legacy("test_sampling", json!({ "prompt": "Say hi" }), "accept").await;
    assert_eq!(call_text(&run), "LLM response: This is a test response from the client");
    let sampled = &run.report["talkBack"]["sampled"];
    assert_eq!(
        sampled,
        &json!([{ "messages": [{ "role": "user", "content": { "type": "text", "text": "Say hi" } }], "maxTokens": 100 }])
    );
    assert_legacy_wire(&run);
}

#[tokio::test]
async fn python_sdk_answers_elicitations_accepted_and_declined() {
    let run = python_legacy("test_elicitation", json!({ "message": "Who are you?" }), "accept").await;
    assert_eq!(
        call_text(&run),
        r#"User response: <action: accept, content: {"email":"test@example.com","username":"testuser"}>"#
    );
    let elicited = &run.report["talkBack"]["elicited"];
    assert_eq!(elicited[0]["message"], "Who are you?", "{elicited}");
    assert_eq!(elicited[0]["requestedSchema"]["required"], json!(["username", "email"]), "{elicited}");
    assert_legacy_wire(&run);

    // A declined elicitation reaches the guest as declined, not as an error.
    let run = python_legacy("test_elicitation", json!({ "message": "Who are you?" }), "decline").await;
    assert_eq!(call_text(&run), "User response: <action: decline, content: null>");
    assert!(run.report["call"]["isError"].is_null(), "{}", run.report);
}

#[tokio::test]
async fn python_sdk_receives_logs_and_progress_before_the_result() {
    let run = python_legacy("test_tool_with_logging", json!({}), "accept").await;
    assert_eq!(call_text(&run), "Tool with logging executed successfully");
    let logs: Vec<&str> =
        run.report["talkBack"]["logs"].as_array().unwrap().iter().filter_map(|l| l["data"].as_str()).collect();
    assert_eq!(logs, ["Tool execution started", "Tool processing data", "Tool execution completed"]);
    assert_legacy_wire(&run);

    let run = python_legacy("test_tool_with_progress", json!({}), "accept").await;
    let progress: Vec<(f64, &str)> = run.report["talkBack"]["progress"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["progress"].as_f64().unwrap(), p["message"].as_str().unwrap()))
        .collect();
    assert_eq!(progress, [(0.0, "Starting"), (50.0, "Halfway"), (100.0, "Done")]);
    // On the wire: the three notifications, then the call's result.
    let order: Vec<&str> = run
        .trace
        .iter()
        .filter_map(|m| m["method"].as_str().or_else(|| m["result"]["content"].is_array().then_some("(result)")))
        .collect();
    let tail = &order[order.len() - 4..];
    assert_eq!(tail, ["notifications/progress", "notifications/progress", "notifications/progress", "(result)"]);
}

#[tokio::test]
async fn python_sdk_talks_back_over_streamable_http() {
    let fixture = fixture_arg("conformance");
    let server = HttpServer::start(&[fixture.as_str()]).await;
    let url = server.url();
    let (sampling, elicitation, logging) = tokio::join!(
        python_legacy_http(&url, "test_sampling", json!({ "prompt": "Say hi" }), "accept"),
        python_legacy_http(&url, "test_elicitation", json!({ "message": "Who are you?" }), "decline"),
        python_legacy_http(&url, "test_tool_with_logging", json!({}), "accept"),
    );
    assert_eq!(call_text(&sampling), "LLM response: This is a test response from the client");
    assert_eq!(sampling.report["talkBack"]["sampled"][0]["maxTokens"], 100, "{}", sampling.report);
    assert_eq!(call_text(&elicitation), "User response: <action: decline, content: null>");
    assert_eq!(logging.report["talkBack"]["logs"].as_array().map(Vec::len), Some(3), "{}", logging.report);
    for run in [&sampling, &elicitation, &logging] {
        assert_legacy_wire(run);
    }
    server.stop().await;
}

#[tokio::test]
async fn python_sdk_answers_2026_rounds_with_the_same_callbacks() {
    // The same guest code and the same client callbacks as in a 2025
    // session: the SDK answers the `input_required` round and retries.
    let fixture = fixture_arg("conformance");
    let server = HttpServer::start(&[fixture.as_str()]).await;
    let url = server.url();
    let (over_stdio, over_http) = tokio::join!(
        python_stdio("2026-07-28", "test_sampling", json!({ "prompt": "Say hi" }), "accept"),
        python_http("2026-07-28", &url, "test_elicitation", json!({ "message": "Who are you?" }), "accept"),
    );
    assert_eq!(call_text(&over_stdio), "LLM response: This is a test response from the client");
    assert_eq!(over_stdio.report["talkBack"]["sampled"][0]["messages"][0]["content"]["text"], "Say hi");
    assert_eq!(
        call_text(&over_http),
        r#"User response: <action: accept, content: {"email":"test@example.com","username":"testuser"}>"#
    );
    for run in [&over_stdio, &over_http] {
        assert_eq!(run.report["protocolVersion"], "2026-07-28", "{}", run.report);
        let kinds: Vec<&str> = run.trace.iter().filter_map(|m| m["result"]["resultType"].as_str()).collect();
        assert!(kinds.contains(&"input_required"), "a round ended for the question: {kinds:?}");
        for message in &run.trace {
            schema::check_at(Revision::Modern, "JSONRPCMessage", message).unwrap();
            assert!(
                message.get("method").is_none_or(
                    |m| !m.as_str().unwrap().contains('/') || m.as_str().unwrap().starts_with("notifications/")
                ),
                "a 2026-07-28 server sends the client no request: {message}"
            );
        }
    }
    server.stop().await;
}

/// A server whose client declared `capabilities` at `initialize`.
async fn declared(capabilities: Value, extra: &[&str]) -> RawServer {
    let fixture = fixture_arg("conformance");
    let mut args = vec!["serve", fixture.as_str()];
    args.extend_from_slice(extra);
    let mut server = RawServer::start(&args);
    let params = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": capabilities,
        "clientInfo": { "name": "raw", "version": "0" },
    });
    server.send(&json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params }).to_string()).await;
    let answer = server.receive().await;
    assert_eq!(answer["result"]["protocolVersion"], "2025-11-25", "{answer}");
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    server
}

fn elicitation_call(id: i64) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": "test_elicitation", "arguments": { "message": "Who?" } } })
    .to_string()
}

/// Reads the server's `elicitation/create` request and returns its id.
async fn elicitation_request(server: &mut RawServer) -> Value {
    let request = server.receive().await;
    assert_eq!(request["method"], "elicitation/create", "{request}");
    assert_eq!(request["params"]["message"], "Who?", "{request}");
    request["id"].clone()
}

fn tool_text(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text: {answer}"))
}

#[tokio::test]
async fn a_question_the_client_did_not_declare_is_never_sent() {
    let mut server = declared(json!({}), &[]).await;
    let answer = server.call(1, "test_sampling", json!({ "prompt": "hi" })).await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(tool_text(&answer), "the client does not support sampling (it did not declare the capability)");
    let answer = server.call(2, "test_elicitation", json!({ "message": "Who?" })).await;
    assert_eq!(tool_text(&answer), "the client does not support elicitation (it did not declare the capability)");
    // `call` fails on any message before the response: nothing else was sent.
    server.finish().await;
}

#[tokio::test]
async fn answers_are_matched_by_id_and_other_input_waits_its_turn() {
    let mut server = declared(json!({ "elicitation": {} }), &[]).await;
    server.send(&elicitation_call(1)).await;
    let id = elicitation_request(&mut server).await;
    // While the guest waits: a ping (queued), an answer to an id never sent
    // (ignored), then the answer.
    server.send(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#).await;
    server.send(r#"{"jsonrpc":"2.0","id":987654,"result":{"action":"accept","content":{}}}"#).await;
    let reply = json!({ "jsonrpc": "2.0", "id": id, "result": { "action": "accept", "content": { "username": "u", "email": "e" } } });
    server.send(&reply.to_string()).await;
    let answer = server.receive().await;
    assert_eq!(answer["id"], 1, "{answer}");
    assert_eq!(tool_text(&answer), r#"User response: <action: accept, content: {"email":"e","username":"u"}>"#);
    let pong = server.receive().await;
    assert_eq!(pong, json!({ "jsonrpc": "2.0", "id": "p", "result": {} }));

    // Ids never repeat on a connection.
    server.send(&elicitation_call(2)).await;
    let second = elicitation_request(&mut server).await;
    assert_ne!(second, id);
    server.send(&json!({ "jsonrpc": "2.0", "id": second, "result": { "action": "cancel" } }).to_string()).await;
    assert_eq!(tool_text(&server.receive().await), "User response: <action: cancel, content: null>");
    server.finish().await;
}

#[tokio::test]
async fn garbage_and_errors_from_the_client_reach_the_guest_as_errors() {
    let mut server = declared(json!({ "elicitation": {} }), &[]).await;
    // A result without `action`.
    server.send(&elicitation_call(1)).await;
    let id = elicitation_request(&mut server).await;
    server.send(&json!({ "jsonrpc": "2.0", "id": id, "result": { "content": 5 } }).to_string()).await;
    let answer = server.receive().await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(tool_text(&answer), "invalid response from the client: the `elicitation/create` result has no `action`");
    // A JSON-RPC error.
    server.send(&elicitation_call(2)).await;
    let id = elicitation_request(&mut server).await;
    let error = json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32600, "message": "no thanks" } });
    server.send(&error.to_string()).await;
    assert_eq!(tool_text(&server.receive().await), "the client answered with error -32600: no thanks");
    // The session goes on.
    let answer = server.call(3, "test_simple_text", json!({})).await;
    assert_eq!(tool_text(&answer), "This is a simple text response for testing.");
    server.finish().await;
}

#[tokio::test]
async fn a_client_that_never_answers_runs_into_the_deadline_or_a_cancellation() {
    let mut server = declared(json!({ "elicitation": {} }), &["--timeout", "1s"]).await;
    server.send(&elicitation_call(1)).await;
    elicitation_request(&mut server).await;
    let answer = tokio::time::timeout(Duration::from_secs(10), server.receive()).await.expect("answered");
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("timed out after 1s"), "{message}");

    // Cancelled while it waits: no response, and the session goes on.
    server.send(&elicitation_call(2)).await;
    elicitation_request(&mut server).await;
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#).await;
    let answer = server.call(3, "test_simple_text", json!({})).await;
    assert_eq!(tool_text(&answer), "This is a simple text response for testing.");
    server.finish().await;
}

#[tokio::test]
async fn the_extension_serves_templates_prompt_arguments_subscriptions_and_roots_changes() {
    let mut server = declared(json!({ "roots": { "listChanged": true } }), &[]).await;
    let templates = server.request(1, "resources/templates/list", json!({})).await;
    assert_eq!(
        templates["result"]["resourceTemplates"],
        json!([{
            "uriTemplate": "test://template/{id}/data",
            "name": "template",
            "description": "A resource template with parameter substitution",
            "mimeType": "application/json",
        }])
    );

    let prompt = json!({ "name": "test_prompt_with_arguments", "arguments": { "arg1": "hello", "arg2": "world" } });
    let answer = server.request(2, "prompts/get", prompt).await;
    assert_eq!(
        answer["result"]["messages"][0]["content"]["text"], "Prompt with arguments: arg1='hello', arg2='world'",
        "{answer}"
    );
    let missing = server.request(3, "prompts/get", json!({ "name": "test_prompt_with_arguments" })).await;
    assert_eq!(missing["error"], json!({ "code": -32602, "message": "`arg1` is required" }));
    let wrong =
        server.request(4, "prompts/get", json!({ "name": "test_simple_prompt", "arguments": { "a": 1 } })).await;
    assert_eq!(wrong["error"]["code"], -32602, "arguments are strings: {wrong}");

    let subscribed = server.request(5, "resources/subscribe", json!({ "uri": "test://watched-resource" })).await;
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");
    let refused = server.request(6, "resources/subscribe", json!({ "uri": "test://nope" })).await;
    assert_eq!(refused["error"]["code"], -32002, "{refused}");
    let unsubscribed = server.request(7, "resources/unsubscribe", json!({ "uri": "test://watched-resource" })).await;
    assert_eq!(unsubscribed["result"], json!({}), "{unsubscribed}");

    // The router hears of the client's roots changing (on the session's instance).
    assert_eq!(tool_text(&server.call(8, "roots_changed", json!({})).await), "0");
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#).await;
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#).await;
    assert_eq!(tool_text(&server.call(9, "roots_changed", json!({})).await), "2");
    server.finish().await;
}

/// `params` with a 2026-07-28 envelope declaring `capabilities`, logging from
/// `log_level` when given.
fn modern(mut params: Value, capabilities: Value, log_level: Option<&str>) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    if let Some(level) = log_level {
        meta["io.modelcontextprotocol/logLevel"] = json!(level);
    }
    params["_meta"] = meta;
    params
}

#[tokio::test]
async fn a_2026_request_logs_at_its_own_level_and_sends_no_request_over_stdio() {
    let fixture = fixture_arg("conformance");
    let mut server = RawServer::start(&["serve", fixture.as_str()]);
    // Logs only with a level, on the request's own stream, before its result.
    let call = |id: i64, level: Option<&str>| {
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": modern(json!({ "name": "test_tool_with_logging", "arguments": {} }), json!({}), level) })
        .to_string()
    };
    server.send(&call(1, Some("info"))).await;
    let mut methods = Vec::new();
    loop {
        let message = server.receive().await;
        if message.get("id").is_some() {
            assert_eq!(message["result"]["resultType"], "complete", "{message}");
            break;
        }
        methods.push(message["method"].as_str().unwrap().to_owned());
    }
    assert_eq!(methods, ["notifications/message"; 3]);
    server.send(&call(2, Some("error"))).await;
    assert_eq!(server.receive().await["id"], 2, "info is below error: nothing but the result");
    server.send(&call(3, None)).await;
    assert_eq!(server.receive().await["id"], 3, "no level, no logs");

    // A question is not sent as a request: it ends the round (keyed `q1`, as
    // the guest asked it without a key).
    let params = modern(
        json!({ "name": "test_elicitation", "arguments": { "message": "Who?" } }),
        json!({ "elicitation": {} }),
        None,
    );
    server.send(&json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": params }).to_string()).await;
    let answer = server.receive().await;
    assert_eq!(answer["id"], 4, "{answer}");
    assert_eq!(answer["result"]["resultType"], "input_required", "{answer}");
    assert_eq!(answer["result"]["inputRequests"]["q1"]["params"]["message"], "Who?", "{answer}");
    server.finish().await;
}

/// A 2026-07-28 `tools/call` of the fixture's two-round tool from a client
/// that declares elicitation, with `extra` params (a retry's answers and
/// state).
fn multi_round_call(id: i64, extra: Value) -> String {
    let tool = json!({ "name": "test_input_required_result_multi_round", "arguments": {} });
    let mut params = modern(tool, json!({ "elicitation": {} }), None);
    for (key, value) in extra.as_object().unwrap() {
        params[key] = value.clone();
    }
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }).to_string()
}

#[tokio::test]
async fn a_2026_question_ends_the_round_and_the_retry_runs_the_call_again() {
    let fixture = fixture_arg("conformance");
    let mut server = RawServer::start(&["serve", fixture.as_str()]);
    let caps = json!({ "elicitation": {} });
    let call = multi_round_call;
    // Round 1: the first question, keyed as the guest named it; no request is sent.
    server.send(&call(1, json!({}))).await;
    let first = server.receive().await;
    assert_eq!(first["id"], 1, "{first}");
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    assert_eq!(result["inputRequests"]["step1"]["method"], "elicitation/create", "{first}");
    assert!(result.get("ttlMs").is_none(), "interim results carry no cache hints: {first}");
    let state1 = result["requestState"].as_str().unwrap().to_owned();

    // Round 2: answered, the call runs again and reaches the second question.
    let answer1 = json!({ "step1": { "action": "accept", "content": { "name": "Alice" } } });
    server.send(&call(2, json!({ "inputResponses": answer1, "requestState": state1 }))).await;
    let second = server.receive().await;
    assert_eq!(second["result"]["resultType"], "input_required", "{second}");
    assert!(second["result"]["inputRequests"].get("step2").is_some(), "{second}");
    let state2 = second["result"]["requestState"].as_str().unwrap().to_owned();
    assert_ne!(state1, state2);

    // Round 3: only the new answer; the first comes back from the state.
    let answer2 = json!({ "step2": { "action": "accept", "content": { "color": "blue" } } });
    server.send(&call(3, json!({ "inputResponses": answer2, "requestState": state2 }))).await;
    let done = server.receive().await;
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(tool_text(&done), r#""Alice" likes "blue""#);

    // Forged and borrowed states, and malformed answers, are -32602.
    server.send(&call(4, json!({ "inputResponses": answer2, "requestState": format!("{state2}x") }))).await;
    let forged = server.receive().await;
    assert_eq!(forged["error"]["code"], -32602, "{forged}");
    assert!(forged["error"]["message"].as_str().unwrap().contains("failed its integrity check"), "{forged}");
    let other = json!({ "jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": modern(
        json!({ "name": "test_input_required_result_elicitation", "arguments": {}, "requestState": state2 }), caps.clone(), None) });
    server.send(&other.to_string()).await;
    let borrowed = server.receive().await;
    assert!(borrowed["error"]["message"].as_str().unwrap().contains("issued for another request"), "{borrowed}");
    server.send(&call(6, json!({ "inputResponses": { "step1": 12345 } }))).await;
    assert_eq!(server.receive().await["error"]["code"], -32602);

    // A question the request's client did not declare is never put to it.
    let undeclared = json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": modern(
        json!({ "name": "test_input_required_result_elicitation", "arguments": {} }), json!({}), None) });
    server.send(&undeclared.to_string()).await;
    let answer = server.receive().await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(tool_text(&answer), "the client does not support elicitation (it did not declare the capability)");
    server.finish().await;
}

#[tokio::test]
async fn a_round_state_expires_after_the_configured_time() {
    let fixture = fixture_arg("conformance");
    let mut server = RawServer::start(&["serve", fixture.as_str(), "--state-ttl", "1s"]);
    let call = multi_round_call;
    let answer = json!({ "step1": { "action": "accept", "content": { "name": "Alice" } } });
    // A state is honoured once: each try takes a fresh one.
    let mut fresh_state = async |id| {
        server.send(&call(id, json!({}))).await;
        server.receive().await["result"]["requestState"].as_str().unwrap().to_owned()
    };
    let honoured = fresh_state(1).await;
    let late = fresh_state(2).await;
    // Honoured within its second.
    server.send(&call(3, json!({ "inputResponses": answer.clone(), "requestState": honoured }))).await;
    let reply = server.receive().await;
    assert_eq!(reply["result"]["resultType"], "input_required", "the next round: {reply}");
    // Refused once past the expiry it carries (its payload is readable):
    // the client must start over.
    let payload = late.strip_prefix("v1.").and_then(|rest| rest.split('.').next()).unwrap();
    use base64::Engine;
    let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap();
    let expiry = serde_json::from_slice::<Value>(&payload).unwrap()["e"].as_u64().unwrap();
    let now = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    for _ in 0..100 {
        if now() > expiry {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.send(&call(4, json!({ "inputResponses": answer, "requestState": late }))).await;
    let refused = server.receive().await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("`requestState` has expired; start the request over without it"), "{message}");
    server.finish().await;
}

#[tokio::test]
async fn a_guest_that_asks_ten_thousand_questions_gets_64() {
    let fixture = fixture_arg("hostile");
    let mut server = RawServer::start(&["serve", fixture.as_str()]);
    let params = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": { "elicitation": {} },
        "clientInfo": { "name": "raw", "version": "0" },
    });
    server.send(&json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params }).to_string()).await;
    server.receive().await;
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    server
        .send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask-forever","arguments":{}}}"#)
        .await;
    let mut asked = 0;
    let answer = loop {
        let message = server.receive().await;
        if message["method"] == "elicitation/create" {
            asked += 1;
            let reply = json!({ "jsonrpc": "2.0", "id": message["id"], "result": { "action": "decline" } });
            server.send(&reply.to_string()).await;
        } else {
            break message;
        }
    };
    assert_eq!(asked, 64);
    let text = tool_text(&answer);
    assert!(text.starts_with("answered 64; then: ClientError::Unavailable"), "{text}");
    assert!(text.contains("at most 64 questions"), "{text}");
    // The next request may ask again.
    let answer = server.call(2, "counter", json!({})).await;
    assert_eq!(tool_text(&answer), "1");
    server.finish().await;
}

#[tokio::test]
async fn typescript_sdk_answers_questions_in_both_eras_over_http() {
    let fixture = fixture_arg("conformance");
    let server = HttpServer::start(&[fixture.as_str()]).await;
    let url = server.url();
    let steps = |mode: &str, tool: &str, arguments: Value| -> Vec<String> {
        let arguments = arguments.to_string();
        ["--mode", mode, "--talk-back", "accept", "--tool", tool, "--args", &arguments, "--url", &url]
            .map(String::from)
            .to_vec()
    };
    let (legacy, modern) = tokio::join!(
        run_peer(Peer::TypeScript, steps("legacy", "test_sampling", json!({ "prompt": "Say hi" }))),
        run_peer(Peer::TypeScript, steps("2026-07-28", "test_elicitation", json!({ "message": "Who?" }))),
    );
    assert_eq!(legacy.report["protocolVersion"], "2025-11-25", "{}", legacy.report);
    assert_eq!(call_text(&legacy), "LLM response: This is a test response from the client");
    assert_eq!(legacy.report["talkBack"]["sampled"][0]["maxTokens"], 100, "{}", legacy.report);
    assert_eq!(modern.report["protocolVersion"], "2026-07-28", "{}", modern.report);
    assert_eq!(
        call_text(&modern),
        r#"User response: <action: accept, content: {"email":"test@example.com","username":"testuser"}>"#
    );
    assert_eq!(modern.report["talkBack"]["elicited"][0]["message"], "Who?", "{}", modern.report);
    server.stop().await;
}
