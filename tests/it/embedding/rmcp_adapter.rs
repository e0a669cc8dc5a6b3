//! The rmcp adapter (`mcp_wit::rmcp::RouterHandler`) to a real rmcp client:
//! what the client sees is what `mcp-wit serve` sends, errors, cancellation
//! and the server's configuration included.

use std::time::Duration;

use mcp_wit::rmcp::RouterHandler;
use mcp_wit::runtime::limits::Limits;
use mcp_wit_tests::support;
use rmcp::ServerHandler;
use rmcp::model::{
    ArgumentInfo, CallToolRequest, ClientRequest, CompleteRequestParams, GetPromptRequestParams,
    ReadResourceRequestParams, Reference, ResourceContents,
};
use rmcp::service::PeerRequestOptions;
use serde_json::json;
use support::{ProgressRecorder, TOOLS, call, rpc_error, text_of};

use super::harness::{connect, load};

#[tokio::test]
async fn serves_the_guest_through_rmcp() {
    let recorder = ProgressRecorder::default();
    let client = connect(RouterHandler::new(load("everything")), recorder.clone()).await;

    // initialize: the guest's name, instructions and capabilities.
    let info = client.peer_info().expect("server info");
    assert_eq!(info.server_info.as_ref().map(|s| s.name.as_str()), Some("everything"));
    assert_eq!(info.instructions.as_deref(), Some("Exercises every part of the wasix:mcp router contract."));
    assert_eq!(info.protocol_version.as_str(), "2025-11-25");
    let capabilities = serde_json::to_value(&info.capabilities).unwrap();
    assert_eq!(capabilities["tools"], json!({ "listChanged": true }));
    assert_eq!(capabilities["resources"], json!({ "subscribe": false, "listChanged": true }));
    assert_eq!(capabilities["completions"], json!({}));

    // Tools, with their schemas and annotations.
    let tools = client.list_all_tools().await.expect("tools/list");
    assert_eq!(tools.iter().map(|t| t.name.as_ref()).collect::<Vec<_>>(), TOOLS);
    let echo = &tools[0];
    assert_eq!(echo.description.as_deref(), Some("Echoes its text argument"));
    assert_eq!(echo.input_schema.get("required"), Some(&json!(["text"])));
    assert_eq!(echo.annotations.as_ref().and_then(|a| a.read_only_hint), Some(true));

    let result = client.call_tool(call("echo", json!({ "text": "hello" }))).await.expect("echo");
    assert_eq!(text_of(&result), "hello");
    let result = client.call_tool(call("add", json!({ "a": 2, "b": 3.5 }))).await.expect("add");
    assert_eq!(text_of(&result), r#"{"sum":5.5}"#);
    assert_eq!(result.structured_content, Some(json!({ "sum": 5.5 })), "add declares an output schema");

    // Progress reaches the client before the result.
    let result = client.call_tool(call("progress", json!({}))).await.expect("progress");
    assert_eq!(text_of(&result), "done");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while recorder.seen.lock().unwrap().len() < 4 {
        assert!(tokio::time::Instant::now() < deadline, "on_progress was not called four times");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut progress: Vec<f64> = recorder.seen.lock().unwrap().iter().map(|p| p.progress).collect();
    progress.sort_by(f64::total_cmp);
    assert_eq!(progress, [0.25, 1.25, 2.25, 10.0]);

    // Resources, prompts and completions.
    let resources = client.list_all_resources().await.expect("resources/list");
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["everything://text", "everything://blob", "everything://broken"]);
    let read = client.read_resource(ReadResourceRequestParams::new("everything://text")).await.expect("read");
    match &read.contents[..] {
        [ResourceContents::TextResourceContents { text, mime_type, .. }] => {
            assert_eq!((text.as_str(), mime_type.as_deref()), ("hello from a resource", Some("text/plain")));
        }
        other => panic!("expected one text content: {other:?}"),
    }
    let prompt = client.get_prompt(GetPromptRequestParams::new("greeting")).await.expect("prompts/get");
    assert_eq!(prompt.messages.len(), 1);
    let completion = client
        .complete(CompleteRequestParams::new(Reference::for_prompt("greeting"), ArgumentInfo::new("who", "lang-14")))
        .await
        .expect("completion/complete");
    assert_eq!(completion.completion.values, (140..150).map(|i| format!("lang-{i}")).collect::<Vec<_>>());
    assert!(client.list_all_resource_templates().await.expect("templates").is_empty());

    client.cancel().await.expect("close");
}

#[tokio::test]
async fn guest_errors_are_the_sessions_errors() {
    let client = connect(RouterHandler::new(load("everything")), ()).await;

    let error = rpc_error(client.call_tool(call("nope", json!({}))).await);
    assert_eq!((error.code.0, error.message.as_ref()), (-32602, "Unknown tool: nope"));

    // A tool's own failure is a result flagged as an error, as 2025-11-25 asks.
    let result = client.call_tool(call("fail", json!({ "kind": "execution-error" }))).await.expect("fail");
    assert_eq!(result.is_error, Some(true));
    // Arguments that break the tool's input schema never reach the guest.
    let result = client.call_tool(call("echo", json!({}))).await.expect("echo without text");
    let refused = "Invalid arguments for tool `echo`: \"text\" is a required property";
    assert_eq!((text_of(&result), result.is_error), (refused, Some(true)));

    let error = rpc_error(client.read_resource(ReadResourceRequestParams::new("everything://nope")).await);
    assert_eq!(error.code.0, -32002);
    assert_eq!(error.data, Some(json!({ "uri": "everything://nope" })));
    let error = rpc_error(client.read_resource(ReadResourceRequestParams::new("everything://broken")).await);
    assert_eq!((error.code.0, error.message.as_ref()), (-32603, "storage offline"));
    let error = rpc_error(client.get_prompt(GetPromptRequestParams::new("broken")).await);
    assert_eq!((error.code.0, error.message.as_ref()), (-32603, "prompt store unavailable"));

    // A trap fails its own request; the next one gets a fresh instance.
    for expected in ["1", "2"] {
        let result = client.call_tool(call("counter", json!({}))).await.expect("counter");
        assert_eq!(text_of(&result), expected);
    }
    let error = rpc_error(client.call_tool(call("panic", json!({}))).await);
    assert_eq!(error.code.0, -32603);
    assert_eq!(error.message, "the router `everything` failed: deliberate panic in the panic tool");
    let result = client.call_tool(call("counter", json!({}))).await.expect("counter after the trap");
    assert_eq!(text_of(&result), "1", "a fresh instance counts from one");

    client.cancel().await.expect("close");
}

#[tokio::test]
async fn a_cancelled_call_stops_the_guest() {
    // Without cancellation the spinning call would hold the session for two minutes.
    let limits = Limits { timeout: Duration::from_secs(120), ..Limits::default() };
    let client = connect(RouterHandler::new(load("hostile").with_limits(limits)), ()).await;
    let spin = ClientRequest::CallToolRequest(CallToolRequest::new(call("spin", json!({}))));
    let handle = client.send_cancellable_request(spin, PeerRequestOptions::no_options()).await.expect("send spin");
    tokio::time::sleep(Duration::from_millis(300)).await;
    handle.cancel(Some("enough".into())).await.expect("cancel");
    let next = tokio::time::timeout(Duration::from_secs(20), client.call_tool(call("counter", json!({}))));
    let result = next.await.expect("answered once the spin stopped").expect("counter");
    assert_eq!(text_of(&result), "1");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn server_config_is_the_guests_before_any_client() {
    let handler = RouterHandler::new(load("everything"));
    let config = handler.server_config().await.expect("server config");
    assert_eq!(config.server_info.name, "everything");
    assert!(config.capabilities.prompts.is_some());
    assert_eq!(handler.get_info(), config, "cached");
}
