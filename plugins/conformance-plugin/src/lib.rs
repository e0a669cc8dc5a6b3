//! `conformance-plugin`: what the official MCP conformance suite asks of a
//! server (see `components/conformance`), as a v1-draft Extism plugin built
//! with extism-pdk, as far as the v1-draft exports express it: tools,
//! resources, a template, prompts and completions. What needs the plugin
//! host functions (logging, progress, sampling, elicitation, change
//! notifications) is not here.

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

/// (name, description, input schema).
const TOOLS: [(&str, &str, &str); 9] = [
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
];

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
