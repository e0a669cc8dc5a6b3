//! Validation of server messages against the MCP 2025-11-25 JSON schema.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use serde_json::Value;

static SCHEMA: LazyLock<Value> = LazyLock::new(|| {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/schema/mcp-schema-2025-11-25.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    serde_json::from_str(&text).expect("the MCP schema is JSON")
});

static VALIDATORS: LazyLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> = LazyLock::new(Default::default);

fn validator(def: &str) -> Arc<jsonschema::Validator> {
    let mut cache = VALIDATORS.lock().unwrap();
    cache
        .entry(def.to_string())
        .or_insert_with(|| {
            let mut schema = SCHEMA.clone();
            assert!(schema["$defs"].get(def).is_some(), "no definition {def} in the MCP schema");
            schema["$ref"] = Value::String(format!("#/$defs/{def}"));
            Arc::new(jsonschema::validator_for(&schema).expect("the MCP schema compiles"))
        })
        .clone()
}

/// Validates `instance` against the schema definition `def`.
pub fn check(def: &str, instance: &Value) -> Result<(), String> {
    let validator = validator(def);
    let errors: Vec<String> =
        validator.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    if errors.is_empty() { Ok(()) } else { Err(format!("{def}: {} in {instance}", errors.join("; "))) }
}

/// The result definition for a request method.
fn result_def(method: &str) -> Option<&'static str> {
    Some(match method {
        "initialize" => "InitializeResult",
        "ping" | "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe" => "EmptyResult",
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "resources/list" => "ListResourcesResult",
        "resources/read" => "ReadResourceResult",
        "resources/templates/list" => "ListResourceTemplatesResult",
        "prompts/list" => "ListPromptsResult",
        "prompts/get" => "GetPromptResult",
        "completion/complete" => "CompleteResult",
        _ => return None,
    })
}

/// The notification definition for a notification method.
fn notification_def(method: &str) -> Option<&'static str> {
    Some(match method {
        "notifications/progress" => "ProgressNotification",
        "notifications/message" => "LoggingMessageNotification",
        _ => return None,
    })
}

/// Checks one message the server sent; `method` is the method of the
/// request it answers, when it is a response.
pub fn check_server_message(msg: &Value, method: Option<&str>) -> Result<(), String> {
    check("JSONRPCMessage", msg)?;
    if msg.get("error").is_some() {
        return check("JSONRPCErrorResponse", msg);
    }
    if let Some(result) = msg.get("result") {
        check("JSONRPCResultResponse", msg)?;
        let method = method.ok_or_else(|| format!("a response to no known request: {msg}"))?;
        let def = result_def(method).ok_or_else(|| format!("no schema for results of {method}"))?;
        return check(def, result);
    }
    let method = msg["method"].as_str().unwrap_or_default();
    let def = notification_def(method).ok_or_else(|| format!("unexpected server message {method}: {msg}"))?;
    check(def, msg)
}
