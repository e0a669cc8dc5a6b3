//! Security: `Origin` and `Host` checked, slow clients cut off.

use std::time::{Duration, Instant};

use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::json;
use support::http::HttpServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::fixture::{VERSION, conformance};

#[tokio::test]
async fn origin_and_host_are_checked() {
    let server = HttpServer::start(&[&conformance()]).await;
    let port = server.addr.port();
    let client = server.client();
    let init = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params(VERSION)
    })
    .to_string();

    // DNS rebinding: a foreign Host or Origin is refused before anything else.
    for overrides in [
        vec![("host", "evil.example.com")],
        vec![("origin", "http://evil.example.com")],
        vec![("host", "evil.example.com"), ("origin", "http://evil.example.com")],
        vec![("origin", "null")],
    ] {
        let reply = client.post_raw(&overrides, init.clone()).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{overrides:?}: {reply:?}");
    }
    let get = client.get_stream(&server.at("/sse"), &[("host", "evil.example.com")]).await;
    assert_eq!(get.status(), StatusCode::FORBIDDEN, "the legacy endpoints too");

    // Loopback names and origins are fine.
    let local = format!("localhost:{port}");
    let origin = "http://localhost:5173";
    for overrides in [
        vec![("host", local.as_str())],
        vec![("origin", origin)],
        vec![("host", "[::1]"), ("origin", "https://127.0.0.1")],
    ] {
        let reply = client.post_raw(&overrides, init.clone()).await;
        assert_eq!(reply.status, StatusCode::OK, "{overrides:?}: {reply:?}");
    }

    // CORS for allowed origins.
    let preflight = client
        .http
        .request(reqwest::Method::OPTIONS, server.url())
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "content-type, mcp-session-id, mcp-method, mcp-name, mcp-param-region",
        )
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{preflight:?}");
    assert_eq!(preflight.headers()["access-control-allow-origin"], origin);
    // 2026-07-28's routing headers too, an argument's among them.
    let allowed = preflight.headers()["access-control-allow-headers"].to_str().unwrap();
    for header in ["mcp-session-id", "mcp-method", "mcp-name", "mcp-param-region"] {
        assert!(allowed.contains(header), "{header} not allowed: {allowed}");
    }
    let reply = client.post_raw(&[("origin", origin)], init.clone()).await;
    assert_eq!(reply.header("access-control-allow-origin"), Some(origin));
    assert!(reply.header("access-control-expose-headers").unwrap_or_default().contains("mcp-session-id"), "{reply:?}");
    server.stop().await;

    // The flags widen the allowed sets.
    let server = HttpServer::start(&[
        &conformance(),
        "--allow-origin",
        "https://app.example.com",
        "--allow-host",
        "mcp.example.com",
    ])
    .await;
    let client = server.client();
    let reply = client.post_raw(&[("origin", "https://app.example.com")], init.clone()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let reply = client.post_raw(&[("host", "mcp.example.com")], init.clone()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let reply = client.post_raw(&[("origin", "https://other.example.com")], init.clone()).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{reply:?}");
    server.stop().await;
}

#[tokio::test]
async fn slow_clients_are_cut_off() {
    let server = HttpServer::start(&[&conformance(), "--header-timeout", "1s", "--body-timeout", "1s"]).await;

    // Headers that never finish: the connection is closed.
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n").await.unwrap();
    let started = Instant::now();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), slow.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the connection stayed open");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());

    // An idle keep-alive connection is closed too.
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), idle.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the idle connection stayed open");

    // A body that never finishes: 408.
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    let head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
                Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"";
    slow.write_all(head.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(10), slow.read(&mut buf)).await.expect("no answer").unwrap();
    let answer = String::from_utf8_lossy(&buf[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    server.stop().await;
}
