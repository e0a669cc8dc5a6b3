//! The `everything` fixture served by the library's session, to an rmcp
//! client or a raw line client, and what the tests read of its answers.

use mcp_wit_tests::support;
use rmcp::model::{ClientConfig, ProtocolVersion};
use rmcp::service::RoleClient;
use serde_json::{Value, json};
use support::{RawServer, Served};

pub(super) const INSTRUCTIONS: &str = "Exercises every part of the wasix:mcp router contract.";

/// `everything` with a default rmcp client (which asks for a revision the
/// host does not know, and so gets 2025-11-25).
pub(super) async fn serve_everything() -> Served<()> {
    Served::in_process("everything", ()).await
}

/// `everything` with an rmcp client asking for `version`.
pub(super) async fn serve_everything_at(version: ProtocolVersion) -> Served<ClientConfig> {
    let config = ClientConfig::default().with_protocol_version(version);
    Served::in_process("everything", config).await
}

/// A raw session with `everything`, initialized at `version`.
pub(super) async fn raw_everything(version: &str) -> RawServer {
    RawServer::initialized_in_process("everything", version).await
}

/// Asserts a raw answer is an error with `code` and returns its error object.
pub(super) fn raw_error(answer: &Value, code: i64) -> &Value {
    assert!(answer.get("result").is_none(), "expected an error, got {answer}");
    assert_eq!(answer["error"]["code"], code, "wrong error code in {answer}");
    &answer["error"]
}

/// Asserts a raw answer is a result and returns it.
pub(super) fn raw_result(answer: &Value) -> &Value {
    assert!(answer.get("error").is_none(), "expected a result, got {answer}");
    &answer["result"]
}

/// The last `result` the server sent for `method` in an rmcp session.
pub(super) fn last_result<S: rmcp::Service<RoleClient>>(served: &Served<S>, method: &str) -> Value {
    let results = served.transcript.lock().unwrap().results(method);
    results.last().cloned().unwrap_or_else(|| panic!("no {method} result in the transcript"))
}

/// Sends one request and returns the notifications that preceded its
/// response, and the response.
pub(super) async fn exchange(server: &mut RawServer, id: i64, method: &str, params: Value) -> (Vec<Value>, Value) {
    let msg = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    server.send(&msg.to_string()).await;
    let mut notifications = Vec::new();
    loop {
        let message = server.receive().await;
        if message.get("id").is_some() {
            assert_eq!(message["id"], id, "answer to another request: {message}");
            return (notifications, message);
        }
        notifications.push(message);
    }
}

/// The tool named `name` in a raw `tools/list` result.
pub(super) fn raw_tool<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["tools"]
        .as_array()
        .expect("tools is an array")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name} in {list}"))
}
