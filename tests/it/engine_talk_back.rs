// Routers that talk back on the real `wasmtime serve`: a wrapped router's
// questions end a 2026-07-28 round with `input_required` and a
// `requestState` signed by the key every instance is given
// (`MCP_WIT_STATE_KEY`), so that the retry resumes on whichever instance,
// or replica, serves it; its progress and logs travel on the request's own
// SSE answer. A fresh instance serves each request (the engine's default).

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::engines::{WasmtimeServe, modern_headers, post, request, wash_dev, wrapped};
use support::haproxy::{ENGINE_HEALTH_CHECK, Haproxy, REPLICA_HEADER, engine_backend};
use support::peers::{Peer, run_peer};
use support::schema::{Revision, check_at};

/// A key replicas share: 32 bytes or more.
const KEY: &str = "a state key the replicas share, 32 bytes at least";

/// The wrapped conformance fixture on `wasmtime serve` with `env`.
fn serve_conformance(dir: &tempfile::TempDir, env: &[(&str, &str)], flags: &[&str]) -> WasmtimeServe {
    let component = dir.path().join("conformance-wrapped.wasm");
    if !component.exists() {
        std::fs::write(&component, wrapped("conformance")).unwrap();
    }
    WasmtimeServe::start_with(&component, "127.0.0.1:0", env, flags)
}

/// `tools/call` params in a 2026-07-28 envelope declaring `capabilities`.
fn call(tool: &str, arguments: Value, capabilities: Value) -> Value {
    json!({
        "name": tool,
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        },
    })
}

/// The params of the retry of `params` that answers `answers` and echoes
/// `state`.
fn retry(params: &Value, answers: Value, state: &Value) -> Value {
    let mut retried = params.clone();
    retried["inputResponses"] = answers;
    retried["requestState"] = state.clone();
    retried
}

fn checked(messages: &[Value]) {
    for message in messages {
        check_at(Revision::Modern, "JSONRPCMessage", message).unwrap();
    }
}

#[tokio::test]
async fn a_wrapped_routers_question_is_a_round_any_instance_resumes_and_its_progress_is_on_the_stream() {
    let dir = tempfile::tempdir().unwrap();
    let engine = serve_conformance(&dir, &[("MCP_WIT_STATE_KEY", KEY)], &[]);
    let addr = engine.addr();
    let headers = modern_headers("tools/call", Some("test_elicitation"));
    let params = call("test_elicitation", json!({ "message": "Who are you?" }), json!({ "elicitation": {} }));

    let (status, _, messages) = post(addr, &headers, &request(1, "tools/call", params.clone())).await;
    assert_eq!(status, 200, "{messages:?}");
    checked(&messages);
    let [round] = messages.as_slice() else { panic!("only the round's answer: {messages:?}") };
    let result = &round["result"];
    assert_eq!(result["resultType"], "input_required", "{round}");
    assert_eq!(result["inputRequests"]["q1"]["method"], "elicitation/create", "{round}");
    assert_eq!(result["inputRequests"]["q1"]["params"]["message"], "Who are you?", "{round}");
    let state = &result["requestState"];
    assert!(state.is_string(), "{round}");

    // The retry, on another fresh instance, with the answer.
    let answer = json!({ "q1": { "action": "accept", "content": { "username": "ada" } } });
    let (status, _, messages) = post(addr, &headers, &request(2, "tools/call", retry(&params, answer, state))).await;
    assert_eq!(status, 200, "{messages:?}");
    checked(&messages);
    let done = &messages.last().unwrap()["result"];
    assert_eq!(done["resultType"], "complete", "{messages:?}");
    let text = done["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("accept") && text.contains("ada"), "{text}");

    // A state altered by the client is refused, and so is one for other params.
    let mut forged = state.as_str().unwrap().to_owned();
    forged.insert(forged.len() - 2, 'x');
    let answer = json!({ "q1": { "action": "accept", "content": {} } });
    let tampered = retry(&params, answer.clone(), &json!(forged));
    let (_, _, messages) = post(addr, &headers, &request(3, "tools/call", tampered)).await;
    assert_eq!(messages[0]["error"]["code"], -32602, "{messages:?}");
    let other = call("test_elicitation", json!({ "message": "Someone else?" }), json!({ "elicitation": {} }));
    let (_, _, messages) = post(addr, &headers, &request(4, "tools/call", retry(&other, answer, state))).await;
    assert_eq!(messages[0]["error"]["code"], -32602, "{messages:?}");
    let message = messages[0]["error"]["message"].as_str().unwrap();
    assert!(message.contains("another request"), "{message}");

    // A question the client cannot answer fails the request (-32021).
    let sampling = call("test_sampling", json!({ "prompt": "hi" }), json!({}));
    let (status, _, messages) =
        post(addr, &modern_headers("tools/call", Some("test_sampling")), &request(5, "tools/call", sampling)).await;
    assert_eq!((status, messages[0]["error"]["code"].clone()), (400, json!(-32021)), "{messages:?}");

    // Progress before the answer, on the request's own stream.
    let mut progress = call("test_tool_with_progress", json!({}), json!({}));
    progress["_meta"]["progressToken"] = json!("p1");
    let headers = modern_headers("tools/call", Some("test_tool_with_progress"));
    let (status, content_type, messages) = post(addr, &headers, &request(6, "tools/call", progress)).await;
    assert_eq!((status, content_type.as_str()), (200, "text/event-stream"), "{messages:?}");
    checked(&messages);
    let reported: Vec<_> = messages.iter().filter(|m| m["method"] == "notifications/progress").collect();
    assert_eq!(reported.len(), 3, "{messages:?}");
    assert_eq!(
        reported[1]["params"],
        json!({ "progressToken": "p1", "progress": 50.0, "total": 100.0, "message": "Halfway" })
    );
    assert_eq!(messages.last().unwrap()["result"]["content"][0]["text"], "Progress test completed");
}

#[tokio::test]
async fn without_a_shared_key_a_round_is_refused_with_the_setting_to_make() {
    let dir = tempfile::tempdir().unwrap();
    let engine = serve_conformance(&dir, &[], &[]);
    let headers = modern_headers("tools/call", Some("test_elicitation"));
    let params = call("test_elicitation", json!({ "message": "Who?" }), json!({ "elicitation": {} }));
    let (status, _, messages) = post(engine.addr(), &headers, &request(1, "tools/call", params.clone())).await;
    assert_eq!(status, 200, "{messages:?}");
    checked(&messages);
    assert_eq!(messages[0]["error"]["code"], -32603, "{messages:?}");
    let message = messages[0]["error"]["message"].as_str().unwrap();
    assert!(message.contains("MCP_WIT_STATE_KEY"), "{message}");
    // The operator reads it in the engine's log, as a warning of the core.
    assert!(engine.logged(&["WARN", message]), "not logged:\n{}", engine.stderr());
    // A tool that asks nothing is served as ever.
    let plain = call("test_simple_text", json!({}), json!({}));
    let (_, _, messages) =
        post(engine.addr(), &modern_headers("tools/call", Some("test_simple_text")), &request(2, "tools/call", plain))
            .await;
    assert_eq!(messages[0]["result"]["resultType"], "complete", "{messages:?}");

    // A key too short to sign with refuses every request, saying why.
    let short = serve_conformance(&dir, &[("MCP_WIT_STATE_KEY", "short")], &[]);
    let (status, _, messages) = post(short.addr(), &headers, &request(1, "tools/call", params)).await;
    assert_eq!(status, 500, "{messages:?}");
    let said = messages[0]["error"]["message"].as_str().unwrap();
    assert!(said.contains("MCP_WIT_STATE_KEY") && said.contains("32 bytes"), "{said}");
}

#[tokio::test]
async fn the_python_sdk_answers_a_wrapped_routers_elicitation_and_hears_its_progress() {
    let dir = tempfile::tempdir().unwrap();
    let engine = serve_conformance(&dir, &[("MCP_WIT_STATE_KEY", KEY)], &[]);
    // `auto`: a `server/discover` probe, then 2026-07-28 requests.
    let steps = |tool: &str, arguments: Value| -> Vec<String> {
        let arguments = arguments.to_string();
        ["--mode", "auto", "--talk-back", "accept", "--tool", tool, "--args", &arguments, "--url", &engine.url]
            .map(String::from)
            .to_vec()
    };
    let asked = run_peer(Peer::Python, steps("test_elicitation", json!({ "message": "Who?" }))).await;
    let report = &asked.report;
    assert_eq!(report["protocolVersion"], "2026-07-28", "{report}");
    assert_eq!(report["talkBack"]["elicited"][0]["message"], "Who?", "{report}");
    let text = report["call"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("User response: <action: accept"), "{report}");
    let progressed = run_peer(Peer::Python, steps("test_tool_with_progress", json!({}))).await;
    let report = &progressed.report;
    let progress = report["talkBack"]["progress"].as_array().expect("progress");
    assert_eq!(progress.len(), 3, "{report}");
    assert_eq!(progress[2], json!({ "progress": 100.0, "total": 100.0, "message": "Done" }), "{report}");
    for run in [&asked, &progressed] {
        checked(&run.trace);
    }
}

#[tokio::test]
async fn a_wrapped_routers_rounds_resume_on_wash_dev_with_the_key_from_its_configuration() {
    let (mut wash, url, _project) = wash_dev(&wrapped("conformance"), &[("MCP_WIT_STATE_KEY", KEY)]);
    let steps =
        ["--mode", "auto", "--talk-back", "accept", "--tool", "test_elicitation", "--args", r#"{"message":"Who?"}"#];
    let args = steps.iter().map(|s| s.to_string()).chain(["--url".into(), url]).collect();
    let run = run_peer(Peer::Python, args).await;
    wash.kill().unwrap();
    wash.wait().unwrap();
    let report = &run.report;
    assert_eq!(report["protocolVersion"], "2026-07-28", "{report}");
    assert_eq!(report["talkBack"]["elicited"][0]["message"], "Who?", "{report}");
    let text = report["call"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("User response: <action: accept"), "{report}");
    checked(&run.trace);
}

#[tokio::test]
async fn two_engines_behind_haproxy_answer_the_rounds_of_one_call() {
    let dir = tempfile::tempdir().unwrap();
    let key = [("MCP_WIT_STATE_KEY", KEY)];
    let replicas = [serve_conformance(&dir, &key, &[]), serve_conformance(&dir, &key, &[])];
    let backends = [("e0", replicas[0].addr()), ("e1", replicas[1].addr())];
    let haproxy = Haproxy::start_with(&backends, &engine_backend()).await;
    for name in ["e0", "e1"] {
        haproxy.wait_for(name, "UP").await;
    }
    // Two questions, one round each: three requests, round-robin.
    let tool = "test_input_required_result_multi_round";
    let mut params = call(tool, json!({}), json!({ "elicitation": {} }));
    let mut answered = Vec::new();
    let mut answers = serde_json::Map::new();
    for id in 1..=3 {
        let mut request = reqwest::Client::new()
            .post(haproxy.url())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        for (name, value) in modern_headers("tools/call", Some(tool)) {
            request = request.header(name, value);
        }
        let reply = request.body(self::request(id, "tools/call", params.clone()).to_string()).send().await.unwrap();
        let replica = reply.headers().get(REPLICA_HEADER).map(|name| name.to_str().unwrap().to_owned());
        let status = reply.status();
        let text = reply.text().await.unwrap();
        let replica =
            replica.unwrap_or_else(|| panic!("HAProxy answered itself: {status} {text}\n{}", haproxy.stderr()));
        assert!(!haproxy.stderr().contains("is DOWN"), "a health check failed:\n{}", haproxy.stderr());
        answered.push(replica);
        // One whole message comes as JSON; SSE's last event otherwise.
        let message: Value = match serde_json::from_str(&text) {
            Ok(message) => message,
            Err(_) => text
                .lines()
                .filter_map(|line| line.strip_prefix("data: "))
                .map(|data| serde_json::from_str(data).unwrap())
                .next_back()
                .unwrap_or_else(|| panic!("an answer as JSON or SSE: {text}")),
        };
        checked(std::slice::from_ref(&message));
        let result = &message["result"];
        if result["resultType"] == "complete" {
            assert_eq!(id, 3, "{message}");
            assert_eq!(result["content"][0]["text"], r#""Ada" likes "green""#, "{message}");
            break;
        }
        assert_eq!(result["resultType"], "input_required", "{message}");
        for (key, asked) in result["inputRequests"].as_object().unwrap() {
            assert_eq!(asked["method"], "elicitation/create", "{message}");
            let answer = match key.as_str() {
                "step1" => json!({ "action": "accept", "content": { "name": "Ada" } }),
                "step2" => json!({ "action": "accept", "content": { "color": "green" } }),
                other => panic!("asked {other}: {message}"),
            };
            answers.insert(key.clone(), answer);
        }
        params = retry(&params, Value::Object(answers.clone()), &result["requestState"]);
        // Only this round's answers travel as `inputResponses`.
        answers.clear();
    }
    assert_eq!(answered.len(), 3, "{answered:?}");
    assert!(answered.contains(&"e0".to_owned()) && answered.contains(&"e1".to_owned()), "{answered:?}");
}

#[test]
fn the_engines_page_shows_the_health_check_tested_here() {
    let page = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/users/engines.md");
    let page = std::fs::read_to_string(&page).unwrap();
    assert!(
        page.contains(ENGINE_HEALTH_CHECK),
        "docs/users/engines.md does not show, as it is:\n{ENGINE_HEALTH_CHECK}"
    );
}
