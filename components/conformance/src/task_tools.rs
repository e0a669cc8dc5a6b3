//! The tools the suite's tasks scenarios call (2026-07-28,
//! `io.modelcontextprotocol/tasks`), as their sources describe them. Each is
//! an ordinary tool: whether a call runs as a task is the host's to decide
//! (by the tool's task policy, which `.ci/conformance` sets), but for
//! `test_tool_with_task`, which asks to become one once its question is
//! answered; their questions travel as any call's do.

use crate::bindings::exports::wasix::mcp::router::{CallToolResult, ToolError, Value};
use crate::bindings::mcp_wit::extension::client;
use crate::content::{result, text};
use crate::questions::{ask_all, elicitation, name_question};
use crate::tools::argument;

/// The most `slow_compute` sleeps.
const MAX_SECONDS: u64 = 120;

/// Tools: (name, description, input schema).
pub(crate) const TASK_TOOLS: &[(&str, &str, &str)] = &[
    (
        "greet",
        "Greets someone at once (never a task)",
        r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#,
    ),
    (
        "slow_compute",
        "Sleeps `seconds` (at most 120), then answers with its label (a task when it may be one)",
        r#"{"type":"object","properties":{"seconds":{"type":"integer","minimum":0},"label":{"type":"string"}},"required":["seconds"]}"#,
    ),
    ("failing_job", "Fails as a tool after a second (a task only)", r#"{"type":"object","properties":{}}"#),
    (
        "protocol_error_job",
        "Fails with a JSON-RPC error: the router traps (a task ends failed)",
        r#"{"type":"object","properties":{}}"#,
    ),
    (
        "confirm_delete",
        "Asks the user to confirm deleting `filename`",
        r#"{"type":"object","properties":{"filename":{"type":"string"}},"required":["filename"]}"#,
    ),
    ("multi_input", "Asks the user two questions at once", r#"{"type":"object","properties":{}}"#),
    (
        "test_tool_with_task",
        "Asks the user's name, then greets them (its first round answers input_required)",
        r#"{"type":"object","properties":{}}"#,
    ),
];

/// A task tool's answer; `None` for a tool of another name.
pub(crate) fn call(tool_name: &str, arguments: &Value) -> Option<Result<CallToolResult, ToolError>> {
    Some(match tool_name {
        "greet" => argument(arguments, "name").map(|name| result(vec![text(&format!("Hello, {name}!"))])),
        "slow_compute" => slow_compute(arguments),
        "failing_job" => {
            std::thread::sleep(std::time::Duration::from_secs(1));
            Ok(CallToolResult { is_error: Some(true), ..result(vec![text("The job failed, as it always does.")]) })
        }
        // A tool error is a result; only a trap ends a call in a JSON-RPC error.
        "protocol_error_job" => panic!("protocol_error_job ends in a JSON-RPC error, as it always does"),
        "confirm_delete" => confirm_delete(arguments),
        "multi_input" => multi_input(),
        "test_tool_with_task" => test_tool_with_task(),
        _ => return None,
    })
}

/// Asks the name as a 2026-07-28 round, then goes on as a task (the
/// extension's advice: questions that decide whether to go on are asked
/// before the task exists).
fn test_tool_with_task() -> Result<CallToolResult, ToolError> {
    let [answer] = ask_all([name_question("user_name", "What is your name?")])?;
    client::run_as_task();
    let name = answer["content"]["name"].as_str().unwrap_or("whoever you are");
    Ok(result(vec![text(&format!("Hello, {name}!"))]))
}

fn slow_compute(arguments: &Value) -> Result<CallToolResult, ToolError> {
    let arguments: serde_json::Value =
        serde_json::from_str(&arguments.json).map_err(|e| ToolError::InvalidParameters(e.to_string()))?;
    let seconds = arguments["seconds"]
        .as_u64()
        .ok_or_else(|| ToolError::InvalidParameters("`seconds` must be a non-negative integer".into()))?;
    let label = arguments["label"].as_str().unwrap_or("result");
    std::thread::sleep(std::time::Duration::from_secs(seconds.min(MAX_SECONDS)));
    Ok(result(vec![text(&format!("{label}: computed in {seconds} s"))]))
}

fn confirm_delete(arguments: &Value) -> Result<CallToolResult, ToolError> {
    let filename = argument(arguments, "filename")?;
    let [answer] = ask_all([elicitation(
        "confirm",
        &format!("Delete {filename}?"),
        serde_json::json!({ "confirm": { "type": "boolean" } }),
    )])?;
    let confirmed = answer["action"] == "accept" && answer["content"]["confirm"] == true;
    let said = if confirmed { format!("Deleted {filename}.") } else { format!("Kept {filename}.") };
    Ok(result(vec![text(&said)]))
}

fn multi_input() -> Result<CallToolResult, ToolError> {
    let [name, confirm] = ask_all([
        elicitation("name", "What is your name?", serde_json::json!({ "name": { "type": "string" } })),
        elicitation("confirm", "Shall I go on?", serde_json::json!({ "confirm": { "type": "boolean" } })),
    ])?;
    let said = format!("name: {}, confirmed: {}", name["content"]["name"], confirm["content"]["confirm"]);
    Ok(result(vec![text(&said)]))
}
