//! Validation of server messages against the MCP JSON schema of their
//! revision: 2025-11-25 for legacy traffic, 2026-07-28 for modern requests.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use serde_json::Value;

/// A schema revision messages are checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Revision {
    /// 2025-11-25: every legacy session (older revisions are subsets of it).
    #[default]
    Legacy,
    /// 2026-07-28: requests with the per-request envelope.
    Modern,
}

impl Revision {
    /// The revision of a request a client sends: modern when its `_meta`
    /// names a protocol version.
    pub fn of_request(message: &Value) -> Revision {
        if message["params"]["_meta"].get("io.modelcontextprotocol/protocolVersion").is_some() {
            Revision::Modern
        } else {
            Revision::Legacy
        }
    }

    fn file(self) -> &'static str {
        match self {
            Revision::Legacy => "mcp-schema-2025-11-25.json",
            Revision::Modern => "mcp-schema-2026-07-28.json",
        }
    }
}

static SCHEMAS: LazyLock<Mutex<HashMap<Revision, Arc<Value>>>> = LazyLock::new(Default::default);

fn schema(revision: Revision) -> Arc<Value> {
    let mut cache = SCHEMAS.lock().unwrap();
    cache
        .entry(revision)
        .or_insert_with(|| {
            let path = format!("{}/schema/{}", env!("CARGO_MANIFEST_DIR"), revision.file());
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
            Arc::new(serde_json::from_str(&text).expect("the MCP schema is JSON"))
        })
        .clone()
}

/// Compiled validators, by revision and definition.
type Validators = HashMap<(Revision, String), Arc<jsonschema::Validator>>;

static VALIDATORS: LazyLock<Mutex<Validators>> = LazyLock::new(Default::default);

fn validator(revision: Revision, def: &str) -> Arc<jsonschema::Validator> {
    let schema = schema(revision);
    let mut cache = VALIDATORS.lock().unwrap();
    cache
        .entry((revision, def.to_string()))
        .or_insert_with(|| {
            let mut schema = (*schema).clone();
            assert!(schema["$defs"].get(def).is_some(), "no definition {def} in the {revision:?} MCP schema");
            schema["$ref"] = Value::String(format!("#/$defs/{def}"));
            Arc::new(jsonschema::validator_for(&schema).expect("the MCP schema compiles"))
        })
        .clone()
}

/// Validates `instance` against the 2025-11-25 schema definition `def`.
pub fn check(def: &str, instance: &Value) -> Result<(), String> {
    check_at(Revision::Legacy, def, instance)
}

/// Validates `instance` against the schema definition `def` of `revision`.
pub fn check_at(revision: Revision, def: &str, instance: &Value) -> Result<(), String> {
    let validator = validator(revision, def);
    let errors: Vec<String> =
        validator.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    if errors.is_empty() { Ok(()) } else { Err(format!("{revision:?} {def}: {} in {instance}", errors.join("; "))) }
}

/// The result definition for a request method.
fn result_def(method: &str) -> Option<&'static str> {
    Some(match method {
        "server/discover" => "DiscoverResult",
        "subscriptions/listen" => "SubscriptionsListenResult",
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
        "notifications/subscriptions/acknowledged" => "SubscriptionsAcknowledgedNotification",
        "notifications/tools/list_changed" => "ToolListChangedNotification",
        "notifications/prompts/list_changed" => "PromptListChangedNotification",
        "notifications/resources/list_changed" => "ResourceListChangedNotification",
        "notifications/resources/updated" => "ResourceUpdatedNotification",
        "notifications/elicitation/complete" => "ElicitationCompleteNotification",
        _ => return None,
    })
}

/// The request definition for a request the server sends the client.
fn server_request_def(method: &str) -> Option<&'static str> {
    Some(match method {
        "sampling/createMessage" => "CreateMessageRequest",
        "elicitation/create" => "ElicitRequest",
        "roots/list" => "ListRootsRequest",
        "ping" => "PingRequest",
        _ => return None,
    })
}

/// Checks one message the server sent in a legacy session; `method` is the
/// method of the request it answers, when it is a response.
pub fn check_server_message(msg: &Value, method: Option<&str>) -> Result<(), String> {
    check_server_message_at(Revision::Legacy, msg, method)
}

/// Checks one message the server sent, against the schema of `revision`.
pub fn check_server_message_at(revision: Revision, msg: &Value, method: Option<&str>) -> Result<(), String> {
    let check = |def: &str, instance: &Value| check_at(revision, def, instance);
    check("JSONRPCMessage", msg)?;
    if msg.get("error").is_some() {
        return check("JSONRPCErrorResponse", msg);
    }
    if let Some(result) = msg.get("result") {
        check("JSONRPCResultResponse", msg)?;
        let method = method.ok_or_else(|| format!("a response to no known request: {msg}"))?;
        // A 2026-07-28 round that needs the client's input.
        if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
            return check("InputRequiredResult", result);
        }
        // The tasks extension's results (a task instead of a call's result,
        // and `tasks/*`): the revision's schema knows them only as results,
        // and the tests check their fields.
        if result.get("resultType").and_then(Value::as_str) == Some("task") || method.starts_with("tasks/") {
            return check("Result", result);
        }
        let def = result_def(method).ok_or_else(|| format!("no schema for results of {method}"))?;
        return check(def, result);
    }
    let method = msg["method"].as_str().unwrap_or_default();
    let def = match msg.get("id") {
        Some(_) => server_request_def(method),
        None => notification_def(method),
    };
    let def = def.ok_or_else(|| format!("unexpected server message {method}: {msg}"))?;
    check(def, msg)
}
