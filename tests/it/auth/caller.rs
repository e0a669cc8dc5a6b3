//! Who calls: what a router or a plugin hears of its caller.

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::fixture_arg;
use support::http::HttpServer;

use super::issuer::{Issuer, Key, claims};
use super::protected::{LEGACY, MODERN, with_token};

/// A router that imports `mcp-wit:extension/caller` hears who calls it: the
/// token's issuer, subject, client and scopes, in both eras; without
/// authorization, no one.
#[tokio::test]
async fn the_router_hears_who_calls_it() {
    hears_its_caller(&fixture_arg("whoami"), "whoami", "anonymous").await;
}

/// An Extism plugin hears its caller too, through the host function
/// `mcp-wit:extension/caller::current` (JSON; `null` without authorization).
#[tokio::test]
async fn a_plugin_hears_who_calls_it() {
    hears_its_caller(&support::plugin_fixture("pdk-plugin").display().to_string(), "caller", "null").await;
}

/// `guest`'s `tool` says who calls it, as JSON: Alice in a 2025 session,
/// Bob in a 2026-07-28 request; `anonymous` on a server without
/// authorization.
async fn hears_its_caller(guest: &str, tool: &str, anonymous: &str) {
    let key = Key::es256("k1");
    let issuer = Issuer::start(vec![key.clone()]).await;
    let server = HttpServer::start(&[guest, "--auth-issuer", &issuer.url]).await;
    let resource = server.url();
    let call = json!({ "name": tool, "arguments": {} });
    let expected = |subject: &str| json!({ "issuer": issuer.url, "subject": subject, "clientId": "test-client", "scopes": ["a", "b"] });
    let said = |response: &Value| -> Value {
        serde_json::from_str(response["result"]["content"][0]["text"].as_str().unwrap()).unwrap()
    };

    let mut alice = with_token(&server, &key.sign(&claims(&issuer, &resource, "alice", "b a")));
    alice.initialize(LEGACY).await;
    let response = alice.request(1, "tools/call", call.clone()).await;
    assert_eq!(said(&response), expected("alice"), "{response}");

    let bob = with_token(&server, &key.sign(&claims(&issuer, &resource, "bob", "a b")));
    let mut params = call.clone();
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "auth-test", "version": "1.0.0" },
    });
    let request = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params });
    let headers = [("mcp-protocol-version", MODERN), ("mcp-method", "tools/call"), ("mcp-name", tool)];
    let reply = bob.post_raw(&headers, request.to_string()).await;
    assert_eq!(said(reply.response()), expected("bob"), "{reply:?}");
    server.stop().await;

    let open = HttpServer::start(&[guest]).await;
    let mut anyone = open.client();
    anyone.initialize(LEGACY).await;
    let response = anyone.request(1, "tools/call", call).await;
    assert_eq!(response["result"]["content"][0]["text"], anonymous, "{response}");
    open.stop().await;
}
