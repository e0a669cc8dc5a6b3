// Components that serve MCP themselves over `wasi:http`, the host their
// client: what `mcp-wit wrap` writes (`wasi:http/incoming-handler@0.2`),
// served by `mcp-wit serve` again, and `components/rmcp-http-server`, an
// rmcp server in a WASIp3 handler (`wasi:http/handler@0.3`) built as the
// Cosmonic template builds one, which knows nothing of mcp-wit. Over stdio
// and Streamable HTTP, in both eras, to raw requests and the SDK clients; a
// fresh instance per request opens the component's session each time; a
// trap inside it is the usual trap.

use mcp_wit_tests::support;
use serde_json::json;
use support::engines::{modern, wrapped};
use support::http::HttpServer;
use support::peers::{Over, Peer, call_checked};
use support::schema::{self, Revision};
use support::{RawServer, binary};

/// `router` wrapped by `mcp-wit wrap`, written into `dir`.
fn wrapped_file(dir: &tempfile::TempDir, router: &str) -> String {
    let path = dir.path().join(format!("{router}-server.wasm"));
    std::fs::write(&path, wrapped(router)).unwrap();
    path.display().to_string()
}

#[tokio::test]
async fn a_wrapped_router_is_served_again_over_stdio_in_both_eras() {
    let dir = tempfile::tempdir().unwrap();
    let server_wasm = wrapped_file(&dir, "everything");
    let inspected = std::process::Command::new(binary()).args(["inspect", &server_wasm]).output().unwrap();
    let printed = String::from_utf8_lossy(&inspected.stdout);
    assert!(printed.contains("MCP server over wasi:http"), "{printed}");

    let mut server = RawServer::initialized(&["serve", &server_wasm], "2025-11-25").await;
    let list = server.request(1, "tools/list", json!({})).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &list).unwrap();
    let names: Vec<&str> =
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"echo"), "{list}");
    let echo = server.call(2, "echo", json!({ "text": "twice served" })).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &echo).unwrap();
    assert_eq!(support::text(&echo), "twice served", "{echo}");
    // Resources and prompts reach the component as MCP too.
    let resources = server.request(3, "resources/list", json!({})).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &resources).unwrap();
    let prompts = server.request(4, "prompts/list", json!({})).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &prompts).unwrap();
    assert!(
        resources["result"]["resources"].is_array() && prompts["result"]["prompts"].is_array(),
        "{resources} {prompts}"
    );
    server.finish().await;

    // A 2026-07-28 client: the host opens the component's session for it.
    let mut server = RawServer::start(&["serve", &server_wasm]);
    let call =
        server.request(1, "tools/call", modern(json!({ "name": "echo", "arguments": { "text": "modern" } }))).await;
    schema::check_at(Revision::Modern, "JSONRPCMessage", &call).unwrap();
    assert_eq!(call["result"]["resultType"], "complete", "{call}");
    assert_eq!(support::text(&call), "modern", "{call}");
    server.finish().await;
}

#[tokio::test]
async fn sdk_clients_reach_a_wrapped_router_over_http_with_an_instance_per_request() {
    let dir = tempfile::tempdir().unwrap();
    let server_wasm = wrapped_file(&dir, "echo");
    for instances in ["per-session", "per-request"] {
        let server = HttpServer::start(&[&server_wasm, "--instances", instances]).await;
        for peer in [Peer::Python, Peer::TypeScript] {
            for mode in ["auto", "legacy"] {
                let text = r#"{"text":"through two hosts"}"#;
                let report = call_checked(peer, mode, Over::Http(&server.url()), "echo", text).await;
                assert_eq!(report["serverInfo"]["name"], "echo", "{instances} {report}");
                assert_eq!(report["call"]["content"][0]["text"], "through two hosts", "{instances} {report}");
            }
        }
        server.stop().await;
    }
}

#[tokio::test]
async fn a_trap_in_the_served_component_is_the_usual_trap_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let server_wasm = wrapped_file(&dir, "hostile");
    let mut server = RawServer::initialized(&["serve", &server_wasm, "--timeout", "2s"], "2025-11-25").await;
    let panicked = server.call(1, "panic", json!({})).await;
    assert_eq!(support::error_code(&panicked), -32603, "{panicked}");
    let after = server.request(2, "tools/list", json!({})).await;
    assert!(after["result"]["tools"].is_array(), "{after}");
    server.finish().await;
}

#[tokio::test]
async fn an_rmcp_server_in_a_wasip3_handler_is_served_over_stdio_in_both_eras() {
    let server_wasm = support::fixture_arg("rmcp_http_server");
    let inspected = std::process::Command::new(binary()).args(["inspect", &server_wasm]).output().unwrap();
    let printed = String::from_utf8_lossy(&inspected.stdout);
    assert!(printed.contains("wasi:http/handler@0.3"), "{printed}");
    assert!(printed.contains("rmcp-calculator"), "{printed}");

    let mut server = RawServer::initialized(&["serve", &server_wasm], "2025-11-25").await;
    let list = server.request(1, "tools/list", json!({})).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &list).unwrap();
    let mut names: Vec<&str> =
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(names, ["add", "echo", "fail", "show_sum"], "{list}");
    let echo = server.call(2, "echo", json!({ "text": "from p3" })).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &echo).unwrap();
    assert_eq!(support::text(&echo), "from p3", "{echo}");
    let sum = server.call(3, "add", json!({ "a": 2, "b": 3.5 })).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &sum).unwrap();
    assert_eq!(sum["result"]["structuredContent"], json!({ "sum": 5.5 }), "{sum}");
    let failed = server.call(4, "fail", json!({})).await;
    assert_eq!(failed["result"]["isError"], true, "{failed}");
    assert_eq!(support::text(&failed), "it failed, as asked", "{failed}");
    // The host checks arguments against the schema the component listed.
    let wrong = server.call(5, "add", json!({ "a": 2 })).await;
    assert_eq!(wrong["result"]["isError"], true, "{wrong}");
    assert!(support::text(&wrong).contains("Invalid arguments for tool `add`: \"b\" is a required"), "{wrong}");
    server.finish().await;

    let mut server = RawServer::start(&["serve", &server_wasm]);
    let call = server.request(1, "tools/call", modern(json!({ "name": "add", "arguments": { "a": 1, "b": 1 } }))).await;
    schema::check_at(Revision::Modern, "JSONRPCMessage", &call).unwrap();
    assert_eq!(call["result"]["resultType"], "complete", "{call}");
    assert_eq!(call["result"]["structuredContent"]["sum"], 2.0, "{call}");
    server.finish().await;
}

#[tokio::test]
async fn sdk_clients_reach_an_rmcp_server_in_a_wasip3_handler_over_http() {
    let server_wasm = support::fixture_arg("rmcp_http_server");
    for instances in ["per-session", "per-request"] {
        let server = HttpServer::start(&[&server_wasm, "--instances", instances]).await;
        for peer in [Peer::Python, Peer::TypeScript] {
            for mode in ["auto", "legacy"] {
                let text = r#"{"text":"through rmcp"}"#;
                let report = call_checked(peer, mode, Over::Http(&server.url()), "echo", text).await;
                assert_eq!(report["serverInfo"]["name"], "rmcp-calculator", "{instances} {report}");
                assert_eq!(report["call"]["content"][0]["text"], "through rmcp", "{instances} {report}");
            }
        }
        server.stop().await;
    }
}

#[test]
fn a_wasip3_handler_compiled_ahead_of_time_is_served_from_its_cwasm() {
    let dir = tempfile::tempdir().unwrap();
    let cwasm = dir.path().join("rmcp.cwasm");
    let compiled = std::process::Command::new(binary())
        .args(["compile", &support::fixture_arg("rmcp_http_server"), "-o", cwasm.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(compiled.status.success(), "{}", String::from_utf8_lossy(&compiled.stderr));
    let called = std::process::Command::new(binary())
        .args(["call", cwasm.to_str().unwrap(), "add", "--args", r#"{"a":40,"b":2}"#])
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&called.stdout);
    assert!(called.status.success(), "{printed} {}", String::from_utf8_lossy(&called.stderr));
    let result: serde_json::Value = serde_json::from_str(&printed).unwrap();
    assert_eq!(result["structuredContent"]["sum"], 42.0, "{result}");
}
