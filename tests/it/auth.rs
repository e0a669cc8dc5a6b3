// MCP authorization on HTTP: `mcp-wit serve --auth-issuer …` as an OAuth 2.1
// resource server. An authorization server's keys are served here on
// 127.0.0.1 (its metadata and JWKS, which the tests take down, slow down and
// rotate), and tokens are signed with them as it would sign them; hostile
// ones too. Every status, challenge and metadata document is checked as the
// spec words it; every MCP message against its revision's schema.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::engines::{WasmtimeServe, free_port, wash_dev, wrapped};
use support::fixture_arg;
use support::http::{HttpServer, RawClient, Reply};

const LEGACY: &str = "2025-11-25";
const MODERN: &str = "2026-07-28";

/// A signing key of the authorization server.
#[derive(Clone)]
struct Key {
    kid: String,
    alg: Algorithm,
    encoding: EncodingKey,
    jwk: Value,
}

impl Key {
    fn es256(kid: &str) -> Key {
        use p256::pkcs8::{EncodePrivateKey, LineEnding};
        let secret = p256::SecretKey::random(&mut rand_core::OsRng);
        let pem = secret.to_pkcs8_pem(LineEnding::LF).unwrap();
        Key::from_encoding(kid, Algorithm::ES256, EncodingKey::from_ec_pem(pem.as_bytes()).unwrap())
    }

    fn rs256(kid: &str) -> Key {
        Key::from_encoding(kid, Algorithm::RS256, EncodingKey::from_rsa_pem(rsa_pem().0.as_bytes()).unwrap())
    }

    fn from_encoding(kid: &str, alg: Algorithm, encoding: EncodingKey) -> Key {
        let mut jwk = Jwk::from_encoding_key(&encoding, alg).unwrap();
        jwk.common.key_id = Some(kid.to_string());
        Key { kid: kid.into(), alg, encoding, jwk: serde_json::to_value(jwk).unwrap() }
    }

    /// `claims`, signed with this key.
    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(self.alg);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.encoding).unwrap()
    }
}

/// One RSA key per run (private PKCS#1 PEM, public PEM): making one takes a while.
fn rsa_pem() -> &'static (String, String) {
    static PEM: OnceLock<(String, String)> = OnceLock::new();
    PEM.get_or_init(|| {
        use rsa::pkcs1::{EncodeRsaPrivateKey, EncodeRsaPublicKey, LineEnding};
        let private = rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
        let public = private.to_public_key();
        (private.to_pkcs1_pem(LineEnding::LF).unwrap().to_string(), public.to_pkcs1_pem(LineEnding::LF).unwrap())
    })
}

/// How the authorization server's endpoints behave.
#[derive(Clone, Copy, PartialEq)]
enum Serving {
    Up,
    Down,
    Slow(Duration),
}

struct IssuerState {
    keys: Vec<Key>,
    serving: Serving,
    jwks_fetches: usize,
}

/// An authorization server's discovery metadata and JWKS on 127.0.0.1.
#[derive(Clone)]
struct Issuer {
    url: String,
    state: Arc<Mutex<IssuerState>>,
}

impl Issuer {
    async fn start(keys: Vec<Key>) -> Issuer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(Mutex::new(IssuerState { keys, serving: Serving::Up, jwks_fetches: 0 }));
        let issuer = Issuer { url: url.clone(), state: state.clone() };
        let metadata_issuer = issuer.clone();
        let jwks_issuer = issuer.clone();
        let app = axum::Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                axum::routing::get(move || {
                    let issuer = metadata_issuer.clone();
                    async move {
                        let serving = issuer.state.lock().unwrap().serving;
                        issuer.behave(serving).await?;
                        Ok::<_, StatusCode>(json_body(json!({
                            "issuer": issuer.url,
                            "jwks_uri": format!("{}/jwks", issuer.url),
                            "authorization_endpoint": format!("{}/authorize", issuer.url),
                            "token_endpoint": format!("{}/token", issuer.url),
                            "response_types_supported": ["code"],
                        })))
                    }
                }),
            )
            .route(
                "/jwks",
                axum::routing::get(move || {
                    let issuer = jwks_issuer.clone();
                    async move {
                        let (serving, keys) = {
                            let mut state = issuer.state.lock().unwrap();
                            state.jwks_fetches += 1;
                            (state.serving, state.keys.iter().map(|k| k.jwk.clone()).collect::<Vec<_>>())
                        };
                        issuer.behave(serving).await?;
                        Ok::<_, StatusCode>(json_body(json!({ "keys": keys })))
                    }
                }),
            );
        tokio::spawn(async move { axum::serve(listener, app).await });
        issuer
    }

    async fn behave(&self, serving: Serving) -> Result<(), StatusCode> {
        match serving {
            Serving::Up => Ok(()),
            Serving::Down => Err(StatusCode::SERVICE_UNAVAILABLE),
            Serving::Slow(wait) => {
                tokio::time::sleep(wait).await;
                Ok(())
            }
        }
    }

    fn serve(&self, serving: Serving) {
        self.state.lock().unwrap().serving = serving;
    }

    fn add_key(&self, key: Key) {
        self.state.lock().unwrap().keys.push(key);
    }

    fn fetches(&self) -> usize {
        self.state.lock().unwrap().jwks_fetches
    }
}

fn json_body(value: Value) -> ([(&'static str, &'static str); 1], String) {
    ([("content-type", "application/json")], value.to_string())
}

/// GETs `url` and reads its JSON body.
async fn get_json(url: &str) -> Value {
    let text = reqwest::get(url).await.unwrap().text().await.unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{url}: not JSON ({e}): {text}"))
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

/// The claims of a good token for `resource`: `subject`, `scope`, valid for
/// five minutes.
fn claims(issuer: &Issuer, resource: &str, subject: &str, scope: &str) -> Value {
    json!({
        "iss": issuer.url,
        "sub": subject,
        "aud": resource,
        "client_id": "test-client",
        "scope": scope,
        "iat": now(),
        "exp": now() + 300,
    })
}

/// `mcp-wit serve echo.wasm --http 127.0.0.1:0 --auth-issuer ISSUER <args>`.
async fn protected(issuer: &Issuer, args: &[&str]) -> HttpServer {
    let echo = fixture_arg("echo");
    let mut all = vec![echo.as_str(), "--auth-issuer", &issuer.url, "--auth-keys-cooldown", "1ms"];
    all.extend(args);
    HttpServer::start(&all).await
}

fn with_token(server: &HttpServer, token: &str) -> RawClient {
    let mut client = server.client();
    client.token = Some(token.to_string());
    client
}

/// The `WWW-Authenticate` challenge's parameters.
fn challenge(reply: &Reply) -> Vec<(String, String)> {
    let value = reply.header("www-authenticate").unwrap_or_else(|| panic!("no WWW-Authenticate: {reply:?}"));
    let rest = value.strip_prefix("Bearer ").unwrap_or_else(|| panic!("not a Bearer challenge: {value}"));
    rest.split("\", ")
        .map(|pair| {
            let (name, value) = pair.split_once("=\"").unwrap_or_else(|| panic!("bad parameter {pair:?} in {value}"));
            (name.to_string(), value.trim_end_matches('"').to_string())
        })
        .collect()
}

fn param<'a>(challenge: &'a [(String, String)], name: &str) -> Option<&'a str> {
    challenge.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

fn initialize_body() -> String {
    json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params(LEGACY) })
        .to_string()
}

fn echo_call(id: i64) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": "echo", "arguments": { "text": "hi" } } })
}

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
fn hostile_tokens(key: &Key, good: &Value) -> Vec<(&'static str, String)> {
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

/// The official Python SDK's client, against an authorization server built
/// on the SDK's own authorization-server routes (both in the peers' venv):
/// discovery from the 401, dynamic registration, the code grant with PKCE
/// and the resource indicator, a call, step-up on a 403, and a refresh once
/// the three-second token has expired; in both eras.
#[tokio::test]
async fn the_python_sdk_signs_in_steps_up_and_refreshes_against_a_real_authorization_server() {
    let authorization_server = AuthorizationServer::start("mcp tools:echo").await;
    let echo = fixture_arg("echo");
    let server = HttpServer::start(&[
        echo.as_str(),
        "--auth-issuer",
        &authorization_server.issuer,
        "--auth-scope",
        "mcp",
        "--auth-tool-scope",
        "echo=tools:echo",
    ])
    .await;
    for mode in ["legacy", MODERN] {
        let (run, events) = authorization_server
            .sign_in(&server.url(), "echo", r#"{"text":"hi"}"#, mode, || server.stderr.lock().unwrap().clone())
            .await;
        assert_eq!(run["first"], json!({ "text": "hi", "isError": false }), "{run}");
        assert_eq!(run["second"], json!({ "text": "hi", "isError": false }), "{run}");
        // First the scope the 401 named, then the union with the one the 403 named.
        assert_eq!(
            run["authorizations"],
            json!([
                { "scope": "mcp", "resource": server.url() },
                { "scope": "mcp tools:echo", "resource": server.url() },
            ]),
            "{run}"
        );
        let kinds: Vec<(&str, Option<&str>)> =
            events.iter().map(|e| (e["event"].as_str().unwrap(), e["grant"].as_str())).collect();
        assert_eq!(
            kinds,
            [
                ("register", None),
                ("authorize", None),
                ("token", Some("authorization_code")),
                ("authorize", None),
                ("token", Some("authorization_code")),
                ("token", Some("refresh_token")),
            ],
            "{mode}: {events:?}"
        );
    }
    server.stop().await;
}

/// `tests/peers/oauth_server.py` on 127.0.0.1: an authorization server on
/// the Python SDK's own routes, issuing three-second tokens; stopped when
/// dropped.
struct AuthorizationServer {
    _process: tokio::process::Child,
    /// Its issuer identifier (its URL).
    issuer: String,
    /// Where it logs what it does, a JSON object a line.
    events: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl AuthorizationServer {
    /// Started for `scopes`, once it serves.
    async fn start(scopes: &str) -> AuthorizationServer {
        let dir = tempfile::tempdir().unwrap();
        let (url_file, events) = (dir.path().join("issuer"), dir.path().join("events"));
        let process = tokio::process::Command::new(support::peers::python())
            .arg(support::peers::scripts().join("oauth_server.py"))
            .arg("--url-file")
            .arg(&url_file)
            .arg("--events")
            .arg(&events)
            .args(["--token-lifetime", "3", "--scopes", scopes])
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let issuer = wait_for_issuer(&url_file).await;
        AuthorizationServer { _process: process, issuer, events, _dir: dir }
    }

    /// The SDK's OAuth client (`tests/peers/oauth_client.py`) against the
    /// MCP server at `url` in `mode`, calling `tool` with `args` twice (the
    /// second after its token expired): its report, checked to be in the
    /// mode's revision, and what this server logged meanwhile. `server_log`
    /// says more when the client fails.
    async fn sign_in(
        &self,
        url: &str,
        tool: &str,
        args: &str,
        mode: &str,
        server_log: impl FnOnce() -> String,
    ) -> (Value, Vec<Value>) {
        std::fs::write(&self.events, "").unwrap();
        let output = tokio::process::Command::new(support::peers::python())
            .arg(support::peers::scripts().join("oauth_client.py"))
            .args(["--url", url, "--tool", tool, "--args", args, "--mode", mode, "--wait", "4"])
            .output()
            .await
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{mode}: {stderr}\nserver:\n{}", server_log());
        let run: Value = serde_json::from_slice(&output.stdout).unwrap();
        let version = if mode == MODERN { MODERN } else { LEGACY };
        assert_eq!(run["protocolVersion"], version, "{run}");
        let events = std::fs::read_to_string(&self.events)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        (run, events)
    }
}

/// The URL the authorization server writes to `url_file` once it serves.
async fn wait_for_issuer(url_file: &std::path::Path) -> String {
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            if let Ok(url) = std::fs::read_to_string(url_file)
                && !url.is_empty()
            {
                return url;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the authorization server did not start")
}

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
