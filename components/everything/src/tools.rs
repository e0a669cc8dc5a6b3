//! Tools: one per corner of `call-tool-result` and `tool-error`.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value as Json;

use crate::content::{
    PNG, annotated_text, annotations, audio, blob_resource, embedded, image, json, meta, text, text_resource,
};
use crate::exports::wasix::mcp::router::{
    CallToolResult, ConfigDescriptor, Content, ProgressNotification, Role, SecretDescriptor, Tool, ToolAnnotations,
    ToolError, ToolMeta,
};

const OBJECT: &str = r#"{"type":"object"}"#;

/// Number of `counter` calls made on this instance.
static CALLS: AtomicU64 = AtomicU64::new(0);

/// A tool with only the required fields set.
fn tool(name: &str, description: &str, input_schema: &str) -> Tool {
    Tool {
        name: name.into(),
        description: description.into(),
        input_schema: json(input_schema),
        output_schema: None,
        annotations: None,
        meta: None,
    }
}

pub fn list() -> Vec<Tool> {
    vec![
        Tool {
            annotations: Some(ToolAnnotations {
                read_only: Some(true),
                destructive: Some(false),
                streaming: None,
                experimental: None,
            }),
            ..tool(
                "echo",
                "Echoes its text argument",
                r#"{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}"#,
            )
        },
        Tool {
            output_schema: Some(json(r#"{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}"#)),
            ..tool(
                "add",
                "Adds two numbers",
                r#"{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}"#,
            )
        },
        tool("all-content", "Returns one content item of every kind", OBJECT),
        tool("progress", "Reports progress while working", OBJECT),
        tool(
            "fail",
            "Fails in the way its `kind` argument names",
            r#"{"type":"object","properties":{"kind":{"type":"string","enum":["invalid-parameters","execution-error","schema-error","not-found"]}},"required":["kind"]}"#,
        ),
        tool("is-error", "Returns a result flagged as an error", OBJECT),
        tool("panic", "Panics", OBJECT),
        tool("counter", "Counts calls in this instance", OBJECT),
        Tool {
            annotations: Some(ToolAnnotations {
                read_only: Some(false),
                destructive: Some(true),
                streaming: Some(true),
                experimental: Some(true),
            }),
            meta: Some(ToolMeta {
                output_hint: Some("a short greeting".into()),
                config: Some(vec![ConfigDescriptor {
                    name: "GREETING".into(),
                    description: "Greeting word".into(),
                    required: true,
                }]),
                secrets: Some(vec![SecretDescriptor {
                    name: "API_TOKEN".into(),
                    description: "Token for the upstream API".into(),
                    required: false,
                }]),
                config_meta: Some(meta(&[("group", "demo")])),
                extra: Some(meta(&[("owner", "tests")])),
            }),
            ..tool("annotated", "Carries every annotation and meta field", OBJECT)
        },
    ]
}

type ToolFn = fn(&Json) -> Result<CallToolResult, ToolError>;

pub fn call(name: String, arguments: &str) -> Result<CallToolResult, ToolError> {
    let run: ToolFn = match name.as_str() {
        "echo" => echo,
        "add" => add,
        "all-content" => all_content,
        "progress" => progress,
        "fail" => fail,
        "is-error" => is_error,
        "panic" => panic,
        "counter" => counter,
        "bad-schema" => bad_schema,
        "annotated" => annotated,
        _ => return Err(ToolError::NotFound(name)),
    };
    let arguments: Json = serde_json::from_str(arguments).map_err(|e| ToolError::InvalidParameters(e.to_string()))?;
    run(&arguments)
}

/// A successful result holding just `content`.
fn ok(content: Vec<Content>) -> Result<CallToolResult, ToolError> {
    Ok(CallToolResult { content, progress: None, meta: None, is_error: None })
}

fn echo(arguments: &Json) -> Result<CallToolResult, ToolError> {
    let text_arg = arguments
        .get("text")
        .and_then(Json::as_str)
        .ok_or_else(|| ToolError::InvalidParameters("`text` must be a string".into()))?;
    ok(vec![text(text_arg)])
}

fn add(arguments: &Json) -> Result<CallToolResult, ToolError> {
    let number = |key| arguments.get(key).and_then(Json::as_f64);
    let (Some(a), Some(b)) = (number("a"), number("b")) else {
        return Err(ToolError::InvalidParameters("`a` and `b` must be numbers".into()));
    };
    ok(vec![text(serde_json::json!({ "sum": a + b }).to_string())])
}

fn all_content(_: &Json) -> Result<CallToolResult, ToolError> {
    Ok(CallToolResult {
        content: vec![
            annotated_text("plain text", annotations(Some(vec![Role::User]), Some(0.5), Some("2025-01-01T00:00:00Z"))),
            image(PNG, "image/png", Some(annotations(Some(vec![Role::Assistant]), None, None))),
            audio("UklGRg==", "audio/wav", None),
            embedded(
                text_resource("everything://text", Some("text/plain"), "embedded text"),
                Some(annotations(Some(vec![Role::User, Role::Assistant]), Some(1.0), None)),
            ),
            embedded(blob_resource("everything://blob", Some("application/octet-stream"), "AAEC"), None),
        ],
        progress: None,
        meta: Some(meta(&[("source", "everything"), ("kind", "all-content")])),
        is_error: Some(false),
    })
}

fn progress(_: &Json) -> Result<CallToolResult, ToolError> {
    let step = |progress, message: Option<&str>| ProgressNotification {
        progress,
        message: message.map(Into::into),
        annotations: None,
    };
    Ok(CallToolResult {
        content: vec![text("done")],
        progress: Some(vec![
            step(Some(0.25), Some("quarter")),
            step(None, Some("no value")),
            step(Some(0.1), Some("went backwards")),
            step(Some(10.0), None),
        ]),
        meta: None,
        is_error: None,
    })
}

fn fail(arguments: &Json) -> Result<CallToolResult, ToolError> {
    Err(match arguments.get("kind").and_then(Json::as_str) {
        Some("invalid-parameters") => ToolError::InvalidParameters("bad parameters for fail".into()),
        Some("execution-error") => ToolError::ExecutionError("the tool exploded".into()),
        Some("schema-error") => ToolError::SchemaError("output does not match schema".into()),
        Some("not-found") => ToolError::NotFound("fail".into()),
        _ => ToolError::InvalidParameters("unknown kind".into()),
    })
}

fn is_error(_: &Json) -> Result<CallToolResult, ToolError> {
    Ok(CallToolResult { content: vec![text("it went wrong")], progress: None, meta: None, is_error: Some(true) })
}

fn panic(_: &Json) -> Result<CallToolResult, ToolError> {
    panic!("deliberate panic in the panic tool")
}

fn counter(_: &Json) -> Result<CallToolResult, ToolError> {
    let calls = CALLS.fetch_add(1, Ordering::Relaxed) + 1;
    ok(vec![text(calls.to_string())])
}

fn bad_schema(_: &Json) -> Result<CallToolResult, ToolError> {
    ok(vec![text("unreachable through tools/list but callable")])
}

fn annotated(_: &Json) -> Result<CallToolResult, ToolError> {
    ok(vec![text("annotated")])
}
