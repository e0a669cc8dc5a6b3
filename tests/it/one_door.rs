// `/mcp` has one door: the server's own front door (a client's requests go
// straight to `/mcp`'s dispatch) and an app embedding `axum_router` (the
// same dispatch behind the router's layers) give every POST, GET, DELETE
// and other method the same answer, each POST read once into its era and
// kind: 2026-07-28 requests and notices, 2025 messages, invalid bodies.

use mcp_wit::transport::http::{HttpOptions, axum_router};
use mcp_wit::{LoadedRouter, SandboxPolicy, SessionOptions};
use mcp_wit_tests::support;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use support::http::{HttpServer, RawClient};
use support::{fixture, fixture_arg};

const MODERN: &str = "2026-07-28";

/// The 2026-07-28 envelope, as a client sends it.
fn envelope() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

/// What a server answers: the status, the JSON-RPC error code if any, and
/// the `Allow` header of a 405.
type Answer = (StatusCode, Option<i64>, Option<String>);

/// Sends each case to `url` and reads its answer.
async fn answers(url: String) -> Vec<(&'static str, Answer)> {
    let client = RawClient::new(url);
    let modern_headers = [("mcp-protocol-version", MODERN)];
    let call = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "hello", "arguments": { "name": "door" }, "_meta": envelope() },
    });
    let mut answers = Vec::new();
    let mut post = async |what: &'static str, headers: &[(&str, &str)], body: Value| {
        let reply = client.post_raw(headers, body.to_string()).await;
        let allow = reply.header("allow").map(str::to_owned);
        answers.push((what, (reply.status, reply.error_code(), allow)));
    };
    post(
        "a 2026-07-28 call",
        &[("mcp-protocol-version", MODERN), ("mcp-method", "tools/call"), ("mcp-name", "hello")],
        call.clone(),
    )
    .await;
    post("a 2026-07-28 call without its headers", &[], call).await;
    let notice = json!({ "jsonrpc": "2.0", "method": "notifications/initialized", "params": { "_meta": envelope() } });
    post("a 2026-07-28 notification", &[], notice).await;
    post("a response under a 2026-07-28 header", &modern_headers, json!({ "jsonrpc": "2.0", "id": 9, "result": {} }))
        .await;
    let initialize = json!({ "jsonrpc": "2.0", "id": 2, "method": "initialize", "params": support::initialize_params("2025-11-25") });
    post("initialize under a 2026-07-28 header", &modern_headers, initialize).await;
    post("a 2025 request without a session", &[], json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/list" })).await;
    post("a 2025 notification without a session", &[], json!({ "jsonrpc": "2.0", "method": "notifications/x" })).await;
    post("a body that is not JSON", &[], json!("{nope")).await;
    let reply = client.post_raw(&[], "{nope").await;
    answers.push(("bytes that are not JSON", (reply.status, reply.error_code(), None)));
    let reply = client.post_raw(&[("content-type", "text/plain")], "{}").await;
    answers.push(("a body that is not declared JSON", (reply.status, reply.error_code(), None)));

    for (what, method, headers) in [
        ("GET under a 2026-07-28 header", Method::GET, &modern_headers[..]),
        ("DELETE under a 2026-07-28 header", Method::DELETE, &modern_headers[..]),
        ("DELETE without a session", Method::DELETE, &[][..]),
        ("PUT", Method::PUT, &[][..]),
    ] {
        let mut request = client.http.request(method, &client.url);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let reply = client.read(request).await;
        let allow = reply.header("allow").map(str::to_owned);
        answers.push((what, (reply.status, reply.error_code(), allow)));
    }
    answers
}

#[tokio::test]
async fn the_front_door_and_an_embedding_router_answer_alike() {
    let served = HttpServer::start(&[fixture_arg("hello").as_str()]).await;
    let direct = answers(served.url()).await;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    let router = LoadedRouter::from_file(&engine, &fixture("hello"), SandboxPolicy::builder("hello").build())
        .expect("load the fixture");
    let app = axum_router(router, SessionOptions::default(), HttpOptions::new(addr), std::future::pending())
        .expect("the options work");
    let app = tokio::spawn(async move { axum::serve(listener, app).await });
    let embedded = answers(format!("http://{addr}/mcp")).await;
    app.abort();

    let ok = (StatusCode::OK, None, None);
    let bad = |code| (StatusCode::BAD_REQUEST, Some(code), None);
    let not_allowed = |allow: &str| (StatusCode::METHOD_NOT_ALLOWED, Some(-32000), Some(allow.to_string()));
    let expected: Vec<Answer> = vec![
        ok,
        bad(-32020),
        (StatusCode::ACCEPTED, None, None),
        (StatusCode::ACCEPTED, None, None),
        bad(-32020),
        bad(-32000),
        bad(-32000),
        bad(-32600),
        bad(-32700),
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, Some(-32000), None),
        not_allowed("POST"),
        not_allowed("POST"),
        bad(-32000),
    ];
    for (((what, direct), (_, embedded)), expected) in direct.iter().zip(&embedded).zip(&expected) {
        assert_eq!(direct, expected, "{what}, through the front door");
        assert_eq!(embedded, expected, "{what}, through axum_router");
    }
    let (what, put) = &direct[expected.len()];
    assert_eq!(put.0, StatusCode::METHOD_NOT_ALLOWED, "{what}");
    assert_eq!(put, &embedded[expected.len()].1, "{what}: the same either way");
    assert_eq!(direct.len(), expected.len() + 1);
}
