//! The stdio transport and the JSON-RPC layer under bad input: every
//! malformed message gets the exact JSON-RPC error (or silence, where the
//! spec says so) and the server keeps serving.

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::{RawServer, error_code, fixture, fixture_arg};

fn everything() -> String {
    fixture_arg("everything")
}

/// Sends a ping and checks the answer: proves the server still serves.
async fn assert_alive(server: &mut RawServer, id: i64) {
    let answer = server.request(id, "ping", json!({})).await;
    assert_eq!(answer["result"], json!({}), "{answer}");
}

#[tokio::test]
async fn malformed_json_is_a_parse_error() {
    let mut server = RawServer::initialized(&["serve", &everything()], "2025-11-25").await;
    for line in ["{oops", "{\"jsonrpc\":\"2.0\",", "nul", "\"unterminated"] {
        server.send(line).await;
        let answer = server.receive().await;
        assert_eq!(error_code(&answer), -32700, "{line} → {answer}");
        assert!(answer.get("id").is_none(), "no id can be known: {answer}");
    }
    assert_alive(&mut server, 1).await;
    server.finish().await;
}

#[tokio::test]
async fn valid_json_that_is_not_a_request_is_an_invalid_request() {
    let mut server = RawServer::initialized(&["serve", &everything()], "2025-11-25").await;
    let cases = [
        ("[]", None),
        ("42", None),
        ("\"text\"", None),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, None),
        (r#"{"jsonrpc":"2.0","id":5}"#, Some(json!(5))),
        (r#"{"jsonrpc":"1.0","id":6,"method":"ping"}"#, Some(json!(6))),
        (r#"{"id":7,"method":"ping"}"#, Some(json!(7))),
        (r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, None),
        (r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#, None),
        (r#"{"jsonrpc":"2.0","id":8,"method":"ping","params":"x"}"#, Some(json!(8))),
    ];
    for (line, id) in cases {
        server.send(line).await;
        let answer = server.receive().await;
        assert_eq!(error_code(&answer), -32600, "{line} → {answer}");
        assert_eq!(answer.get("id").cloned(), id, "{line} → {answer}");
    }
    assert_alive(&mut server, 1).await;
    server.finish().await;
}

#[tokio::test]
async fn missing_or_ill_typed_params_are_invalid_params() {
    let mut server = RawServer::initialized(&["serve", &everything()], "2025-11-25").await;
    let cases = [
        ("tools/call", json!({})),
        ("tools/call", json!({ "name": 5 })),
        ("tools/call", json!({ "name": "echo", "arguments": [1, 2] })),
        ("tools/call", json!({ "name": "echo", "arguments": "text" })),
        ("tools/call", json!({ "name": "echo", "_meta": { "progressToken": 1.5 } })),
        ("resources/read", json!({})),
        ("resources/read", json!({ "uri": false })),
        ("prompts/get", json!({})),
        ("prompts/get", json!({ "name": "greeting", "arguments": { "who": 1 } })),
        ("completion/complete", json!({ "argument": { "name": "who", "value": "" } })),
        ("completion/complete", json!({ "ref": { "type": "ref/nothing" }, "argument": { "name": "a", "value": "" } })),
        (
            "completion/complete",
            json!({ "ref": { "type": "ref/prompt", "name": "greeting" }, "argument": { "name": "a" } }),
        ),
        ("logging/setLevel", json!({})),
        ("tools/call", json!(["echo", {}])),
        ("logging/setLevel", json!({ "level": "loud" })),
        ("tools/list", json!({ "cursor": 3 })),
        ("tools/list", json!({ "cursor": "not-a-cursor" })),
    ];
    for (i, (method, params)) in cases.into_iter().enumerate() {
        let answer = server.request(i as i64 + 10, method, params.clone()).await;
        assert_eq!(error_code(&answer), -32602, "{method} {params} → {answer}");
    }
    // The session's guest is untouched by all that.
    let answer = server.call(2, "echo", json!({ "text": "still here" })).await;
    assert_eq!(answer["result"]["content"][0]["text"], "still here", "{answer}");
    server.finish().await;
}

#[tokio::test]
async fn unknown_methods_get_method_not_found_even_before_initialize() {
    let mut server = RawServer::start(&["serve", &everything()]);
    // A client probing for the 2026-07-28 revision must get an answer at once.
    let answer = server.request(1, "server/discover", json!({})).await;
    assert_eq!(error_code(&answer), -32601, "{answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains("server/discover"));
    let answer = server.request(2, "initialize", support::initialize_params("2025-11-25")).await;
    assert_eq!(answer["result"]["protocolVersion"], "2025-11-25");
    for method in ["tools/delete", "sampling/createMessage", "resources/templates/read"] {
        let answer = server.request(3, method, json!({})).await;
        assert_eq!(error_code(&answer), -32601, "{method} → {answer}");
    }
    server.finish().await;
}

#[tokio::test]
async fn requests_before_initialize_are_refused_but_ping_is_answered() {
    let mut server = RawServer::start(&["serve", &everything()]);
    assert_alive(&mut server, 1).await;
    for method in ["tools/list", "tools/call", "resources/list", "prompts/list"] {
        let answer = server.request(2, method, json!({ "name": "echo" })).await;
        assert_eq!(error_code(&answer), -32600, "{method} → {answer}");
        assert!(answer["error"]["message"].as_str().unwrap().contains("initialize"), "{answer}");
    }
    // Initialization still works afterwards.
    let answer = server.request(3, "initialize", support::initialize_params("2025-06-18")).await;
    assert_eq!(answer["result"]["protocolVersion"], "2025-06-18", "{answer}");
    let answer = server.request(4, "tools/list", json!({})).await;
    assert!(answer["result"]["tools"].as_array().is_some_and(|t| !t.is_empty()), "{answer}");
    server.finish().await;
}

#[tokio::test]
async fn a_second_initialize_is_refused_and_keeps_the_session() {
    let mut server = RawServer::initialized(&["serve", &everything()], "2025-03-26").await;
    assert_eq!(server.call(1, "counter", json!({})).await["result"]["content"][0]["text"], "1");
    let answer = server.request(2, "initialize", support::initialize_params("2025-11-25")).await;
    assert_eq!(error_code(&answer), -32600, "{answer}");
    // Same session, same instance, same revision.
    assert_eq!(server.call(3, "counter", json!({})).await["result"]["content"][0]["text"], "2");
    let answer = server.call(4, "all-content", json!({})).await;
    assert!(answer["result"]["content"][0]["annotations"].get("lastModified").is_none(), "still 2025-03-26: {answer}");
    server.finish().await;
}

#[tokio::test]
async fn responses_and_notifications_get_no_answer() {
    let mut server = RawServer::initialized(&["serve", &everything()], "2025-11-25").await;
    // A response to a request the server never sent, an unknown
    // notification and a cancellation: all silently accepted.
    server.send(r#"{"jsonrpc":"2.0","id":"never-sent","result":{}}"#).await;
    server.send(r#"{"jsonrpc":"2.0","id":99,"error":{"code":-1,"message":"no"}}"#).await;
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}"#).await;
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#).await;
    // The next line out is the answer to this ping, nothing before it.
    server.send(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#).await;
    let answer = server.receive().await;
    assert_eq!(answer, json!({ "jsonrpc": "2.0", "id": "p", "result": {} }));
    server.finish().await;
}

#[tokio::test]
async fn ids_are_echoed_exactly() {
    let mut server = RawServer::initialized(&["serve", &everything()], "2025-11-25").await;
    for id in [r#""a \"quoted\" id""#, "0", "-7", "9007199254740993", r#""ünïcødé""#] {
        server.send(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#)).await;
        let answer = server.receive().await;
        assert_eq!(answer["id"], serde_json::from_str::<Value>(id).unwrap(), "{answer}");
    }
    server.finish().await;
}

#[tokio::test]
async fn blank_lines_and_crlf_are_tolerated() {
    let mut server = RawServer::initialized(&["serve", &everything()], "2025-11-25").await;
    server.send_bytes(b"\n\r\n   \n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n").await;
    assert_eq!(server.receive().await["id"], 1);
    server.finish().await;
}

#[tokio::test]
async fn an_oversized_line_is_refused_without_losing_the_session() {
    let mut server = RawServer::initialized(&["serve", &everything()], "2025-11-25").await;
    assert_eq!(server.call(1, "counter", json!({})).await["result"]["content"][0]["text"], "1");
    // 10 MB: over the default 8 MiB limit.
    let text = "x".repeat(10 * 1024 * 1024);
    let line = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "echo", "arguments": { "text": text } } });
    server.send(&line.to_string()).await;
    let answer = server.receive().await;
    assert_eq!(error_code(&answer), -32600, "{}", &answer.to_string()[..200.min(answer.to_string().len())]);
    assert!(answer["error"]["message"].as_str().unwrap().contains("exceeds the limit"));
    // The session (and its guest state) goes on.
    assert_eq!(server.call(3, "counter", json!({})).await["result"]["content"][0]["text"], "2");
    server.finish().await;
}

#[tokio::test]
async fn a_10_mb_message_is_served_when_the_limit_allows_it() {
    let path = everything();
    let mut server = RawServer::initialized(&["serve", &path, "--max-message-size", "33554432"], "2025-11-25").await;
    let text = "y".repeat(10 * 1024 * 1024);
    let answer = server.call(1, "echo", json!({ "text": text })).await;
    assert_eq!(answer["result"]["content"][0]["text"].as_str().map(str::len), Some(text.len()));
    server.finish().await;
}

#[tokio::test]
async fn list_results_are_paged_with_opaque_cursors_when_asked() {
    let path = everything();
    let mut server = RawServer::initialized(&["serve", &path, "--page-size", "4"], "2025-11-25").await;
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    for id in 1.. {
        let params = match &cursor {
            Some(c) => json!({ "cursor": c }),
            None => json!({}),
        };
        let answer = server.request(id, "tools/list", params).await;
        let tools = answer["result"]["tools"].as_array().unwrap();
        assert!(tools.len() <= 4, "{answer}");
        names.extend(tools.iter().map(|t| t["name"].as_str().unwrap().to_string()));
        match answer["result"].get("nextCursor") {
            Some(next) => cursor = Some(next.as_str().unwrap().to_string()),
            None => break,
        }
    }
    assert_eq!(names, ["echo", "add", "all-content", "progress", "fail", "is-error", "panic", "counter", "annotated"]);
    let answer = server.request(100, "tools/list", json!({ "cursor": "forged" })).await;
    assert_eq!(error_code(&answer), -32602, "{answer}");
    server.finish().await;
}

#[tokio::test]
async fn the_server_exits_cleanly_when_stdin_closes() {
    let server = RawServer::start(&["serve", &everything()]);
    server.finish().await;
}

#[tokio::test]
async fn an_rmcp_client_that_probes_server_discover_first_is_served() {
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
    let path = everything();
    let mut child = tokio::process::Command::new(support::binary())
        .args(["serve", &path])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let lifecycle = ClientLifecycleMode::Auto {
        preferred_versions: vec![rmcp::model::ProtocolVersion::V_2026_07_28],
        legacy_version: Some(rmcp::model::ProtocolVersion::V_2025_11_25),
    };
    let client = tokio::time::timeout(support::ANSWER_TIMEOUT, ().serve_with_lifecycle(transport, lifecycle))
        .await
        .expect("fallback timed out")
        .expect("client could not connect");
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "echo"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_guest_error_without_a_message_still_gets_one() {
    let mut server = RawServer::initialized(&["serve", &everything()], "2025-11-25").await;
    let params = json!({ "ref": { "type": "ref/resource", "uri": "" }, "argument": { "name": "a", "value": "" } });
    let answer = server.request(1, "completion/complete", params).await;
    assert_eq!(error_code(&answer), -32602, "{answer}");
    assert!(!answer["error"]["message"].as_str().unwrap().trim().is_empty(), "{answer}");
    server.finish().await;
}

/// A writer that records each write that reaches it (one per flush).
struct Writes(std::sync::Arc<std::sync::Mutex<Vec<Vec<u8>>>>);

impl std::io::Write for Writes {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().push(bytes.to_vec());
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn pipelined_requests_are_answered_in_batches_of_eight() {
    let engine = mcp_wit::runtime::engine::build_engine().expect("engine");
    let policy = mcp_wit::SandboxPolicy::builder("echo").build();
    let component = mcp_wit::LoadedRouter::from_file(&engine, &fixture("echo"), policy).expect("load echo");
    let mut session = mcp_wit::Session::new(component, mcp_wit::SessionOptions::default());
    // 1 initialize, 1 notification and 18 calls, all waiting at once.
    let mut input = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params("2025-11-25") }).to_string();
    input.push_str("\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    for id in 1..=18 {
        let call = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": format!("t{id}") } } });
        input.push_str(&format!("{call}\n"));
    }
    let writes = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let options = mcp_wit::transport::stdio::StdioOptions::default();
    mcp_wit::transport::stdio::serve(&mut session, std::io::Cursor::new(input), Writes(writes.clone()), &options)
        .expect("served");
    let writes = writes.lock().unwrap();
    let answers: Vec<Vec<Value>> = writes
        .iter()
        .map(|w| {
            w.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(|l| serde_json::from_slice(l).unwrap()).collect()
        })
        .collect();
    // Flushed after every 8 messages handled (the notification counts, and
    // gets no answer), then once the input ran dry: 7 + 8 + 4 answers.
    let sizes: Vec<usize> = answers.iter().map(Vec::len).collect();
    assert_eq!(sizes, [7, 8, 4], "{answers:?}");
    let ids: Vec<i64> = answers.iter().flatten().map(|a| a["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, (0..=18).collect::<Vec<_>>());
}

/// `serve --watch` of a copy of the `hello` fixture in `dir`, initialized.
async fn watching_hello(dir: &std::path::Path) -> RawServer {
    let router = dir.join("router.wasm");
    std::fs::copy(fixture("hello"), &router).unwrap();
    RawServer::initialized(&["serve", router.to_str().unwrap(), "--watch"], "2025-11-25").await
}

/// A rebuild of what [`watching_hello`] serves, as `echo`: the file
/// replaced in one step, as a build tool does.
fn rebuild_as_echo(dir: &std::path::Path) {
    let rebuilt = dir.join("router.wasm.new");
    std::fs::copy(fixture("echo"), &rebuilt).unwrap();
    std::fs::rename(&rebuilt, dir.join("router.wasm")).unwrap();
}

#[tokio::test]
async fn watch_moves_the_connection_to_a_rebuilt_router_and_tells_the_client() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = watching_hello(dir.path()).await;
    let names = |list: &Value| -> Vec<String> {
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(names(&server.request(2, "tools/list", json!({})).await), ["hello"]);

    rebuild_as_echo(dir.path());
    // Unasked, while the client is idle: the lists that changed.
    let changed = server.receive().await;
    assert_eq!(changed["method"], "notifications/tools/list_changed", "{changed}");
    assert_eq!(names(&server.request(3, "tools/list", json!({})).await), ["echo"]);
    let echoed = server.call(4, "echo", json!({ "text": "rebuilt" })).await;
    assert_eq!(support::text(&echoed), "rebuilt");
    server.finish().await;
}

/// A client that is never idle (its next request sent as soon as the last
/// is answered) still moves to the rebuilt router: the move is looked for
/// before each message, not only while the connection waits.
#[tokio::test]
async fn watch_moves_a_client_that_is_never_idle() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = watching_hello(dir.path()).await;
    rebuild_as_echo(dir.path());
    // The watcher looks every 250 ms; requests for as long as an answer
    // may take give it time, and the connection never a quiet moment.
    let busy = std::time::Instant::now();
    let mut id = 10;
    let moved = loop {
        id += 1;
        let answer = server.request(id, "tools/list", json!({})).await;
        let tools = answer["result"]["tools"].as_array().unwrap();
        if tools.iter().any(|tool| tool["name"] == "echo") {
            break true;
        }
        if busy.elapsed() > support::ANSWER_TIMEOUT {
            break false;
        }
    };
    assert!(moved, "the connection never moved to the rebuilt router while its client kept it busy");
    server.finish().await;
}
