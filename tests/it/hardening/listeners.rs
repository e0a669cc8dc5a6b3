//! The metrics listener (M6) and `/metrics` on the MCP listener (L6): the
//! protections of the MCP listener on both (a header timeout, a connection
//! cap, the `Host`/`Origin` check, the token when requests are
//! authenticated).

use std::net::SocketAddr;
use std::time::Duration;

use mcp_wit_tests::support;
use support::http::HttpServer;

use super::raw_exchange_at;

/// The address of the server's metrics listener of its own, from its
/// "metrics at http://ADDR/metrics" line (logged before the MCP listener's).
fn metrics_addr(server: &HttpServer) -> SocketAddr {
    let stderr = server.stderr.lock().unwrap();
    let rest = stderr.split("metrics at http://").nth(1).unwrap_or_else(|| panic!("no metrics listener: {stderr}"));
    rest[..rest.find("/metrics").expect("a metrics URL")].parse().expect("a metrics address")
}

/// `GET path` on `addr` naming `host`, on a connection of its own.
async fn get(addr: SocketAddr, path: &str, host: &str) -> (u16, String) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    raw_exchange_at(addr, &request).await
}

/// The file descriptors the process `pid` holds.
fn open_files(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map(|entries| entries.count()).unwrap_or(0)
}

/// 300 idle connections to the metrics listener of a server allowed 256
/// open files (the review's 1,100 against 1,024, test-sized): the listener
/// holds at most its cap of them, so the MCP listener still accepts
/// (`/healthz` answers), the process keeps well within its files, and a
/// scraper still gets its answer (idle connections give way).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_to_the_metrics_listener_leave_the_mcp_listener_accepting() {
    const FILES: usize = 256;
    const IDLE: usize = 300;
    let echo = support::fixture_arg("echo");
    let args = [&*echo, "--metrics", "127.0.0.1:0", "--header-timeout", "120s", "--guest-output", "discard"];
    let server = HttpServer::start(&args).await;
    let metrics = metrics_addr(&server);
    let limit = format!("--nofile={FILES}:{FILES}");
    let lowered = std::process::Command::new("prlimit")
        .args(["--pid", &server.pid().to_string(), &limit])
        .status()
        .expect("prlimit (util-linux) runs");
    assert!(lowered.success(), "prlimit failed");

    // Connections the listener never accepts wait in the backlog, or are
    // not completed at all: only those it takes matter.
    let mut idle = Vec::new();
    for _ in 0..IDLE {
        let connect = tokio::net::TcpStream::connect(metrics);
        if let Ok(Ok(stream)) = tokio::time::timeout(Duration::from_secs(2), connect).await {
            idle.push(stream);
        }
    }
    let held = open_files(server.pid());
    // A hang guard: unbounded, the metrics listener takes every file and
    // the probe is never accepted.
    let probe = tokio::time::timeout(Duration::from_secs(30), get(server.addr, "/healthz", "localhost")).await;
    let scrape = tokio::time::timeout(Duration::from_secs(30), get(metrics, "/metrics", "localhost")).await;
    drop(idle);
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(held < FILES - 64, "the server holds {held} files of its {FILES}; stderr:\n{stderr}");
    let (status, answer) = probe.expect("/healthz was never answered: the MCP listener stopped accepting");
    assert_eq!(status, 200, "{answer}");
    let (status, answer) = scrape.expect("the scrape was stuck behind idle connections");
    assert_eq!(status, 200, "{answer:.300}");
    assert!(answer.contains("mcp_wit_"), "{answer:.300}");
    server.stop().await;
}

/// A connection to the metrics listener that sends nothing is closed after
/// `--header-timeout`, as on the MCP listener.
#[tokio::test]
async fn the_metrics_listener_closes_a_connection_that_sends_no_headers() {
    use tokio::io::AsyncReadExt;
    let echo = support::fixture_arg("echo");
    let args = [&*echo, "--metrics", "127.0.0.1:0", "--header-timeout", "1s", "--guest-output", "discard"];
    let server = HttpServer::start(&args).await;
    let mut silent = tokio::net::TcpStream::connect(metrics_addr(&server)).await.unwrap();
    let mut answer = Vec::new();
    // A bound far above the timeout: only a connection never closed meets it.
    let closed = tokio::time::timeout(Duration::from_secs(30), silent.read_to_end(&mut answer)).await;
    assert!(closed.is_ok(), "a connection without headers stayed open");
    server.stop().await;
}

/// The `Host` check (DNS rebinding) on the metrics listener and on
/// `/metrics` of the MCP listener: a page on `evil.example` rebound to
/// 127.0.0.1 reads neither; a loopback name does.
#[tokio::test]
async fn metrics_refuse_a_foreign_host_on_either_listener() {
    let echo = support::fixture_arg("echo");
    let args = [&*echo, "--metrics", "127.0.0.1:0", "--guest-output", "discard"];
    let server = HttpServer::start(&args).await;
    for addr in [metrics_addr(&server), server.addr] {
        let (status, answer) = get(addr, "/metrics", "evil.example").await;
        assert_eq!(status, 403, "{addr}: {answer:.300}");
        let (status, answer) = get(addr, "/metrics", &addr.to_string()).await;
        assert_eq!(status, 200, "{addr}: {answer:.300}");
    }
    server.stop().await;
}

/// With `--auth-issuer`, `/metrics` on the MCP listener needs the token
/// (and passes the `Host` check first); the metrics listener of its own,
/// which the operator keeps where only scrapers reach it, needs none.
#[tokio::test]
async fn metrics_on_an_authenticated_mcp_listener_need_the_token() {
    let echo = support::fixture_arg("echo");
    // The issuer is never asked: no request here carries a token.
    let args = [&*echo, "--auth-issuer", "http://127.0.0.1:9", "--metrics", "127.0.0.1:0", "--guest-output", "discard"];
    let server = HttpServer::start(&args).await;
    let (status, answer) = get(server.addr, "/metrics", &server.addr.to_string()).await;
    assert_eq!(status, 401, "{answer:.300}");
    assert!(answer.to_ascii_lowercase().contains("www-authenticate: bearer"), "{answer:.300}");
    let (status, answer) = get(server.addr, "/metrics", "evil.example").await;
    assert_eq!(status, 403, "{answer:.300}");
    let metrics = metrics_addr(&server);
    let (status, answer) = get(metrics, "/metrics", &metrics.to_string()).await;
    assert_eq!(status, 200, "{answer:.300}");
    // The probes stay open to load balancers.
    let (status, answer) = get(server.addr, "/healthz", &server.addr.to_string()).await;
    assert_eq!(status, 200, "{answer:.300}");
    server.stop().await;
}
