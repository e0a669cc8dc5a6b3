//! `pdk-plugin`: a v1-draft Extism MCP plugin (see
//! `xtp-plugin-schema-v1-draft.json`) built with `extism-pdk`, as such
//! plugins are written: every export of the schema but
//! `on_roots_list_changed`.
//!
//! Tools: `reverse` (its `text` reversed), `whoami` (the request's
//! `context.id`, which the host sets), `fail` (an `Err`, which the PDK turns
//! into a non-zero return with the error set). A resource, a template, a
//! prompt with an argument, and completions of that argument.

use extism_pdk::{FnResult, Json, WithReturnCode, plugin_fn};
use serde_json::{Value, json};

fn text(text: &str) -> Value {
    json!({ "content": [{ "type": "text", "text": text }] })
}

#[plugin_fn]
pub fn list_tools(Json(input): Json<Value>) -> FnResult<Json<Value>> {
    let object = |properties: Value| json!({ "type": "object", "properties": properties });
    // Every request carries its context.
    if input["context"]["id"].as_str().is_none() {
        return Err(WithReturnCode::new(extism_pdk::Error::msg("no context.id in the request"), 2));
    }
    Ok(Json(json!({ "tools": [
        { "name": "reverse", "description": "Reverses its text", "inputSchema": object(json!({ "text": { "type": "string" } })) },
        { "name": "whoami", "description": "The request's context.id", "inputSchema": object(json!({})) },
        { "name": "fail", "description": "Fails", "inputSchema": object(json!({})) },
    ]})))
}

#[plugin_fn]
pub fn call_tool(Json(input): Json<Value>) -> FnResult<Json<Value>> {
    let request = &input["request"];
    match request["name"].as_str() {
        Some("reverse") => {
            let reversed: String = request["arguments"]["text"].as_str().unwrap_or_default().chars().rev().collect();
            Ok(Json(text(&reversed)))
        }
        Some("whoami") => Ok(Json(text(input["context"]["id"].as_str().unwrap_or("none")))),
        Some("fail") => Err(extism_pdk::Error::msg("the fail tool failed, as asked").into()),
        other => {
            Ok(Json(json!({ "content": [{ "type": "text", "text": format!("no tool {other:?}") }], "isError": true })))
        }
    }
}

#[plugin_fn]
pub fn list_resources(Json(_input): Json<Value>) -> FnResult<Json<Value>> {
    Ok(Json(json!({ "resources": [
        { "uri": "pdk://readme", "name": "readme", "description": "A text resource", "mimeType": "text/plain" },
    ]})))
}

#[plugin_fn]
pub fn list_resource_templates(Json(_input): Json<Value>) -> FnResult<Json<Value>> {
    Ok(Json(json!({ "resourceTemplates": [
        { "uriTemplate": "pdk://items/{id}", "name": "item", "mimeType": "application/json" },
    ]})))
}

#[plugin_fn]
pub fn read_resource(Json(input): Json<Value>) -> FnResult<Json<Value>> {
    let uri = input["request"]["uri"].as_str().unwrap_or_default().to_string();
    let text = match uri.as_str() {
        "pdk://readme" => "read through the kernel".to_string(),
        _ if uri.starts_with("pdk://items/") => json!({ "id": &uri["pdk://items/".len()..] }).to_string(),
        _ => return Err(extism_pdk::Error::msg(format!("no resource {uri}")).into()),
    };
    Ok(Json(json!({ "contents": [{ "uri": uri, "mimeType": "text/plain", "text": text }] })))
}

#[plugin_fn]
pub fn list_prompts(Json(_input): Json<Value>) -> FnResult<Json<Value>> {
    Ok(Json(json!({ "prompts": [
        { "name": "greet", "description": "Greets someone", "arguments": [{ "name": "who", "required": true }] },
    ]})))
}

#[plugin_fn]
pub fn get_prompt(Json(input): Json<Value>) -> FnResult<Json<Value>> {
    let who = input["request"]["arguments"]["who"].as_str().unwrap_or("nobody");
    Ok(Json(
        json!({ "messages": [{ "role": "user", "content": { "type": "text", "text": format!("Greet {who}.") } }] }),
    ))
}

/// Completes `who` from a fixed list; the reference's type comes without
/// its `ref/` prefix, as hyper-mcp hands it to v1-draft plugins.
#[plugin_fn]
pub fn complete(Json(input): Json<Value>) -> FnResult<Json<Value>> {
    let request = &input["request"];
    if request["ref"]["type"] != "prompt" {
        return Err(extism_pdk::Error::msg(format!("unexpected ref {}", request["ref"])).into());
    }
    let typed = request["argument"]["value"].as_str().unwrap_or_default();
    let values: Vec<&str> = ["alice", "albert", "bob"].into_iter().filter(|n| n.starts_with(typed)).collect();
    Ok(Json(json!({ "completion": { "values": values } })))
}
