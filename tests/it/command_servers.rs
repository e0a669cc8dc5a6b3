// Commands that serve MCP themselves over stdin and stdout (they export
// `wasi:cli/run`, as any stdio server built for `wasm32-wasip2` does):
// `components/stdio-server`, an MCP server that knows nothing of mcp-wit,
// and `components/rmcp-stdio-server`, one written with rmcp.
// One `run` per instance, kept for a session; its stderr in the guest
// output; an exit, a trap or a call past its deadline ends the instance
// and the next request gets a fresh one; both transports and eras, and the
// SDK clients.

use mcp_wit_tests::support;
use serde_json::json;
use support::engines::modern;
use support::http::HttpServer;
use support::peers::{Over, Peer, call_checked};
use support::schema::{self, Revision};
use support::{RawServer, binary};

#[tokio::test]
async fn a_stdio_server_keeps_its_run_for_a_session_and_a_fresh_one_after_it_ends() {
    let server_wasm = support::fixture_arg("stdio_server");
    let inspected = std::process::Command::new(binary()).args(["inspect", &server_wasm]).output().unwrap();
    let printed = String::from_utf8_lossy(&inspected.stdout);
    assert!(printed.contains("MCP server over stdio (a wasi:cli/run command)"), "{printed}");

    let mut server = RawServer::initialized(&["serve", &server_wasm, "--timeout", "2s"], "2025-11-25").await;
    let list = server.request(1, "tools/list", json!({})).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &list).unwrap();
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 5, "{list}");
    // One `run` for the session: its count goes on from call to call.
    for (id, expected) in [(2, "1"), (3, "2"), (4, "3")] {
        let counted = server.call(id, "count", json!({})).await;
        schema::check_at(Revision::Legacy, "JSONRPCMessage", &counted).unwrap();
        assert_eq!(support::text(&counted), expected, "{counted}");
    }
    // It exits: this call fails, the next gets a fresh `run`.
    let exited = server.call(5, "exit", json!({})).await;
    assert_eq!(support::error_code(&exited), -32603, "{exited}");
    assert!(support::error_message(&exited).contains("exit status"), "{exited}");
    assert_eq!(support::text(&server.call(6, "count", json!({})).await), "1");
    // A panic and a call past its deadline alike.
    let panicked = server.call(7, "panic", json!({})).await;
    assert!(support::error_message(&panicked).contains("asked to panic"), "{panicked}");
    let spun = server.call(8, "spin", json!({})).await;
    assert_eq!(support::error_code(&spun), -32603, "{spun}");
    assert!(support::error_message(&spun).contains("did not answer within 2s"), "{spun}");
    let after = server.call(9, "echo", json!({ "text": "after all that" })).await;
    assert_eq!(support::text(&after), "after all that", "{after}");
    let unknown = server.call(10, "nope", json!({})).await;
    assert_eq!(unknown["result"]["isError"], true, "{unknown}");
    server.finish_and_wait_for_stderr().await;
    // Its stderr is the guest output, under its name.
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(stderr.contains("[stdio_server:stderr] stdio-server: tools/call"), "{stderr}");
    // Each instance, its `run` on a fiber, came from the pool over stdio
    // too, not from a second engine made once the pool refused it.
    assert!(!stderr.contains("the instance pool is full"), "{stderr}");

    // A 2026-07-28 client: the host opens the command's session for it.
    let mut server = RawServer::start(&["serve", &server_wasm]);
    let call =
        server.request(1, "tools/call", modern(json!({ "name": "echo", "arguments": { "text": "modern" } }))).await;
    schema::check_at(Revision::Modern, "JSONRPCMessage", &call).unwrap();
    assert_eq!(call["result"]["resultType"], "complete", "{call}");
    assert_eq!(support::text(&call), "modern", "{call}");
    server.finish().await;
}

#[tokio::test]
async fn over_stdio_the_session_is_served_by_the_instance_its_start_up_check_made() {
    let server_wasm = support::fixture_arg("stdio_server");
    let mut server = RawServer::initialized(&["serve", &server_wasm], "2025-11-25").await;
    assert_eq!(support::text(&server.call(1, "count", json!({})).await), "1");
    server.finish_and_wait_for_stderr().await;
    let stderr = server.stderr.lock().unwrap().clone();
    // The check listed the tools of the instance the session then called:
    // one `run`, one handshake, where there were two of each.
    assert!(stderr.contains("[stdio_server:stderr] stdio-server: tools/list"), "{stderr}");
    assert_eq!(stderr.matches("stdio-server: initialize").count(), 1, "{stderr}");
}

#[tokio::test]
async fn sdk_clients_reach_a_stdio_server_over_stdio_and_http_in_both_eras() {
    let server_wasm = support::fixture_arg("stdio_server");
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let report =
            call_checked(Peer::Python, mode, Over::Stdio(&[&server_wasm]), "echo", r#"{"text":"over stdio"}"#).await;
        assert_eq!(report["protocolVersion"], version, "{report}");
        assert_eq!(report["call"]["content"][0]["text"], "over stdio", "{report}");
    }
    let server = HttpServer::start(&[&server_wasm]).await;
    for peer in [Peer::Python, Peer::TypeScript] {
        for mode in ["auto", "legacy"] {
            let report = call_checked(peer, mode, Over::Http(&server.url()), "echo", r#"{"text":"over HTTP"}"#).await;
            assert_eq!(report["serverInfo"]["name"], "stdio-server", "{report}");
            assert_eq!(report["call"]["content"][0]["text"], "over HTTP", "{report}");
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn a_server_of_2026_07_28_alone_is_reached_by_clients_of_both_eras() {
    let server_wasm = support::fixture_arg("stdio_server");
    // A 2025 client: the host finds the component refuses `initialize`,
    // discovers it, and sends it requests that stand alone.
    let args = ["serve", server_wasm.as_str(), "--env", "MODERN_ONLY=1"];
    let mut server = RawServer::start(&args);
    let opened = server.request(0, "initialize", support::initialize_params("2025-11-25")).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &opened).unwrap();
    // What it said of itself in `server/discover`.
    assert_eq!(opened["result"]["serverInfo"]["name"], "stdio-server-modern", "{opened}");
    assert_eq!(opened["result"]["instructions"], "Counts and echoes over stdio, 2026-07-28 only.", "{opened}");
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    let echo = server.call(1, "echo", json!({ "text": "from 2025" })).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &echo).unwrap();
    assert_eq!(support::text(&echo), "from 2025", "{echo}");
    let counted = server.call(2, "count", json!({})).await;
    assert_eq!(support::text(&counted), "1", "{counted}");
    server.finish().await;

    let mut server = RawServer::start(&args);
    let call =
        server.request(1, "tools/call", modern(json!({ "name": "echo", "arguments": { "text": "from 2026" } }))).await;
    schema::check_at(Revision::Modern, "JSONRPCMessage", &call).unwrap();
    assert_eq!(support::text(&call), "from 2026", "{call}");
    server.finish().await;
}

#[tokio::test]
async fn an_rmcp_stdio_server_is_served_over_stdio_and_http_in_both_eras() {
    let server_wasm = support::fixture_arg("rmcp_stdio_server");
    let mut server = RawServer::initialized(&["serve", &server_wasm], "2025-11-25").await;
    let list = server.request(1, "tools/list", json!({})).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &list).unwrap();
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 4, "{list}");
    // One rmcp session for the client's: it answers call after call.
    for id in 2..5 {
        let sum = server.call(id, "add", json!({ "a": id, "b": 0.5 })).await;
        schema::check_at(Revision::Legacy, "JSONRPCMessage", &sum).unwrap();
        assert_eq!(sum["result"]["structuredContent"]["sum"], id as f64 + 0.5, "{sum}");
    }
    let failed = server.call(5, "fail", json!({})).await;
    assert_eq!(failed["result"]["isError"], true, "{failed}");
    server.finish().await;

    let mut server = RawServer::start(&["serve", &server_wasm]);
    let call =
        server.request(1, "tools/call", modern(json!({ "name": "echo", "arguments": { "text": "modern" } }))).await;
    schema::check_at(Revision::Modern, "JSONRPCMessage", &call).unwrap();
    assert_eq!(support::text(&call), "modern", "{call}");
    server.finish().await;

    let server = HttpServer::start(&[&server_wasm]).await;
    for peer in [Peer::Python, Peer::TypeScript] {
        for mode in ["auto", "legacy"] {
            let report = call_checked(peer, mode, Over::Http(&server.url()), "echo", r#"{"text":"via rmcp"}"#).await;
            assert_eq!(report["serverInfo"]["name"], "rmcp-calculator", "{report}");
            assert_eq!(report["call"]["content"][0]["text"], "via rmcp", "{report}");
        }
    }
    server.stop().await;
}
