//! What a 2026-07-28 client of the tasks extension sends, over raw HTTP:
//! each answer checked against the revision's schema (`RawClient`).

use std::time::Duration;

use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::haproxy::REPLICA_HEADER;
use support::http::{RawClient, Reply};

pub const TASKS: &str = "io.modelcontextprotocol/tasks";

/// The task policies the suite's tasks scenarios need of the conformance
/// router, as `serve` arguments.
pub const POLICIES: [&str; 8] = [
    "--task-policy",
    "slow_compute=always",
    "--task-policy",
    "failing_job=required",
    "--task-policy",
    "confirm_delete=always",
    "--task-policy",
    "on-request",
];

/// `params` with a 2026-07-28 envelope declaring `capabilities`.
pub fn modern(mut params: Value, capabilities: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": { "name": "tasks-test", "version": "1.0.0" },
    });
    params
}

/// A client that declares the extension (and elicitation).
pub fn declaring() -> Value {
    json!({ "elicitation": {}, "extensions": { TASKS: {} } })
}

/// POSTs request `id` with the headers a 2026-07-28 client sends; the
/// reply (its status is the ladder's: 200, 400 or 404).
pub async fn post_reply(client: &RawClient, id: i64, method: &str, name: Option<&str>, params: Value) -> Reply {
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
    reply
}

/// [`post_reply`]'s response message.
pub async fn post(client: &RawClient, id: i64, method: &str, name: Option<&str>, params: Value) -> Value {
    post_reply(client, id, method, name, params).await.response().clone()
}

/// `tools/call` of `tool`.
pub async fn call(client: &RawClient, id: i64, tool: &str, arguments: Value, capabilities: Value) -> Reply {
    let params = modern(json!({ "name": tool, "arguments": arguments }), capabilities);
    post_reply(client, id, "tools/call", Some(tool), params).await
}

/// `tasks/*` `method` on task `task`, from a declaring client, with `extra` params.
pub async fn task(client: &RawClient, id: i64, method: &str, task: &str, extra: Value) -> Reply {
    let mut params = modern(json!({ "taskId": task }), declaring());
    for (key, value) in extra.as_object().unwrap() {
        params[key] = value.clone();
    }
    post_reply(client, id, method, Some(task), params).await
}

/// Which replica answered (the balancer's header).
pub fn replica(reply: &Reply) -> String {
    reply.header(REPLICA_HEADER).unwrap_or_default().to_owned()
}

/// Polls `tasks/get` until the task is no longer in `status`.
pub async fn left(client: &RawClient, id: &str, status: &str) -> Value {
    for attempt in 0..200 {
        let got = task(client, 1000 + attempt, "tasks/get", id, json!({})).await.response().clone();
        let result = &got["result"];
        assert_eq!((result["resultType"].as_str(), result["taskId"].as_str()), (Some("complete"), Some(id)), "{got}");
        if result["status"] != status {
            return result.clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("task {id} still {status} after 20 s");
}

/// Polls `tasks/get` until the task leaves `working`.
pub async fn settled(client: &RawClient, id: &str) -> Value {
    left(client, id, "working").await
}
