//! Several routers served as one MCP server: prefixed names and URIs,
//! routing, merged capabilities, refused collisions, and faults that stay
//! inside their component.

use mcp_wit_tests::support;
use serde_json::json;
use support::{RawServer, fixture_arg, text};

fn paths() -> (String, String) {
    (fixture_arg("hello"), fixture_arg("everything"))
}

#[tokio::test]
async fn two_routers_are_served_as_one_under_their_prefixes() {
    let (hello, everything) = paths();
    let name = format!("{everything}=ev");
    let mut server = RawServer::start(&["serve", &hello, &everything, "--name", &name]);
    let init = server.request(0, "initialize", support::initialize_params("2025-11-25")).await;
    let result = &init["result"];
    // Named by the prefixes the client sees: two mounts of one router differ.
    assert_eq!(result["serverInfo"]["name"], "hello+ev", "{init}");
    let instructions = result["instructions"].as_str().unwrap();
    assert!(instructions.contains("[hello] A friendly greeter") && instructions.contains("[ev] Exercises"), "{init}");
    // The union: hello offers tools only, everything the rest.
    let caps = &result["capabilities"];
    assert!(caps["tools"].is_object() && caps["prompts"].is_object() && caps["completions"].is_object(), "{caps}");
    assert_eq!(caps["tools"]["listChanged"], true, "{caps}");

    let list = server.request(1, "tools/list", json!({})).await;
    let names: Vec<&str> =
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names[0], "hello_hello");
    assert!(names[1..].iter().all(|n| n.starts_with("ev_")), "{names:?}");
    assert!(names.contains(&"ev_echo"), "{names:?}");

    assert_eq!(text(&server.call(2, "hello_hello", json!({ "name": "Ada" })).await), "Hello, Ada!");
    assert_eq!(text(&server.call(3, "ev_echo", json!({ "text": "routed" })).await), "routed");
    for unknown in ["hello", "echo", "ev_hello", "zz_echo"] {
        let answer = server.call(4, unknown, json!({})).await;
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        assert_eq!(answer["error"]["message"], format!("Unknown tool: {unknown}"), "{answer}");
    }

    let resources = server.request(5, "resources/list", json!({})).await;
    let uris: Vec<&str> =
        resources["result"]["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert_eq!(uris, ["ev+everything://text", "ev+everything://blob", "ev+everything://broken"]);
    let read = server.request(6, "resources/read", json!({ "uri": "ev+everything://text" })).await;
    assert_eq!(read["result"]["contents"][0]["uri"], "ev+everything://text", "{read}");
    assert_eq!(read["result"]["contents"][0]["text"], "hello from a resource", "{read}");
    let missing = server.request(7, "resources/read", json!({ "uri": "everything://text" })).await;
    assert_eq!(missing["error"]["code"], -32002, "{missing}");

    let prompts = server.request(8, "prompts/list", json!({})).await;
    assert_eq!(prompts["result"]["prompts"][0]["name"], "ev_greeting", "{prompts}");
    let prompt = server.request(9, "prompts/get", json!({ "name": "ev_greeting" })).await;
    assert_eq!(prompt["result"]["description"], "A greeting", "{prompt}");

    let completion = server
        .request(
            10,
            "completion/complete",
            json!({ "ref": { "type": "ref/prompt", "name": "ev_greeting" }, "argument": { "name": "who", "value": "lang-14" } }),
        )
        .await;
    assert_eq!(completion["result"]["completion"]["values"].as_array().unwrap().len(), 10, "{completion}");
    server.finish().await;
}

#[tokio::test]
async fn a_fault_in_one_router_leaves_the_other_untouched() {
    let (hello, everything) = paths();
    let mut server = RawServer::start(&["serve", &everything, &hello]);
    server.request(0, "initialize", support::initialize_params("2025-11-25")).await;
    assert_eq!(text(&server.call(1, "everything_counter", json!({})).await), "1");
    let answer = server.call(2, "everything_panic", json!({})).await;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    assert_eq!(text(&server.call(3, "hello_hello", json!({ "name": "still" })).await), "Hello, still!");
    assert_eq!(text(&server.call(4, "everything_counter", json!({})).await), "1", "a fresh instance");
    server.finish().await;
}

#[test]
fn a_prefix_collision_is_refused_naming_both_components() {
    let (_, everything) = paths();
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy.wasm");
    std::fs::copy(&everything, &copy).unwrap();
    let output = std::process::Command::new(support::binary())
        .args(["serve", &everything, copy.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("everything.wasm") && stderr.contains("copy.wasm"), "{stderr}");
    assert!(stderr.contains("prefix `everything`") && stderr.contains("--name"), "{stderr}");
}

#[tokio::test]
async fn a_routers_resource_updates_reach_clients_under_its_prefix() {
    let (hello, conformance) = (fixture_arg("hello"), fixture_arg("conformance"));
    let name = format!("{conformance}=conf");
    let mut server = RawServer::start(&["serve", &hello, &conformance, "--name", &name]);
    server.request(0, "initialize", support::initialize_params("2025-11-25")).await;
    let uri = "conf+test://watched-resource";
    let subscribed = server.request(1, "resources/subscribe", json!({ "uri": uri })).await;
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");
    // The router names the resource as it knows it; the client hears of it
    // by the URI it subscribed to, before the call's answer.
    let call = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "conf_test_update_resource", "arguments": { "uri": "test://watched-resource" } } });
    server.send(&call.to_string()).await;
    let update = server.receive().await;
    assert_eq!(
        update,
        json!({ "jsonrpc": "2.0", "method": "notifications/resources/updated", "params": { "uri": uri } })
    );
    assert_eq!(text(&server.receive().await), "Resource update announced");
    server.finish().await;
}
