//! Calls that become tasks over Streamable HTTP (2026-07-28), through raw
//! requests, each answer checked against the revision's schema.

use std::time::Duration;

use mcp_wit_tests::support;
use serde_json::json;
use support::fixture_arg;
use support::http::{HttpServer, RawClient};

use super::wire::{POLICIES, TASKS, call, declaring, modern, post, settled, task};

async fn server() -> (HttpServer, RawClient) {
    let fixture = fixture_arg("conformance");
    let mut args = vec![fixture.as_str(), "--guest-output", "discard", "--task-timeout", "1m"];
    args.extend(POLICIES);
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
    let created =
        call(&client, 2, "confirm_delete", json!({ "filename": "a.txt" }), declaring()).await.response().clone();
    let created = &created["result"];
    assert_eq!(created["resultType"], "task", "{created}");
    assert!(created["ttlMs"].as_u64().is_some_and(|ttl| ttl > 0) && created.get("requestState").is_none());
    let id = created["taskId"].as_str().unwrap().to_owned();
    let asking = settled(&client, &id).await;
    assert_eq!(asking["status"], "input_required", "{asking}");
    let key = asking["inputRequests"].as_object().unwrap().keys().next().unwrap().clone();
    assert_eq!(asking["inputRequests"][&key]["method"], "elicitation/create");
    let answer = json!({ "inputResponses": { key: { "action": "accept", "content": { "confirm": true } } } });
    let updated = task(&client, 3, "tasks/update", &id, answer).await.response().clone();
    assert_eq!(updated["result"], json!({ "resultType": "complete" }));
    let done = settled(&client, &id).await;
    assert_eq!(
        (done["status"].as_str(), done["result"]["content"][0]["text"].as_str()),
        (Some("completed"), Some("Deleted a.txt."))
    );

    // A 30-second task, cancelled: it ends cancelled, and its guest stops.
    let slow = call(&client, 4, "slow_compute", json!({ "seconds": 30, "label": "long" }), declaring())
        .await
        .response()
        .clone();
    let slow_id = slow["result"]["taskId"].as_str().unwrap().to_owned();
    assert_eq!(
        task(&client, 5, "tasks/get", &slow_id, json!({})).await.response().clone()["result"]["status"],
        "working"
    );
    let calls_before = server.stderr.lock().unwrap().matches(r#"method="tools/call""#).count();
    let cancelled = task(&client, 6, "tasks/cancel", &slow_id, json!({})).await.response().clone();
    assert_eq!(cancelled["result"], json!({ "resultType": "complete" }));
    assert_eq!(settled(&client, &slow_id).await["status"], "cancelled");
    // Its request's line is logged once its call ends (whatever it says: the
    // guest's sleep ends at the cancel, and it may answer before the next
    // epoch tick stops it): within moments, not 30 s.
    let stopped = async {
        while server.stderr.lock().unwrap().matches(r#"method="tools/call""#).count() < calls_before + 1 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), stopped)
        .await
        .unwrap_or_else(|_| panic!("the guest ran on:\n{}", server.stderr.lock().unwrap()));

    // Without the extension: the optional tool is a plain call, the
    // required one -32021 naming the extension, and tasks/* are -32021.
    let plain = call(&client, 7, "slow_compute", json!({ "seconds": 0 }), json!({})).await.response().clone();
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    let refused = call(&client, 8, "failing_job", json!({}), json!({})).await.response().clone();
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert_eq!(refused["error"]["data"]["requiredCapabilities"]["extensions"][TASKS], json!({}));
    let params = modern(json!({ "taskId": id }), json!({}));
    let gated = post(&client, 9, "tasks/get", Some(&id), params).await;
    assert_eq!(gated["error"]["code"], -32021, "{gated}");
    let unknown = task(&client, 10, "tasks/get", "no-such-task", json!({})).await.response().clone();
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    for removed in ["tasks/result", "tasks/list"] {
        let answer = post(&client, 11, removed, None, modern(json!({ "taskId": id }), declaring())).await;
        assert_eq!(answer["error"]["code"], -32601, "{removed}: {answer}");
    }

    // A router that asks to become a task once its question is answered.
    let first = call(&client, 12, "test_tool_with_task", json!({}), declaring()).await.response().clone();
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

    // Tasks by status (counted every second), and how long each took, in
    // the metrics.
    let scrape = async || reqwest::get(server.at("/metrics")).await.unwrap().text().await.unwrap();
    let mut metrics = scrape().await;
    for _ in 0..50 {
        if metrics.contains(r#"mcp_wit_tasks{status="completed"} 2"#) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        metrics = scrape().await;
    }
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
