//! The same resource server where each request is an instance of its own: a
//! router wrapped by `mcp-wit wrap` on `wasmtime serve` and on wasmCloud.

use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::engines::{WasmtimeServe, free_port, wash_dev, wrapped};
use support::http::{RawClient, Reply};

use super::authorization_server::AuthorizationServer;
use super::issuer::{Issuer, Key, claims, get_json};
use super::protected::{LEGACY, MODERN, challenge, param};
use super::resource_server::hostile_tokens;

/// `whoami` wrapped by `mcp-wit wrap` on the real `wasmtime serve`, with
/// `env` beside the settings that make the adapter a resource server for
/// `issuer` with the keys `jwks`; its resource identifier is its own URL.
fn wrapped_and_protected(issuer: &str, jwks: &Value, env: &[(&str, &str)]) -> (WasmtimeServe, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let component = dir.path().join("server.wasm");
    std::fs::write(&component, wrapped("whoami")).unwrap();
    let port = free_port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let jwks = jwks.to_string();
    let mut all = vec![
        ("MCP_WIT_AUTH_ISSUERS", issuer),
        ("MCP_WIT_AUTH_RESOURCE", resource.as_str()),
        ("MCP_WIT_AUTH_JWKS", jwks.as_str()),
    ];
    all.extend(env);
    let server = WasmtimeServe::start(&component, &format!("127.0.0.1:{port}"), &all);
    assert_eq!(server.url, resource);
    (server, dir)
}

/// A stateless client of a wrapped router: every request on its own.
fn stateless(url: &str, token: Option<&str>) -> RawClient {
    let mut client = RawClient::new(url.to_string());
    client.version = Some(LEGACY.into());
    client.token = token.map(str::to_string);
    client
}

fn whoami_call(id: i64) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": "whoami", "arguments": {} } })
}

/// The same resource server where each request is an instance of its own:
/// the adapter (`mcp-wit wrap`) on the real `wasmtime serve`, its keys in
/// its settings. The wire, the hostile tokens, per-tool scopes, the caller
/// reaching the router in both eras, and settings that cannot work.
#[tokio::test]
async fn a_wrapped_router_on_wasmtime_serve_is_a_resource_server_too() {
    let (key, rsa) = (Key::es256("k1"), Key::rs256("r1"));
    // The issuer's URL names it; the adapter never fetches from it.
    let issuer = Issuer::start(vec![]).await;
    let jwks = json!({ "keys": [key.jwk, rsa.jwk] });
    let env = [("MCP_WIT_AUTH_SCOPES", "mcp"), ("MCP_WIT_AUTH_TOOL_SCOPES", "who*=who:read")];
    let (server, _dir) = wrapped_and_protected(&issuer.url, &jwks, &env);
    let resource = server.url.clone();

    // The metadata, at both well-known URIs.
    let metadata_url = server.at("/.well-known/oauth-protected-resource/mcp");
    for url in [metadata_url.clone(), server.at("/.well-known/oauth-protected-resource")] {
        let document = get_json(&url).await;
        assert_eq!(
            document,
            json!({
                "resource": resource,
                "authorization_servers": [issuer.url],
                "scopes_supported": ["mcp", "who:read"],
                "bearer_methods_supported": ["header"],
            }),
            "{url}"
        );
    }

    // No token: 401 pointing at the metadata; a token in the query: 400.
    let anonymous = stateless(&resource, None);
    let reply = anonymous.post(whoami_call(1)).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");
    let params = challenge(&reply);
    assert_eq!(param(&params, "resource_metadata"), Some(metadata_url.as_str()), "{params:?}");
    assert_eq!(param(&params, "scope"), Some("mcp"), "{params:?}");
    assert_eq!(param(&params, "error"), None, "{params:?}");
    let good = claims(&issuer, &resource, "alice", "mcp who:read");
    let in_query = anonymous
        .read(
            anonymous
                .http
                .post(format!("{resource}?access_token={}", key.sign(&good)))
                .headers(anonymous.default_headers())
                .body(whoami_call(1).to_string()),
        )
        .await;
    assert_eq!(in_query.status, StatusCode::BAD_REQUEST, "{in_query:?}");
    assert_eq!(param(&challenge(&in_query), "error"), Some("invalid_request"), "{in_query:?}");

    // Hostile tokens, and a key id the settings do not hold.
    let mut cases = hostile_tokens(&rsa, &good);
    cases.push(("a key id not held", Key::es256("elsewhere").sign(&good)));
    for (what, token) in &cases {
        let reply = stateless(&resource, Some(token)).post(whoami_call(2)).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{what}: {reply:?}");
        assert_eq!(param(&challenge(&reply), "error"), Some("invalid_token"), "{what}: {reply:?}");
    }

    // The server's scope alone lists tools, but `whoami` needs `who:read`.
    let unscoped = stateless(&resource, Some(&key.sign(&claims(&issuer, &resource, "alice", "mcp"))));
    let listed = unscoped.post(json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/list" })).await;
    assert_eq!(listed.status, StatusCode::OK, "{listed:?}");
    let reply = unscoped.post(whoami_call(4)).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{reply:?}");
    let params = challenge(&reply);
    assert_eq!(param(&params, "error"), Some("insufficient_scope"), "{params:?}");
    assert_eq!(param(&params, "scope"), Some("mcp who:read"), "{params:?}");

    // The right tokens: the router hears its caller, in both eras.
    let said = |reply: &Reply| -> Value {
        serde_json::from_str(reply.response()["result"]["content"][0]["text"].as_str().unwrap()).unwrap()
    };
    let reply = stateless(&resource, Some(&key.sign(&good))).post(whoami_call(5)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(
        said(&reply),
        json!({ "issuer": issuer.url, "subject": "alice", "clientId": "test-client", "scopes": ["mcp", "who:read"] })
    );
    let bob = stateless(&resource, Some(&rsa.sign(&claims(&issuer, &resource, "bob", "who:read mcp"))));
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "auth-test", "version": "1.0.0" },
    });
    let mut call = whoami_call(6);
    call["params"]["_meta"] = meta.clone();
    let headers = [("mcp-protocol-version", MODERN), ("mcp-method", "tools/call"), ("mcp-name", "whoami")];
    let reply = bob.post_raw(&headers, call.to_string()).await;
    assert_eq!(said(&reply)["subject"], "bob", "{reply:?}");
    // A cacheable result says it is the caller's alone.
    let list = json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": { "_meta": meta } });
    let listed =
        bob.post_raw(&[("mcp-protocol-version", MODERN), ("mcp-method", "tools/list")], list.to_string()).await;
    assert_eq!(listed.response()["result"]["cacheScope"], "private", "{listed:?}");
    drop(server);

    // Authorization asked for without keys: every request refused, saying
    // what to set, rather than served without.
    let dir = tempfile::tempdir().unwrap();
    let component = dir.path().join("server.wasm");
    std::fs::write(&component, wrapped("whoami")).unwrap();
    let keyless = WasmtimeServe::start(
        &component,
        "127.0.0.1:0",
        &[("MCP_WIT_AUTH_ISSUERS", issuer.url.as_str()), ("MCP_WIT_AUTH_RESOURCE", "https://mcp.example.com/mcp")],
    );
    let reply = stateless(&keyless.url, Some(&key.sign(&good))).post(whoami_call(8)).await;
    assert_eq!(reply.status, StatusCode::INTERNAL_SERVER_ERROR, "{reply:?}");
    assert!(reply.body.contains("MCP_WIT_AUTH_JWKS"), "{reply:?}");
    drop(keyless);

    // The keys in a file the engine mounts; a file that is not there is
    // named in the refusal.
    let keys = dir.path().join("keys");
    std::fs::create_dir(&keys).unwrap();
    std::fs::write(keys.join("jwks.json"), jwks.to_string()).unwrap();
    let mount = format!("{}::/keys", keys.display());
    let resource = "https://mcp.example.com/mcp";
    for (file, expected) in
        [("/keys/jwks.json", StatusCode::OK), ("/keys/missing.json", StatusCode::INTERNAL_SERVER_ERROR)]
    {
        let env = [
            ("MCP_WIT_AUTH_ISSUERS", issuer.url.as_str()),
            ("MCP_WIT_AUTH_RESOURCE", resource),
            ("MCP_WIT_AUTH_JWKS_FILE", file),
        ];
        let server = WasmtimeServe::start_with(&component, "127.0.0.1:0", &env, &["--dir", &mount]);
        let token = key.sign(&claims(&issuer, resource, "alice", ""));
        let reply = stateless(&server.url, Some(&token)).post(whoami_call(9)).await;
        assert_eq!(reply.status, expected, "{file}: {reply:?}");
        if expected != StatusCode::OK {
            assert!(reply.body.contains(file), "{reply:?}");
        }
    }
}

/// The same settings as wasmCloud configuration (`wash dev`): the wrapped
/// router refuses a request without a token and hears who sent one.
#[tokio::test]
async fn a_wrapped_router_on_wasmcloud_takes_the_same_settings() {
    let key = Key::es256("k1");
    let issuer = Issuer::start(vec![]).await;
    let resource = "https://mcp.example.com/mcp";
    let jwks = json!({ "keys": [key.jwk] }).to_string();
    let env = [
        ("MCP_WIT_AUTH_ISSUERS", issuer.url.as_str()),
        ("MCP_WIT_AUTH_RESOURCE", resource),
        ("MCP_WIT_AUTH_JWKS", jwks.as_str()),
    ];
    let (mut wash, url, _project) = wash_dev(&wrapped("whoami"), &env);
    let reply = stateless(&url, None).post(whoami_call(1)).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");
    let expected_metadata = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
    assert_eq!(param(&challenge(&reply), "resource_metadata"), Some(expected_metadata), "{reply:?}");
    let token = key.sign(&claims(&issuer, resource, "carol", ""));
    let reply = stateless(&url, Some(&token)).post(whoami_call(2)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let said: Value = serde_json::from_str(reply.response()["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(said["subject"], "carol", "{reply:?}");
    wash.kill().unwrap();
    wash.wait().unwrap();
}

/// The Python SDK's OAuth client against a wrapped router on `wasmtime
/// serve`, the keys of a real authorization server in its settings:
/// discovery from the 401, registration, PKCE, the call, step-up from the
/// 403, refresh, in both eras.
#[tokio::test]
async fn the_python_sdk_signs_in_to_a_wrapped_router_on_wasmtime_serve() {
    let authorization_server = AuthorizationServer::start("mcp who:read").await;
    let issuer = &authorization_server.issuer;
    // The keys it signs with, handed to the engine as a deployment would.
    let metadata = get_json(&format!("{issuer}/.well-known/oauth-authorization-server")).await;
    let jwks = get_json(metadata["jwks_uri"].as_str().unwrap()).await;
    let env = [("MCP_WIT_AUTH_SCOPES", "mcp"), ("MCP_WIT_AUTH_TOOL_SCOPES", "whoami=who:read")];
    let (server, _dir) = wrapped_and_protected(issuer, &jwks, &env);
    for mode in ["legacy", MODERN] {
        let (run, events) = authorization_server.sign_in(&server.url, "whoami", "{}", mode, String::new).await;
        for call in ["first", "second"] {
            assert_eq!(run[call]["isError"], false, "{run}");
            let said: Value = serde_json::from_str(run[call]["text"].as_str().unwrap()).unwrap();
            assert_eq!(said["issuer"], issuer.trim_end_matches('/'), "{run}");
            assert_eq!(said["scopes"], json!(["mcp", "who:read"]), "{run}");
        }
        assert_eq!(
            run["authorizations"],
            json!([
                { "scope": "mcp", "resource": server.url },
                { "scope": "mcp who:read", "resource": server.url },
            ]),
            "{run}"
        );
        let grants: Vec<Option<&str>> =
            events.iter().filter(|e| e["event"] == "token").map(|e| e["grant"].as_str()).collect();
        assert_eq!(
            grants,
            [Some("authorization_code"), Some("authorization_code"), Some("refresh_token")],
            "{mode}: {events:?}"
        );
    }
}
