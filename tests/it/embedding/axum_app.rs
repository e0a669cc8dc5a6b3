//! The HTTP endpoints merged into an axum app of the test's own.

use std::time::Duration;

use mcp_wit::SessionOptions;
use mcp_wit::transport::http::{HttpOptions, axum_router};
use mcp_wit_tests::support;
use serde_json::json;
use support::http::RawClient;

use super::harness::load;

#[tokio::test]
async fn axum_router_serves_mcp_beside_the_apps_routes() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|&stop| stop).await;
    };
    let mcp = axum_router(load("hello"), SessionOptions::default(), HttpOptions::new(addr), stopped(stopping.clone()))
        .expect("the options work");
    let app = axum::Router::new().route("/health", axum::routing::get(|| async { "ok" })).merge(mcp);
    let server =
        tokio::spawn(async move { axum::serve(listener, app).with_graceful_shutdown(stopped(stopping)).await });

    let mut client = RawClient::new(format!("http://{addr}/mcp"));
    let reply = client.initialize("2025-11-25").await;
    assert_eq!(reply.response()["result"]["serverInfo"]["name"], "hello");
    let answer = client.request(1, "tools/call", json!({ "name": "hello", "arguments": { "name": "axum" } })).await;
    assert_eq!(answer["result"]["content"][0]["text"], "Hello, axum!");

    // The MCP routes keep their checks; the app's own routes are not subject to them.
    let foreign = [("origin", "http://evil.example")];
    let refused = client.post_raw(&foreign, json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" }).to_string()).await;
    assert_eq!(refused.status, reqwest::StatusCode::FORBIDDEN);
    let health = client.http.get(format!("http://{addr}/health")).header("origin", "http://evil.example").send();
    let health = health.await.unwrap();
    assert_eq!((health.status(), health.text().await.unwrap().as_str()), (reqwest::StatusCode::OK, "ok"));

    // An open server-to-client stream ends at shutdown, so the app can stop.
    let stream = client.get_stream(&client.url, &[]).await;
    assert_eq!(stream.status(), reqwest::StatusCode::OK);
    stop.send_replace(true);
    let body = tokio::time::timeout(Duration::from_secs(10), stream.text()).await.expect("the stream ended");
    assert!(body.is_ok(), "{body:?}");
    let served = tokio::time::timeout(Duration::from_secs(10), server).await.expect("the app stopped");
    served.unwrap().expect("served without error");
}
