//! tools/list, and what becomes of a tool that fails: an error result or a
//! JSON-RPC error, and a trap.

use mcp_wit_tests::support;
use rmcp::model::ProtocolVersion;
use serde_json::{Value, json};
use support::{TOOLS, call, rpc_error, text_of};

use super::everything::{last_result, raw_everything, raw_result, raw_tool, serve_everything, serve_everything_at};

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
