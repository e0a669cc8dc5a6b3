//! A real client: rmcp's Streamable HTTP client, with SSE and with JSON
//! answers, and against a stateless server.

use mcp_wit_tests::support;
use reqwest::StatusCode;
use rmcp::model::{CallToolRequestParams, GetPromptRequestParams, ReadResourceRequestParams};
use support::http::{HttpServer, connect};

use super::fixture::{conformance, ping, tool_text};

#[tokio::test]
async fn rmcp_client_over_sse_responses() {
    let server = HttpServer::start(&[&conformance()]).await;
    let (client, record) = connect(&server.url(), (), false).await;
    let info = client.peer_info().expect("initialized");
    assert_eq!(info.server_info.as_ref().map(|s| s.name.as_str()), Some("mcp-wit-conformance"));

    let tools = client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| &*t.name).collect();
    for expected in ["test_simple_text", "test_image_content", "test_error_handling", "json_schema_2020_12_tool"] {
        assert!(names.contains(&expected), "{expected} in {names:?}");
    }
    let schema_tool = tools.iter().find(|t| t.name == "json_schema_2020_12_tool").unwrap();
    assert_eq!(schema_tool.input_schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(schema_tool.input_schema["additionalProperties"], false);

    let result = client.call_tool(CallToolRequestParams::new("test_simple_text")).await.expect("tools/call");
    assert_eq!(tool_text(&result), "This is a simple text response for testing.");
    let result = client.call_tool(CallToolRequestParams::new("test_error_handling")).await.expect("tools/call");
    assert_eq!(result.is_error, Some(true));

    // rmcp attaches a progress token to every request: the three progress
    // notifications arrive on the request's own stream, before its response.
    let result = client.call_tool(CallToolRequestParams::new("test_tool_with_progress")).await.expect("progress");
    assert_eq!(tool_text(&result), "Progress test completed");
    {
        let record = record.lock().unwrap();
        let progress: Vec<f64> = record
            .notifications("notifications/progress")
            .iter()
            .map(|n| n["params"]["progress"].as_f64().unwrap())
            .collect();
        assert_eq!(progress, [0.0, 50.0, 100.0]);
        let last_progress = record.messages.iter().rposition(|(_, m)| m["method"] == "notifications/progress").unwrap();
        let response = record
            .messages
            .iter()
            .rposition(|(method, m)| method.as_deref() == Some("tools/call") && m.get("result").is_some())
            .unwrap();
        assert!(last_progress < response, "progress before the result");
    }

    let read = client.read_resource(ReadResourceRequestParams::new("test://static-text")).await.expect("read");
    assert_eq!(read.contents.len(), 1);
    let prompt = client.get_prompt(GetPromptRequestParams::new("test_simple_prompt")).await.expect("prompts/get");
    assert_eq!(prompt.messages.len(), 1);

    let session = {
        let record = record.lock().unwrap();
        // The session's requests as SSE (resumable at 2025-11-25, so logged
        // with ids); `initialize`, one whole message, as JSON.
        assert!(record.answers.contains(&"sse"), "requests answered as SSE: {:?}", record.answers);
        let json = record.answers.iter().filter(|answer| **answer == "json").count();
        assert_eq!(json, 1, "only initialize as JSON: {:?}", record.answers);
        assert!(record.violations.is_empty(), "schema violations:\n{}", record.violations.join("\n"));
        record.sessions.last().cloned().expect("the client sent a session id")
    };
    assert!(session.len() >= 32 && session.bytes().all(|b| b.is_ascii_graphic()), "{session}");

    // Closing the client ends the session (DELETE): its id is now unknown.
    client.cancel().await.expect("close");
    let mut raw = server.client();
    raw.session = Some(session);
    let reply = raw.post(ping(1)).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
    server.stop().await;
}

#[tokio::test]
async fn rmcp_client_with_json_responses() {
    let server = HttpServer::start(&[&conformance(), "--json-response"]).await;
    let (client, record) = connect(&server.url(), (), false).await;
    let result = client.call_tool(CallToolRequestParams::new("test_image_content")).await.expect("tools/call");
    assert!(result.content[0].as_image().is_some(), "{result:?}");
    let tools = client.list_all_tools().await.expect("tools/list");
    assert!(!tools.is_empty());
    {
        let record = record.lock().unwrap();
        assert!(record.answers.contains(&"json"), "{:?}", record.answers);
        assert!(!record.answers.contains(&"sse"), "{:?}", record.answers);
        assert!(record.violations.is_empty(), "schema violations:\n{}", record.violations.join("\n"));
    }
    client.cancel().await.expect("close");
    server.stop().await;
}

#[tokio::test]
async fn rmcp_client_against_a_stateless_server() {
    let server = HttpServer::start(&[&conformance(), "--stateless"]).await;
    let (client, record) = connect(&server.url(), (), true).await;
    let result = client.call_tool(CallToolRequestParams::new("test_simple_text")).await.expect("tools/call");
    assert_eq!(tool_text(&result), "This is a simple text response for testing.");
    let read = client.read_resource(ReadResourceRequestParams::new("test://template/42/data")).await.expect("read");
    assert_eq!(read.contents.len(), 1);
    {
        let record = record.lock().unwrap();
        assert!(record.sessions.is_empty(), "no session ids in stateless mode: {:?}", record.sessions);
        assert!(record.violations.is_empty(), "schema violations:\n{}", record.violations.join("\n"));
    }
    client.cancel().await.expect("close");
    server.stop().await;
}
