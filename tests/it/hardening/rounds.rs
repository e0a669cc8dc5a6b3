//! Rounds of 2026-07-28 requests (L3): a `requestState` carries only the
//! answers to questions the router asked, is honoured once, is bounded in
//! size; answers without a state answer nothing; a wrapped router cannot read
//! the key that signs states. And the freshness time of results a router may
//! change (`ttlMs`), which a client must be able to trust.

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::engines::{WasmtimeServe, modern_headers, post, request, wrapped};
use support::peers::{Peer, run_peer};
use support::{RawServer, binary, fixture_arg, plugin_fixture};

/// The envelope of a 2026-07-28 request whose client declares `capabilities`.
fn envelope(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": { "name": "t", "version": "1" },
    })
}

/// A 2026-07-28 `tools/call` of `tool` by a client that can answer
/// elicitations, with `extra` (the retry's fields) in its params.
fn call(tool: &str, extra: Value) -> Value {
    // `test_elicitation` asks what it is told to.
    let arguments = if tool == "test_elicitation" { json!({ "message": "Who?" }) } else { json!({}) };
    let mut params = json!({ "name": tool, "arguments": arguments, "_meta": envelope(json!({ "elicitation": {} })) });
    params.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    params
}

fn accept(content: Value) -> Value {
    json!({ "action": "accept", "content": content })
}

/// The result of `answer`, which must be an `input_required` one.
fn input_required(answer: &Value) -> &Value {
    let result = &answer["result"];
    assert_eq!(result["resultType"], "input_required", "{answer}");
    result
}

/// The first round of `tool`: its state.
async fn first_round(server: &mut RawServer, tool: &str) -> String {
    let answer = server.request(1, "tools/call", call(tool, json!({}))).await;
    input_required(&answer)["requestState"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn answers_without_their_request_state_answer_nothing_and_the_router_asks_again() {
    let mut server = RawServer::in_process("conformance");
    let unasked = json!({ "inputResponses": { "q1": accept(json!({ "username": "mallory" })) } });
    let answer = server.request(1, "tools/call", call("test_elicitation", unasked)).await;
    let result = input_required(&answer);
    assert_eq!(result["inputRequests"]["q1"]["method"], "elicitation/create", "{answer}");
    server.finish().await;
}

/// The fixture tool that asks in two rounds.
const MULTI_ROUND: &str = "test_input_required_result_multi_round";

/// The second round of [`MULTI_ROUND`], the first round's question answered
/// with `answers`: the server, to go on with, and its answer.
async fn second_round(answers: Value) -> (RawServer, Value) {
    let mut server = RawServer::in_process("conformance");
    let state = first_round(&mut server, MULTI_ROUND).await;
    let retry = json!({ "requestState": state, "inputResponses": answers });
    let answer = server.request(2, "tools/call", call(MULTI_ROUND, retry)).await;
    (server, answer)
}

#[tokio::test]
async fn answers_to_questions_never_asked_are_dropped_not_carried_into_the_next_state() {
    // 2 MiB of answers to questions never asked, beside the one asked.
    let mut answers = serde_json::Map::new();
    answers.insert("step1".into(), accept(json!({ "name": "ada" })));
    for i in 0..32 {
        answers.insert(format!("unasked{i}"), accept(json!({ "pad": "x".repeat(64 * 1024) })));
    }
    let (mut server, answer) = second_round(answers.into()).await;
    let result = input_required(&answer);
    assert!(result["inputRequests"].get("step2").is_some(), "{result}");
    let next = result["requestState"].as_str().unwrap();
    assert!(next.len() < 2048, "the next state carries the asked answer only: {} bytes", next.len());
    let done = json!({ "requestState": next, "inputResponses": { "step2": accept(json!({ "color": "blue" })) } });
    let answer = server.request(3, "tools/call", call(MULTI_ROUND, done)).await;
    assert_eq!(answer["result"]["content"][0]["text"], "\"ada\" likes \"blue\"", "{answer}");
    server.finish().await;
}

#[tokio::test]
async fn a_request_state_is_honoured_once() {
    let mut server = RawServer::in_process("conformance");
    let state = first_round(&mut server, "test_elicitation").await;
    let retry = json!({ "requestState": state, "inputResponses": { "q1": accept(json!({ "username": "ada" })) } });
    let answer = server.request(2, "tools/call", call("test_elicitation", retry.clone())).await;
    assert_eq!(answer["result"]["resultType"], "complete", "{answer}");
    let replayed = server.request(3, "tools/call", call("test_elicitation", retry)).await;
    assert_eq!(replayed["error"]["code"], -32602, "{replayed}");
    let message = replayed["error"]["message"].as_str().unwrap();
    assert!(message.contains("`requestState` was used already") && message.contains("start the request over"));
    server.finish().await;
}

#[tokio::test]
async fn a_state_past_its_size_bound_is_refused_saying_what_to_do() {
    let big = accept(json!({ "name": "x".repeat(1024 * 1024) }));
    let (mut server, answer) = second_round(json!({ "step1": big })).await;
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("over the limit of 1048576") && message.contains("answer with less"), "{message}");
    // The server serves on.
    let state = first_round(&mut server, MULTI_ROUND).await;
    assert!(state.starts_with("v1."));
    server.finish().await;
}

/// A 2026-07-28 request of `method` with `params`: its result's `ttlMs`.
async fn ttl_of(server: &mut RawServer, id: i64, method: &str, mut params: Value) -> u64 {
    params["_meta"] = envelope(json!({}));
    let answer = server.request(id, method, params).await;
    answer["result"]["ttlMs"].as_u64().unwrap_or_else(|| panic!("{method}: {answer}"))
}

#[tokio::test]
async fn results_a_router_may_change_get_no_freshness_time() {
    // The conformance fixture: tools and prompts lists may change, the
    // resources list may not, its resources may (subscriptions).
    let mut server = RawServer::in_process("conformance");
    assert_eq!(ttl_of(&mut server, 1, "tools/list", json!({})).await, 0);
    assert_eq!(ttl_of(&mut server, 2, "prompts/list", json!({})).await, 0);
    assert_eq!(ttl_of(&mut server, 3, "resources/list", json!({})).await, 60_000);
    assert_eq!(ttl_of(&mut server, 4, "resources/read", json!({ "uri": "test://static-text" })).await, 0);
    assert_eq!(ttl_of(&mut server, 5, "server/discover", json!({})).await, 60_000);
    server.finish().await;
    // A router whose list does not change keeps the minute.
    let mut server = RawServer::in_process("echo");
    assert_eq!(ttl_of(&mut server, 1, "tools/list", json!({})).await, 60_000);
    server.finish().await;
    // A plugin that imports the change host function may change it.
    let plugin = plugin_fixture("conformance_plugin").display().to_string();
    let mut server = RawServer::start(&["serve", &plugin]);
    assert_eq!(ttl_of(&mut server, 1, "tools/list", json!({})).await, 0);
    server.finish().await;
}

/// The Python SDK in `auto` mode (2026-07-28) lists the conformance
/// fixture's tools, has it add one, and lists them again (`server`: `--url
/// URL`, or `-- COMMAND…`): the tools it lists the second time.
async fn tools_after_a_change(server: &[String]) -> Vec<String> {
    let mut args: Vec<String> =
        ["--mode", "auto", "--tool", "test_trigger_tool_change", "--list-tools-again"].map(String::from).to_vec();
    args.extend_from_slice(server);
    let run = run_peer(Peer::Python, args).await;
    let report = &run.report;
    assert_eq!(report["protocolVersion"], "2026-07-28", "{report}");
    assert_eq!(report["call"]["content"][0]["text"], "Tool list change announced", "{report}");
    let names = |tools: &Value| -> Vec<String> {
        let tools = tools.as_array().unwrap_or_else(|| panic!("a list of tools: {report}"));
        tools.iter().map(|t| t["name"].as_str().unwrap().to_owned()).collect()
    };
    assert!(!names(&report["tools"]).contains(&"test_added_tool".to_owned()), "{report}");
    names(&report["toolsAfter"])
}

#[tokio::test]
async fn the_python_sdk_sees_a_tool_the_router_added_over_stdio() {
    let server = ["--".into(), binary().display().to_string(), "serve".into(), fixture_arg("conformance")];
    assert!(tools_after_a_change(&server).await.contains(&"test_added_tool".to_owned()));
}

#[tokio::test]
async fn the_python_sdk_sees_a_tool_the_router_added_over_http() {
    // One instance for every request, so that the tool it added stays.
    let conformance = fixture_arg("conformance");
    let server = support::http::HttpServer::start(&[&conformance, "--instances", "shared"]).await;
    let url = format!("http://{}/mcp", server.addr);
    assert!(tools_after_a_change(&["--url".into(), url]).await.contains(&"test_added_tool".to_owned()));
}

/// The state key the engine tests give the adapter.
const KEY: &str = "0123456789abcdef0123456789abcdef-rounds";

#[tokio::test]
async fn a_wrapped_router_cannot_read_the_state_key_and_answers_without_state_answer_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let component = dir.path().join("hostile-wrapped.wasm");
    std::fs::write(&component, wrapped("hostile")).unwrap();
    let env = [("MCP_WIT_STATE_KEY", KEY), ("ROUTER_SETTING", "visible")];
    let engine = WasmtimeServe::start(&component, "127.0.0.1:0", &env);
    let env_call = |id, arguments: Value| {
        let params = json!({ "name": "env", "arguments": arguments, "_meta": envelope(json!({})) });
        request(id, "tools/call", params)
    };
    let headers = modern_headers("tools/call", Some("env"));
    let (status, _, messages) =
        post(engine.addr(), &headers, &env_call(1, json!({ "name": "MCP_WIT_STATE_KEY" }))).await;
    assert_eq!(status, 200, "{messages:?}");
    let result = &messages.last().unwrap()["result"];
    assert_eq!(result["isError"], true, "{result}");
    assert!(!result.to_string().contains(KEY), "{result}");
    let (_, _, messages) = post(engine.addr(), &headers, &env_call(2, json!({}))).await;
    let listed = messages.last().unwrap()["result"]["content"][0]["text"].as_str().unwrap().to_owned();
    assert!(listed.contains("ROUTER_SETTING=visible"), "{listed}");
    assert!(!listed.contains("MCP_WIT_STATE_KEY"), "{listed}");
    drop(engine);

    // On the engine too, answers without their state answer nothing.
    let component = dir.path().join("conformance-wrapped.wasm");
    std::fs::write(&component, wrapped("conformance")).unwrap();
    let engine = WasmtimeServe::start(&component, "127.0.0.1:0", &[("MCP_WIT_STATE_KEY", KEY)]);
    let unasked = json!({ "inputResponses": { "q1": accept(json!({ "username": "mallory" })) } });
    let params = call("test_elicitation", unasked);
    let headers = modern_headers("tools/call", Some("test_elicitation"));
    let (status, _, messages) = post(engine.addr(), &headers, &request(3, "tools/call", params)).await;
    assert_eq!(status, 200, "{messages:?}");
    let answer = messages.last().unwrap();
    assert_eq!(input_required(answer)["inputRequests"]["q1"]["method"], "elicitation/create", "{answer}");

    // Nothing on an engine tells a client of a change: a list the router
    // says may change gets no freshness time.
    let list = request(4, "tools/list", json!({ "_meta": envelope(json!({})) }));
    let (status, _, messages) = post(engine.addr(), &modern_headers("tools/list", None), &list).await;
    assert_eq!(status, 200, "{messages:?}");
    assert_eq!(messages.last().unwrap()["result"]["ttlMs"], 0, "{messages:?}");
}
