//! `conformance-plugin`: what the official MCP conformance suite asks of a
//! server (see `components/conformance`), as a v1-draft Extism plugin built
//! with extism-pdk, as far as the v1-draft exports express it: tools,
//! resources, a template, prompts and completions. What needs the plugin
//! host functions (`extism:host/user`) is here too: logging, progress,
//! sampling, elicitation, roots and change notifications, each question a
//! 2026-07-28 round of its own. What the schema cannot say is not: several
//! questions in one round, a question's key, a batch whose questions the
//! client may each not support.

use extism_pdk::{FnResult, Json, plugin_fn};
use serde_json::{Value, json};

/// A 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A silent WAV.
const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

fn text(text: &str) -> Value {
    json!({ "type": "text", "text": text })
}

fn image() -> Value {
    json!({ "type": "image", "data": PNG, "mimeType": "image/png" })
}

fn embedded(uri: &str, mime_type: &str, text: &str) -> Value {
    json!({ "type": "resource", "resource": { "uri": uri, "mimeType": mime_type, "text": text } })
}

fn result(content: Vec<Value>) -> FnResult<Json<Value>> {
    Ok(Json(json!({ "content": content })))
}

const NO_ARGUMENTS: &str = r#"{"type":"object","properties":{}}"#;

/// SEP-1613: a JSON Schema 2020-12 input schema that must reach the client unchanged.
const JSON_SCHEMA_2020_12: &str = r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},"additionalProperties":false}"##;

const ELICITATION_ARGUMENTS: &str = r#"{"type":"object","properties":{"message":{"type":"string","description":"The message to show the user"}},"required":["message"]}"#;

/// (name, description, input schema).
const TOOLS: [(&str, &str, &str); 27] = [
    ("test_simple_text", "Tests simple text content response", NO_ARGUMENTS),
    ("test_image_content", "Tests image content response", NO_ARGUMENTS),
    ("test_audio_content", "Tests audio content response", NO_ARGUMENTS),
    ("test_embedded_resource", "Tests embedded resource content response", NO_ARGUMENTS),
    ("test_multiple_content_types", "Tests response with multiple content types (text, image, resource)", NO_ARGUMENTS),
    ("test_error_handling", "Tests error response handling", NO_ARGUMENTS),
    ("test_reconnection", "Tests SSE stream reconnection (SEP-1699); answers at once", NO_ARGUMENTS),
    (
        "test_custom_header",
        "Echoes `region`, which 2026-07-28 clients also send as the Mcp-Param-Region header (SEP-2243)",
        r#"{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}},"required":["region"]}"#,
    ),
    ("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", JSON_SCHEMA_2020_12),
    ("test_tool_with_logging", "Tests tool that emits log messages during execution", NO_ARGUMENTS),
    ("test_tool_with_progress", "Tests tool that reports progress notifications", NO_ARGUMENTS),
    (
        "test_sampling",
        "Tests server-initiated sampling",
        r#"{"type":"object","properties":{"prompt":{"type":"string","description":"The prompt to send to the LLM"}},"required":["prompt"]}"#,
    ),
    ("test_elicitation", "Tests server-initiated elicitation", ELICITATION_ARGUMENTS),
    ("test_elicitation_sep1034_defaults", "Tests elicitation with default values (SEP-1034)", NO_ARGUMENTS),
    ("test_elicitation_sep1330_enums", "Tests elicitation with every kind of enum schema (SEP-1330)", NO_ARGUMENTS),
    ("test_input_required_result_elicitation", "Asks the user's name (one round)", NO_ARGUMENTS),
    ("test_input_required_result_sampling", "Asks the client's model a question (one round)", NO_ARGUMENTS),
    ("test_input_required_result_list_roots", "Asks for the client's roots (one round)", NO_ARGUMENTS),
    ("test_input_required_result_request_state", "Asks for a confirmation across a round", NO_ARGUMENTS),
    ("test_input_required_result_multi_round", "Asks two questions, one round each", NO_ARGUMENTS),
    ("test_input_required_result_tampered_state", "Asks for a confirmation across a round", NO_ARGUMENTS),
    ("test_missing_capability", "Needs the client's model: fails without `sampling`", NO_ARGUMENTS),
    ("test_trigger_tool_change", "Says that the tool list changed", NO_ARGUMENTS),
    ("test_trigger_prompt_change", "Says that the prompt list changed", NO_ARGUMENTS),
    (
        "test_update_resource",
        "Says that the resource at `uri` changed",
        r#"{"type":"object","properties":{"uri":{"type":"string"}},"required":["uri"]}"#,
    ),
    ("test_streaming_elicitation", "Answers on the request's own stream, asking nothing", NO_ARGUMENTS),
    ("test_logging_tool", "Logs nothing; answers at once", NO_ARGUMENTS),
];

/// Form elicitation params, as the schema's `FormElicitRequestParamWithTimeout`.
fn form(message: &str, properties: Value, required: &[&str]) -> Value {
    json!({
        "mode": "form",
        "message": message,
        "requestedSchema": { "type": "object", "properties": properties, "required": required },
    })
}

/// Sampling params with one user message.
fn sampling(prompt: &str, max_tokens: u32) -> Value {
    json!({ "messages": [{ "role": "user", "content": { "type": "text", "text": prompt } }], "maxTokens": max_tokens })
}

/// A question's answer; a failed one (`decline` with an error, an error
/// `stopReason`) is the tool's error.
fn answered(answer: Value) -> Result<Value, extism_pdk::Error> {
    let error = answer["content"]["error"].as_str().or_else(|| {
        (answer["stopReason"] == "error").then(|| answer["content"]["text"].as_str().unwrap_or("sampling failed"))
    });
    match error {
        Some(error) => Err(extism_pdk::Error::msg(error.to_string())),
        None => Ok(answer),
    }
}

fn elicit(params: Value) -> Result<Value, extism_pdk::Error> {
    answered(host_fns::create_elicitation(params)?)
}

/// `Elicitation completed: action=…, content={…}`.
fn completed(answer: &Value) -> String {
    format!(
        "Elicitation completed: action={}, content={}",
        answer["action"].as_str().unwrap_or_default(),
        answer.get("content").cloned().unwrap_or_default()
    )
}

fn log(message: &str) -> Result<(), extism_pdk::Error> {
    host_fns::notify_logging_message(json!({ "level": "info", "data": message }))
}

/// A pause between notifications, so that a client sees them arrive apart.
fn pause() {
    std::thread::sleep(std::time::Duration::from_millis(50));
}

#[plugin_fn]
pub fn list_tools(Json(_input): Json<Value>) -> FnResult<Json<Value>> {
    let tools: Vec<Value> = TOOLS
        .iter()
        .map(|(name, description, schema)| {
            let schema: Value = serde_json::from_str(schema).expect("the schemas above are JSON");
            json!({ "name": name, "description": description, "inputSchema": schema })
        })
        .collect();
    Ok(Json(json!({ "tools": tools })))
}

#[plugin_fn]
pub fn call_tool(Json(input): Json<Value>) -> FnResult<Json<Value>> {
    match input["request"]["name"].as_str().unwrap_or_default() {
        "test_simple_text" => result(vec![text("This is a simple text response for testing.")]),
        "test_image_content" => result(vec![image()]),
        "test_audio_content" => result(vec![json!({ "type": "audio", "data": WAV, "mimeType": "audio/wav" })]),
        "test_embedded_resource" => {
            result(vec![embedded("test://embedded-resource", "text/plain", "This is an embedded resource content.")])
        }
        "test_multiple_content_types" => result(vec![
            text("Multiple content types test:"),
            image(),
            embedded("test://mixed-content-resource", "application/json", r#"{"test":"data","value":123}"#),
        ]),
        "test_reconnection" => result(vec![text("Reconnection test completed")]),
        "test_custom_header" => {
            let region = input["request"]["arguments"]["region"].as_str().unwrap_or_default();
            result(vec![text(&format!("region: {region}"))])
        }
        "json_schema_2020_12_tool" => result(vec![text("JSON Schema 2020-12 tool called")]),
        "test_tool_with_logging" => {
            log("Tool execution started")?;
            pause();
            log("Tool processing data")?;
            pause();
            log("Tool execution completed")?;
            result(vec![text("Tool with logging executed successfully")])
        }
        "test_tool_with_progress" => {
            if let Some(token) = input["context"]["_meta"].get("progressToken") {
                for (done, message) in [(0, "Starting"), (50, "Halfway"), (100, "Done")] {
                    host_fns::notify_progress(
                        json!({ "progressToken": token, "progress": done, "total": 100, "message": message }),
                    )?;
                    pause();
                }
            }
            result(vec![text("Progress test completed")])
        }
        "test_sampling" => {
            let prompt = input["request"]["arguments"]["prompt"].as_str().unwrap_or_default();
            let answer = answered(host_fns::create_message(sampling(prompt, 100))?)?;
            result(vec![text(&format!("LLM response: {}", answer["content"]["text"].as_str().unwrap_or_default()))])
        }
        "test_elicitation" => {
            let message = input["request"]["arguments"]["message"].as_str().unwrap_or_default();
            let string = |description: &str| json!({ "type": "string", "description": description });
            let answer = elicit(form(
                message,
                json!({ "username": string("User's response"), "email": string("User's email address") }),
                &["username", "email"],
            ))?;
            result(vec![text(&format!(
                "User response: <action: {}, content: {}>",
                answer["action"].as_str().unwrap_or_default(),
                answer.get("content").cloned().unwrap_or_default()
            ))])
        }
        "test_elicitation_sep1034_defaults" => {
            let answer = elicit(form(
                "Please review and update the form fields with defaults",
                json!({
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
                }),
                &[],
            ))?;
            result(vec![text(&completed(&answer))])
        }
        "test_elicitation_sep1330_enums" => {
            let titled = |prefix: &str| {
                json!([
                    { "const": "value1", "title": format!("First {prefix}") },
                    { "const": "value2", "title": format!("Second {prefix}") },
                    { "const": "value3", "title": format!("Third {prefix}") },
                ])
            };
            let answer = elicit(form(
                "Please select options from the enum fields",
                json!({
                    "untitledSingle": { "type": "string", "description": "Select one option", "enum": ["option1", "option2", "option3"] },
                    "titledSingle": { "type": "string", "description": "Select one option with titles", "oneOf": titled("Option") },
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
                        "items": { "anyOf": titled("Choice") },
                    },
                }),
                &[],
            ))?;
            result(vec![text(&completed(&answer))])
        }
        "test_input_required_result_elicitation" => {
            let answer = elicit(form("What is your name?", json!({ "name": { "type": "string" } }), &["name"]))?;
            result(vec![text(&format!("Hello, {}!", answer["content"]["name"].as_str().unwrap_or("?")))])
        }
        "test_input_required_result_sampling" => {
            let answer = answered(host_fns::create_message(sampling("What is the capital of France?", 100))?)?;
            result(vec![text(&format!("Sampling answered: {}", answer["content"]["text"].as_str().unwrap_or("")))])
        }
        "test_input_required_result_list_roots" => {
            let answer = host_fns::list_roots()?;
            result(vec![text(&format!("Client roots: {}", answer["roots"]))])
        }
        // The host checks the echoed `requestState` before the call is run
        // again: reaching the end means it checked out.
        "test_input_required_result_request_state" | "test_input_required_result_tampered_state" => {
            let answer = elicit(form("Please confirm", json!({ "ok": { "type": "boolean" } }), &["ok"]))?;
            result(vec![text(&format!("state-ok: confirmed ({})", answer["action"].as_str().unwrap_or("")))])
        }
        "test_input_required_result_multi_round" => {
            let name = elicit(form("Step 1: What is your name?", json!({ "name": { "type": "string" } }), &["name"]))?;
            let color = elicit(form(
                "Step 2: What is your favorite color?",
                json!({ "color": { "type": "string" } }),
                &["color"],
            ))?;
            result(vec![text(&format!("{} likes {}", name["content"]["name"], color["content"]["color"]))])
        }
        // One question the call cannot do without: in a 2026-07-28 request
        // whose client did not declare `sampling`, the host fails it with
        // -32021 before anything is asked.
        "test_missing_capability" => {
            let answer = answered(host_fns::create_message(sampling("Say hello", 20))?)?;
            result(vec![text(&format!("The model said: {}", answer["content"]["text"]))])
        }
        "test_trigger_tool_change" => {
            host_fns::notify_tool_list_changed()?;
            result(vec![text("Tool list change announced")])
        }
        "test_trigger_prompt_change" => {
            host_fns::notify_prompt_list_changed()?;
            result(vec![text("Prompt list change announced")])
        }
        "test_update_resource" => {
            let uri = input["request"]["arguments"]["uri"].as_str().unwrap_or_default();
            host_fns::notify_resource_updated(json!({ "uri": uri }))?;
            result(vec![text("Resource update announced")])
        }
        "test_streaming_elicitation" => {
            result(vec![text("Answered on the request's own stream, without asking the client anything.")])
        }
        "test_logging_tool" => {
            result(vec![text("Done; this plugin logs nothing here, so no notifications/message was sent.")])
        }
        "test_error_handling" => Ok(Json(json!({
            "content": [text("This tool intentionally returns an error for testing")],
            "isError": true,
        }))),
        other => Err(extism_pdk::Error::msg(format!("Unknown tool: {other}")).into()),
    }
}

#[plugin_fn]
pub fn list_resources(Json(_input): Json<Value>) -> FnResult<Json<Value>> {
    let resource = |uri: &str, name: &str, description: &str, mime_type: &str| json!({ "uri": uri, "name": name, "description": description, "mimeType": mime_type });
    Ok(Json(json!({ "resources": [
        resource("test://static-text", "static-text", "A static text resource for testing", "text/plain"),
        resource("test://static-binary", "static-binary", "A static binary resource (image) for testing", "image/png"),
        resource("test://watched-resource", "watched-resource", "A resource that can be subscribed to", "text/plain"),
    ]})))
}

#[plugin_fn]
pub fn list_resource_templates(Json(_input): Json<Value>) -> FnResult<Json<Value>> {
    Ok(Json(json!({ "resourceTemplates": [{
        "uriTemplate": "test://template/{id}/data",
        "name": "template",
        "description": "A resource template with parameter substitution",
        "mimeType": "application/json",
    }]})))
}

#[plugin_fn]
pub fn read_resource(Json(input): Json<Value>) -> FnResult<Json<Value>> {
    let uri = input["request"]["uri"].as_str().unwrap_or_default();
    let text =
        |mime_type: &str, text: &str| json!({ "contents": [{ "uri": uri, "mimeType": mime_type, "text": text }] });
    let read = match uri {
        "test://static-text" => text("text/plain", "This is the content of the static text resource."),
        "test://static-binary" => json!({ "contents": [{ "uri": uri, "mimeType": "image/png", "blob": PNG }] }),
        "test://watched-resource" => text("text/plain", "Watched resource content"),
        _ => {
            let id = uri
                .strip_prefix("test://template/")
                .and_then(|rest| rest.strip_suffix("/data"))
                .filter(|id| !id.is_empty() && !id.contains('/'))
                .ok_or_else(|| extism_pdk::Error::msg(format!("Resource not found: {uri}")))?;
            let body = json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") });
            text("application/json", &body.to_string())
        }
    };
    Ok(Json(read))
}

#[plugin_fn]
pub fn list_prompts(Json(_input): Json<Value>) -> FnResult<Json<Value>> {
    let argument =
        |name: &str, description: &str| json!({ "name": name, "description": description, "required": true });
    Ok(Json(json!({ "prompts": [
        { "name": "test_simple_prompt", "description": "A simple prompt without arguments" },
        {
            "name": "test_prompt_with_arguments",
            "description": "A prompt with required arguments",
            "arguments": [argument("arg1", "First test argument"), argument("arg2", "Second test argument")],
        },
        {
            "name": "test_prompt_with_embedded_resource",
            "description": "A prompt that includes an embedded resource",
            "arguments": [argument("resourceUri", "URI of the resource to embed")],
        },
        { "name": "test_prompt_with_image", "description": "A prompt that includes image content" },
        { "name": "test_input_required_result_prompt", "description": "A prompt that asks the user for context" },
    ]})))
}

#[plugin_fn]
pub fn get_prompt(Json(input): Json<Value>) -> FnResult<Json<Value>> {
    let request = &input["request"];
    let user = |content: Value| json!({ "role": "user", "content": content });
    let messages = match request["name"].as_str().unwrap_or_default() {
        "test_simple_prompt" => vec![user(text("This is a simple prompt for testing."))],
        "test_prompt_with_arguments" => {
            let argument = |name: &str| {
                request["arguments"][name]
                    .as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| extism_pdk::Error::msg(format!("`{name}` is required")))
            };
            let (arg1, arg2) = (argument("arg1")?, argument("arg2")?);
            vec![user(text(&format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")))]
        }
        "test_prompt_with_embedded_resource" => vec![
            user(embedded("test://embedded-resource", "text/plain", "Embedded resource content for testing.")),
            user(text("Please process the embedded resource above.")),
        ],
        "test_prompt_with_image" => vec![user(image()), user(text("Please analyze the image above."))],
        "test_input_required_result_prompt" => {
            let answer = elicit(form(
                "What context should the prompt use?",
                json!({ "context": { "type": "string" } }),
                &["context"],
            ))?;
            let context = answer["content"]["context"].as_str().unwrap_or("none");
            vec![user(text(&format!("Use this context: {context}")))]
        }
        other => return Err(extism_pdk::Error::msg(format!("Unknown prompt: {other}")).into()),
    };
    Ok(Json(json!({ "messages": messages })))
}

#[plugin_fn]
pub fn complete(Json(input): Json<Value>) -> FnResult<Json<Value>> {
    let request = &input["request"];
    let prefix = request["argument"]["value"].as_str().unwrap_or_default();
    let candidates: &[&str] = match (request["ref"]["name"].as_str(), request["argument"]["name"].as_str()) {
        (Some("test_prompt_with_arguments"), Some("arg1")) => &["paris", "park", "party"],
        _ => &[],
    };
    let values: Vec<&str> = candidates.iter().copied().filter(|value| value.starts_with(prefix)).collect();
    Ok(Json(json!({ "completion": { "values": values } })))
}
