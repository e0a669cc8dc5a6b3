//! The tools the conformance suite's tasks scenarios (2026-07-28,
//! `io.modelcontextprotocol/tasks`) call, on the project's conformance
//! router, over stdio (where no call becomes a task): plain calls, their
//! questions asked in rounds, through the Python SDK client.

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::peers::{Over, Peer, run_checked};

/// The first text of a call's result.
fn text(call: &Value) -> &str {
    call["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text in {call}"))
}

#[tokio::test]
async fn the_task_scenarios_fixture_tools_answer_as_plain_calls() {
    let conformance = support::fixture_arg("conformance");
    let call = async |tool: &str, arguments: Value, answer: Option<Value>| {
        let arguments = arguments.to_string();
        let mut options = vec!["--tool", tool, "--args", &arguments];
        let content = answer.map(|answer| answer.to_string());
        if let Some(content) = &content {
            options.extend(["--talk-back", "accept", "--elicit-content", content]);
        }
        let report = run_checked(Peer::Python, "auto", Over::Stdio(&[&conformance]), &options).await;
        assert_eq!(report["protocolVersion"], "2026-07-28", "{report}");
        report["call"].clone()
    };
    assert_eq!(text(&call("greet", json!({ "name": "World" }), None).await), "Hello, World!");
    let computed = call("slow_compute", json!({ "seconds": 0, "label": "sum" }), None).await;
    assert_eq!(text(&computed), "sum: computed in 0 s");
    let failed = call("failing_job", json!({}), None).await;
    assert_eq!(failed["isError"], true, "a tool error, not a JSON-RPC one: {failed}");
    let broken = call("protocol_error_job", json!({}), None).await;
    assert_eq!(broken["code"], -32603, "a JSON-RPC error: {broken}");
    let deleted = call("confirm_delete", json!({ "filename": "rt.txt" }), Some(json!({ "confirm": true }))).await;
    assert_eq!(text(&deleted), "Deleted rt.txt.");
    let both = call("multi_input", json!({}), Some(json!({ "name": "partial-1", "confirm": true }))).await;
    assert_eq!(text(&both), r#"name: "partial-1", confirmed: true"#);
    let greeted = call("test_tool_with_task", json!({}), Some(json!({ "name": "Alice" }))).await;
    assert_eq!(text(&greeted), "Hello, Alice!");
}
