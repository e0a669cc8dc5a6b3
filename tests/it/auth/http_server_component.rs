//! Components that serve MCP themselves over `wasi:http` (a router wrapped
//! by `mcp-wit wrap`, and an rmcp server in a WASIp3 handler), served
//! natively behind the host's authorization: the component never sees a
//! request the host did not let through.

use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::json;
use support::engines::wrapped;
use support::http::HttpServer;

use super::issuer::{Issuer, Key, claims};
use super::protected::{LEGACY, MODERN, echo_call, initialize_body, with_token};

#[tokio::test]
async fn a_wrapped_router_served_natively_takes_the_servers_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let component = dir.path().join("echo-server.wasm");
    std::fs::write(&component, wrapped("echo")).unwrap();
    takes_the_servers_tokens(component.to_str().unwrap()).await;
}

#[tokio::test]
async fn an_rmcp_server_in_a_wasip3_handler_takes_the_servers_tokens() {
    takes_the_servers_tokens(&support::fixture_arg("rmcp_http_server")).await;
}

/// Serves `component` (its `echo` says `text` back) behind an issuer's
/// tokens: refused without one or with another resource's, reached in
/// both eras with a valid one.
async fn takes_the_servers_tokens(component: &str) {
    let key = Key::es256("k1");
    let issuer = Issuer::start(vec![key.clone()]).await;
    let args = [component, "--auth-issuer", &issuer.url, "--auth-keys-cooldown", "1ms"];
    let server = HttpServer::start(&args).await;
    let resource = server.url();

    // No token: refused before the component is reached.
    let reply = server.client().post_raw(&[], initialize_body()).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");

    // A valid token: a 2025 session and a 2026-07-28 request both reach it.
    let token = key.sign(&claims(&issuer, &resource, "alice", ""));
    let mut client = with_token(&server, &token);
    client.initialize(LEGACY).await;
    let reply = client.post(echo_call(1)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(reply.response()["result"]["content"][0]["text"], "hi", "{reply:?}");

    let stateless = with_token(&server, &token);
    let call = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "echo", "arguments": { "text": "stateless" },
        "_meta": { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} }
    }});
    let headers = [("mcp-protocol-version", MODERN), ("mcp-method", "tools/call"), ("mcp-name", "echo")];
    let reply = stateless.post_raw(&headers, call.to_string()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(reply.response()["result"]["content"][0]["text"], "stateless", "{reply:?}");

    // A token for another resource: refused.
    let other = key.sign(&claims(&issuer, "http://127.0.0.1:1/mcp", "alice", ""));
    let reply = with_token(&server, &other).post_raw(&[], initialize_body()).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");
    server.stop().await;
}
