//! What a client names is never kept: a tool or prompt name no router
//! lists, an unknown method, a request id are no metric label and no span
//! name, are clipped in log lines and span attributes, and cannot forge a
//! log line (text format escapes control characters, a guest's output too).
//! Whatever is logged, stderr's queue holds a bounded number of bytes.

use std::time::Duration;

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::http::{HttpServer, RawClient};
use support::{RawServer, rss_bytes};

use super::{MIB, wait_for_log, with_stderr_unread};

/// The length of each made-up name: at 1 MiB the review's 80 requests kept
/// 405 MB; a quarter of it still shows any copy kept.
const NAME_BYTES: usize = 256 << 10;

/// How many requests with made-up names each repro sends.
const REQUESTS: i64 = 20;

/// A response's JSON-RPC error code, and its message.
fn error_of(response: &Value) -> (i64, &str) {
    let error = &response["error"];
    (error["code"].as_i64().unwrap_or_default(), error["message"].as_str().unwrap_or_default())
}

async fn scrape(server: &HttpServer) -> String {
    let response = reqwest::get(server.at("/metrics")).await.unwrap();
    assert_eq!(response.status(), 200);
    response.text().await.unwrap()
}

/// `REQUESTS` calls of tools and prompts by names `prefix` + 256 KiB that
/// no router lists: each is answered -32602 (the routers are asked, and
/// know no such name).
async fn call_made_up_names(client: &RawClient, prefix: &str) {
    for id in 1..=REQUESTS {
        let name = format!("{prefix}{}", "z".repeat(NAME_BYTES));
        let tool = client.request(id, "tools/call", json!({ "name": name, "arguments": {} })).await;
        let (code, message) = error_of(&tool);
        assert!(code == -32602 && message.starts_with(&format!("Unknown tool: {prefix}zzz")), "{code} {message:.80}");
        let prompt = client.request(id, "prompts/get", json!({ "name": name })).await;
        let (code, message) = error_of(&prompt);
        assert!(code == -32602 && message.starts_with("Unknown prompt: "), "{code} {message:.80}");
    }
}

/// The scrape after the made-up names: small, without any of them, and
/// the names the routers list still labels.
fn assert_no_made_up_label(metrics: &str, listed: &[&str]) {
    assert!(metrics.len() < 64 << 10, "one scrape of {} bytes", metrics.len());
    assert!(!metrics.contains("zzzzzzzz"), "a made-up name is a label");
    for label in listed {
        assert!(metrics.contains(label), "{label} missing from:\n{metrics}");
    }
}

/// One mount: any name routes to it. The router answers each made-up
/// name (-32602), and nothing of them stays: the scrape is a few KiB and
/// the server's memory does not grow by their size. A tool the router
/// serves without listing it is still served, and not a label either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn made_up_names_on_a_single_mount_are_answered_and_never_labels() {
    let everything = support::fixture_arg("everything");
    let server = HttpServer::start(&[&everything, "--guest-output", "discard"]).await;
    let mut client = server.client();
    client.initialize("2025-11-25").await;
    let echo = client.request(100, "tools/call", json!({ "name": "echo", "arguments": { "text": "hi" } })).await;
    assert_eq!(echo["result"]["content"][0]["text"], "hi", "{echo}");
    let greeting = client.request(101, "prompts/get", json!({ "name": "greeting" })).await;
    assert!(greeting["result"]["messages"].is_array(), "{greeting}");
    let start = rss_bytes(server.pid());

    call_made_up_names(&client, "").await;
    let unlisted = client.request(102, "tools/call", json!({ "name": "bad-schema", "arguments": {} })).await;
    assert_eq!(unlisted["result"]["content"][0]["text"], "unreachable through tools/list but callable", "{unlisted}");

    let metrics = scrape(&server).await;
    let grown = rss_bytes(server.pid()).saturating_sub(start);
    eprintln!("single mount: a scrape of {} bytes, RSS grew {} KiB", metrics.len(), grown >> 10);
    assert_no_made_up_label(&metrics, &[r#"gen_ai_tool_name="echo""#, r#"gen_ai_prompt_name="greeting""#]);
    assert!(!metrics.contains("bad-schema"), "an unlisted tool is a label");
    assert!(grown < 32 * MIB, "RSS grew {} MiB for {REQUESTS} × 2 made-up names", grown / MIB);
    server.stop().await;
}

/// Several mounts: a made-up name under a mount's prefix goes to that
/// mount, which knows no such name, and is no label either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn made_up_names_under_a_prefix_are_answered_and_never_labels() {
    let (echo, everything) = (support::fixture_arg("echo"), support::fixture_arg("everything"));
    let server = HttpServer::start(&[&echo, &everything, "--guest-output", "discard"]).await;
    let mut client = server.client();
    client.initialize("2025-11-25").await;
    let call = json!({ "name": "everything_echo", "arguments": { "text": "hi" } });
    assert_eq!(client.request(100, "tools/call", call).await["result"]["content"][0]["text"], "hi");
    call_made_up_names(&client, "everything_").await;
    call_made_up_names(&client, "echo_").await;
    let metrics = scrape(&server).await;
    eprintln!("prefixed mounts: a scrape of {} bytes", metrics.len());
    assert_no_made_up_label(&metrics, &[r#"gen_ai_tool_name="everything_echo""#]);
    server.stop().await;
}

/// A name or method with a newline, a carriage return and an ANSI escape:
/// in the text log each request is still one line, the escapes written
/// out (`\n`, `\r`, `\u{1b}`); and a 256 KiB name or method is clipped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_and_methods_cannot_forge_a_log_line_and_are_clipped() {
    let echo = support::fixture_arg("echo");
    let server = HttpServer::start(&[&echo]).await;
    let mut client = server.client();
    client.initialize("2025-11-25").await;
    let forged = "x\n2026-11-28T00:00:00.000000Z ERROR mcp_wit: FORGED\r\x1b[2K";
    let tool = client.request(1, "tools/call", json!({ "name": forged, "arguments": {} })).await;
    assert_eq!(error_of(&tool).0, -32602, "{tool}");
    let method = client.request(2, forged, json!({})).await;
    assert_eq!(error_of(&method).0, -32601, "{method}");
    let long = "m".repeat(NAME_BYTES);
    assert_eq!(error_of(&client.request(3, &long, json!({})).await).0, -32601);
    assert_eq!(error_of(&client.request(4, "tools/call", json!({ "name": long, "arguments": {} })).await).0, -32602);
    // Written out: `\n`, `\r`, and the escape as `\x1b` or `\u{1b}`.
    let escaped = r"x\n2026-11-28T00:00:00.000000Z ERROR mcp_wit: FORGED\r\";
    assert!(
        wait_for_log(&server, &format!("{escaped}x1b[2K: error -32601")).await,
        "{}",
        server.stderr.lock().unwrap()
    );
    assert!(wait_for_log(&server, &format!("({} bytes)", NAME_BYTES)).await);
    let log = server.stderr.lock().unwrap().clone();
    let forged_lines: Vec<&str> =
        log.lines().filter(|line| line.contains("FORGED") && !line.contains(escaped)).collect();
    assert!(forged_lines.is_empty(), "forged lines: {forged_lines:#?}");
    assert!(!log.contains('\r') && !log.contains('\x1b'), "raw control characters in the log");
    let longest = log.lines().map(str::len).max().unwrap_or_default();
    assert!(longest < 4096, "a log line of {longest} bytes");
    server.stop().await;
}

/// A guest's output with a carriage return, an ANSI escape and a BEL: its
/// line reaches the log with them written out, not raw (they would erase
/// or rewrite earlier lines on a terminal).
#[tokio::test]
async fn a_guests_control_characters_reach_the_log_escaped() {
    let hostile = support::fixture_arg("hostile");
    let env = "TOKEN=visible\rHIDDEN\x1b[2K\x1b]0;title\x07";
    let mut server = RawServer::initialized(&["serve", &hostile, "--env", env], "2025-11-25").await;
    let answer = server.call(1, "leak", json!({ "name": "TOKEN" })).await;
    assert_eq!(error_of(&answer).0, -32603, "{answer}");
    server.finish_and_wait_for_stderr().await;
    let log = server.stderr.lock().unwrap().clone();
    assert!(log.contains(r"[hostile:stderr] the token is visible\rHIDDEN\u{1b}[2K\u{1b}]0;title\u{7}"), "{log}");
    assert!(!log.contains('\r') && !log.contains('\x1b') && !log.contains('\x07'), "raw control characters: {log:?}");
}

/// A collector that accepts connections and never answers: spans wait in
/// the exporter's queue. Requests with 256 KiB methods, ids and tool names
/// make spans that hold none of them (`_OTHER`, clipped), so the server's
/// memory stays flat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spans_for_a_collector_that_never_answers_hold_no_made_up_name() {
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", silent.local_addr().unwrap());
    std::thread::spawn(move || {
        // Held open, never read from or answered.
        let held: Vec<_> = silent.incoming().map_while(Result::ok).collect();
        drop(held);
    });
    let echo = support::fixture_arg("echo");
    let server = HttpServer::start(&[&echo, "--otlp-endpoint", &endpoint, "--guest-output", "discard"]).await;
    let mut client = server.client();
    client.initialize("2025-11-25").await;
    let start = rss_bytes(server.pid());
    for n in 0..2 * REQUESTS {
        let name = format!("{n}{}", "q".repeat(NAME_BYTES));
        let id = json!(name);
        let tool =
            json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": name, "arguments": {} } });
        let reply = client.post(tool).await;
        assert_eq!(reply.error_code(), Some(-32602), "{:.200}", reply.body);
        let method = json!({ "jsonrpc": "2.0", "id": n, "method": name, "params": {} });
        assert_eq!(client.post(method).await.error_code(), Some(-32601));
    }
    let grown = rss_bytes(server.pid()).saturating_sub(start);
    eprintln!("a collector that never answers: RSS grew {} KiB", grown >> 10);
    assert!(grown < 24 * MIB, "RSS grew {} MiB while spans wait for the collector", grown / MIB);
    server.stop().await;
}

/// A stdio server whose stderr nobody reads, sent 256 requests with 256
/// KiB unknown methods (64 MiB of names): each one's log line waits in the
/// queue, clipped, so the server holds a fraction of it.
#[tokio::test]
async fn log_lines_waiting_for_an_unread_stderr_hold_a_bounded_number_of_bytes() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let echo = support::fixture_arg("echo");
    let mut child = with_stderr_unread(&["serve", &echo]);
    let pid = child.id().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let initialize = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params("2025-11-25")
    });
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    stdin.write_all(format!("{initialize}\n{initialized}\n").as_bytes()).await.unwrap();
    let mut exchange = async |message: Option<Value>| -> Value {
        if let Some(message) = message {
            stdin.write_all(format!("{message}\n").as_bytes()).await.unwrap();
        }
        stdin.flush().await.unwrap();
        // A hang guard, not a timing.
        let line = tokio::time::timeout(Duration::from_secs(60), stdout.next_line()).await.unwrap().unwrap().unwrap();
        serde_json::from_str(&line).unwrap()
    };
    let initialized = exchange(None).await;
    assert_eq!(initialized["id"], 0, "{initialized}");
    let start = rss_bytes(pid);
    for id in 1..=256 {
        let method = format!("{id}{}", "n".repeat(NAME_BYTES));
        let answer = exchange(Some(json!({ "jsonrpc": "2.0", "id": id, "method": method }))).await;
        assert_eq!(error_of(&answer).0, -32601, "{answer:.200}");
    }
    let grown = rss_bytes(pid).saturating_sub(start);
    eprintln!("stderr unread: RSS grew {} KiB", grown >> 10);
    assert!(grown < 32 * MIB, "RSS grew {} MiB with stderr unread", grown / MIB);
}
