//! Tasks under authorization: a task is its creator's. Another principal
//! gets -32602 for it, as for a task that does not exist, on every
//! `tasks/*` method; its creator polls, answers and cancels it.

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::fixture_arg;
use support::http::{HttpServer, RawClient};

use super::issuer::{Issuer, Key, claims};
use super::protected::{MODERN, with_token};

const TASKS: &str = "io.modelcontextprotocol/tasks";

async fn post(client: &RawClient, id: i64, method: &str, name: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": { "extensions": { TASKS: {} } },
        "io.modelcontextprotocol/clientInfo": { "name": "auth-test", "version": "1.0.0" },
    });
    let request = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    let headers = [("mcp-protocol-version", MODERN), ("mcp-method", method), ("mcp-name", name)];
    client.post_raw(&headers, request.to_string()).await.response().clone()
}

#[tokio::test]
async fn a_task_is_seen_only_by_the_principal_that_made_it() {
    let key = Key::es256("k1");
    let issuer = Issuer::start(vec![key.clone()]).await;
    let conformance = fixture_arg("conformance");
    let args = [
        &conformance,
        "--auth-issuer",
        &issuer.url,
        "--task-policy",
        "slow_compute=always",
        "--guest-output",
        "discard",
    ];
    let server = HttpServer::start(&args).await;
    let resource = server.url();
    let alice = with_token(&server, &key.sign(&claims(&issuer, &resource, "alice", "a")));
    let bob = with_token(&server, &key.sign(&claims(&issuer, &resource, "bob", "a")));

    let call = json!({ "name": "slow_compute", "arguments": { "seconds": 30, "label": "alice's" } });
    let created = post(&alice, 1, "tools/call", "slow_compute", call).await;
    let id = created["result"]["taskId"].as_str().unwrap_or_else(|| panic!("no task: {created}")).to_owned();

    let unknown = post(&bob, 2, "tasks/get", "no-such-task", json!({ "taskId": "no-such-task" })).await;
    for (n, method) in ["tasks/get", "tasks/update", "tasks/cancel"].into_iter().enumerate() {
        let refused = post(&bob, 10 + n as i64, method, &id, json!({ "taskId": id, "inputResponses": {} })).await;
        assert_eq!(refused["error"]["code"], -32602, "{method}: {refused}");
        let message = refused["error"]["message"].as_str().unwrap();
        assert_eq!(message, unknown["error"]["message"].as_str().unwrap().replace("no-such-task", &id), "{method}");
    }
    let polled = post(&alice, 3, "tasks/get", &id, json!({ "taskId": id })).await;
    assert_eq!(polled["result"]["status"], "working", "bob's attempts changed nothing: {polled}");
    let cancelled = post(&alice, 4, "tasks/cancel", &id, json!({ "taskId": id })).await;
    assert_eq!(cancelled["result"], json!({ "resultType": "complete" }));
    let polled = post(&alice, 5, "tasks/get", &id, json!({ "taskId": id })).await;
    assert_eq!(polled["result"]["status"], "cancelled", "{polled}");
    server.stop().await;
}
