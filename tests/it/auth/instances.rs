//! Which instance serves a 2026-07-28 request when callers are told apart.

use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::json;
use support::fixture_arg;
use support::http::{HttpServer, RawClient, Reply};

use super::issuer::{Issuer, Key, claims};
use super::protected::{MODERN, with_token};

/// Tool `name` (no arguments) called in a 2026-07-28 request by `client`.
async fn modern_call(client: &RawClient, id: i64, name: &str) -> Reply {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "instances-test", "version": "1.0.0" },
    });
    let body = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
                       "params": { "name": name, "arguments": {}, "_meta": meta } });
    let headers = [("mcp-protocol-version", MODERN), ("mcp-method", "tools/call"), ("mcp-name", name)];
    client.post_raw(&headers, body.to_string()).await
}

/// The `counter` of a fixture, called in a 2026-07-28 request by `client`:
/// the count its instance has reached.
async fn modern_count(client: &RawClient, id: i64) -> String {
    let reply = modern_call(client, id, "counter").await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let text = &reply.response()["result"]["content"][0]["text"];
    text.as_str().unwrap_or_else(|| panic!("no count: {reply:?}")).to_string()
}

/// Which instance serves a 2026-07-28 request over HTTP: a fresh one by
/// default; with `--instances per-caller` the principal's own, kept across
/// its requests and never another's; with `--max-instance-reuse-count` one
/// handed back, for as many requests as allowed and only to its principal.
/// The guest's own counter tells.
#[tokio::test]
async fn modern_requests_get_the_instances_their_mode_says() {
    let key = Key::es256("k1");
    let issuer = Issuer::start(vec![key.clone()]).await;
    let fixture = fixture_arg("conformance");
    let jwks = format!("{}/jwks", issuer.url);
    let start = |extra: &'static [&'static str]| {
        let mut args =
            vec![fixture.clone(), "--auth-issuer".into(), issuer.url.clone(), "--auth-jwks-url".into(), jwks.clone()];
        args.extend(extra.iter().map(|a| a.to_string()));
        async move { HttpServer::start(&args.iter().map(String::as_str).collect::<Vec<_>>()).await }
    };
    let clients = |server: &HttpServer| {
        let resource = server.url();
        let alice = with_token(server, &key.sign(&claims(&issuer, &resource, "alice", "")));
        let bob = with_token(server, &key.sign(&claims(&issuer, &resource, "bob", "")));
        (alice, bob)
    };

    // The default: every request on a fresh instance.
    let server = start(&[]).await;
    let (alice, _) = clients(&server);
    for id in 1..=3 {
        assert_eq!(modern_count(&alice, id).await, "1", "request {id}");
    }
    server.stop().await;

    // One instance per principal, kept; another principal's is its own.
    let server = start(&["--instances", "per-caller"]).await;
    let (alice, bob) = clients(&server);
    let mut seen = Vec::new();
    for (id, client) in [(1, &alice), (2, &alice), (3, &bob), (4, &alice), (5, &bob)] {
        seen.push(modern_count(client, id).await);
    }
    assert_eq!(seen, ["1", "2", "1", "3", "2"]);
    // A fresh token of the same principal (other scopes) reaches the same instance.
    let again = with_token(&server, &key.sign(&claims(&issuer, &server.url(), "alice", "extra")));
    assert_eq!(modern_count(&again, 6).await, "4");
    server.stop().await;

    // Reuse: an instance serves three requests, then a fresh one takes over;
    // never one of another principal.
    let server = start(&["--max-instance-reuse-count", "3"]).await;
    let (alice, bob) = clients(&server);
    let mut seen = Vec::new();
    for (id, client) in [(1, &alice), (2, &alice), (3, &bob), (4, &alice), (5, &alice), (6, &bob)] {
        seen.push(modern_count(client, id).await);
    }
    assert_eq!(seen, ["1", "2", "1", "3", "1", "2"]);
    server.stop().await;
}

/// `--instances per-caller` needs callers to tell apart.
#[tokio::test]
async fn per_caller_instances_without_authorization_are_refused_with_what_to_do() {
    let echo = fixture_arg("echo");
    for args in [
        vec![echo.as_str(), "--instances", "per-caller"],
        vec![echo.as_str(), "--http", "127.0.0.1:0", "--instances", "per-caller"],
    ] {
        let output = std::process::Command::new(support::binary()).arg("serve").args(&args).output().unwrap();
        assert!(!output.status.success(), "{args:?} started");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("per-caller") && stderr.contains("--auth-issuer"), "{stderr}");
    }
}

/// An instance that trapped is never handed back: the next request gets a
/// fresh one, and the server goes on.
#[tokio::test]
async fn a_faulted_instance_is_never_reused() {
    let hostile = fixture_arg("hostile");
    let server = HttpServer::start(&[hostile.as_str(), "--max-instance-reuse-count", "100"]).await;
    let client = server.client();
    assert_eq!(modern_count(&client, 1).await, "1");
    assert_eq!(modern_count(&client, 2).await, "2", "handed back");
    let trapped = modern_call(&client, 3, "panic").await;
    assert_eq!(trapped.status, StatusCode::OK, "{trapped:?}");
    assert_eq!(trapped.response()["error"]["code"], -32603, "the trap fails its own request: {trapped:?}");
    assert_eq!(modern_count(&client, 4).await, "1", "a fresh instance after the trap");
    assert_eq!(modern_count(&client, 5).await, "2");
    server.stop().await;
}
