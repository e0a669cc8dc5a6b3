//! `everything`: a test fixture that exercises every function, record and
//! variant of the `wasix:mcp/router` contract, written with `mcp-wit-sdk`.
//!
//! Tests elsewhere in the repository depend on the exact values returned
//! here; see `README.md` for a summary. Change them only together. The
//! fixture states its schemas and argument checks itself (`input_schema =`,
//! `serde_json::Value` arguments) so that they stay exactly what the tests
//! expect; the SDK's own (schemars, serde's messages) are tested in the SDK.

mod completion;
mod content;

use std::cell::Cell;

use mcp_wit_sdk::prelude::*;
use mcp_wit_sdk::types::{
    CompletionRequest, CompletionResponse, EmbeddedResource, GetPromptResult, ProgressNotification, PromptArgument,
    PromptMessageContent, PromptMessageRole, Role,
};
use mcp_wit_sdk::{CompletionError, types::MetaEntry};
use serde_json::Value;

use content::{
    PNG, annotated_text, annotations, audio, blob_resource, embedded, every_tool_meta, image, image_content,
    text_content,
};

const OBJECT: &str = r#"{"type":"object"}"#;
const ECHO_SCHEMA: &str = r#"{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}"#;
const ADD_SCHEMA: &str =
    r#"{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}"#;
const SUM_SCHEMA: &str = r#"{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}"#;
const FAIL_SCHEMA: &str = r#"{"type":"object","properties":{"kind":{"type":"string","enum":["invalid-parameters","execution-error","schema-error","not-found"]}},"required":["kind"]}"#;

#[derive(Default)]
struct Everything {
    /// Number of `counter` calls made on this instance.
    calls: Cell<u64>,
}

// The derived schema says `"format": "double"` too; `output_schema` lists
// the fixture's own.
#[derive(Serialize, JsonSchema)]
#[schemars(crate = "mcp_wit_sdk::schemars")]
struct Sum {
    sum: f64,
}

#[router(
    name = "everything",
    instructions = "Exercises every part of the wasix:mcp router contract.",
    prompts_list_changed = false,
    resources_subscribe = false,
    resources_list_changed,
    tools_list_changed
)]
impl Everything {
    /// Echoes its text argument
    #[tool(read_only, destructive = false, input_schema = ECHO_SCHEMA)]
    fn echo(&self, arguments: Value) -> Result<String, ToolError> {
        let text = arguments.get("text").and_then(Value::as_str);
        text.map(Into::into).ok_or_else(|| ToolError::invalid_parameters("`text` must be a string"))
    }

    /// Adds two numbers
    #[tool(input_schema = ADD_SCHEMA, output_schema = SUM_SCHEMA)]
    fn add(&self, arguments: Value) -> Result<Json<Sum>, ToolError> {
        let number = |key| arguments.get(key).and_then(Value::as_f64);
        let (Some(a), Some(b)) = (number("a"), number("b")) else {
            return Err(ToolError::invalid_parameters("`a` and `b` must be numbers"));
        };
        Ok(Json(Sum { sum: a + b }))
    }

    /// Returns one content item of every kind
    #[tool(name = "all-content", input_schema = OBJECT)]
    fn all_content(&self) -> CallToolResult {
        CallToolResult {
            content: vec![
                annotated_text(
                    "plain text",
                    annotations(Some(vec![Role::User]), Some(0.5), Some("2025-01-01T00:00:00Z")),
                ),
                image(PNG, "image/png", Some(annotations(Some(vec![Role::Assistant]), None, None))),
                audio("UklGRg==", "audio/wav", None),
                embedded(
                    ResourceContents::text("everything://text", Some("text/plain"), "embedded text"),
                    Some(annotations(Some(vec![Role::User, Role::Assistant]), Some(1.0), None)),
                ),
                embedded(blob_resource("everything://blob", Some("application/octet-stream"), "AAEC"), None),
            ],
            progress: None,
            meta: Some(MetaEntry::list(&[("source", "everything"), ("kind", "all-content")])),
            is_error: Some(false),
        }
    }

    /// Reports progress while working
    #[tool(input_schema = OBJECT)]
    fn progress(&self) -> CallToolResult {
        let step = |progress, message: Option<&str>| ProgressNotification {
            progress,
            message: message.map(Into::into),
            annotations: None,
        };
        CallToolResult {
            progress: Some(vec![
                step(Some(0.25), Some("quarter")),
                step(None, Some("no value")),
                step(Some(0.1), Some("went backwards")),
                step(Some(10.0), None),
            ]),
            ..CallToolResult::success(vec![Content::text("done")])
        }
    }

    /// Fails in the way its `kind` argument names
    #[tool(input_schema = FAIL_SCHEMA)]
    fn fail(&self, arguments: Value) -> Result<String, ToolError> {
        Err(match arguments.get("kind").and_then(Value::as_str) {
            Some("invalid-parameters") => ToolError::invalid_parameters("bad parameters for fail"),
            Some("execution-error") => ToolError::execution_error("the tool exploded"),
            Some("schema-error") => ToolError::schema_error("output does not match schema"),
            Some("not-found") => ToolError::not_found("fail"),
            _ => ToolError::invalid_parameters("unknown kind"),
        })
    }

    /// Returns a result flagged as an error
    #[tool(name = "is-error", input_schema = OBJECT)]
    fn is_error(&self) -> CallToolResult {
        CallToolResult::error(vec![Content::text("it went wrong")])
    }

    /// Panics
    #[tool(input_schema = OBJECT)]
    fn panic(&self) -> String {
        panic!("deliberate panic in the panic tool")
    }

    /// Counts calls in this instance
    #[tool(input_schema = OBJECT)]
    fn counter(&self) -> String {
        self.calls.set(self.calls.get() + 1);
        self.calls.get().to_string()
    }

    // Not listed (its broken schema lives in the schema-liar fixture now),
    // still callable.
    #[tool(name = "bad-schema", unlisted)]
    fn bad_schema(&self) -> &'static str {
        "unreachable through tools/list but callable"
    }

    /// Carries every annotation and meta field
    #[tool(read_only = false, destructive, streaming, experimental, input_schema = OBJECT, meta = every_tool_meta())]
    fn annotated(&self) -> &'static str {
        "annotated"
    }

    /// A text resource
    #[resource(
        uri = "everything://text",
        annotations = annotations(Some(vec![Role::Assistant]), Some(1.0), Some("2025-06-01T12:00:00Z"))
    )]
    fn text(&self) -> &'static str {
        "hello from a resource"
    }

    #[resource(uri = "everything://blob", mime_type = "application/octet-stream")]
    fn blob(&self) -> Vec<u8> {
        vec![0, 1, 2, 3]
    }

    /// Always fails to read
    #[resource(uri = "everything://broken", name = "broken")]
    fn broken_resource(&self) -> Result<String, ResourceError> {
        Err(ResourceError::execution_error("storage offline"))
    }

    // Readable, deliberately not listed.
    #[resource(uri = "everything://both", unlisted)]
    fn both(&self, uri: &str) -> Vec<ResourceContents> {
        vec![ResourceContents::text(uri, None, "part one"), blob_resource(uri, Some("image/png"), PNG)]
    }

    // The contract's `get-prompt` carries no arguments: `who` is listed,
    // never received.
    /// Greets someone
    #[prompt(arguments = vec![PromptArgument {
        name: "who".into(),
        description: Some("Who to greet".into()),
        required: Some(true),
    }])]
    fn greeting(&self) -> GetPromptResult {
        GetPromptResult {
            description: Some("A greeting".into()),
            messages: vec![PromptMessage::user("Please greet someone warmly.")],
        }
    }

    /// One message of each content kind
    #[prompt]
    fn mixed(&self) -> GetPromptResult {
        let message = |role, content| PromptMessage { role, content };
        let looked_at = annotations(Some(vec![Role::User]), Some(0.3), None);
        GetPromptResult {
            description: None,
            messages: vec![
                message(
                    PromptMessageRole::User,
                    PromptMessageContent::Text(text_content("look at this", Some(looked_at))),
                ),
                message(
                    PromptMessageRole::Assistant,
                    PromptMessageContent::Image(image_content(PNG, "image/png", None)),
                ),
                message(
                    PromptMessageRole::User,
                    PromptMessageContent::McpResource(EmbeddedResource {
                        resource_contents: ResourceContents::text(
                            "everything://text",
                            Some("text/plain"),
                            "hello from a resource",
                        ),
                        annotations: None,
                    }),
                ),
            ],
        }
    }

    #[prompt]
    fn invalid(&self) -> Result<String, PromptError> {
        Err(PromptError::invalid_parameters("this prompt needs arguments the contract cannot carry"))
    }

    #[prompt(name = "broken")]
    fn broken_prompt(&self) -> Result<String, PromptError> {
        Err(PromptError::internal_error("prompt store unavailable"))
    }

    #[complete]
    fn complete(&self, request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        completion::complete(request)
    }
}
