//! `conformance`: the fixtures the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`, server scenarios) expects of a
//! server, as far as the `wasix:mcp/router@25.3.26` contract can express them.
//!
//! Names, texts and payloads follow the suite's scenario sources and its
//! reference "everything" server. Where the contract has no way to do what a
//! scenario asks (send log messages, send requests to the client, see prompt
//! arguments), the fixture still exists and says so; those scenarios are
//! listed with their reason in `tests/conformance-baseline.yml`.

wit_bindgen::generate!({
    path: "../../wit",
    world: "wasix:mcp/mcp-router",
});

use exports::wasix::mcp::router::{
    AudioContent, BlobResourceContents, CallToolResult, CompletionError, CompletionRequest,
    CompletionResponse, CompletionsCapability, Content, EmbeddedResource, GetPromptResult, Guest,
    ImageContent, McpResource, ProgressNotification, Prompt, PromptArgument, PromptError,
    PromptMessage, PromptMessageContent, PromptMessageRole, PromptsCapability, ReadResourceResult,
    ResourceContents, ResourceError, ResourcesCapability, ServerCapabilities, TextContent,
    TextResourceContents, Tool, ToolError, ToolsCapability, Value,
};

/// A 1×1 red PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A minimal WAV file.
const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const NO_ARGUMENTS: &str = r#"{"type":"object","properties":{}}"#;

/// SEP-1613: a JSON Schema 2020-12 input schema that must reach the client unchanged.
const JSON_SCHEMA_2020_12: &str = r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},"additionalProperties":false}"##;

/// Why the tools that need server-to-client requests cannot do their job.
const NO_CLIENT_REQUESTS: &str =
    "the wasix:mcp/router@25.3.26 contract gives a router no way to send requests to the client";

/// Tools: (name, description, input schema).
const TOOLS: &[(&str, &str, &str)] = &[
    (
        "test_simple_text",
        "Tests simple text content response",
        NO_ARGUMENTS,
    ),
    (
        "test_image_content",
        "Tests image content response",
        NO_ARGUMENTS,
    ),
    (
        "test_audio_content",
        "Tests audio content response",
        NO_ARGUMENTS,
    ),
    (
        "test_embedded_resource",
        "Tests embedded resource content response",
        NO_ARGUMENTS,
    ),
    (
        "test_multiple_content_types",
        "Tests response with multiple content types (text, image, resource)",
        NO_ARGUMENTS,
    ),
    (
        "test_tool_with_logging",
        "Tests tool that emits log messages during execution (the contract has no logging import: it only returns)",
        NO_ARGUMENTS,
    ),
    (
        "test_tool_with_progress",
        "Tests tool that reports progress notifications",
        NO_ARGUMENTS,
    ),
    (
        "test_error_handling",
        "Tests error response handling",
        NO_ARGUMENTS,
    ),
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
    (
        "test_reconnection",
        "Tests SSE stream reconnection (SEP-1699); answers at once",
        NO_ARGUMENTS,
    ),
    (
        "test_sampling",
        "Tests server-initiated sampling (not expressible in the contract: always fails)",
        r#"{"type":"object","properties":{"prompt":{"type":"string","description":"The prompt to send to the LLM"}},"required":["prompt"]}"#,
    ),
    (
        "test_elicitation",
        "Tests server-initiated elicitation (not expressible in the contract: always fails)",
        r#"{"type":"object","properties":{"message":{"type":"string","description":"The message to show the user"}},"required":["message"]}"#,
    ),
    (
        "test_elicitation_sep1034_defaults",
        "Tests elicitation with default values (not expressible in the contract: always fails)",
        NO_ARGUMENTS,
    ),
    (
        "test_elicitation_sep1330_enums",
        "Tests elicitation with enum schemas (not expressible in the contract: always fails)",
        NO_ARGUMENTS,
    ),
    (
        "json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features",
        JSON_SCHEMA_2020_12,
    ),
    (
        "wait",
        "Waits `ms` milliseconds (at most 10000), then answers (the host's HTTP tests use it)",
        r#"{"type":"object","properties":{"ms":{"type":"integer","minimum":0}},"required":["ms"]}"#,
    ),
    (
        "counter",
        "Counts its calls on this instance (the host's HTTP tests use it)",
        NO_ARGUMENTS,
    ),
];

/// Calls of `counter` on this instance.
static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn text(text: &str) -> Content {
    Content::Text(text_content(text))
}

fn text_content(text: &str) -> TextContent {
    TextContent {
        text: text.into(),
        annotations: None,
    }
}

fn image_content() -> ImageContent {
    ImageContent {
        data: PNG.into(),
        mime_type: "image/png".into(),
        annotations: None,
    }
}

fn embedded_text(uri: &str, mime_type: &str, text: &str) -> EmbeddedResource {
    EmbeddedResource {
        resource_contents: ResourceContents::Text(TextResourceContents {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: text.into(),
        }),
        annotations: None,
    }
}

fn result(content: Vec<Content>) -> CallToolResult {
    CallToolResult {
        content,
        progress: None,
        meta: None,
        is_error: None,
    }
}

fn progress(value: f32) -> ProgressNotification {
    ProgressNotification {
        progress: Some(value),
        message: Some(format!("Completed step {value} of 100")),
        annotations: None,
    }
}

struct Conformance;

impl Guest for Conformance {
    fn name() -> String {
        "mcp-wit-conformance".into()
    }

    fn instructions() -> String {
        "Fixtures for the MCP conformance suite's server scenarios.".into()
    }

    fn capabilities() -> ServerCapabilities {
        ServerCapabilities {
            prompts: Some(PromptsCapability {
                list_changed: Some(false),
            }),
            // Subscriptions are accepted; the contract cannot signal an update.
            resources: Some(ResourcesCapability {
                subscribe: Some(true),
                list_changed: Some(false),
            }),
            tools: Some(ToolsCapability {
                list_changed: Some(false),
            }),
            completions: Some(CompletionsCapability { enabled: true }),
        }
    }

    fn list_tools() -> Vec<Tool> {
        TOOLS
            .iter()
            .map(|(name, description, schema)| Tool {
                name: (*name).into(),
                description: (*description).into(),
                input_schema: Value {
                    json: (*schema).into(),
                },
                output_schema: None,
                annotations: None,
                meta: None,
            })
            .collect()
    }

    fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        match tool_name.as_str() {
            "test_simple_text" => Ok(result(vec![text(
                "This is a simple text response for testing.",
            )])),
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
            "test_tool_with_logging" => Ok(result(vec![text(
                "Tool execution completed (no log messages: the contract has no logging import)",
            )])),
            "test_tool_with_progress" => Ok(CallToolResult {
                progress: Some(vec![progress(0.0), progress(50.0), progress(100.0)]),
                ..result(vec![text("Progress test completed")])
            }),
            "test_error_handling" => Err(ToolError::ExecutionError(
                "This tool intentionally returns an error for testing".into(),
            )),
            "test_streaming_elicitation" => Ok(result(vec![text(
                "Answered on the request's own stream, without asking the client anything.",
            )])),
            "test_logging_tool" => Ok(result(vec![text(
                "Done; this router logs nothing, so no notifications/message was sent.",
            )])),
            "test_reconnection" => Ok(result(vec![text(
                "Reconnection test completed successfully (the response was sent on the original stream).",
            )])),
            "test_sampling"
            | "test_elicitation"
            | "test_elicitation_sep1034_defaults"
            | "test_elicitation_sep1330_enums" => Err(ToolError::ExecutionError(format!(
                "{tool_name}: {NO_CLIENT_REQUESTS}"
            ))),
            "json_schema_2020_12_tool" => Ok(result(vec![text(&format!(
                "JSON Schema 2020-12 tool called with: {}",
                arguments.json
            ))])),
            "wait" => {
                let arguments: serde_json::Value = serde_json::from_str(&arguments.json)
                    .map_err(|e| ToolError::InvalidParameters(e.to_string()))?;
                let ms = arguments["ms"].as_u64().ok_or_else(|| {
                    ToolError::InvalidParameters("`ms` must be a non-negative integer".into())
                })?;
                std::thread::sleep(std::time::Duration::from_millis(ms.min(10_000)));
                Ok(result(vec![text(&format!("waited {ms} ms"))]))
            }
            "counter" => {
                let calls = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                Ok(result(vec![text(&calls.to_string())]))
            }
            _ => Err(ToolError::NotFound(tool_name)),
        }
    }

    fn list_resources() -> Vec<McpResource> {
        let resource = |uri: &str, name: &str, description: &str, mime_type: &str| McpResource {
            uri: uri.into(),
            name: name.into(),
            description: Some(description.into()),
            mime_type: mime_type.into(),
            annotations: None,
        };
        vec![
            resource(
                "test://static-text",
                "static-text",
                "A static text resource for testing",
                "text/plain",
            ),
            resource(
                "test://static-binary",
                "static-binary",
                "A static binary resource (image) for testing",
                "image/png",
            ),
            resource(
                "test://watched-resource",
                "watched-resource",
                "A resource that can be subscribed to",
                "text/plain",
            ),
        ]
    }

    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
        let text = |mime_type: &str, text: String| ReadResourceResult {
            contents: vec![ResourceContents::Text(TextResourceContents {
                uri: uri.clone(),
                mime_type: Some(mime_type.into()),
                text,
            })],
        };
        match uri.as_str() {
            "test://static-text" => Ok(text(
                "text/plain",
                "This is the content of the static text resource.".into(),
            )),
            "test://static-binary" => Ok(ReadResourceResult {
                contents: vec![ResourceContents::Blob(BlobResourceContents {
                    uri: uri.clone(),
                    mime_type: Some("image/png".into()),
                    blob: PNG.into(),
                })],
            }),
            "test://watched-resource" => Ok(text("text/plain", "Watched resource content".into())),
            _ => {
                // The template `test://template/{id}/data`: the contract has no
                // templates to list, but a router can still serve their URIs.
                let id = uri
                    .strip_prefix("test://template/")
                    .and_then(|rest| rest.strip_suffix("/data"))
                    .filter(|id| !id.is_empty() && !id.contains('/'));
                match id {
                    Some(id) => {
                        let body = serde_json::json!({
                            "id": id,
                            "templateTest": true,
                            "data": format!("Data for ID: {id}"),
                        });
                        Ok(text("application/json", body.to_string()))
                    }
                    None => Err(ResourceError::NotFound(uri)),
                }
            }
        }
    }

    fn list_prompts() -> Vec<Prompt> {
        let argument = |name: &str, description: &str| PromptArgument {
            name: name.into(),
            description: Some(description.into()),
            required: Some(true),
        };
        let prompt =
            |name: &str, description: &str, arguments: Option<Vec<PromptArgument>>| Prompt {
                name: name.into(),
                description: Some(description.into()),
                arguments,
            };
        vec![
            prompt(
                "test_simple_prompt",
                "A simple prompt without arguments",
                None,
            ),
            prompt(
                "test_prompt_with_arguments",
                "A prompt with required arguments (the contract does not pass them to the router)",
                Some(vec![
                    argument("arg1", "First test argument"),
                    argument("arg2", "Second test argument"),
                ]),
            ),
            prompt(
                "test_prompt_with_embedded_resource",
                "A prompt that includes an embedded resource",
                Some(vec![argument(
                    "resourceUri",
                    "URI of the resource to embed",
                )]),
            ),
            prompt(
                "test_prompt_with_image",
                "A prompt that includes image content",
                None,
            ),
        ]
    }

    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
        let user = |content: PromptMessageContent| PromptMessage {
            role: PromptMessageRole::User,
            content,
        };
        let messages = match prompt_name.as_str() {
            "test_simple_prompt" => vec![user(PromptMessageContent::Text(text_content(
                "This is a simple prompt for testing.",
            )))],
            // `get-prompt` takes only the name: the arguments never reach the router.
            "test_prompt_with_arguments" => vec![user(PromptMessageContent::Text(text_content(
                "Prompt with arguments (not substituted: the router does not receive them)",
            )))],
            "test_prompt_with_embedded_resource" => vec![
                user(PromptMessageContent::McpResource(embedded_text(
                    "test://embedded-resource",
                    "text/plain",
                    "Embedded resource content for testing.",
                ))),
                user(PromptMessageContent::Text(text_content(
                    "Please process the embedded resource above.",
                ))),
            ],
            "test_prompt_with_image" => vec![
                user(PromptMessageContent::Image(image_content())),
                user(PromptMessageContent::Text(text_content(
                    "Please analyze the image above.",
                ))),
            ],
            _ => return Err(PromptError::NotFound(prompt_name)),
        };
        Ok(GetPromptResult {
            description: None,
            messages,
        })
    }

    /// Values for `test_prompt_with_arguments`' `arg1`, filtered by prefix;
    /// nothing for anything else.
    fn complete(request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        let params: serde_json::Value = serde_json::from_str(&request.input.json)
            .map_err(|e| CompletionError::InvalidParameters(e.to_string()))?;
        let argument = &params["argument"];
        let prefix = argument["value"].as_str().unwrap_or_default();
        let candidates: &[&str] = match (params["ref"]["name"].as_str(), argument["name"].as_str())
        {
            (Some("test_prompt_with_arguments"), Some("arg1")) => &["paris", "park", "party"],
            _ => &[],
        };
        Ok(CompletionResponse {
            content: candidates
                .iter()
                .filter(|value| value.starts_with(prefix))
                .map(|value| text(value))
                .collect(),
            meta: None,
            is_error: None,
        })
    }
}

export!(Conformance);
