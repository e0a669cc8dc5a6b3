//! The tools the conformance suite's tasks scenarios (2026-07-28,
//! `io.modelcontextprotocol/tasks`) call, on the project's conformance
//! router: served today as plain calls, their questions asked in rounds,
//! through the Python SDK client.

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

mod over_http {
    //! Calls that become tasks over Streamable HTTP (2026-07-28), through raw
    //! requests, each answer checked against the revision's schema.

    use std::time::Duration;

    use mcp_wit_tests::support;
    use reqwest::StatusCode;
    use serde_json::{Value, json};
    use support::fixture_arg;
    use support::http::{HttpServer, RawClient};

    const TASKS: &str = "io.modelcontextprotocol/tasks";

    /// `params` with a 2026-07-28 envelope declaring `capabilities`.
    fn modern(mut params: Value, capabilities: Value) -> Value {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            "io.modelcontextprotocol/clientInfo": { "name": "tasks-test", "version": "1.0.0" },
        });
        params
    }

    /// A client that declares the extension (and elicitation).
    fn declaring() -> Value {
        json!({ "elicitation": {}, "extensions": { TASKS: {} } })
    }

    /// POSTs request `id` with the headers a 2026-07-28 client sends; its
    /// response message.
    async fn post(client: &RawClient, id: i64, method: &str, name: Option<&str>, params: Value) -> Value {
        let mut headers = vec![("mcp-protocol-version", "2026-07-28"), ("mcp-method", method)];
        if let Some(name) = name {
            headers.push(("mcp-name", name));
        }
        let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        let reply = client.post_raw(&headers, body.to_string()).await;
        assert!(
            matches!(reply.status, StatusCode::OK | StatusCode::BAD_REQUEST | StatusCode::NOT_FOUND),
            "{method}: {reply:?}"
        );
        reply.response().clone()
    }

    async fn call(client: &RawClient, id: i64, tool: &str, arguments: Value, capabilities: Value) -> Value {
        let params = modern(json!({ "name": tool, "arguments": arguments }), capabilities);
        post(client, id, "tools/call", Some(tool), params).await
    }

    async fn task(client: &RawClient, id: i64, method: &str, task: &str, extra: Value) -> Value {
        let mut params = modern(json!({ "taskId": task }), declaring());
        for (key, value) in extra.as_object().unwrap() {
            params[key] = value.clone();
        }
        post(client, id, method, Some(task), params).await
    }

    /// Polls `tasks/get` until the task leaves `working`.
    async fn settled(client: &RawClient, id: &str) -> Value {
        for attempt in 0..200 {
            let got = task(client, 1000 + attempt, "tasks/get", id, json!({})).await;
            let result = &got["result"];
            assert_eq!(
                (result["resultType"].as_str(), result["taskId"].as_str()),
                (Some("complete"), Some(id)),
                "{got}"
            );
            if result["status"] != "working" {
                return result.clone();
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("task {id} still working after 20 s");
    }

    async fn server() -> (HttpServer, RawClient) {
        let fixture = fixture_arg("conformance");
        let policies = ["slow_compute=always", "failing_job=required", "confirm_delete=always", "on-request"];
        let mut args = vec![fixture.as_str(), "--guest-output", "discard", "--task-timeout", "1m"];
        for policy in &policies {
            args.extend(["--task-policy", policy]);
        }
        let server = HttpServer::start(&args).await;
        let client = server.client();
        (server, client)
    }

    #[tokio::test]
    async fn a_long_call_becomes_a_task_that_asks_completes_and_cancels() {
        let (server, client) = server().await;
        let discover = post(&client, 1, "server/discover", None, modern(json!({}), json!({}))).await;
        assert_eq!(discover["result"]["capabilities"]["extensions"][TASKS], json!({}), "{discover}");

        // A task that asks: its question comes through tasks/get, its answer
        // through tasks/update, and the call runs again with it.
        let created = call(&client, 2, "confirm_delete", json!({ "filename": "a.txt" }), declaring()).await;
        let created = &created["result"];
        assert_eq!(created["resultType"], "task", "{created}");
        assert!(created["ttlMs"].as_u64().is_some_and(|ttl| ttl > 0) && created.get("requestState").is_none());
        let id = created["taskId"].as_str().unwrap().to_owned();
        let asking = settled(&client, &id).await;
        assert_eq!(asking["status"], "input_required", "{asking}");
        let key = asking["inputRequests"].as_object().unwrap().keys().next().unwrap().clone();
        assert_eq!(asking["inputRequests"][&key]["method"], "elicitation/create");
        let answer = json!({ "inputResponses": { key: { "action": "accept", "content": { "confirm": true } } } });
        let updated = task(&client, 3, "tasks/update", &id, answer).await;
        assert_eq!(updated["result"], json!({ "resultType": "complete" }));
        let done = settled(&client, &id).await;
        assert_eq!(
            (done["status"].as_str(), done["result"]["content"][0]["text"].as_str()),
            (Some("completed"), Some("Deleted a.txt."))
        );

        // A 30-second task, cancelled: it ends cancelled, and its guest stops.
        let slow = call(&client, 4, "slow_compute", json!({ "seconds": 30, "label": "long" }), declaring()).await;
        let slow_id = slow["result"]["taskId"].as_str().unwrap().to_owned();
        assert_eq!(task(&client, 5, "tasks/get", &slow_id, json!({})).await["result"]["status"], "working");
        let cancelled = task(&client, 6, "tasks/cancel", &slow_id, json!({})).await;
        assert_eq!(cancelled["result"], json!({ "resultType": "complete" }));
        assert_eq!(settled(&client, &slow_id).await["status"], "cancelled");
        let stopped = async {
            while !server.stderr.lock().unwrap().contains(r#"outcome="cancelled""#) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        };
        let log = || server.stderr.lock().unwrap().clone();
        tokio::time::timeout(Duration::from_secs(10), stopped)
            .await
            .unwrap_or_else(|_| panic!("the guest ran on:\n{}", log()));

        // Without the extension: the optional tool is a plain call, the
        // required one -32021 naming the extension, and tasks/* are -32021.
        let plain = call(&client, 7, "slow_compute", json!({ "seconds": 0 }), json!({})).await;
        assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
        let refused = call(&client, 8, "failing_job", json!({}), json!({})).await;
        assert_eq!(refused["error"]["code"], -32021, "{refused}");
        assert_eq!(refused["error"]["data"]["requiredCapabilities"]["extensions"][TASKS], json!({}));
        let params = modern(json!({ "taskId": id }), json!({}));
        let gated = post(&client, 9, "tasks/get", Some(&id), params).await;
        assert_eq!(gated["error"]["code"], -32021, "{gated}");
        let unknown = task(&client, 10, "tasks/get", "no-such-task", json!({})).await;
        assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
        for removed in ["tasks/result", "tasks/list"] {
            let answer = post(&client, 11, removed, None, modern(json!({ "taskId": id }), declaring())).await;
            assert_eq!(answer["error"]["code"], -32601, "{removed}: {answer}");
        }

        // A router that asks to become a task once its question is answered.
        let first = call(&client, 12, "test_tool_with_task", json!({}), declaring()).await;
        let round = &first["result"];
        assert_eq!(round["resultType"], "input_required", "{first}");
        let key = round["inputRequests"].as_object().unwrap().keys().next().unwrap().clone();
        let mut retry = json!({ "name": "test_tool_with_task", "arguments": {},
            "inputResponses": { key: { "action": "accept", "content": { "name": "Alice" } } } });
        if let Some(state) = round.get("requestState") {
            retry["requestState"] = state.clone();
        }
        let second = post(&client, 13, "tools/call", Some("test_tool_with_task"), modern(retry, declaring())).await;
        assert_eq!(second["result"]["resultType"], "task", "{second}");
        let greeted = settled(&client, second["result"]["taskId"].as_str().unwrap()).await;
        assert_eq!(greeted["result"]["content"][0]["text"], "Hello, Alice!", "{greeted}");

        // Tasks by status, and how long each took, in the metrics.
        let metrics = reqwest::get(server.at("/metrics")).await.unwrap().text().await.unwrap();
        for series in [
            r#"mcp_wit_tasks{status="completed"} 2"#,
            r#"mcp_wit_tasks{status="cancelled"} 1"#,
            r#"mcp_wit_tasks{status="working"} 0"#,
            r#"mcp_wit_task_duration_seconds_count{status="completed"} 2"#,
            r#"mcp_wit_task_duration_seconds_count{status="cancelled"} 1"#,
        ] {
            assert!(metrics.contains(series), "no {series} in\n{metrics}");
        }
    }
}
