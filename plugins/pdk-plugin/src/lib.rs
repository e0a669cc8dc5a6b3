//! `pdk-plugin`: a v1-draft Extism MCP plugin (see
//! `xtp-plugin-schema-v1-draft.json`) built with `extism-pdk`, as such
//! plugins are written: every export of the schema, and every host function.
//!
//! Tools: `reverse` (its `text` reversed), `whoami` (the request's
//! `context.id`, which the host sets), `fail` (an `Err`, which the PDK turns
//! into a non-zero return with the error set), `talk` (logs, reports
//! progress, asks the client's model, the user and the client's roots),
//! `announce` (every change notification), `roots_changed` (how often
//! `on_roots_list_changed` was called, kept in a variable), `fetch` (an
//! HTTP request through the kernel's `http_request`), `caller` (who calls,
//! through mcp-wit's `mcp-wit:extension/caller`). A resource, a
//! template, a prompt with an argument, and completions of that argument.

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
        { "name": "talk", "description": "Talks to the client", "inputSchema": object(json!({ "prompt": { "type": "string" } })) },
        { "name": "announce", "description": "Says that everything changed", "inputSchema": object(json!({})) },
        { "name": "roots_changed", "description": "How often the client's roots changed", "inputSchema": object(json!({})) },
        { "name": "fetch", "description": "Fetches a URL", "inputSchema": object(json!({ "url": { "type": "string" }, "method": { "type": "string" }, "body": { "type": "string" } })) },
        { "name": "caller", "description": "Who calls, as the server authenticated it", "inputSchema": object(json!({})) },
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
        Some("talk") => talk(request["arguments"]["prompt"].as_str().unwrap_or("hello"), &input["context"]),
        Some("announce") => {
            host_fns::notify_tool_list_changed()?;
            host_fns::notify_prompt_list_changed()?;
            host_fns::notify_resource_list_changed()?;
            host_fns::notify_resource_updated(json!({ "uri": "pdk://readme" }))?;
            host_fns::notify_url_elicitation_completed(json!({ "elicitationId": "pdk-elicitation" }))?;
            Ok(Json(text("announced")))
        }
        Some("fetch") => fetch(&request["arguments"]),
        Some("caller") => Ok(Json(text(&host_fns::caller()?.to_string()))),
        Some("roots_changed") => {
            let changes = extism_pdk::var::get::<String>(ROOTS_CHANGED)?.unwrap_or_else(|| "0".into());
            Ok(Json(text(&changes)))
        }
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

/// The variable counting `on_roots_list_changed` calls.
const ROOTS_CHANGED: &str = "roots_changed";

/// Logs, reports progress (under the request's token), asks the client's
/// model, the user (with a timeout of its own) and the client's roots; says
/// what each answered.
fn talk(prompt: &str, context: &Value) -> FnResult<Json<Value>> {
    let progress = |done: u32, message: &str| match context["_meta"].get("progressToken") {
        Some(token) => host_fns::notify_progress(
            json!({ "progressToken": token, "progress": done, "total": 3, "message": message }),
        ),
        None => Ok(()),
    };
    host_fns::notify_logging_message(
        json!({ "level": "info", "logger": "pdk-plugin", "data": { "talking": prompt } }),
    )?;
    progress(1, "asking the model")?;
    let model = host_fns::create_message(json!({
        "messages": [{ "role": "user", "content": { "type": "text", "text": prompt } }],
        "maxTokens": 50,
    }))?;
    progress(2, "asking the user")?;
    let user = host_fns::create_elicitation(json!({
        "mode": "form",
        "message": "Your name?",
        "requestedSchema": { "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"] },
        "timeout": 10000,
    }))?;
    progress(3, "listing roots")?;
    let roots = host_fns::list_roots()?;
    let said = format!(
        "model: {} ({}); user: {} {}; roots: {}",
        model["content"]["text"].as_str().unwrap_or_default(),
        model["stopReason"].as_str().unwrap_or("done"),
        user["action"].as_str().unwrap_or_default(),
        user["content"],
        roots["roots"].as_array().map_or(0, Vec::len),
    );
    Ok(Json(text(&said)))
}

/// Counts the client's roots changes in a variable, which outlives calls.
#[plugin_fn]
pub fn on_roots_list_changed(Json(_input): Json<Value>) -> FnResult<()> {
    let changes: u64 = extism_pdk::var::get::<String>(ROOTS_CHANGED)?.and_then(|n| n.parse().ok()).unwrap_or(0);
    extism_pdk::var::set(ROOTS_CHANGED, (changes + 1).to_string())?;
    Ok(())
}

/// `url` fetched with `method` (GET) and `body`: its status, its
/// `x-fixture` header and its body.
fn fetch(arguments: &Value) -> FnResult<Json<Value>> {
    let mut request = extism_pdk::HttpRequest::new(arguments["url"].as_str().unwrap_or_default())
        .with_method(arguments["method"].as_str().unwrap_or("GET"))
        .with_header("x-plugin", "pdk-plugin");
    request.headers.insert("accept".into(), "text/plain".into());
    let body = arguments["body"].as_str().map(str::to_owned);
    let response = extism_pdk::http::request(&request, body)?;
    let said = format!(
        "status {}; x-fixture: {}; body: {}",
        response.status_code(),
        response.header("x-fixture").unwrap_or("none"),
        String::from_utf8_lossy(&response.body()),
    );
    Ok(Json(text(&said)))
}
