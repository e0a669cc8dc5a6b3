//! The server under test (the `conformance` fixture) and the messages the
//! tests send it and read back.

use std::time::Duration;

use mcp_wit_tests::support;
use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use support::fixture_arg;
use support::http::{EventReader, HttpServer, RawClient};

pub(super) const VERSION: &str = "2025-11-25";

/// The `conformance` fixture, as a command-line argument.
pub(super) fn conformance() -> String {
    fixture_arg("conformance")
}

pub(super) fn ping(id: i64) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "ping" })
}

pub(super) fn call(id: i64, tool: &str, arguments: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": tool, "arguments": arguments } })
}

pub(super) fn tool_text(result: &CallToolResult) -> &str {
    result.content[0].as_text().unwrap_or_else(|| panic!("expected text: {result:?}")).text.as_str()
}

/// A server with `extra` flags and a raw client initialized on it.
pub(super) async fn initialized(extra: &[&str]) -> (HttpServer, RawClient) {
    let path = conformance();
    let mut args = vec![path.as_str()];
    args.extend_from_slice(extra);
    let server = HttpServer::start(&args).await;
    let mut client = server.client();
    client.initialize(VERSION).await;
    (server, client)
}

/// The next `message` event on a legacy stream, checked against the schema.
/// The next message on a stream (skipping priming events, which carry
/// none), checked against the schema.
pub(super) async fn next_message(events: &mut EventReader, client: &RawClient) -> Value {
    let (event, data) = loop {
        let (event, data) = events.next(Duration::from_secs(10)).await.expect("a message event");
        if !data.is_empty() {
            break (event, data);
        }
    };
    assert_eq!(event, "message");
    let message: Value = serde_json::from_str(&data).unwrap();
    client.check(&message);
    message
}
