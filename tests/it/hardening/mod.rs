//! A security review's findings, each as its repro, asserting what must hold:
//! one memory budget for the whole server, grants that never widen by a
//! typo. Nothing here is timed: waits are bounded polls. The second
//! review's findings live in the modules below, one per area.

use std::time::Duration;

use mcp_wit_tests::support;
use serde_json::json;
use support::http::HttpServer;
use support::rss_bytes;

mod listeners;
mod names;
mod registry;
mod rounds;
mod secrets;
mod validation;

const MIB: u64 = 1 << 20;

/// Whether the server logs `line` within moments (logs reach stderr
/// through a queue).
async fn wait_for_log(server: &HttpServer, line: &str) -> bool {
    for _ in 0..100 {
        if server.stderr.lock().unwrap().contains(line) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// Many sessions, each keeping an instance that once echoed a large
/// argument: without a budget each keeps its peak (some 17 MiB for a 7 MiB
/// argument) for as long as it lives. With `--max-total-memory`, idle
/// instances make room (the longest idle first) and the server stays
/// within the budget plus what the host itself holds; once they have idled
/// past `--instance-idle-timeout` their memory is given back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_with_large_instances_stay_within_the_memory_budget_and_give_it_back_when_idle() {
    const SESSIONS: usize = 96;
    const BUDGET_MIB: u64 = 96;
    let echo = support::fixture_arg("echo");
    let budget = format!("{BUDGET_MIB}MiB");
    // The idle timeout is long enough that the budget fills before the
    // first sessions' instances idle past it, however slow the machine (a
    // call with its 2 MiB argument takes 0.1-0.2 s in a debug build): the
    // budget, not the timeout, must be what releases them first.
    let args = [&*echo, "--guest-output", "discard", "--max-total-memory", &budget, "--instance-idle-timeout", "10s"];
    let server = HttpServer::start(&args).await;
    let start = rss_bytes(server.pid());
    let text = "x".repeat(2 << 20);
    let mut peak = start;
    for _ in 0..SESSIONS {
        let mut client = server.client();
        client.initialize("2025-11-25").await;
        let reply = client
            .post_raw(
                &[],
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "echo", "arguments": {"text": text}}})
                .to_string(),
            )
            .await;
        let response = reply.response();
        assert!(
            response["result"]["content"][0]["text"].as_str().is_some_and(|t| t.len() == text.len()),
            "{:.300}",
            response.to_string()
        );
        peak = peak.max(rss_bytes(server.pid()));
    }
    // Without the budget these sessions hold about 96 × 6 MiB; the host's
    // own buffers (a request's body, its parsed form, the answer) come on
    // top of the budget.
    let host_slack = 64 * MIB;
    assert!(
        peak < start + BUDGET_MIB * MIB + host_slack,
        "RSS peaked at {} MiB (start {} MiB, budget {BUDGET_MIB} MiB)",
        peak / MIB,
        start / MIB
    );
    let released = wait_for_log(&server, "memory budget: released the longest idle instance").await;
    assert!(released, "{}", server.stderr.lock().unwrap());

    // Idle: every session's instance goes after the idle timeout.
    let mut idle = u64::MAX;
    for _ in 0..300 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        idle = rss_bytes(server.pid());
        if idle < start + 48 * MIB {
            break;
        }
    }
    assert!(idle < start + 48 * MIB, "idle RSS {} MiB (start {} MiB)", idle / MIB, start / MIB);
    server.stop().await;
}

/// A call whose instance cannot fit the budget, with nothing idle to
/// release, fails with an error that names the budget and the flag; the
/// server goes on serving calls that fit.
#[tokio::test]
async fn a_call_beyond_the_budget_is_refused_by_name_and_the_server_keeps_serving() {
    let echo = support::fixture_arg("echo");
    let args = [&*echo, "--guest-output", "discard", "--max-total-memory", "8MiB"];
    let server = HttpServer::start(&args).await;
    let mut client = server.client();
    client.initialize("2025-11-25").await;
    let big = json!({"name": "echo", "arguments": {"text": "x".repeat(6 << 20)}});
    let refused = client.request(1, "tools/call", big).await;
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    assert!(message.contains("budget of 8 MiB") && message.contains("--max-total-memory"), "{message}");
    let small = client.request(2, "tools/call", json!({"name": "echo", "arguments": {"text": "still here"}})).await;
    assert_eq!(small["result"]["content"][0]["text"], "still here", "{small}");
    server.stop().await;
}

/// `--dir` modes are `ro` or `rw`: a typo that once mounted read-write
/// (`:RO`, `:readonly`, `:rw:extra`) is refused at start, in flags and in
/// `mcp-wit.toml` alike, naming the grant.
#[test]
fn a_mistyped_directory_mode_is_refused_at_start() {
    let jail = tempfile::tempdir().unwrap();
    let echo = support::fixture_arg("echo");
    let host = jail.path().display().to_string();
    for mode in [":/data:RO", ":/data:readonly", ":/data:rw:extra", ":RO", ":readonly"] {
        let grant = format!("{host}{mode}");
        let output = std::process::Command::new(support::binary())
            .args(["serve", &echo, "--dir", &grant])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{grant} was accepted");
        assert!(stderr.contains(&grant) && stderr.contains("expected HOST[:GUEST][:ro|:rw]"), "{grant}: {stderr}");
        let file = jail.path().join("mcp-wit.toml");
        std::fs::write(&file, format!("[[component]]\npath = {echo:?}\ndirs = [{grant:?}]\n")).unwrap();
        let output = std::process::Command::new(support::binary())
            .args(["serve", "--file"])
            .arg(&file)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{grant} in the file was accepted");
        assert!(
            stderr.contains(&grant) && stderr.contains("expected HOST[:GUEST][:ro|:rw]"),
            "{grant} in the file: {stderr}"
        );
    }
}

/// `mcp-wit ARGS` with stdin and stdout piped, and stderr piped and never
/// read: once the pipe is full, a blocking write to it would never return.
fn with_stderr_unread(args: &[&str]) -> tokio::process::Child {
    tokio::process::Command::new(support::binary())
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap()
}

/// A stdio server whose stderr nobody reads: the pipe fills (64 KiB) with
/// the warnings of guest panics, and writing logs must not stall serving.
/// Every call is answered, and a call past `--timeout` still ends with its
/// deadline error.
#[tokio::test]
async fn a_server_whose_stderr_is_never_read_keeps_answering_and_keeps_its_deadlines() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let hostile = support::fixture_arg("hostile");
    let mut child = with_stderr_unread(&["serve", &hostile, "--timeout", "1s", "-v"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut send = async |message: serde_json::Value| {
        stdin.write_all(format!("{message}\n").as_bytes()).await.unwrap();
        stdin.flush().await.unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params("2025-11-25")}),
    )
    .await;
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    // Some 1 KiB of warnings and guest lines each: several times the pipe.
    const PANICS: i64 = 400;
    for id in 1..=PANICS {
        send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "panic", "arguments": {}}}))
            .await;
    }
    send(json!({"jsonrpc": "2.0", "id": PANICS + 1, "method": "tools/call", "params": {"name": "spin", "arguments": {}}}))
        .await;
    let mut answered = 0;
    let mut deadline = None;
    // A hang guard, not a timing: the answers come in seconds.
    let read_all = async {
        while let Some(line) = stdout.next_line().await.unwrap() {
            let message: serde_json::Value = serde_json::from_str(&line).unwrap();
            answered += 1;
            if message["id"] == PANICS + 1 {
                deadline = Some(message);
                break;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(120), read_all).await.expect("the server stalled on its stderr");
    assert_eq!(answered, PANICS + 2, "initialize, every panic and the spin are answered");
    let deadline = deadline.unwrap();
    let message = deadline["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("timed out after 1s"), "{deadline}");
}

/// `initialize` from the address `from` (any 127.x.y.z reaches a server on
/// 127.0.0.1): the status, `Retry-After` and the body.
async fn initialize_from(server: &HttpServer, from: [u8; 4]) -> (u16, Option<String>, String) {
    let client = reqwest::Client::builder().local_address(std::net::IpAddr::from(from)).build().unwrap();
    let body = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": support::initialize_params("2025-11-25")});
    let reply = client
        .post(server.url())
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = reply.status().as_u16();
    let retry = reply.headers().get("retry-after").map(|v| v.to_str().unwrap().to_string());
    (status, retry, reply.text().await.unwrap())
}

/// One address may hold `--max-sessions-per-client` sessions; past that it
/// is told so (503, `Retry-After`, the flag), while other clients still get
/// theirs. `GET /sse` says the same, with `Retry-After` too.
#[tokio::test]
async fn one_client_cannot_take_every_session() {
    let echo = support::fixture_arg("echo");
    let server = HttpServer::start(&[&echo, "--guest-output", "discard", "--max-sessions-per-client", "3"]).await;
    for _ in 0..3 {
        assert_eq!(initialize_from(&server, [127, 0, 0, 1]).await.0, 200);
    }
    let (status, retry, body) = initialize_from(&server, [127, 0, 0, 1]).await;
    assert_eq!((status, retry.as_deref()), (503, Some("5")), "{body}");
    assert!(body.contains("--max-sessions-per-client"), "{body}");
    assert_eq!(initialize_from(&server, [127, 0, 0, 2]).await.0, 200, "another client is served");
    let sse = reqwest::Client::new().get(server.at("/sse")).header("Accept", "text/event-stream").send().await.unwrap();
    assert_eq!(sse.status().as_u16(), 503);
    assert!(sse.headers().contains_key("retry-after"), "{:?}", sse.headers());
    server.stop().await;
}

/// The lock-out: 1,024 `initialize` calls fill the table, from
/// four addresses (each within its per-client share). A new client is
/// served once the session idle longest may give way (a quarter of the
/// session timeout), long before any expires.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_client_is_served_after_idle_sessions_fill_the_table() {
    let echo = support::fixture_arg("echo");
    let server = HttpServer::start(&[&echo, "--guest-output", "discard", "--session-timeout", "20s"]).await;
    for address in 2..6u8 {
        for _ in 0..256 {
            assert_eq!(initialize_from(&server, [127, 0, 1, address]).await.0, 200);
        }
    }
    // Full: refused (503) until the session idle longest has been idle for
    // 5 s; before, the table stayed full until sessions expired.
    let mut served = false;
    for _ in 0..150 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if initialize_from(&server, [127, 0, 0, 1]).await.0 == 200 {
            served = true;
            break;
        }
    }
    assert!(served, "the new client was never served");
    // Logs reach stderr through a queue: the line comes moments later.
    let evicted = wait_for_log(&server, "the session idle longest gives way").await;
    assert!(evicted, "served by eviction, not expiry: {:.2000}", server.stderr.lock().unwrap());
    server.stop().await;
}

/// A notification POSTed behind calls that keep its session busy gets its
/// 202 at once, not once the calls ahead of it are done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notification_behind_a_busy_queue_is_accepted_at_once() {
    let conformance = support::fixture_arg("conformance");
    let server = HttpServer::start(&[&conformance, "--json-response", "--guest-output", "discard"]).await;
    let mut first = server.client();
    first.initialize("2025-11-25").await;
    let mut calls = Vec::new();
    for id in 1..=3 {
        let mut client = server.client();
        client.session = first.session.clone();
        client.version = first.version.clone();
        let params = json!({ "name": "wait", "arguments": { "ms": 1500 } });
        calls.push(tokio::spawn(async move { client.request(id, "tools/call", params).await }));
    }
    // Setup, not a measure: the calls reach the server first.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let notified = first.post(json!({ "jsonrpc": "2.0", "method": "notifications/roots/list_changed" })).await;
    assert_eq!(notified.status, reqwest::StatusCode::ACCEPTED, "{notified:?}");
    let pending = calls.iter().filter(|call| !call.is_finished()).count();
    assert!(pending >= 2, "the 202 came after the calls ahead of it: {pending} still running");
    for call in calls {
        let answer = call.await.unwrap();
        assert_eq!(answer["result"]["content"][0]["text"], "waited 1500 ms", "{answer}");
    }
    server.stop().await;
}

/// 3,000 connections that never send a byte, against a server of 16
/// connection slots: the probes still answer, well before any of those
/// connections would time out (`--header-timeout 120s`): the connections
/// idle longest give way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_probes_answer_while_idle_connections_hold_every_slot() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let echo = support::fixture_arg("echo");
    let args = [&*echo, "--max-connections", "16", "--header-timeout", "120s", "--guest-output", "discard"];
    let server = HttpServer::start(&args).await;
    let mut idle = Vec::new();
    for _ in 0..3000 {
        idle.push(tokio::net::TcpStream::connect(server.addr).await.unwrap());
    }
    let probe = async {
        for path in ["/healthz", "/readyz"] {
            let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
            let request = format!("GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", server.addr);
            stream.write_all(request.as_bytes()).await.unwrap();
            let mut answer = String::new();
            stream.read_to_string(&mut answer).await.unwrap();
            assert!(answer.starts_with("HTTP/1.1 200"), "{path}: {answer}");
        }
    };
    // A hang guard far below the header timeout: without room made, the
    // probe waits behind the idle connections until they time out.
    tokio::time::timeout(Duration::from_secs(60), probe).await.expect("the probes were stuck behind idle connections");
    drop(idle);
    server.stop().await;
}

/// Over stdio, `initialize` may not be cancelled (the spec forbids it): a
/// cancellation sent right behind it is ignored, and the session serves.
#[tokio::test]
async fn a_cancelled_initialize_is_answered_all_the_same() {
    let mut server = support::RawServer::start(&["serve", &support::fixture_arg("echo")]);
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": support::initialize_params("2025-11-25")});
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 0}});
    // One write: the cancellation is there before the answer is.
    server.send_bytes(format!("{initialize}\n{cancel}\n").as_bytes()).await;
    let answer = server.receive().await;
    assert_eq!(answer["result"]["protocolVersion"], "2025-11-25", "{answer}");
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string()).await;
    let tools = server.request(1, "tools/list", json!({})).await;
    assert!(tools["result"]["tools"].is_array(), "{tools}");
    server.finish().await;
}

/// A router that never asks questions still has what a client sends as a
/// round's state checked: -32602, as for any other router.
#[tokio::test]
async fn a_forged_round_state_is_refused_by_a_router_that_never_asks() {
    let mut server = support::RawServer::in_process("echo");
    let envelope = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "t", "version": "1" },
    });
    let forged = [json!({"requestState": "AAAA"}), json!({"requestState": 5}), json!({"inputResponses": [1]})];
    for (id, extra) in forged.into_iter().enumerate() {
        let mut params = json!({"name": "echo", "arguments": {"text": "x"}, "_meta": envelope});
        params.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let answer = server.request(id as i64 + 1, "tools/call", params).await;
        assert_eq!(answer["error"]["code"], -32602, "{extra}: {answer}");
    }
    let fine =
        server.request(9, "tools/call", json!({"name": "echo", "arguments": {"text": "x"}, "_meta": envelope})).await;
    assert_eq!(fine["result"]["content"][0]["text"], "x", "{fine}");
    server.finish().await;
}

/// One raw HTTP/1.1 exchange: the status and the whole answer.
async fn raw_exchange(server: &HttpServer, request: &str) -> (u16, String) {
    raw_exchange_at(server.addr, request).await
}

/// [`raw_exchange`] with a listener at `addr`.
async fn raw_exchange_at(addr: std::net::SocketAddr, request: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, answer)
}

/// Header tricks, each refused with 400: a header that must
/// come once sent twice (the first used to win), and an absolute-form
/// target naming another host than `Host`. A `Content-Length` over the
/// limit is refused at once (413), not after the body timeout (408).
#[tokio::test]
async fn duplicate_headers_a_foreign_absolute_target_and_an_oversized_length_are_refused_at_once() {
    let echo = support::fixture_arg("echo");
    let server = HttpServer::start(&[&echo, "--body-timeout", "120s", "--max-message-size", "1KiB"]).await;
    let host = server.addr;
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": support::initialize_params("2025-11-25")})
    .to_string();
    let post = |target: &str, extra: &str| {
        format!(
            "POST {target} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, \
             text/event-stream\r\nConnection: close\r\n{extra}Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let (status, answer) = raw_exchange(&server, &post("/mcp", "")).await;
    assert_eq!(status, 200, "{answer}");
    for extra in [
        format!("Host: {host}\r\n"),
        "Origin: http://localhost\r\nOrigin: http://evil.example\r\n".to_string(),
        "MCP-Protocol-Version: 2025-11-25\r\nMCP-Protocol-Version: 2025-06-18\r\n".to_string(),
        "Mcp-Session-Id: a\r\nMcp-Session-Id: b\r\n".to_string(),
    ] {
        let (status, answer) = raw_exchange(&server, &post("/mcp", &extra)).await;
        assert_eq!(status, 400, "{extra}: {answer}");
        assert!(answer.contains("more than one"), "{answer}");
    }
    let (status, answer) = raw_exchange(&server, &post("http://evil.example/mcp", "")).await;
    assert_eq!(status, 400, "{answer}");
    // Headers only: a server that waited for the body would answer 408
    // after two minutes; the hang guard is far below that.
    let oversized = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, \
         text/event-stream\r\nConnection: close\r\nContent-Length: 1000000\r\n\r\n"
    );
    let (status, answer) = tokio::time::timeout(Duration::from_secs(60), raw_exchange(&server, &oversized))
        .await
        .expect("the oversized body was waited for");
    assert_eq!(status, 413, "{answer}");
    server.stop().await;
}

/// A guest with a read-write grant may make symlinks inside it, but not
/// ones that point outside it (host tools would follow them): refused
/// before anything is written.
#[tokio::test]
async fn a_guest_cannot_make_a_symlink_that_points_outside_its_grant() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("note.txt"), "granted").unwrap();
    let rw = format!("{}:/data", dir.path().display());
    let hostile = support::fixture_arg("hostile");
    let mut server = support::RawServer::initialized(&["serve", &hostile, "--dir", &rw], "2025-11-25").await;
    for (id, target) in [(1, "/etc/passwd"), (2, "../../etc/passwd"), (3, "sub/../../x")] {
        let link = format!("/data/link{id}");
        let answer = server.call(id, "symlink", json!({ "target": target, "link": link })).await;
        assert_eq!(answer["result"]["isError"], true, "{target}: {answer}");
        assert!(std::fs::symlink_metadata(dir.path().join(format!("link{id}"))).is_err(), "{target}: a link was made");
    }
    let answer = server.call(4, "symlink", json!({ "target": "note.txt", "link": "/data/inside" })).await;
    assert_eq!(answer["result"]["content"][0]["text"], "linked /data/inside to note.txt", "{answer}");
    assert_eq!(std::fs::read_to_string(dir.path().join("inside")).unwrap(), "granted");
    server.finish().await;
}

/// A call still running when `--shutdown-timeout` runs out gets a JSON-RPC
/// error naming why, on its SSE stream or as its JSON answer, rather than a
/// connection cut without a word.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_cut_off_by_shutdown_is_told_why() {
    let conformance = support::fixture_arg("conformance");
    for json_response in [false, true] {
        let mut args = vec![&*conformance, "--guest-output", "discard", "--shutdown-timeout", "1s"];
        if json_response {
            args.push("--json-response");
        }
        let mut server = HttpServer::start(&args).await;
        let mut client = server.client();
        client.initialize("2025-11-25").await;
        let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "wait", "arguments": {"ms": 30000}}});
        let pending = tokio::spawn(async move { client.post(call).await });
        // Setup, not a measure: the call is running when the signal comes.
        tokio::time::sleep(Duration::from_millis(500)).await;
        server.terminate();
        let reply = pending.await.unwrap();
        let response = reply.response();
        assert_eq!(response["id"], 7, "json {json_response}: {reply:?}");
        assert_eq!(response["error"]["code"], -32603, "{reply:?}");
        assert!(response["error"]["message"].as_str().unwrap().contains("shut down"), "{reply:?}");
        assert!(server.wait().await.success());
    }
}

/// What `serve` is given is checked before it is used: a device or a FIFO
/// is no component (reading either would never end), a host name with a
/// space is no host, a duration needs its unit; and a server listening
/// beyond this machine without `--allow-host` says that Host is unchecked.
#[tokio::test]
async fn what_serve_is_given_is_checked_before_use() {
    let run = |args: &[&str]| {
        let output = std::process::Command::new(support::binary())
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        (output.status.success(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.wasm");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for path in ["/dev/zero", fifo.to_str().unwrap()] {
        let (ok, stderr) = run(&["serve", path]);
        assert!(!ok && stderr.contains("not a regular file"), "{path}: {stderr}");
    }
    let echo = support::fixture_arg("echo");
    let (ok, stderr) = run(&["serve", &echo, "--allow-http", "ex ample.com"]);
    assert!(!ok && stderr.contains("a host name has only"), "{stderr}");
    let file = dir.path().join("mcp-wit.toml");
    std::fs::write(&file, format!("timeout = 5\n[[component]]\npath = {echo:?}\n")).unwrap();
    let (ok, stderr) = run(&["serve", "--file", file.to_str().unwrap()]);
    assert!(!ok && stderr.contains("has no unit"), "{stderr}");

    let server = HttpServer::start_as_given(&[&echo, "--http", "0.0.0.0:0"]).await;
    let warned = wait_for_log(&server, "with no --allow-host: any Host header is taken").await;
    assert!(warned, "{}", server.stderr.lock().unwrap());
    // A request served: the server has taken up its signals, and stops cleanly.
    server.client().initialize("2025-11-25").await;
    server.stop().await;
}

/// Eight sessions, each with an instance printing 4 MiB (within its own
/// 1 MiB burst and 256 KiB/s): together they stay within the server-wide
/// budget of 4 MiB burst and 1 MiB/s, and the rest is counted as dropped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_flooding_output_together_stay_within_the_servers_budget() {
    let hostile = support::fixture_arg("hostile");
    let server = HttpServer::start(&[&hostile, "--json-response"]).await;
    let started = std::time::Instant::now();
    let mut floods = Vec::new();
    for _ in 0..8 {
        let mut client = server.client();
        floods.push(tokio::spawn(async move {
            client.initialize("2025-11-25").await;
            client.request(1, "tools/call", json!({"name": "print", "arguments": {"mib": 4}})).await
        }));
    }
    for flood in floods {
        let answer = flood.await.unwrap();
        assert_eq!(answer["result"]["content"][0]["text"], "printed 4 MiB", "{answer}");
    }
    // The guests' last lines and the drop notices come through the queue.
    wait_for_log(&server, "of guest output dropped").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let elapsed = started.elapsed().as_secs_f64();
    let log = server.stderr.lock().unwrap().clone();
    let written: usize = log.lines().filter(|l| l.starts_with("[hostile:stdout]")).map(|l| l.len() + 1).sum();
    // 4 MiB burst, then 1 MiB/s: without the server-wide budget, each of
    // the eight would have written its own 1 MiB burst and more.
    let allowed = (4.0 + elapsed) * 1024.0 * 1024.0;
    assert!((written as f64) < allowed, "{written} bytes of guest output in {elapsed:.1}s");
    assert!(log.contains("or 1024 KiB/s for all guests together"), "the drops are told of");
    server.stop().await;
}

/// Progress a tool reports counts against `--max-output` with its result:
/// together over the cap, the call fails with -32603 and none of it is
/// sent.
#[tokio::test]
async fn progress_counts_against_the_output_cap() {
    let everything = support::fixture_arg("everything");
    let mut server =
        support::RawServer::initialized(&["serve", &everything, "--max-output", "480B"], "2025-11-25").await;
    let params = json!({"name": "progress", "arguments": {}, "_meta": {"progressToken": "p"}});
    let answer = server.request(1, "tools/call", params).await;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("progress notifications"), "{message}");
    server.finish().await;
}
