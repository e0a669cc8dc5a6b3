//! Tool checks (M4, M5, L5 of the second review), against the `schema-liar`
//! fixture: a hostile `pattern` runs on threads of its own within a budget,
//! so probes and new sessions keep answering and the call fails closed; a
//! refusal is described briefly however large the argument; a tool name
//! MCP does not allow is left out of the list.

use std::time::Duration;

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::http::HttpServer;
use support::peak_rss_bytes;

use super::MIB;

fn liar() -> String {
    support::fixture_arg("schema_liar")
}

/// A `tools/call` of `tool` in a fresh 2025 session; its result.
async fn call(server: &HttpServer, tool: &str, arguments: Value) -> Value {
    let mut client = server.client();
    client.initialize("2025-11-25").await;
    let response = client.request(2, "tools/call", json!({ "name": tool, "arguments": arguments })).await;
    response["result"].clone()
}

/// The text of a tool error, asserting that it is one.
fn tool_error(result: &Value) -> &str {
    assert_eq!(result["isError"], true, "{result:.300}");
    result["content"][0]["text"].as_str().expect("a text item")
}

/// M4: words that each cost the pattern some 10 ms (`aaa…a` then digits,
/// all different), 2,000 to a call: unchecked, each call held an async
/// worker for tens of seconds, and three held every worker (`/healthz` and
/// new sessions froze). Now the checks run on their own threads, each call
/// stops at its budget with a tool error saying so, and the server answers
/// meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hostile_patterns_leave_probes_and_new_sessions_answering_and_fail_closed() {
    const CALLS: usize = 3;
    let server = HttpServer::start(&[&liar(), "--allow-invalid-schemas", "--validation-timeout", "1s"]).await;
    let words: Vec<String> = (0..2000).map(|i| format!("{}{i}", "a".repeat(18))).collect();
    let server = std::sync::Arc::new(server);
    let calls: Vec<_> = (0..CALLS)
        .map(|_| {
            let (server, words) = (server.clone(), words.clone());
            tokio::spawn(async move { call(&server, "slow-pattern", json!({ "words": words })).await })
        })
        .collect();
    // While they run (each would run for tens of seconds unbounded), the
    // probe and a new session answer, well within what the calls would take.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let bound = Duration::from_secs(5);
    let probe = tokio::time::timeout(bound, reqwest::get(server.at("/healthz"))).await;
    assert!(probe.is_ok_and(|r| r.is_ok_and(|r| r.status().is_success())), "/healthz did not answer");
    let mut client = server.client();
    let initialized = tokio::time::timeout(bound, client.initialize("2025-11-25")).await;
    assert!(initialized.is_ok(), "initialize did not answer");
    for call in calls {
        let result = call.await.unwrap();
        let text = tool_error(&result);
        assert!(
            text.starts_with("The arguments for tool `slow-pattern` could not be checked against its input schema")
                && text.contains("within the server's budget of 1s")
                && text.ends_with("send fewer or shorter values"),
            "{text}"
        );
    }
    // The same words, once each, pass.
    let few: Vec<&String> = words.iter().take(3).collect();
    assert_eq!(call(&server, "slow-pattern", json!({ "words": few })).await["content"][0]["text"], "called");
}

/// M5: an "array of integers" given 7 MiB of strings was described item by
/// item (68 MB of text, a 730 MB peak), and `allOf` of 200 types said its
/// 4 MiB value 200 times. Now the first failure is said, briefly, and the
/// server's peak grows by little more than the argument's parsed form.
#[tokio::test]
async fn a_refusal_is_brief_and_cheap_however_large_the_argument() {
    let server = HttpServer::start(&[&liar(), "--allow-invalid-schemas"]).await;
    let before = peak_rss_bytes(server.pid());
    let strings = vec!["12345"; 7 << 17];
    let refused = call(&server, "integers", json!({ "n": strings })).await;
    let text = tool_error(&refused);
    assert!(text.len() < 2048, "{} bytes: {text:.200}", text.len());
    assert!(
        text.starts_with(r#"Invalid arguments for tool `integers`: /n/0: "12345" is not of type "integer""#),
        "{text}"
    );

    let refused = call(&server, "all-types", json!({ "s": "x".repeat(4 << 20) })).await;
    let text = tool_error(&refused);
    assert!(text.len() < 2048 && text.starts_with("Invalid arguments for tool `all-types`: /s: \"xxx"), "{text:.200}");
    let grown = peak_rss_bytes(server.pid()).saturating_sub(before);
    assert!(grown < 200 * MIB, "the peak grew by {} MiB", grown / MIB);
}

/// L5: a tool whose name holds a line break is left out of the list, with
/// a warning.
#[tokio::test]
async fn a_tool_name_mcp_does_not_allow_is_left_out_of_the_list() {
    let server = HttpServer::start(&[&liar(), "--allow-invalid-schemas"]).await;
    let mut client = server.client();
    client.initialize("2025-11-25").await;
    let list = client.request(2, "tools/list", json!({})).await;
    let names: Vec<&str> =
        list["result"]["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"strict") && !names.iter().any(|name| name.contains('\n')), "{names:?}");
    let warned = super::wait_for_log(&server, "out of tools/list: its name is not a valid MCP tool name").await;
    assert!(warned, "{}", server.stderr.lock().unwrap());
}
