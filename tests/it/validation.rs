//! What a tool promises, checked by the host with the `schema-liar`
//! fixture: arguments against the input schema before the guest runs (a
//! failed check is a tool error naming why), a structured result against
//! the output schema, and schemas that are not valid JSON Schema refused at
//! load by `serve`, `inspect` and `call` unless `--allow-invalid-schemas`
//! says to serve them unchecked. Over stdio in both eras with raw JSON-RPC
//! (every message checked against its revision's schema), and with the
//! Python SDK client.

use std::process::{Command, Stdio};

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::peers::{Peer, run_peer};
use support::schema::{self, Revision};
use support::{RawServer, binary, fixture_arg};

const MODERN: &str = "2026-07-28";

fn liar() -> String {
    fixture_arg("schema_liar")
}

/// `params` with the 2026-07-28 envelope in its `_meta`.
fn modern(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "validation-test", "version": "1.0.0" },
    });
    params
}

/// The one `error: ` line of a command that failed.
fn refusal(args: &[&str]) -> String {
    let output = Command::new(binary()).args(args).stdin(Stdio::null()).output().expect("mcp-wit runs");
    assert!(!output.status.success(), "expected {args:?} to fail");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let errors: Vec<&str> = stderr.lines().filter(|line| line.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "one error line: {stderr}");
    errors[0].to_string()
}

#[test]
fn a_schema_that_is_not_json_schema_stops_serve_inspect_and_call_naming_the_tool() {
    let liar = liar();
    for args in [vec!["serve", &liar], vec!["inspect", &liar], vec!["call", &liar, "strict"]] {
        let error = refusal(&args);
        assert!(
            error.contains("tool `typo`: its input-schema is not valid JSON Schema: ")
                && error.contains("\"strng\"")
                && error.ends_with("or pass --allow-invalid-schemas to serve the tool unchecked"),
            "{args:?}: {error}"
        );
    }
}

#[test]
fn allowed_invalid_schemas_are_served_unchecked_with_a_warning() {
    let output = Command::new(binary())
        .args(["call", &liar(), "typo", "--allow-invalid-schemas", "--args", r#"{"a":1}"#])
        .stdin(Stdio::null())
        .output()
        .expect("mcp-wit runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["content"][0]["text"], "called", "{result}");
    for tool in ["typo", "not-json"] {
        assert!(
            stderr.lines().any(|l| l.contains("WARN") && l.contains(&format!("tool `{tool}`"))),
            "a warning naming {tool}: {stderr}"
        );
    }
}

/// Checks the answers to the argument and output checks, whichever era
/// asked; `call` sends one `tools/call` and returns its result.
async fn check_calls(server: &mut RawServer, modern_era: bool) {
    let revision = if modern_era { Revision::Modern } else { Revision::Legacy };
    let mut id = 10;
    let mut call = async |server: &mut RawServer, tool: &str, arguments: Value| {
        id += 1;
        let mut params = json!({ "name": tool, "arguments": arguments });
        if modern_era {
            params = modern(params);
        }
        let response = server.request(id, "tools/call", params).await;
        schema::check_at(revision, "JSONRPCMessage", &response).unwrap();
        response["result"].clone()
    };
    let good = call(server, "strict", json!({ "text": "hello" })).await;
    assert_eq!(good["structuredContent"], json!({ "length": 5 }), "{good}");
    assert_ne!(good["isError"], true, "{good}");

    // minLength, a missing property, an extra one, a wrong type: each with
    // where it failed and why, before the guest ran.
    for (arguments, reason) in [
        (json!({ "text": "" }), "/text: \"\" is shorter than 1 character"),
        (json!({}), "\"text\" is a required property"),
        (json!({ "text": "x", "extra": 1 }), "Additional properties are not allowed ('extra' was unexpected)"),
        (json!({ "text": 7 }), "/text: 7 is not of type \"string\""),
    ] {
        let refused = call(server, "strict", arguments.clone()).await;
        assert_eq!(refused["isError"], true, "{arguments}: {refused}");
        let text = refused["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("Invalid arguments for tool `strict`: "), "{text}");
        assert!(text.contains(reason), "{arguments}: expected {reason:?} in {text}");
        assert!(refused.get("structuredContent").is_none(), "{refused}");
    }

    let lied = call(server, "liar", json!({})).await;
    assert_eq!(lied["isError"], true, "{lied}");
    let text = lied["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("The tool `liar` returned a result that does not match its output schema: ")
            && text.contains("/length: \"many\" is not of type \"integer\""),
        "{text}"
    );
}

#[tokio::test]
async fn arguments_and_structured_results_are_checked_over_stdio_in_both_eras() {
    let liar = liar();
    let args = ["serve", liar.as_str(), "--allow-invalid-schemas"];
    let mut legacy = RawServer::initialized(&args, "2025-11-25").await;
    check_calls(&mut legacy, false).await;
    legacy.finish().await;
    let mut modern_server = RawServer::start(&args);
    check_calls(&mut modern_server, true).await;
    modern_server.finish().await;
}

#[tokio::test]
async fn a_schema_that_is_not_even_json_leaves_its_tool_out_of_the_list_with_a_warning() {
    let liar = liar();
    let mut server = RawServer::initialized(&["serve", &liar, "--allow-invalid-schemas"], "2025-11-25").await;
    let list = server.request(2, "tools/list", json!({})).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &list).unwrap();
    let names: Vec<&str> =
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    // `typo` is JSON with a mistake in it: listed, its calls unchecked.
    assert_eq!(names, ["strict", "liar", "typo", "slow-pattern", "integers", "all-types"], "{list}");
    server.finish_and_wait_for_stderr().await;
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(
        stderr.lines().any(|l| l.contains("WARN") && l.contains("leaving tool `not-json` out of tools/list")),
        "{stderr}"
    );
}

#[tokio::test]
async fn no_validate_input_hands_the_arguments_to_the_guest_as_sent() {
    let liar = liar();
    let args = ["serve", liar.as_str(), "--allow-invalid-schemas", "--no-validate-input"];
    let mut server = RawServer::initialized(&args, "2025-11-25").await;
    let response = server.request(2, "tools/call", json!({ "name": "strict", "arguments": { "text": "" } })).await;
    assert_eq!(response["result"]["structuredContent"], json!({ "length": 0 }), "{response}");
    server.finish().await;
}

#[tokio::test]
async fn the_python_sdk_sees_a_bad_argument_as_a_tool_error_with_its_reason() {
    let liar = liar();
    let args = |mode: &str, arguments: &str| {
        let command = ["--", &binary().display().to_string(), "serve", &liar, "--allow-invalid-schemas"];
        ["--mode", mode, "--tool", "strict", "--args", arguments].into_iter().chain(command).map(String::from).collect()
    };
    let (modern_bad, legacy_bad, modern_good) = tokio::join!(
        run_peer(Peer::Python, args("auto", r#"{"text":""}"#)),
        run_peer(Peer::Python, args("legacy", r#"{"text":""}"#)),
        run_peer(Peer::Python, args("auto", r#"{"text":"four"}"#)),
    );
    for (run, version) in [(&modern_bad, MODERN), (&legacy_bad, "2025-11-25")] {
        let report = &run.report;
        assert_eq!(report["protocolVersion"], version, "{report}");
        assert_eq!(report["call"]["isError"], true, "{report}");
        let text = report["call"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("shorter than 1 character"), "{version}: {text}");
    }
    assert_eq!(modern_good.report["call"]["structuredContent"], json!({ "length": 4 }), "{}", modern_good.report);
}
