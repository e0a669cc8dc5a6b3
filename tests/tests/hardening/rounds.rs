//! Rounds of 2026-07-28 requests (L3): a `requestState` carries only the
//! answers to questions the router asked, is honoured once, is bounded in
//! size; answers without a state answer nothing.

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::RawServer;

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
