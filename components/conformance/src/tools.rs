//! The tools the suite calls, and what each does: content of every kind,
//! progress and logs, questions to the client, errors, list changes.

use crate::bindings::exports::wasix::mcp::router::{AudioContent, CallToolResult, Content, Tool, ToolError, Value};
use crate::bindings::mcp_wit::extension::client::{self, ClientError, ListKind, LogLevel, QuestionKind};
use crate::content::{WAV, embedded_text, image_content, result, text};
use crate::questions::{
    ask_all, asked, completed, confirm_question, elicit, name_question, roots_question, sampling_question,
};

const NO_ARGUMENTS: &str = r#"{"type":"object","properties":{}}"#;

/// SEP-1613: a JSON Schema 2020-12 input schema that must reach the client unchanged.
const JSON_SCHEMA_2020_12: &str = r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},"additionalProperties":false}"##;

/// Tools: (name, description, input schema).
const TOOLS: &[(&str, &str, &str)] = &[
    ("test_simple_text", "Tests simple text content response", NO_ARGUMENTS),
    ("test_image_content", "Tests image content response", NO_ARGUMENTS),
    ("test_audio_content", "Tests audio content response", NO_ARGUMENTS),
    ("test_embedded_resource", "Tests embedded resource content response", NO_ARGUMENTS),
    ("test_multiple_content_types", "Tests response with multiple content types (text, image, resource)", NO_ARGUMENTS),
    ("test_tool_with_logging", "Tests tool that emits log messages during execution", NO_ARGUMENTS),
    ("test_tool_with_progress", "Tests tool that reports progress notifications", NO_ARGUMENTS),
    ("test_error_handling", "Tests error response handling", NO_ARGUMENTS),
    (
        "test_streaming_elicitation",
        "Tests that a 2026-07-28 response stream carries no server-to-client request; answers at once",
        NO_ARGUMENTS,
    ),
    (
        "test_logging_tool",
        "Tests that no notifications/message is sent without a requested log level; answers at once",
        NO_ARGUMENTS,
    ),
    ("test_reconnection", "Tests SSE stream reconnection (SEP-1699); answers at once", NO_ARGUMENTS),
    ("test_input_required_result_elicitation", "Asks the user's name (one round)", NO_ARGUMENTS),
    ("test_input_required_result_sampling", "Asks the client's model a question (one round)", NO_ARGUMENTS),
    ("test_input_required_result_list_roots", "Asks for the client's roots (one round)", NO_ARGUMENTS),
    ("test_input_required_result_request_state", "Asks for a confirmation across a round", NO_ARGUMENTS),
    ("test_input_required_result_multiple_inputs", "Asks three questions in one round", NO_ARGUMENTS),
    ("test_input_required_result_multi_round", "Asks two questions, one round each", NO_ARGUMENTS),
    ("test_input_required_result_tampered_state", "Asks for a confirmation across a round", NO_ARGUMENTS),
    ("test_input_required_result_capabilities", "Asks only what the client can answer", NO_ARGUMENTS),
    ("test_missing_capability", "Needs the client's model: fails without `sampling`", NO_ARGUMENTS),
    ("test_trigger_tool_change", "Adds `test_added_tool` to this instance's list and says so", NO_ARGUMENTS),
    ("test_trigger_prompt_change", "Says that the prompt list changed", NO_ARGUMENTS),
    (
        "test_update_resource",
        "Says that the resource at `uri` changed",
        r#"{"type":"object","properties":{"uri":{"type":"string"}},"required":["uri"]}"#,
    ),
    (
        "test_custom_header",
        "Echoes `region`, which 2026-07-28 clients also send as the Mcp-Param-Region header (SEP-2243)",
        r#"{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}},"required":["region"]}"#,
    ),
    (
        "test_sampling",
        "Tests server-initiated sampling",
        r#"{"type":"object","properties":{"prompt":{"type":"string","description":"The prompt to send to the LLM"}},"required":["prompt"]}"#,
    ),
    (
        "test_elicitation",
        "Tests server-initiated elicitation",
        r#"{"type":"object","properties":{"message":{"type":"string","description":"The message to show the user"}},"required":["message"]}"#,
    ),
    (
        "test_elicitation_sep1034_defaults",
        "Tests elicitation with default values for every primitive type (SEP-1034)",
        NO_ARGUMENTS,
    ),
    ("test_elicitation_sep1330_enums", "Tests elicitation with every kind of enum schema (SEP-1330)", NO_ARGUMENTS),
    ("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", JSON_SCHEMA_2020_12),
    (
        "wait",
        "Waits `ms` milliseconds (at most 10000), then answers (the host's HTTP tests use it)",
        r#"{"type":"object","properties":{"ms":{"type":"integer","minimum":0}},"required":["ms"]}"#,
    ),
    ("counter", "Counts its calls on this instance (the host's HTTP tests use it)", NO_ARGUMENTS),
    ("roots_changed", "How many times the client said its roots changed, on this instance", NO_ARGUMENTS),
];

/// Calls of `counter` on this instance.
static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Whether `test_trigger_tool_change` ran on this instance: its list then
/// has this tool too, so that a client can see the change it announced.
static TOOL_ADDED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The tool `test_trigger_tool_change` adds.
const ADDED_TOOL: (&str, &str, &str) = ("test_added_tool", "Listed once test_trigger_tool_change ran", NO_ARGUMENTS);

/// A string argument of a tool call.
pub(crate) fn argument(arguments: &Value, name: &str) -> Result<String, ToolError> {
    let arguments: serde_json::Value =
        serde_json::from_str(&arguments.json).map_err(|e| ToolError::InvalidParameters(e.to_string()))?;
    arguments[name]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| ToolError::InvalidParameters(format!("`{name}` must be a string")))
}

/// How many times the client said its roots changed, on this instance.
static ROOTS_CHANGED: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// The client said its roots changed.
pub(crate) fn roots_list_changed() {
    ROOTS_CHANGED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

pub(crate) fn list_tools() -> Vec<Tool> {
    let added = TOOL_ADDED.load(std::sync::atomic::Ordering::Relaxed).then_some(&ADDED_TOOL);
    TOOLS.iter().chain(added).map(tool).collect()
}

/// The tool of `(name, description, input schema)`.
pub(crate) fn tool(&(name, description, schema): &(&str, &str, &str)) -> Tool {
    Tool {
        name: name.into(),
        description: description.into(),
        input_schema: Value { json: schema.into() },
        output_schema: None,
        annotations: None,
        meta: None,
    }
}

pub(crate) fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
    match tool_name.as_str() {
        "test_simple_text" => Ok(result(vec![text("This is a simple text response for testing.")])),
        "test_image_content" => Ok(result(vec![Content::Image(image_content())])),
        "test_audio_content" => Ok(result(vec![Content::Audio(AudioContent {
            data: WAV.into(),
            mime_type: "audio/wav".into(),
            annotations: None,
        })])),
        "test_embedded_resource" => Ok(result(vec![Content::Embedded(embedded_text(
            "test://embedded-resource",
            "text/plain",
            "This is an embedded resource content.",
        ))])),
        "test_multiple_content_types" => Ok(result(vec![
            text("Multiple content types test:"),
            Content::Image(image_content()),
            Content::Embedded(embedded_text(
                "test://mixed-content-resource",
                "application/json",
                r#"{"test":"data","value":123}"#,
            )),
        ])),
        "test_tool_with_logging" => {
            let log = |message: &str| client::notify_logging_message(LogLevel::Info, None, &format!("{message:?}"));
            log("Tool execution started");
            std::thread::sleep(std::time::Duration::from_millis(50));
            log("Tool processing data");
            std::thread::sleep(std::time::Duration::from_millis(50));
            log("Tool execution completed");
            Ok(result(vec![text("Tool with logging executed successfully")]))
        }
        "test_tool_with_progress" => {
            for (done, message) in [(0.0, "Starting"), (50.0, "Halfway"), (100.0, "Done")] {
                client::notify_progress(done, Some(100.0), Some(message));
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            Ok(result(vec![text("Progress test completed")]))
        }
        "test_error_handling" => {
            Err(ToolError::ExecutionError("This tool intentionally returns an error for testing".into()))
        }
        "test_streaming_elicitation" => {
            Ok(result(vec![text("Answered on the request's own stream, without asking the client anything.")]))
        }
        "test_logging_tool" => {
            Ok(result(vec![text("Done; this router logs nothing, so no notifications/message was sent.")]))
        }
        "test_reconnection" => Ok(result(vec![text(
            "Reconnection test completed successfully (the response was sent on the original stream).",
        )])),
        "test_sampling" => {
            let prompt = argument(&arguments, "prompt")?;
            let params = serde_json::json!({
                "messages": [{ "role": "user", "content": { "type": "text", "text": prompt } }],
                "maxTokens": 100,
            });
            let answer = client::create_message(&params.to_string()).map_err(asked)?;
            let answer: serde_json::Value =
                serde_json::from_str(&answer).map_err(|e| ToolError::ExecutionError(e.to_string()))?;
            let said = answer["content"]["text"].as_str().unwrap_or_default();
            Ok(result(vec![text(&format!("LLM response: {said}"))]))
        }
        "test_elicitation" => {
            let message = argument(&arguments, "message")?;
            let params = serde_json::json!({
                "message": message,
                "requestedSchema": {
                    "type": "object",
                    "properties": {
                        "username": { "type": "string", "description": "User's response" },
                        "email": { "type": "string", "description": "User's email address" },
                    },
                    "required": ["username", "email"],
                },
            });
            let answer = elicit(&params)?;
            Ok(result(vec![text(&format!(
                "User response: <action: {}, content: {}>",
                answer["action"].as_str().unwrap_or_default(),
                answer.get("content").cloned().unwrap_or_default()
            ))]))
        }
        "test_elicitation_sep1034_defaults" => {
            let answer = elicit(&serde_json::json!({
                "message": "Please review and update the form fields with defaults",
                "requestedSchema": {
                    "type": "object",
                    "properties": {
                        "name": { "type": "string", "description": "User name", "default": "John Doe" },
                        "age": { "type": "integer", "description": "User age", "default": 30 },
                        "score": { "type": "number", "description": "User score", "default": 95.5 },
                        "status": {
                            "type": "string",
                            "description": "User status",
                            "enum": ["active", "inactive", "pending"],
                            "default": "active",
                        },
                        "verified": { "type": "boolean", "description": "Verification status", "default": true },
                    },
                },
            }))?;
            Ok(result(vec![text(&completed(&answer))]))
        }
        "test_elicitation_sep1330_enums" => {
            let answer = elicit(&serde_json::json!({
                "message": "Please select options from the enum fields",
                "requestedSchema": {
                    "type": "object",
                    "properties": {
                        "untitledSingle": {
                            "type": "string",
                            "description": "Select one option",
                            "enum": ["option1", "option2", "option3"],
                        },
                        "titledSingle": {
                            "type": "string",
                            "description": "Select one option with titles",
                            "oneOf": [
                                { "const": "value1", "title": "First Option" },
                                { "const": "value2", "title": "Second Option" },
                                { "const": "value3", "title": "Third Option" },
                            ],
                        },
                        "legacyEnum": {
                            "type": "string",
                            "description": "Select one option (legacy)",
                            "enum": ["opt1", "opt2", "opt3"],
                            "enumNames": ["Option One", "Option Two", "Option Three"],
                        },
                        "untitledMulti": {
                            "type": "array",
                            "description": "Select multiple options",
                            "minItems": 1,
                            "maxItems": 3,
                            "items": { "type": "string", "enum": ["option1", "option2", "option3"] },
                        },
                        "titledMulti": {
                            "type": "array",
                            "description": "Select multiple options with titles",
                            "minItems": 1,
                            "maxItems": 3,
                            "items": {
                                "anyOf": [
                                    { "const": "value1", "title": "First Choice" },
                                    { "const": "value2", "title": "Second Choice" },
                                    { "const": "value3", "title": "Third Choice" },
                                ],
                            },
                        },
                    },
                    "required": [],
                },
            }))?;
            Ok(result(vec![text(&completed(&answer))]))
        }
        "test_input_required_result_elicitation" => {
            let [answer] = ask_all([name_question("user_name", "What is your name?")])?;
            Ok(result(vec![text(&format!("Hello, {}!", answer["content"]["name"].as_str().unwrap_or("?")))]))
        }
        "test_input_required_result_sampling" => {
            let [answer] = ask_all([sampling_question("capital_question", "What is the capital of France?", 100)])?;
            Ok(result(vec![text(&format!("Sampling answered: {}", answer["content"]["text"].as_str().unwrap_or("")))]))
        }
        "test_input_required_result_list_roots" => {
            let [answer] = ask_all([roots_question("client_roots")])?;
            Ok(result(vec![text(&format!("Client roots: {}", answer["roots"]))]))
        }
        // The host checks the echoed `requestState` before the call is run
        // again: reaching the end means it checked out.
        "test_input_required_result_request_state" | "test_input_required_result_tampered_state" => {
            let [answer] = ask_all([confirm_question("confirm")])?;
            Ok(result(vec![text(&format!("state-ok: confirmed ({})", answer["action"].as_str().unwrap_or("")))]))
        }
        "test_input_required_result_multiple_inputs" => {
            let [name, greeting, roots] = ask_all([
                name_question("user_name", "What is your name?"),
                sampling_question("greeting", "Generate a greeting", 50),
                roots_question("client_roots"),
            ])?;
            Ok(result(vec![text(&format!(
                "name: {}, greeting: {}, roots: {}",
                name["content"]["name"], greeting["content"]["text"], roots["roots"]
            ))]))
        }
        "test_input_required_result_multi_round" => {
            let [name] = ask_all([name_question("step1", "Step 1: What is your name?")])?;
            let color = client::Question {
                key: "step2".into(),
                kind: QuestionKind::CreateElicitation,
                params: Some(
                    serde_json::json!({
                        "message": "Step 2: What is your favorite color?",
                        "requestedSchema": { "type": "object", "properties": { "color": { "type": "string" } }, "required": ["color"] },
                    })
                    .to_string(),
                ),
            };
            let [color] = ask_all([color])?;
            Ok(result(vec![text(&format!("{} likes {}", name["content"]["name"], color["content"]["color"]))]))
        }
        "test_trigger_tool_change" => {
            TOOL_ADDED.store(true, std::sync::atomic::Ordering::Relaxed);
            client::notify_list_changed(ListKind::Tools);
            Ok(result(vec![text("Tool list change announced")]))
        }
        "test_trigger_prompt_change" => {
            client::notify_list_changed(ListKind::Prompts);
            Ok(result(vec![text("Prompt list change announced")]))
        }
        "test_update_resource" => {
            client::notify_resource_updated(&argument(&arguments, "uri")?);
            Ok(result(vec![text("Resource update announced")]))
        }
        "test_custom_header" => Ok(result(vec![text(&format!("region: {}", argument(&arguments, "region")?))])),
        // One question the call cannot do without: in a 2026-07-28 request
        // whose client did not declare `sampling`, the host fails it with
        // -32021 before anything is asked.
        "test_missing_capability" => {
            let params = serde_json::json!({
                "messages": [{ "role": "user", "content": { "type": "text", "text": "Say hello" } }],
                "maxTokens": 20,
            });
            let answer = client::create_message(&params.to_string()).map_err(asked)?;
            let answer: serde_json::Value =
                serde_json::from_str(&answer).map_err(|e| ToolError::ExecutionError(e.to_string()))?;
            Ok(result(vec![text(&format!("The model said: {}", answer["content"]["text"]))]))
        }
        "test_input_required_result_capabilities" => {
            // Both asked; a question the client did not declare is
            // `unsupported` and never sent.
            let answers = client::ask(&[
                name_question("user_name", "What is your name?"),
                sampling_question("capital_question", "What is the capital of France?", 100),
            ]);
            let said: Vec<String> = answers
                .into_iter()
                .map(|answer| match answer {
                    Ok(json) => json,
                    Err(ClientError::Unsupported(what)) => format!("(unsupported: {what})"),
                    Err(other) => format!("({other:?})"),
                })
                .collect();
            Ok(result(vec![text(&said.join("; "))]))
        }
        "json_schema_2020_12_tool" => {
            Ok(result(vec![text(&format!("JSON Schema 2020-12 tool called with: {}", arguments.json))]))
        }
        "wait" => {
            let arguments: serde_json::Value =
                serde_json::from_str(&arguments.json).map_err(|e| ToolError::InvalidParameters(e.to_string()))?;
            let ms = arguments["ms"]
                .as_u64()
                .ok_or_else(|| ToolError::InvalidParameters("`ms` must be a non-negative integer".into()))?;
            std::thread::sleep(std::time::Duration::from_millis(ms.min(10_000)));
            Ok(result(vec![text(&format!("waited {ms} ms"))]))
        }
        "roots_changed" => {
            let changes = ROOTS_CHANGED.load(std::sync::atomic::Ordering::Relaxed);
            Ok(result(vec![text(&changes.to_string())]))
        }
        "counter" => {
            let calls = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            Ok(result(vec![text(&calls.to_string())]))
        }
        "test_added_tool" if TOOL_ADDED.load(std::sync::atomic::Ordering::Relaxed) => {
            Ok(result(vec![text("The added tool answers")]))
        }
        _ => Err(ToolError::NotFound(tool_name)),
    }
}
