//! `mcp-wit serve --auth-issuer …` as a resource server: the metadata, the
//! challenges, hostile tokens, sessions and scopes, keys that cannot be
//! fetched, settings that cannot work, and the same from mcp-wit.toml.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::fixture_arg;
use support::http::HttpServer;

use super::issuer::{Issuer, Key, Serving, claims, get_json, now, rsa_pem};
use super::protected::{LEGACY, MODERN, challenge, echo_call, initialize_body, param, protected, with_token};

#[tokio::test]
async fn metadata_challenges_and_a_valid_token_follow_the_spec() {
    let key = Key::es256("k1");
    let issuer = Issuer::start(vec![key.clone()]).await;
    let server = protected(&issuer, &["--auth-scope", "mcp:use"]).await;
    let resource = server.url();

    // No token: 401 pointing at the metadata, with the scope to ask for.
    let anonymous = server.client();
    let reply = anonymous.post_raw(&[], initialize_body()).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");
    let params = challenge(&reply);
    let metadata_url = server.at("/.well-known/oauth-protected-resource/mcp");
    assert_eq!(param(&params, "resource_metadata"), Some(metadata_url.as_str()), "{params:?}");
    assert_eq!(param(&params, "scope"), Some("mcp:use"), "{params:?}");
    assert_eq!(param(&params, "error"), None, "no error code without credentials (RFC 6750 §3.1)");

    // The metadata, at the path-suffixed and at the root well-known URI.
    for url in [metadata_url.clone(), server.at("/.well-known/oauth-protected-resource")] {
        let document = get_json(&url).await;
        assert_eq!(
            document,
            json!({
                "resource": resource,
                "authorization_servers": [issuer.url],
                "scopes_supported": ["mcp:use"],
                "bearer_methods_supported": ["header"],
            }),
            "{url}"
        );
    }

    // Another scheme, a malformed token, a token in the query string.
    let reply = anonymous.post_raw(&[("authorization", "Basic dXNlcjpwYXNz")], initialize_body()).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");
    let reply = anonymous.post_raw(&[("authorization", "Bearer not-a-jwt")], initialize_body()).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");
    assert_eq!(param(&challenge(&reply), "error"), Some("invalid_token"), "{reply:?}");
    let good = key.sign(&claims(&issuer, &resource, "alice", "mcp:use"));
    let in_query = anonymous
        .read(anonymous.http.post(format!("{resource}?access_token={good}")).headers(anonymous.default_headers()))
        .await;
    assert_eq!(in_query.status, StatusCode::BAD_REQUEST, "{in_query:?}");
    assert_eq!(param(&challenge(&in_query), "error"), Some("invalid_request"), "{in_query:?}");

    // A token without the server's scope: 403 asking for it.
    let unscoped = with_token(&server, &key.sign(&claims(&issuer, &resource, "alice", "other")));
    let reply = unscoped.post_raw(&[], initialize_body()).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{reply:?}");
    let params = challenge(&reply);
    assert_eq!(param(&params, "error"), Some("insufficient_scope"), "{reply:?}");
    assert_eq!(param(&params, "scope"), Some("mcp:use"), "{reply:?}");
    assert_eq!(param(&params, "resource_metadata"), Some(metadata_url.as_str()), "{reply:?}");

    // The right token: a whole session, in both eras.
    let mut client = with_token(&server, &good);
    client.initialize(LEGACY).await;
    let response = client.request(1, "tools/call", json!({ "name": "echo", "arguments": { "text": "hi" } })).await;
    assert!(response["result"]["content"][0]["text"].as_str().is_some_and(|t| t.contains("hi")), "{response}");

    // Refusals are logged with their reason, never with the token.
    let log = server.stderr.lock().unwrap().clone();
    assert!(log.contains("refused a request"), "{log}");
    assert!(!log.contains(&good) && !log.contains("not-a-jwt"), "a token reached the log:\n{log}");
    server.stop().await;
}

/// Tokens that must each be refused (401 `invalid_token`), made from the
/// claims of a `good` token and the RS256 `key` that would sign it.
pub(super) fn hostile_tokens(key: &Key, good: &Value) -> Vec<(&'static str, String)> {
    let b64 = |value: &Value| URL_SAFE_NO_PAD.encode(value.to_string());

    let with = |change: &dyn Fn(&mut Value)| {
        let mut claims = good.clone();
        change(&mut claims);
        claims
    };
    let other_es = Key::es256(&key.kid);
    let (_, public_pem) = rsa_pem();
    let confused = {
        // The RSA public key as an HMAC secret: the classic algorithm confusion.
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(key.kid.clone());
        jsonwebtoken::encode(&header, good, &EncodingKey::from_secret(public_pem.as_bytes())).unwrap()
    };
    let mut tampered = key.sign(good);
    {
        // Another subject's claims under alice's signature.
        let parts: Vec<&str> = tampered.split('.').collect();
        tampered = format!("{}.{}.{}", parts[0], b64(&with(&|c| c["sub"] = json!("mallory"))), parts[2]);
    }
    vec![
        ("alg none", format!("{}.{}.", b64(&json!({ "alg": "none", "typ": "JWT" })), b64(good))),
        ("HS256 with the RSA public key", confused),
        ("a signature over other claims", tampered),
        ("signed by another key under the same kid", other_es.sign(good)),
        ("another audience", key.sign(&with(&|c| c["aud"] = json!("http://127.0.0.1:1/mcp")))),
        ("another issuer", key.sign(&with(&|c| c["iss"] = json!("http://evil.example")))),
        ("expired", key.sign(&with(&|c| c["exp"] = json!(now() - 3600)))),
        ("not yet valid", key.sign(&with(&|c| c["nbf"] = json!(now() + 3600)))),
        ("no subject", key.sign(&with(&|c| c.as_object_mut().unwrap().retain(|k, _| k != "sub")))),
        ("an empty subject", key.sign(&with(&|c| c["sub"] = json!("")))),
        ("a blank subject", key.sign(&with(&|c| c["sub"] = json!("  ")))),
        ("no expiry", key.sign(&with(&|c| c.as_object_mut().unwrap().retain(|k, _| k != "exp")))),
    ]
}

/// `/metrics` on the listener of a server that authenticates takes the
/// token `/mcp` takes (the series name what is served): refused without
/// one, served with one.
#[tokio::test]
async fn metrics_on_the_mcp_listener_take_the_servers_token() {
    let key = Key::es256("k1");
    let issuer = Issuer::start(vec![key.clone()]).await;
    let server = protected(&issuer, &["--auth-scope", "mcp:use"]).await;
    let metrics = server.at("/metrics");
    let http = reqwest::Client::new();
    let anonymous = http.get(&metrics).send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let unscoped = key.sign(&claims(&issuer, &server.url(), "alice", "other"));
    let refused = http.get(&metrics).bearer_auth(unscoped).send().await.unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let good = key.sign(&claims(&issuer, &server.url(), "alice", "mcp:use"));
    let scraped = http.get(&metrics).bearer_auth(good).send().await.unwrap();
    assert_eq!(scraped.status(), StatusCode::OK);
    let text = scraped.text().await.unwrap();
    assert!(text.contains("mcp_wit_requests_refused_total"), "{text:.500}");
    server.stop().await;
}

#[tokio::test]
async fn hostile_tokens_are_refused_and_the_server_goes_on() {
    let key = Key::rs256("rsa-1");
    let issuer = Issuer::start(vec![key.clone()]).await;
    let server = protected(&issuer, &[]).await;
    let resource = server.url();
    let good = claims(&issuer, &resource, "alice", "");
    let cases = hostile_tokens(&key, &good);
    for (what, token) in &cases {
        let reply = with_token(&server, token).post_raw(&[], initialize_body()).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{what}: {reply:?}");
        assert_eq!(param(&challenge(&reply), "error"), Some("invalid_token"), "{what}: {reply:?}");
        assert!(reply.header("mcp-session-id").is_none(), "{what}: a session was made");
    }

    // A key id the JWKS lacks: the keys are fetched once more, then the token is refused.
    let before = issuer.fetches();
    let unknown = Key::es256("rotated-later");
    let reply = with_token(&server, &unknown.sign(&good)).post_raw(&[], initialize_body()).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");
    assert_eq!(issuer.fetches(), before + 1, "one fetch for the unknown key id");
    // Once the issuer publishes it (a rotation), the same token is taken
    // (past the key fetch cooldown of 1 ms).
    issuer.add_key(unknown.clone());
    tokio::time::sleep(Duration::from_millis(20)).await;
    let mut rotated = with_token(&server, &unknown.sign(&good));
    rotated.initialize(LEGACY).await;

    // The right token still works after all that.
    let mut client = with_token(&server, &key.sign(&good));
    client.initialize(LEGACY).await;
    let reply = client.post(echo_call(1)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_session_is_its_subjects_alone() {
    let key = Key::es256("k1");
    let issuer = Issuer::start(vec![key.clone()]).await;
    let server = protected(&issuer, &[]).await;
    let resource = server.url();
    let alice_token = key.sign(&claims(&issuer, &resource, "alice", ""));
    let bob_token = key.sign(&claims(&issuer, &resource, "bob", ""));
    let mut alice = with_token(&server, &alice_token);
    alice.initialize(LEGACY).await;

    // Bob with Alice's session id: not found, exactly as an unknown session.
    let mut bob = with_token(&server, &bob_token);
    bob.session = alice.session.clone();
    bob.version = Some(LEGACY.into());
    let stolen = bob.post(echo_call(1)).await;
    let mut unknown = with_token(&server, &bob_token);
    unknown.session = Some("no-such-session".into());
    unknown.version = Some(LEGACY.into());
    let missing = unknown.post(echo_call(1)).await;
    assert_eq!(stolen.status, StatusCode::NOT_FOUND, "{stolen:?}");
    assert_eq!(stolen.body, missing.body, "a stolen session answers as a missing one");
    let stream = bob.get_stream(&bob.url, &[]).await;
    assert_eq!(stream.status(), StatusCode::NOT_FOUND);
    assert_eq!(bob.delete().await.status, StatusCode::NOT_FOUND);

    // Alice's session is untouched; a refreshed token of hers (new scopes) reaches it.
    let reply = alice.post(echo_call(2)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    alice.token = Some(key.sign(&claims(&issuer, &resource, "alice", "more")));
    let reply = alice.post(echo_call(3)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");

    // The same on the 2024-11-05 transport: Bob cannot post to Alice's stream.
    let sse = alice.http.get(server.at("/sse")).bearer_auth(&alice_token).send().await.unwrap();
    assert_eq!(sse.status(), StatusCode::OK);
    let mut events = support::http::EventReader::new(sse);
    let (_, endpoint) = events.next(Duration::from_secs(10)).await.expect("the endpoint event");
    let post = |token: &str| {
        alice
            .http
            .post(server.at(&endpoint))
            .bearer_auth(token)
            .header("content-type", "application/json")
            .body(echo_call(4).to_string())
            .send()
    };
    assert_eq!(post(&bob_token).await.unwrap().status(), StatusCode::NOT_FOUND);
    assert_eq!(post(&alice_token).await.unwrap().status(), StatusCode::ACCEPTED);
    server.stop().await;
}

#[tokio::test]
async fn operations_need_their_scopes_and_a_broader_scope_implies_them() {
    let key = Key::es256("k1");
    let issuer = Issuer::start(vec![key.clone()]).await;
    let server =
        protected(&issuer, &["--auth-tool-scope", "ec*=echo:call", "--auth-scope-implies", "admin=echo:call other"])
            .await;
    let resource = server.url();
    let token = |scope: &str| key.sign(&claims(&issuer, &resource, "alice", scope));

    // Without the tool's scope: the session works, the call is refused with
    // the scope it needs, and the same session goes on once stepped up.
    let mut client = with_token(&server, &token("mcp"));
    client.initialize(LEGACY).await;
    let listed = client.request(1, "tools/list", json!({})).await;
    assert!(!listed["result"]["tools"].as_array().unwrap().is_empty(), "lists are not filtered: {listed}");
    let reply = client.post(echo_call(2)).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{reply:?}");
    let params = challenge(&reply);
    assert_eq!(param(&params, "error"), Some("insufficient_scope"));
    assert_eq!(param(&params, "scope"), Some("echo:call"));
    for scope in ["mcp echo:call", "admin"] {
        client.token = Some(token(scope));
        let reply = client.post(echo_call(3)).await;
        assert_eq!(reply.status, StatusCode::OK, "{scope}: {reply:?}");
    }

    // The metadata names every scope the server uses.
    let document = get_json(&server.at("/.well-known/oauth-protected-resource")).await;
    assert_eq!(document["scopes_supported"], json!(["echo:call"]), "{document}");
    server.stop().await;

    // With --auth-filter-lists, a caller sees only what it may call.
    let filtering = protected(&issuer, &["--auth-tool-scope", "ec*=echo:call", "--auth-filter-lists"]).await;
    let resource = filtering.url();
    let token = |scope: &str| key.sign(&claims(&issuer, &resource, "alice", scope));
    let mut client = with_token(&filtering, &token("mcp"));
    client.initialize(LEGACY).await;
    let listed = client.request(1, "tools/list", json!({})).await;
    assert_eq!(listed["result"]["tools"], json!([]), "{listed}");
    client.token = Some(token("echo:call"));
    let listed = client.request(2, "tools/list", json!({})).await;
    assert_eq!(listed["result"]["tools"][0]["name"], "echo", "{listed}");
    filtering.stop().await;
}

#[tokio::test]
async fn keys_that_cannot_be_fetched_bound_the_wait_and_held_keys_keep_working() {
    let key = Key::es256("k1");
    let issuer = Issuer::start(vec![key.clone()]).await;
    issuer.serve(Serving::Down);
    // Keys discovered from the issuer's metadata, refreshed every second.
    let server = protected(&issuer, &["--auth-keys-refresh", "1s", "--auth-fetch-timeout", "1s"]).await;
    let resource = server.url();
    let good = key.sign(&claims(&issuer, &resource, "alice", ""));

    // Never fetched, and down: 503 with Retry-After, not a 401 the client would misread.
    let reply = with_token(&server, &good).post_raw(&[], initialize_body()).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");
    assert!(reply.header("retry-after").is_some(), "{reply:?}");

    // Up: fetched (past the 1 ms cooldown of fetches that tokens cause), taken.
    issuer.serve(Serving::Up);
    tokio::time::sleep(Duration::from_millis(20)).await;
    let mut client = with_token(&server, &good);
    client.initialize(LEGACY).await;

    // Slow past the timeout, keys stale: the wait is bounded and the held keys keep working.
    issuer.serve(Serving::Slow(Duration::from_secs(30)));
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let fresh = key.sign(&claims(&issuer, &resource, "alice", "x"));
    let started = std::time::Instant::now();
    let mut again = with_token(&server, &fresh);
    again.initialize(LEGACY).await;
    assert!(started.elapsed() < Duration::from_secs(10), "waited {:?}", started.elapsed());
    // Down: the same.
    issuer.serve(Serving::Down);
    let reply = client.post(echo_call(1)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_modern_request_state_is_bound_to_its_subject_and_results_are_private() {
    let key = Key::es256("k1");
    let issuer = Issuer::start(vec![key.clone()]).await;
    let fixture = fixture_arg("conformance");
    let server = HttpServer::start(&[
        fixture.as_str(),
        "--auth-issuer",
        &issuer.url,
        "--auth-jwks-url",
        &format!("{}/jwks", issuer.url),
    ])
    .await;
    let resource = server.url();
    let alice = with_token(&server, &key.sign(&claims(&issuer, &resource, "alice", "")));
    let bob = with_token(&server, &key.sign(&claims(&issuer, &resource, "bob", "")));
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": { "sampling": {} },
        "io.modelcontextprotocol/clientInfo": { "name": "auth-test", "version": "1.0.0" },
    });
    let headers =
        [("mcp-protocol-version", MODERN), ("mcp-method", "tools/call"), ("mcp-name", "test_missing_capability")];
    let call = |id: i64, extra: Value| {
        let mut params = json!({ "name": "test_missing_capability", "arguments": {}, "_meta": meta });
        for (k, v) in extra.as_object().unwrap() {
            params[k] = v.clone();
        }
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }).to_string()
    };
    let round = alice.post_raw(&headers, call(1, json!({}))).await;
    assert_eq!(round.status, StatusCode::OK, "{round:?}");
    assert_eq!(round.response()["result"]["resultType"], "input_required", "{round:?}");
    let state = round.response()["result"]["requestState"].as_str().unwrap().to_string();
    let answer = json!({ "q1": { "role": "assistant", "content": { "type": "text", "text": "hello" }, "model": "m" } });
    let retry = json!({ "requestState": state, "inputResponses": answer });

    // Bob replays Alice's state: refused, as state issued to someone else.
    let replayed = bob.post_raw(&headers, call(2, retry.clone())).await;
    let error = &replayed.response()["error"];
    assert_eq!(error["code"], -32602, "{replayed:?}");
    assert!(error["message"].as_str().unwrap().contains("issued to another caller"), "{replayed:?}");
    // Alice's own retry completes.
    let done = alice.post_raw(&headers, call(3, retry)).await;
    assert_eq!(done.status, StatusCode::OK, "{done:?}");
    assert_eq!(done.response()["result"]["resultType"], "complete", "{done:?}");

    // A cacheable result says it is the caller's alone.
    let list_headers = [("mcp-protocol-version", MODERN), ("mcp-method", "tools/list")];
    let list = json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": { "_meta": meta } });
    let listed = alice.post_raw(&list_headers, list.to_string()).await;
    assert_eq!(listed.response()["result"]["cacheScope"], "private", "{listed:?}");
    server.stop().await;
}

#[tokio::test]
async fn authorization_settings_that_cannot_work_are_refused_with_what_to_do() {
    let echo = fixture_arg("echo");
    let run = |args: &[&str]| {
        let output = std::process::Command::new(support::binary()).arg("serve").args(args).output().unwrap();
        assert!(!output.status.success(), "{args:?} started");
        String::from_utf8_lossy(&output.stderr).to_string()
    };
    let stderr = run(&[&echo, "--auth-issuer", "https://as.example"]);
    assert!(stderr.contains("authorization is for HTTP"), "{stderr}");
    let stderr = run(&[&echo, "--http", "127.0.0.1:0", "--auth-scope", "x"]);
    assert!(stderr.contains("needs --auth-issuer"), "{stderr}");
    let stderr = run(&[&echo, "--http", "0.0.0.0:0", "--auth-issuer", "https://as.example"]);
    assert!(stderr.contains("resource identifier"), "{stderr}");
    let stderr =
        run(&[&echo, "--http", "127.0.0.1:0", "--auth-issuer", "https://as.example", "--auth-algorithm", "HS256"]);
    assert!(stderr.contains("public keys"), "{stderr}");
    let stderr = run(&[
        &echo,
        "--http",
        "127.0.0.1:0",
        "--auth-issuer",
        "https://as.example",
        "--auth-jwks-file",
        "/nonexistent/jwks.json",
    ]);
    assert!(stderr.contains("cannot read the JWKS file"), "{stderr}");
    let stderr =
        run(&[&echo, "--http", "127.0.0.1:0", "--auth-issuer", "https://as.example", "--auth-tool-scope", "nope"]);
    assert!(stderr.contains("expected NAME=SCOPES"), "{stderr}");
}

/// `[auth]` in mcp-wit.toml turns authorization on as the flags do.
#[tokio::test]
async fn the_config_file_turns_authorization_on() {
    let key = Key::es256("k1");
    let issuer = Issuer::start(vec![key.clone()]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mcp-wit.toml");
    std::fs::write(
        &file,
        format!(
            "[http]\nlisten = \"127.0.0.1:0\"\n\n[auth]\nissuer = [\"{}\"]\njwks-url = \"{}/jwks\"\nscope = [\"mcp\"]\n\
             tool-scope = [\"echo=echo:call\"]\n\n[[component]]\npath = \"{}\"\n",
            issuer.url,
            issuer.url,
            fixture_arg("echo"),
        ),
    )
    .unwrap();
    let server = HttpServer::start_as_given(&["-f", file.to_str().unwrap()]).await;
    let reply = server.client().post_raw(&[], initialize_body()).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");
    assert_eq!(param(&challenge(&reply), "scope"), Some("mcp"), "{reply:?}");
    let document = get_json(&server.at("/.well-known/oauth-protected-resource")).await;
    assert_eq!(document["scopes_supported"], json!(["mcp", "echo:call"]), "{document}");
    let mut client = with_token(&server, &key.sign(&claims(&issuer, &server.url(), "alice", "mcp")));
    client.initialize(LEGACY).await;
    assert_eq!(client.post(echo_call(1)).await.status, StatusCode::FORBIDDEN);
    server.stop().await;
}
