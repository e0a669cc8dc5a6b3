// The WIT → MCP mapping, end to end: the library's session serves the
// `everything` fixture (see `components/everything/README.md`) in this
// process, as `mcp-wit serve` does over stdio, and a real rmcp client (or a
// raw line client, where the exact wire shape at one protocol revision
// matters) checks what each guest value becomes on the wire. (stdio framing
// and the binary itself are tested in stdio.rs.)

use std::collections::HashMap;
use std::time::Duration;

use mcp_wit_tests::support;
use rmcp::model::{
    ArgumentInfo, ClientConfig, ClientRequest, CompleteRequestParams, CompletionContext, ContentBlock, CustomRequest,
    GetPromptRequestParams, NumberOrString, PingRequest, ProtocolVersion, ReadResourceRequestParams, Reference,
    RequestMetaObject, ResourceContents, Role, ServerResult,
};
// rmcp marks MCP logging deprecated (SEP-2577); the host still serves it.
#[allow(deprecated)]
use rmcp::model::{LoggingLevel, SetLevelRequestParams};
use rmcp::service::RoleClient;
use serde_json::{Value, json};
use support::{ProgressRecorder, RawServer, Served, TOOLS, call, initialize_params, object, rpc_error, text_of};

const INSTRUCTIONS: &str = "Exercises every part of the wasix:mcp router contract.";

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// `everything` with a default rmcp client (which asks for a revision the
/// host does not know, and so gets 2025-11-25).
async fn serve_everything() -> Served<()> {
    Served::in_process("everything", ()).await
}

/// `everything` with an rmcp client asking for `version`.
async fn serve_everything_at(version: ProtocolVersion) -> Served<ClientConfig> {
    let config = ClientConfig::default().with_protocol_version(version);
    Served::in_process("everything", config).await
}

/// A raw session with `everything`, initialized at `version`.
async fn raw_everything(version: &str) -> RawServer {
    RawServer::initialized_in_process("everything", version).await
}

/// Asserts a raw answer is an error with `code` and returns its error object.
fn raw_error(answer: &Value, code: i64) -> &Value {
    assert!(answer.get("result").is_none(), "expected an error, got {answer}");
    assert_eq!(answer["error"]["code"], code, "wrong error code in {answer}");
    &answer["error"]
}

/// Asserts a raw answer is a result and returns it.
fn raw_result(answer: &Value) -> &Value {
    assert!(answer.get("error").is_none(), "expected a result, got {answer}");
    &answer["result"]
}

/// The last `result` the server sent for `method` in an rmcp session.
fn last_result<S: rmcp::Service<RoleClient>>(served: &Served<S>, method: &str) -> Value {
    let results = served.transcript.lock().unwrap().results(method);
    results.last().cloned().unwrap_or_else(|| panic!("no {method} result in the transcript"))
}

/// Sends one request and returns the notifications that preceded its
/// response, and the response.
async fn exchange(server: &mut RawServer, id: i64, method: &str, params: Value) -> (Vec<Value>, Value) {
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
fn raw_tool<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["tools"]
        .as_array()
        .expect("tools is an array")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name} in {list}"))
}

// ---------------------------------------------------------------------------
// 1. initialize
// ---------------------------------------------------------------------------

#[tokio::test]
async fn initialize_negotiates_the_version_and_maps_capabilities() {
    let expected_capabilities = json!({
        "logging": {},
        "completions": {},
        "prompts": { "listChanged": false },
        "resources": { "subscribe": false, "listChanged": true },
        "tools": { "listChanged": true },
    });
    for (asked, answered) in [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2099-01-01", "2025-11-25"),
    ] {
        let mut server = RawServer::in_process("everything");
        let answer = server.request(0, "initialize", initialize_params(asked)).await;
        let result = raw_result(&answer);
        assert_eq!(result["protocolVersion"], answered, "asked for {asked}: {answer}");
        assert_eq!(result["serverInfo"]["name"], "everything", "{answer}");
        assert!(result["serverInfo"]["version"].is_string(), "{answer}");
        assert_eq!(result["instructions"], INSTRUCTIONS, "{answer}");
        let mut expected = expected_capabilities.clone();
        if answered == "2024-11-05" {
            // The completions capability arrived in 2025-03-26.
            expected.as_object_mut().unwrap().remove("completions");
        }
        assert_eq!(result["capabilities"], expected, "asked for {asked}");
        server.finish().await;
    }

    // rmcp's default client asks for a revision newer than the host knows.
    let served = serve_everything().await;
    let info = served.client.peer_info().expect("initialized");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
    assert_eq!(info.server_info.as_ref().map(|s| s.name.as_str()), Some("everything"));
    assert_eq!(info.instructions.as_deref(), Some(INSTRUCTIONS));
    let caps = &info.capabilities;
    assert!(caps.logging.is_some() && caps.completions.is_some(), "{caps:?}");
    assert_eq!(caps.prompts.as_ref().and_then(|p| p.list_changed), Some(false));
    assert_eq!(caps.resources.as_ref().and_then(|r| r.subscribe), Some(false));
    assert_eq!(caps.resources.as_ref().and_then(|r| r.list_changed), Some(true));
    assert_eq!(caps.tools.as_ref().and_then(|t| t.list_changed), Some(true));
    assert_eq!(last_result(&served, "initialize")["capabilities"], expected_capabilities);
    served.finish().await;

    // A known revision asked for through rmcp is answered as is.
    let served = serve_everything_at(ProtocolVersion::V_2025_06_18).await;
    assert_eq!(served.client.peer_info().unwrap().protocol_version, ProtocolVersion::V_2025_06_18);
    served.finish().await;
}

#[tokio::test]
async fn initialize_with_hello_offers_only_what_the_guest_has() {
    let served = Served::in_process("hello", ()).await;
    let result = last_result(&served, "initialize");
    assert_eq!(result["serverInfo"]["name"], "hello", "{result}");
    assert!(result["instructions"].as_str().is_some_and(|s| !s.is_empty()), "instructions missing: {result}");
    let caps = result["capabilities"].as_object().expect("capabilities object");
    assert!(!caps.contains_key("completions"), "hello has no completions: {result}");
    assert!(!caps.contains_key("prompts"), "hello has no prompts: {result}");
    assert!(!caps.contains_key("resources"), "hello has no resources: {result}");
    assert_eq!(caps.get("logging"), Some(&json!({})));
    assert!(caps.contains_key("tools"), "{result}");

    let info = served.client.peer_info().unwrap();
    assert!(info.capabilities.completions.is_none() && info.capabilities.prompts.is_none());
    assert!(info.capabilities.resources.is_none());
    assert!(info.instructions.is_some());
    served.finish().await;
}

// ---------------------------------------------------------------------------
// 2. tools/list
// ---------------------------------------------------------------------------

#[tokio::test]
async fn tools_list_maps_every_valid_tool() {
    let served = serve_everything().await;
    let tools = served.client.list_tools(None).await.expect("tools/list").tools;
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, TOOLS, "every tool, in the guest's order");

    let echo = &tools[0];
    assert_eq!(echo.description.as_deref(), Some("Echoes its text argument"));
    assert_eq!(echo.input_schema["required"], json!(["text"]));
    let hints = echo.annotations.as_ref().expect("echo has annotations");
    assert_eq!((hints.read_only_hint, hints.destructive_hint), (Some(true), Some(false)));
    assert!(echo.output_schema.is_none() && echo.meta.is_none());

    let add = &tools[1];
    let output_schema = add.output_schema.as_ref().expect("add has an output schema at 2025-11-25");
    assert_eq!(output_schema["properties"]["sum"]["type"], "number");
    assert!(add.annotations.is_none(), "add declares no annotations");

    let list = last_result(&served, "tools/list");
    let annotated = raw_tool(&list, "annotated");
    assert_eq!(annotated["annotations"], json!({ "readOnlyHint": false, "destructiveHint": true }));
    assert_eq!(
        annotated["_meta"],
        json!({
            "dev.mcp-wit/streaming": true,
            "dev.mcp-wit/experimental": true,
            "dev.mcp-wit/tool-meta": {
                "outputHint": "a short greeting",
                "config": [{ "name": "GREETING", "description": "Greeting word", "required": true }],
                "secrets": [{ "name": "API_TOKEN", "description": "Token for the upstream API", "required": false }],
                "configMeta": { "group": "demo" },
                "extra": { "owner": "tests" },
            },
        })
    );
    assert_eq!(annotated["inputSchema"], json!({ "type": "object" }));
    for name in ["echo", "add", "all-content", "counter"] {
        assert!(raw_tool(&list, name).get("_meta").is_none(), "{name} has no _meta: {list}");
    }
    served.finish().await;
}

#[tokio::test]
async fn tools_list_follows_the_protocol_version() {
    // 2024-11-05: no tool annotations, no output schemas.
    let mut server = raw_everything("2024-11-05").await;
    let answer = server.request(1, "tools/list", json!({})).await;
    let list = raw_result(&answer);
    let names: Vec<&str> = list["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, TOOLS);
    assert!(raw_tool(list, "echo").get("annotations").is_none(), "no annotations at 2024-11-05: {list}");
    assert!(raw_tool(list, "annotated").get("annotations").is_none(), "{list}");
    assert!(raw_tool(list, "add").get("outputSchema").is_none(), "no outputSchema at 2024-11-05: {list}");
    server.finish().await;

    // 2025-03-26: annotations, still no output schemas.
    let mut server = raw_everything("2025-03-26").await;
    let answer = server.request(1, "tools/list", json!({})).await;
    let list = raw_result(&answer);
    assert_eq!(raw_tool(list, "echo")["annotations"], json!({ "readOnlyHint": true, "destructiveHint": false }));
    assert!(raw_tool(list, "add").get("outputSchema").is_none(), "no outputSchema at 2025-03-26: {list}");
    server.finish().await;

    // 2025-06-18 through rmcp: both.
    let served = serve_everything_at(ProtocolVersion::V_2025_06_18).await;
    let tools = served.client.list_tools(None).await.expect("tools/list").tools;
    let add = tools.iter().find(|t| t.name == "add").expect("add listed");
    assert_eq!(
        add.output_schema.as_deref().map(|s| Value::Object(s.clone())),
        Some(json!({ "type": "object", "properties": { "sum": { "type": "number" } }, "required": ["sum"] }))
    );
    let echo = tools.iter().find(|t| t.name == "echo").expect("echo listed");
    assert_eq!(echo.annotations.as_ref().and_then(|a| a.read_only_hint), Some(true));
    served.finish().await;
}

// ---------------------------------------------------------------------------
// 3. tools/call content mapping
// ---------------------------------------------------------------------------

#[tokio::test]
async fn all_content_maps_every_content_kind() {
    let served = serve_everything().await;
    let result = served.client.call_tool(call("all-content", json!({}))).await.expect("tools/call all-content");
    assert_eq!(result.is_error, Some(false));
    assert_eq!(result.content.len(), 5, "{result:?}");

    let text = result.content[0].as_text().expect("text first");
    assert_eq!(text.text, "plain text");
    let annotations = text.annotations.as_ref().expect("text is annotated");
    assert_eq!(annotations.audience, Some(vec![Role::User]));
    assert_eq!(annotations.priority, Some(0.5));
    assert_eq!(annotations.last_modified.as_deref(), Some("2025-01-01T00:00:00Z"));

    let image = result.content[1].as_image().expect("image second");
    assert_eq!((image.data.as_str(), image.mime_type.as_str()), ("iVBORw0KGgo=", "image/png"));
    assert_eq!(image.annotations.as_ref().and_then(|a| a.audience.clone()), Some(vec![Role::Assistant]));

    let audio = result.content[2].as_audio().expect("audio third");
    assert_eq!((audio.data.as_str(), audio.mime_type.as_str()), ("UklGRg==", "audio/wav"));

    let embedded_text = result.content[3].as_resource().expect("embedded text fourth");
    match &embedded_text.resource {
        ResourceContents::TextResourceContents { uri, mime_type, text, .. } => {
            assert_eq!(uri, "everything://text");
            assert_eq!(mime_type.as_deref(), Some("text/plain"));
            assert_eq!(text, "embedded text");
        }
        other => panic!("expected text resource contents, got {other:?}"),
    }
    let annotations = embedded_text.annotations.as_ref().expect("embedded text is annotated");
    assert_eq!(annotations.audience, Some(vec![Role::User, Role::Assistant]));
    assert_eq!(annotations.priority, Some(1.0));

    let embedded_blob = result.content[4].as_resource().expect("embedded blob fifth");
    match &embedded_blob.resource {
        ResourceContents::BlobResourceContents { uri, mime_type, blob, .. } => {
            assert_eq!(uri, "everything://blob");
            assert_eq!(mime_type.as_deref(), Some("application/octet-stream"));
            assert_eq!(blob, "AAEC");
        }
        other => panic!("expected blob resource contents, got {other:?}"),
    }
    assert!(embedded_blob.annotations.is_none());

    // The exact wire shape.
    let raw = last_result(&served, "tools/call");
    assert_eq!(
        raw,
        json!({
            "content": [
                {
                    "type": "text",
                    "text": "plain text",
                    "annotations": { "audience": ["user"], "priority": 0.5, "lastModified": "2025-01-01T00:00:00Z" },
                },
                { "type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png", "annotations": { "audience": ["assistant"] } },
                { "type": "audio", "data": "UklGRg==", "mimeType": "audio/wav" },
                {
                    "type": "resource",
                    "resource": { "uri": "everything://text", "mimeType": "text/plain", "text": "embedded text" },
                    "annotations": { "audience": ["user", "assistant"], "priority": 1.0 },
                },
                {
                    "type": "resource",
                    "resource": { "uri": "everything://blob", "mimeType": "application/octet-stream", "blob": "AAEC" },
                },
            ],
            "isError": false,
            "_meta": { "source": "everything", "kind": "all-content" },
        })
    );
    served.finish().await;
}

#[tokio::test]
async fn all_content_follows_the_protocol_version() {
    // 2024-11-05: audio has no content type and becomes an embedded blob.
    let mut server = raw_everything("2024-11-05").await;
    let answer = server.call(1, "all-content", json!({})).await;
    let content = &raw_result(&answer)["content"];
    assert_eq!(
        content[2],
        json!({ "type": "resource", "resource": { "uri": "mcp-wit:audio/2", "mimeType": "audio/wav", "blob": "UklGRg==" } })
    );
    assert_eq!(content[0]["annotations"], json!({ "audience": ["user"], "priority": 0.5 }), "no lastModified");
    assert_eq!(raw_result(&answer)["_meta"], json!({ "source": "everything", "kind": "all-content" }));
    server.finish().await;

    // 2025-03-26: audio, but still no lastModified.
    let served = serve_everything_at(ProtocolVersion::V_2025_03_26).await;
    let result = served.client.call_tool(call("all-content", json!({}))).await.expect("tools/call all-content");
    let audio = result.content[2].as_audio().expect("audio at 2025-03-26");
    assert_eq!((audio.data.as_str(), audio.mime_type.as_str()), ("UklGRg==", "audio/wav"));
    let annotations = result.content[0].as_text().and_then(|t| t.annotations.as_ref()).expect("annotated text");
    assert_eq!(annotations.last_modified, None, "lastModified only from 2025-06-18");
    let raw = last_result(&served, "tools/call");
    assert_eq!(raw["content"][0]["annotations"], json!({ "audience": ["user"], "priority": 0.5 }));
    assert_eq!(raw["content"][2], json!({ "type": "audio", "data": "UklGRg==", "mimeType": "audio/wav" }));
    served.finish().await;

    // 2025-06-18: lastModified appears.
    let mut server = raw_everything("2025-06-18").await;
    let answer = server.call(1, "all-content", json!({})).await;
    assert_eq!(
        raw_result(&answer)["content"][0]["annotations"],
        json!({ "audience": ["user"], "priority": 0.5, "lastModified": "2025-01-01T00:00:00Z" })
    );
    assert_eq!(raw_result(&answer)["content"][2]["type"], "audio");
    server.finish().await;
}

// ---------------------------------------------------------------------------
// 4. structured content
// ---------------------------------------------------------------------------

#[tokio::test]
async fn add_returns_structured_content_from_2025_06_18() {
    let served = serve_everything_at(ProtocolVersion::V_2025_06_18).await;
    let result = served.client.call_tool(call("add", json!({ "a": 1, "b": 2 }))).await.expect("tools/call add");
    assert_eq!(serde_json::from_str::<Value>(text_of(&result)).unwrap()["sum"].as_f64(), Some(3.0));
    let structured = result.structured_content.as_ref().expect("structuredContent at 2025-06-18");
    assert_eq!(structured["sum"].as_f64(), Some(3.0), "{structured}");
    assert_eq!(structured.as_object().map(|o| o.len()), Some(1), "{structured}");
    let raw = last_result(&served, "tools/call");
    assert_eq!(raw["structuredContent"]["sum"].as_f64(), Some(3.0), "{raw}");
    assert_eq!(raw["content"][0]["type"], "text", "the text stays alongside: {raw}");
    served.finish().await;

    // The default client (2025-11-25) gets it too.
    let served = serve_everything().await;
    let result = served.client.call_tool(call("add", json!({ "a": 1, "b": 2 }))).await.expect("tools/call add");
    assert_eq!(result.structured_content.as_ref().and_then(|s| s["sum"].as_f64()), Some(3.0));
    served.finish().await;

    // 2025-03-26 has no structured output.
    let mut server = raw_everything("2025-03-26").await;
    let answer = server.call(1, "add", json!({ "a": 1, "b": 2 })).await;
    let result = raw_result(&answer);
    assert!(result.get("structuredContent").is_none(), "no structuredContent at 2025-03-26: {answer}");
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text["sum"].as_f64(), Some(3.0));
    server.finish().await;
}

// ---------------------------------------------------------------------------
// 5. progress
// ---------------------------------------------------------------------------

/// The progress values and messages the `progress` tool's list maps to.
const PROGRESS: [(f64, Option<&str>); 4] =
    [(0.25, Some("quarter")), (1.25, Some("no value")), (2.25, Some("went backwards")), (10.0, None)];

fn assert_progress_params(notifications: &[Value], token: &Value) {
    assert_eq!(notifications.len(), 4, "exactly four progress notifications: {notifications:?}");
    for (n, (progress, message)) in notifications.iter().zip(PROGRESS) {
        assert_eq!(n["method"], "notifications/progress", "{n}");
        assert_eq!(&n["params"]["progressToken"], token, "token echoed: {n}");
        assert_eq!(n["params"]["progress"].as_f64(), Some(progress), "{n}");
        assert_eq!(n["params"]["message"].as_str(), message, "{n}");
        if message.is_none() {
            assert!(n["params"].get("message").is_none(), "no message key: {n}");
        }
    }
}

#[tokio::test]
async fn progress_notifications_precede_the_result() {
    let recorder = ProgressRecorder::default();
    let served = Served::in_process("everything", recorder.clone()).await;
    // rmcp attaches an integer progress token to every request it sends.
    let result = served.client.call_tool(call("progress", json!({}))).await.expect("tools/call progress");
    assert_eq!(text_of(&result), "done");

    {
        let transcript = served.transcript.lock().unwrap();
        let response_at = transcript
            .messages
            .iter()
            .position(|(method, msg)| method.as_deref() == Some("tools/call") && msg.get("result").is_some())
            .expect("the tools/call response");
        let progress_at: Vec<usize> = transcript
            .messages
            .iter()
            .enumerate()
            .filter(|(_, (_, msg))| msg["method"] == "notifications/progress")
            .map(|(i, _)| i)
            .collect();
        assert_eq!(progress_at.len(), 4, "four notifications in the transcript");
        assert!(progress_at.iter().all(|&i| i < response_at), "notifications come before the response");
        let notifications = transcript.notifications("notifications/progress");
        let token = notifications[0]["params"]["progressToken"].clone();
        assert!(token.is_i64(), "rmcp's token is an integer: {token}");
        assert_progress_params(&notifications, &token);
        let values: Vec<f64> = notifications.iter().map(|n| n["params"]["progress"].as_f64().unwrap()).collect();
        assert!(values.windows(2).all(|w| w[0] < w[1]), "progress strictly increases: {values:?}");
    }

    // The client itself saw them (delivered by background tasks).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while recorder.seen.lock().unwrap().len() < 4 {
        assert!(tokio::time::Instant::now() < deadline, "on_progress was not called four times");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut seen = recorder.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 4);
    seen.sort_by(|a, b| a.progress.total_cmp(&b.progress));
    assert!(seen.iter().all(|p| matches!(p.progress_token.0, NumberOrString::Number(_))));
    assert!(seen.windows(2).all(|w| w[0].progress_token == w[1].progress_token), "one token for the call");
    let got: Vec<(f64, Option<&str>)> = seen.iter().map(|p| (p.progress, p.message.as_deref())).collect();
    assert_eq!(got, PROGRESS);
    served.finish().await;
}

#[tokio::test]
async fn progress_tokens_are_echoed_and_optional() {
    let mut server = raw_everything("2025-11-25").await;

    let (notifications, answer) = exchange(
        &mut server,
        1,
        "tools/call",
        json!({ "name": "progress", "arguments": {}, "_meta": { "progressToken": "tok-1" } }),
    )
    .await;
    assert_eq!(raw_result(&answer)["content"][0]["text"], "done");
    assert_progress_params(&notifications, &json!("tok-1"));

    let (notifications, answer) = exchange(
        &mut server,
        2,
        "tools/call",
        json!({ "name": "progress", "arguments": {}, "_meta": { "progressToken": 42 } }),
    )
    .await;
    assert_eq!(raw_result(&answer)["content"][0]["text"], "done");
    assert_progress_params(&notifications, &json!(42));

    // Without a token the list is dropped: the response comes first.
    let (notifications, answer) =
        exchange(&mut server, 3, "tools/call", json!({ "name": "progress", "arguments": {} })).await;
    assert!(notifications.is_empty(), "no progress without a token: {notifications:?}");
    assert_eq!(raw_result(&answer)["content"][0]["text"], "done");
    let (notifications, _) = exchange(&mut server, 4, "ping", json!({})).await;
    assert!(notifications.is_empty(), "nothing was left behind: {notifications:?}");

    // Tools without progress send none even with a token.
    let (notifications, _) = exchange(
        &mut server,
        5,
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "hi" }, "_meta": { "progressToken": "tok-2" } }),
    )
    .await;
    assert!(notifications.is_empty(), "{notifications:?}");
    server.finish().await;

    // 2024-11-05 progress notifications had no `message`.
    let mut server = raw_everything("2024-11-05").await;
    let (notifications, _) = exchange(
        &mut server,
        1,
        "tools/call",
        json!({ "name": "progress", "arguments": {}, "_meta": { "progressToken": "old" } }),
    )
    .await;
    assert_eq!(notifications.len(), 4, "{notifications:?}");
    assert!(notifications.iter().all(|n| n["params"].get("message").is_none()), "{notifications:?}");
    server.finish().await;
}

// ---------------------------------------------------------------------------
// 6. tool errors
// ---------------------------------------------------------------------------

#[tokio::test]
async fn tool_errors_map_to_results_or_json_rpc_errors() {
    let served = serve_everything().await;

    let error = rpc_error(served.client.call_tool(call("no-such-tool", json!({}))).await);
    assert_eq!(error.code.0, -32602, "{error:?}");
    assert_eq!(error.message, "Unknown tool: no-such-tool");

    for (kind, message) in [
        ("invalid-parameters", "bad parameters for fail"),
        ("execution-error", "the tool exploded"),
        ("schema-error", "output does not match schema"),
    ] {
        let result = served
            .client
            .call_tool(call("fail", json!({ "kind": kind })))
            .await
            .unwrap_or_else(|e| panic!("fail/{kind} should be a result, got {e:?}"));
        assert_eq!(result.is_error, Some(true), "fail/{kind}");
        assert_eq!(text_of(&result), message, "fail/{kind}");
        assert!(result.structured_content.is_none() && result.meta.is_none(), "fail/{kind}: {result:?}");
        let raw = last_result(&served, "tools/call");
        assert_eq!(raw, json!({ "content": [{ "type": "text", "text": message }], "isError": true }));
    }

    let error = rpc_error(served.client.call_tool(call("fail", json!({ "kind": "not-found" }))).await);
    assert_eq!(error.code.0, -32602, "{error:?}");
    assert_eq!(error.message, "Unknown tool: fail");

    let result = served.client.call_tool(call("is-error", json!({}))).await.expect("is-error is a result");
    assert_eq!(result.is_error, Some(true));
    assert_eq!(text_of(&result), "it went wrong");

    // A missing argument breaks the input schema: the host reports it as a
    // result, without calling the guest.
    let result = served.client.call_tool(call("echo", json!({}))).await.expect("echo without text");
    assert_eq!(result.is_error, Some(true));
    assert_eq!(text_of(&result), "Invalid arguments for tool `echo`: \"text\" is a required property");
    served.finish().await;
}

// ---------------------------------------------------------------------------
// 7. traps
// ---------------------------------------------------------------------------

#[tokio::test]
async fn a_trap_fails_the_call_and_the_next_call_gets_a_fresh_instance() {
    let served = serve_everything().await;
    // State lives across calls of a session...
    for expected in ["1", "2"] {
        let result = served.client.call_tool(call("counter", json!({}))).await.expect("counter");
        assert_eq!(text_of(&result), expected, "counter before the trap");
    }

    let error = rpc_error(served.client.call_tool(call("panic", json!({}))).await);
    assert_eq!(error.code.0, -32603, "{error:?}");
    // The client hears what failed in the guest's words; where it trapped
    // is the log's (guests.rs).
    assert_eq!(error.message, "the router `everything` failed: deliberate panic in the panic tool");

    // ...until a trap, after which the session goes on with a new instance.
    let result = served.client.call_tool(call("counter", json!({}))).await.expect("counter after the trap");
    assert_eq!(text_of(&result), "1", "a fresh instance counts from one");
    let result = served.client.call_tool(call("echo", json!({ "text": "still here" }))).await.expect("echo");
    assert_eq!(text_of(&result), "still here");
    served.finish().await;
}

// ---------------------------------------------------------------------------
// 8. resources
// ---------------------------------------------------------------------------

#[tokio::test]
async fn resources_list_read_and_fail() {
    let served = serve_everything().await;
    let resources = served.client.list_resources(None).await.expect("resources/list").resources;
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["everything://text", "everything://blob", "everything://broken"]);

    let text = &resources[0];
    assert_eq!(text.name, "text");
    assert_eq!(text.description.as_deref(), Some("A text resource"));
    assert_eq!(text.mime_type.as_deref(), Some("text/plain"));
    let annotations = text.annotations.as_ref().expect("text resource is annotated");
    assert_eq!(annotations.audience, Some(vec![Role::Assistant]));
    assert_eq!(annotations.priority, Some(1.0));
    assert_eq!(annotations.last_modified.as_deref(), Some("2025-06-01T12:00:00Z"));

    let blob = &resources[1];
    assert_eq!(blob.name, "blob");
    assert_eq!(blob.description, None);
    assert_eq!(blob.mime_type.as_deref(), Some("application/octet-stream"));
    assert!(blob.annotations.is_none());

    let broken = &resources[2];
    assert_eq!(broken.name, "broken");
    assert_eq!(broken.description.as_deref(), Some("Always fails to read"));
    assert_eq!(broken.mime_type.as_deref(), Some("text/plain"));

    assert_eq!(
        last_result(&served, "resources/list"),
        json!({ "resources": [
            {
                "uri": "everything://text", "name": "text", "description": "A text resource", "mimeType": "text/plain",
                "annotations": { "audience": ["assistant"], "priority": 1.0, "lastModified": "2025-06-01T12:00:00Z" },
            },
            { "uri": "everything://blob", "name": "blob", "mimeType": "application/octet-stream" },
            { "uri": "everything://broken", "name": "broken", "description": "Always fails to read", "mimeType": "text/plain" },
        ]})
    );

    let read = |uri: &str| served.client.read_resource(ReadResourceRequestParams::new(uri));
    let contents = read("everything://text").await.expect("read text").contents;
    assert_eq!(
        contents,
        [ResourceContents::TextResourceContents {
            uri: "everything://text".into(),
            mime_type: Some("text/plain".into()),
            text: "hello from a resource".into(),
            meta: None,
        }]
    );
    let contents = read("everything://blob").await.expect("read blob").contents;
    assert_eq!(
        contents,
        [ResourceContents::BlobResourceContents {
            uri: "everything://blob".into(),
            mime_type: Some("application/octet-stream".into()),
            blob: "AAECAw==".into(),
            meta: None,
        }]
    );
    read("everything://both").await.expect("read both");
    assert_eq!(
        last_result(&served, "resources/read"),
        json!({ "contents": [
            { "uri": "everything://both", "text": "part one" },
            { "uri": "everything://both", "mimeType": "image/png", "blob": "iVBORw0KGgo=" },
        ]})
    );

    let error = rpc_error(read("everything://missing").await);
    assert_eq!(error.code.0, -32002, "{error:?}");
    assert_eq!(error.data, Some(json!({ "uri": "everything://missing" })));
    assert!(error.message.contains("everything://missing"), "{error:?}");

    let error = rpc_error(read("everything://broken").await);
    assert_eq!(error.code.0, -32603, "{error:?}");
    assert_eq!(error.message, "storage offline");

    let templates = served.client.list_resource_templates(None).await.expect("resources/templates/list");
    assert!(templates.resource_templates.is_empty());
    assert_eq!(last_result(&served, "resources/templates/list"), json!({ "resourceTemplates": [] }));
    served.finish().await;

    // lastModified only from 2025-06-18.
    for (version, has_last_modified) in [("2025-03-26", false), ("2025-06-18", true)] {
        let mut server = raw_everything(version).await;
        let answer = server.request(1, "resources/list", json!({})).await;
        let annotations = &raw_result(&answer)["resources"][0]["annotations"];
        assert_eq!(annotations["audience"], json!(["assistant"]), "{answer}");
        assert_eq!(annotations["priority"].as_f64(), Some(1.0), "{answer}");
        assert_eq!(annotations.get("lastModified").is_some(), has_last_modified, "at {version}: {answer}");
        server.finish().await;
    }
}

// ---------------------------------------------------------------------------
// 9. prompts
// ---------------------------------------------------------------------------

#[tokio::test]
async fn prompts_list_get_and_fail() {
    let served = serve_everything().await;
    let prompts = served.client.list_prompts(None).await.expect("prompts/list").prompts;
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["greeting", "mixed", "invalid", "broken"]);
    assert_eq!(prompts[0].description.as_deref(), Some("Greets someone"));
    let arguments = prompts[0].arguments.as_ref().expect("greeting has arguments");
    assert_eq!(arguments.len(), 1);
    assert_eq!(arguments[0].name, "who");
    assert_eq!(arguments[0].description.as_deref(), Some("Who to greet"));
    assert_eq!(arguments[0].required, Some(true));
    assert_eq!(prompts[1].description.as_deref(), Some("One message of each content kind"));
    assert!(prompts[1].arguments.is_none());
    assert!(prompts[2].description.is_none() && prompts[2].arguments.is_none());
    assert!(prompts[3].description.is_none() && prompts[3].arguments.is_none());
    assert_eq!(
        last_result(&served, "prompts/list"),
        json!({ "prompts": [
            {
                "name": "greeting", "description": "Greets someone",
                "arguments": [{ "name": "who", "description": "Who to greet", "required": true }],
            },
            { "name": "mixed", "description": "One message of each content kind" },
            { "name": "invalid" },
            { "name": "broken" },
        ]})
    );

    let get = |name: &str, arguments: Option<Value>| {
        let mut params = GetPromptRequestParams::new(name);
        params.arguments = arguments.map(object);
        served.client.get_prompt(params)
    };

    // Arguments are type-checked, then ignored.
    let greeting = get("greeting", Some(json!({ "who": "Ada" }))).await.expect("prompts/get greeting");
    assert_eq!(greeting.description.as_deref(), Some("A greeting"));
    assert_eq!(greeting.messages.len(), 1);
    assert_eq!(greeting.messages[0].role, Role::User);
    assert_eq!(greeting.messages[0].content.as_text().map(|t| t.text.as_str()), Some("Please greet someone warmly."));

    let mixed = get("mixed", None).await.expect("prompts/get mixed");
    let roles: Vec<Role> = mixed.messages.iter().map(|m| m.role.clone()).collect();
    assert_eq!(roles, [Role::User, Role::Assistant, Role::User]);
    assert!(mixed.description.is_none());
    let text = mixed.messages[0].content.as_text().expect("text first");
    assert_eq!(text.text, "look at this");
    assert_eq!(text.annotations.as_ref().and_then(|a| a.audience.clone()), Some(vec![Role::User]));
    assert!(matches!(mixed.messages[1].content, ContentBlock::Image(_)), "{:?}", mixed.messages[1]);
    assert!(mixed.messages[2].content.as_resource().is_some(), "{:?}", mixed.messages[2]);
    assert_eq!(
        last_result(&served, "prompts/get"),
        json!({ "messages": [
            { "role": "user", "content": { "type": "text", "text": "look at this", "annotations": { "audience": ["user"], "priority": 0.3 } } },
            { "role": "assistant", "content": { "type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png" } },
            { "role": "user", "content": {
                "type": "resource",
                "resource": { "uri": "everything://text", "mimeType": "text/plain", "text": "hello from a resource" },
            } },
        ]})
    );

    let error = rpc_error(get("invalid", None).await);
    assert_eq!(error.code.0, -32602, "{error:?}");
    assert!(error.message.contains("this prompt needs arguments the contract cannot carry"), "{error:?}");

    let error = rpc_error(get("broken", None).await);
    assert_eq!(error.code.0, -32603, "{error:?}");
    assert_eq!(error.message, "prompt store unavailable");

    let error = rpc_error(get("no-such-prompt", None).await);
    assert_eq!(error.code.0, -32602, "{error:?}");
    assert_eq!(error.message, "Unknown prompt: no-such-prompt");
    served.finish().await;
}

// ---------------------------------------------------------------------------
// 10. completion
// ---------------------------------------------------------------------------

fn complete_params(prompt: &str, argument: &str, value: &str) -> CompleteRequestParams {
    CompleteRequestParams::new(Reference::for_prompt(prompt), ArgumentInfo::new(argument, value))
}

#[tokio::test]
async fn completion_lists_values_and_maps_errors() {
    let served = serve_everything().await;
    let complete = |params: CompleteRequestParams| served.client.complete(params);

    let result = complete(complete_params("greeting", "who", "lang-0")).await.expect("complete lang-0");
    let expected: Vec<String> = (0..100).map(|i| format!("lang-{i:03}")).collect();
    assert_eq!(result.completion.values, expected, "the image item is skipped");
    assert_eq!(result.completion.total, Some(100));
    assert_eq!(result.completion.has_more, Some(false));

    let result = complete(complete_params("greeting", "who", "")).await.expect("complete everything");
    assert_eq!(result.completion.values.len(), 100, "at most 100 values");
    assert_eq!(result.completion.values[0], "lang-000");
    assert_eq!(result.completion.total, Some(150));
    assert_eq!(result.completion.has_more, Some(true));
    let raw = last_result(&served, "completion/complete");
    assert_eq!((raw["completion"]["total"].clone(), raw["completion"]["hasMore"].clone()), (json!(150), json!(true)));

    let result = complete(complete_params("greeting", "who", "lang-14")).await.expect("complete lang-14");
    let expected: Vec<String> = (140..150).map(|i| format!("lang-{i}")).collect();
    assert_eq!(result.completion.values, expected);
    assert_eq!(result.completion.total, Some(10));

    // The context reaches the guest.
    let mut params = complete_params("greeting", "who", "lang-1");
    params.context = Some(CompletionContext::with_arguments(HashMap::from([("prefix".into(), "x-".into())])));
    let result = complete(params).await.expect("complete with context");
    assert_eq!(result.completion.values.len(), 50, "lang-100 … lang-149");
    assert!(result.completion.values.iter().all(|v| v.starts_with("x-lang-1")), "{:?}", result.completion.values);

    // Request _meta goes to the guest, which echoes it as the result's _meta.
    let mut meta = RequestMetaObject::new();
    meta.0.0.insert("trace".into(), json!("abc"));
    let mut params = complete_params("greeting", "who", "lang-149");
    params.meta = Some(meta);
    let result = complete(params).await.expect("complete with _meta");
    assert_eq!(result.completion.values, ["lang-149"]);
    let meta = result.meta.expect("_meta echoed");
    assert_eq!(meta.0.get("trace"), Some(&json!("abc")), "{meta:?}");

    for (prompt, argument, code) in [
        ("missing", "who", -32602),
        ("greeting", "bad", -32602),
        ("greeting", "schema", -32602),
        ("greeting", "boom", -32603),
    ] {
        let error = rpc_error(complete(complete_params(prompt, argument, "x")).await);
        assert_eq!(error.code.0, code, "{prompt}/{argument}: {error:?}");
    }
    let error = rpc_error(complete(complete_params("greeting", "boom", "x")).await);
    assert_eq!(error.message, "completion backend down");
    let error = rpc_error(complete(complete_params("greeting", "bad", "x")).await);
    assert_eq!(error.message, "bad argument");
    let error = rpc_error(complete(complete_params("greeting", "schema", "x")).await);
    assert_eq!(error.message, "schema mismatch");
    served.finish().await;

    // Exactly the request's _meta comes back (rmcp adds a progress token to
    // every request, so this is checked on a raw session).
    let mut server = raw_everything("2025-11-25").await;
    let answer = server
        .request(
            1,
            "completion/complete",
            json!({
                "ref": { "type": "ref/prompt", "name": "greeting" },
                "argument": { "name": "who", "value": "lang-14" },
                "_meta": { "trace": "abc" },
            }),
        )
        .await;
    let result = raw_result(&answer);
    assert_eq!(result["_meta"], json!({ "trace": "abc" }), "{answer}");
    assert_eq!(result["completion"]["values"].as_array().map(Vec::len), Some(10), "{answer}");
    assert_eq!(result["completion"]["hasMore"], false, "{answer}");
    // Without _meta there is none in the result.
    let answer = server
        .request(
            2,
            "completion/complete",
            json!({
                "ref": { "type": "ref/prompt", "name": "greeting" },
                "argument": { "name": "who", "value": "lang-149" },
            }),
        )
        .await;
    assert!(raw_result(&answer).get("_meta").is_none(), "{answer}");
    let answer = server
        .request(
            3,
            "completion/complete",
            json!({ "ref": { "type": "ref/prompt", "name": "missing" }, "argument": { "name": "who", "value": "" } }),
        )
        .await;
    raw_error(&answer, -32602);
    server.finish().await;
}

// ---------------------------------------------------------------------------
// 11, 12. logging/setLevel and ping
// ---------------------------------------------------------------------------

#[tokio::test]
async fn set_level_and_ping_answer_empty_results() {
    let served = serve_everything().await;

    #[allow(deprecated)]
    served.client.set_level(SetLevelRequestParams::new(LoggingLevel::Debug)).await.expect("logging/setLevel debug");
    assert_eq!(last_result(&served, "logging/setLevel"), json!({}));

    let invalid = CustomRequest::new("logging/setLevel", Some(json!({ "level": "loud" })));
    let error = rpc_error(served.client.send_request(ClientRequest::CustomRequest(invalid)).await);
    assert_eq!(error.code.0, -32602, "{error:?}");

    let pong = served.client.send_request(ClientRequest::PingRequest(PingRequest::default())).await.expect("ping");
    assert!(matches!(pong, ServerResult::EmptyResult(_)), "{pong:?}");
    assert_eq!(last_result(&served, "ping"), json!({}));
    served.finish().await;

    let mut server = raw_everything("2024-11-05").await;
    let answer = server.request(1, "logging/setLevel", json!({ "level": "debug" })).await;
    assert_eq!(raw_result(&answer), &json!({}));
    let answer = server.request(2, "logging/setLevel", json!({ "level": "loud" })).await;
    raw_error(&answer, -32602);
    let answer = server.request(3, "ping", json!({})).await;
    assert_eq!(raw_result(&answer), &json!({}));
    server.finish().await;
}
