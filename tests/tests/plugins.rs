// Extism plugins served beside components: `plugins/servlet` (an XTP servlet
// on the raw ABI) and `plugins/tools-plugin` (a v1-draft plugin built with
// extism-pdk), over stdio and Streamable HTTP, in both eras, to raw
// requests, the Python SDK client and rmcp's client; and core modules that
// are no MCP plugin (extism-pdk's own `count_vowels.wasm`) refused.

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::http::HttpServer;
use support::peers::{Peer, run_peer};
use support::schema::{self, Revision};
use support::{RawServer, binary, plugin_fixture};

fn path(name: &str) -> String {
    plugin_fixture(name).display().to_string()
}

fn modern(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    params
}

#[tokio::test]
async fn a_servlet_serves_its_tools_over_stdio() {
    let servlet = path("servlet");
    let mut server = RawServer::initialized(&["serve", &servlet, "--env", "GREETING=Hello"], "2025-11-25").await;
    let list = server.request(1, "tools/list", json!({})).await;
    let names: Vec<&str> =
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["echo", "fail", "greet"], "{list}");
    let echo = server.call(2, "echo", json!({ "text": "through the kernel" })).await;
    assert_eq!(support::text(&echo), "through the kernel", "{echo}");
    // A non-zero return is the tool's error, with the message it set.
    let failed = server.call(3, "fail", json!({})).await;
    assert_eq!(failed["result"]["isError"], true, "{failed}");
    assert_eq!(support::text(&failed), "the fail tool failed, as asked");
    // Config from the granted environment; variables kept across the
    // session's calls (one instance per session).
    let first = server.call(4, "greet", json!({})).await;
    let second = server.call(5, "greet", json!({})).await;
    assert_eq!((support::text(&first), support::text(&second)), ("Hello (call 1)", "Hello (call 2)"));
    server.finish().await;

    // 2026-07-28 requests stand alone: each on a fresh instance.
    let mut server = RawServer::start(&["serve", &servlet, "--env", "GREETING=Hi"]);
    for id in [1, 2] {
        let call = json!({ "name": "greet", "arguments": {} });
        let fresh = server.request(id, "tools/call", modern(call)).await;
        assert_eq!(fresh["result"]["resultType"], "complete", "{fresh}");
        assert_eq!(support::text(&fresh), "Hi (call 1)", "a fresh instance: {fresh}");
        schema::check_at(Revision::Modern, "JSONRPCMessage", &fresh).unwrap();
    }
    server.finish().await;
}

#[tokio::test]
async fn sdk_clients_call_a_pdk_plugin_over_http_in_both_eras() {
    let plugin = path("tools-plugin");
    let server = HttpServer::start(&[&plugin]).await;
    for mode in ["auto", "legacy"] {
        let args: Vec<String> =
            ["--mode", mode, "--tool", "reverse", "--args", r#"{"text":"plugin"}"#, "--url", &server.url()]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let run = run_peer(Peer::Python, args).await;
        let report = &run.report;
        let version = if mode == "legacy" { "2025-11-25" } else { "2026-07-28" };
        assert_eq!(report["protocolVersion"], version, "{report}");
        assert_eq!(report["serverInfo"]["name"], "tools_plugin", "{report}");
        assert_eq!(report["call"]["content"][0]["text"], "nigulp", "{report}");
        let revision = if mode == "legacy" { Revision::Legacy } else { Revision::Modern };
        for message in &run.trace {
            schema::check_at(revision, "JSONRPCMessage", message).unwrap();
        }
    }

    // rmcp's client: the tools, a request's context, a failure.
    use rmcp::service::ServiceExt;
    use rmcp::transport::StreamableHttpClientTransport;
    let client = ().serve(StreamableHttpClientTransport::from_uri(server.url())).await.expect("connected");
    let tools = client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["reverse", "whoami", "fail"]);
    let whoami = client.call_tool(support::call("whoami", json!({}))).await.expect("tools/call");
    assert!(!support::text_of(&whoami).is_empty(), "the host gives each request a context.id");
    let failed = client.call_tool(support::call("fail", json!({}))).await.expect("tools/call");
    assert_eq!(failed.is_error, Some(true));
    assert_eq!(support::text_of(&failed), "the fail tool failed, as asked");
    client.cancel().await.expect("the client closes");
    server.stop().await;
}

#[tokio::test]
async fn plugins_and_components_share_one_server() {
    let servlet = path("servlet");
    let echo = support::fixture_arg("echo");
    let mut server = RawServer::initialized(&["serve", &servlet, &echo], "2025-11-25").await;
    let list = server.request(1, "tools/list", json!({})).await;
    let names: Vec<&str> =
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"servlet_echo") && names.contains(&"echo_echo"), "{names:?}");
    let plugin = server.call(2, "servlet_echo", json!({ "text": "from the plugin" })).await;
    let component = server.call(3, "echo_echo", json!({ "text": "from the component" })).await;
    assert_eq!((support::text(&plugin), support::text(&component)), ("from the plugin", "from the component"));
    server.finish().await;
}

#[test]
fn core_modules_that_are_no_mcp_plugin_are_refused() {
    let refused = std::process::Command::new(binary())
        .args(["serve", support::COUNT_VOWELS])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("mcp-wit runs");
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("not an MCP plugin") && stderr.contains("count_vowels"), "{stderr}");
    assert!(stderr.contains("`call` and `describe`"), "says what was expected: {stderr}");
}

#[test]
fn inspect_names_the_kind_of_plugin() {
    for (name, kind) in [("servlet", "Extism servlet"), ("tools-plugin", "Extism v1-draft plugin")] {
        let shown = std::process::Command::new(binary()).args(["inspect", &path(name)]).output().expect("mcp-wit runs");
        let stdout = String::from_utf8_lossy(&shown.stdout);
        assert!(shown.status.success(), "{}", String::from_utf8_lossy(&shown.stderr));
        assert!(stdout.contains(kind), "{stdout}");
    }
}
