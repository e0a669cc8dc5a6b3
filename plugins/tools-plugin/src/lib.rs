//! `tools-plugin`: a v1-draft Extism MCP plugin (`list_tools`, `call_tool`,
//! see `xtp-plugin-schema-v1-draft.json`) built with `extism-pdk`, as such
//! plugins are written.
//!
//! Tools: `reverse` (its `text` reversed), `whoami` (the request's
//! `context.id`, which the host sets), `fail` (an `Err`, which the PDK turns
//! into a non-zero return with the error set).

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
        other => Ok(Json(json!({ "content": [{ "type": "text", "text": format!("no tool {other:?}") }], "isError": true }))),
    }
}
