//! A starting point for an MCP server written as a WebAssembly component.
//!
//! The contract is `wit/wasix-mcp-router@25.3.26.wit`: the component exports
//! the `wasix:mcp/router` interface, and the `mcp-wit` host turns each MCP
//! request into a call of one of its functions. It also imports
//! `mcp-wit:extension/client` (`wit/mcp-wit-extension.wit`), to reach the
//! client while it serves a request. This router offers:
//!
//! - a `reverse` tool that reverses a string,
//! - a `greet` tool that logs a line, reports progress and asks the user
//!   their name (elicitation),
//! - a text resource, `template://readme`,
//! - a `welcome` prompt.
//!
//! Rename things, replace the bodies, and keep the shape.

// Generate the bindings: a `Guest` trait with one method per function of the
// `router` interface, plus Rust types for its records and variants (WIT
// `kebab-case` names become `snake_case` fields and `CamelCase` types), and
// the `client` functions to call. (World `mcp-wit:extension/router` also
// exports the extension: resource templates, prompts with arguments.)
wit_bindgen::generate!({
    path: "wit",
    world: "mcp-wit:extension/talking-router",
});

use mcp_wit::extension::client::{self, ClientError, LogLevel};

use exports::wasix::mcp::router::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, Content, GetPromptResult, Guest,
    McpResource, Prompt, PromptError, PromptMessage, PromptMessageContent, PromptMessageRole, PromptsCapability,
    ReadResourceResult, ResourceContents, ResourceError, ResourcesCapability, ServerCapabilities, TextContent,
    TextResourceContents, Tool, ToolAnnotations, ToolError, ToolsCapability, Value,
};

const README_URI: &str = "template://readme";

/// The router. It has no fields: the host calls the trait's associated
/// functions directly. State that must outlive one call can live in statics;
/// it lasts as long as the host keeps this instance.
struct MyRouter;

impl Guest for MyRouter {
    /// The server name reported to MCP clients in `initialize`.
    fn name() -> String {
        "my-router".into()
    }

    /// Free-form guidance for the client's model, also sent in `initialize`.
    fn instructions() -> String {
        "Call the `reverse` tool to reverse a piece of text.".into()
    }

    /// What this server offers. Leave a capability `None` to not advertise
    /// it; `list-changed` and `subscribe` are hints passed on to clients.
    fn capabilities() -> ServerCapabilities {
        ServerCapabilities {
            prompts: Some(PromptsCapability { list_changed: None }),
            resources: Some(ResourcesCapability { subscribe: None, list_changed: None }),
            tools: Some(ToolsCapability { list_changed: None }),
            completions: None,
        }
    }

    /// Answers `tools/list`. Input and output schemas are JSON Schema
    /// documents passed as JSON text.
    fn list_tools() -> Vec<Tool> {
        let greet = Tool {
            name: "greet".into(),
            description: "Asks the user their name, then greets them".into(),
            input_schema: Value { json: r#"{"type":"object","properties":{}}"#.into() },
            output_schema: None,
            annotations: None,
            meta: None,
        };
        vec![Tool {
            name: "reverse".into(),
            description: "Reverses a piece of text".into(),
            input_schema: Value {
                json: r#"{"type":"object","properties":{"text":{"type":"string","description":"Text to reverse"}},"required":["text"]}"#.into(),
            },
            output_schema: None,
            annotations: Some(ToolAnnotations {
                read_only: Some(true),
                destructive: Some(false),
                streaming: None,
                experimental: None,
            }),
            meta: None,
        }, greet]
    }

    /// Answers `tools/call`. `arguments.json` holds the call's arguments as
    /// JSON text.
    ///
    /// Errors: return `not-found` for an unknown tool, `invalid-parameters`
    /// for arguments that do not fit the input schema, `execution-error`
    /// when the tool ran and failed, and `schema-error` when its output would
    /// not match its output schema; the host turns each into the matching
    /// MCP error. To hand a failure to the model as ordinary content
    /// instead, return `Ok` with `is_error: Some(true)`. A panic aborts the
    /// call: the component traps.
    fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        match tool_name.as_str() {
            "reverse" => {
                let arguments: serde_json::Value =
                    serde_json::from_str(&arguments.json).map_err(|e| ToolError::InvalidParameters(e.to_string()))?;
                let text = arguments
                    .get("text")
                    .and_then(serde_json::Value::as_str)
                    .ok_or_else(|| ToolError::InvalidParameters("`text` must be a string".into()))?;
                Ok(CallToolResult {
                    content: vec![Content::Text(TextContent { text: text.chars().rev().collect(), annotations: None })],
                    progress: None,
                    meta: None,
                    is_error: None,
                })
            }
            "greet" => Ok(CallToolResult {
                content: vec![Content::Text(TextContent { text: greet()?, annotations: None })],
                progress: None,
                meta: None,
                is_error: None,
            }),
            _ => Err(ToolError::NotFound(tool_name)),
        }
    }

    /// Answers `resources/list`.
    fn list_resources() -> Vec<McpResource> {
        vec![McpResource {
            uri: README_URI.into(),
            name: "readme".into(),
            description: Some("About this router".into()),
            mime_type: "text/plain".into(),
            annotations: None,
        }]
    }

    /// Answers `resources/read`. Binary contents use
    /// `ResourceContents::Blob` with base64 data.
    ///
    /// Errors: `not-found` for an unknown URI, `execution-error` when the
    /// resource exists but cannot be read right now.
    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
        if uri != README_URI {
            return Err(ResourceError::NotFound(uri));
        }
        Ok(ReadResourceResult {
            contents: vec![ResourceContents::Text(TextResourceContents {
                uri,
                mime_type: Some("text/plain".into()),
                text: "This router started from the mcp-wit guest template.".into(),
            })],
        })
    }

    /// Answers `prompts/list`.
    fn list_prompts() -> Vec<Prompt> {
        vec![Prompt { name: "welcome".into(), description: Some("Introduces this server".into()), arguments: None }]
    }

    /// Answers `prompts/get`. The contract passes only the prompt's name, so
    /// prompts cannot take arguments.
    ///
    /// Errors: `not-found` for an unknown prompt, `invalid-parameters` when
    /// the request cannot be served as asked, `internal-error` for failures
    /// on this side.
    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
        match prompt_name.as_str() {
            "welcome" => Ok(GetPromptResult {
                description: Some("Introduces this server".into()),
                messages: vec![PromptMessage {
                    role: PromptMessageRole::User,
                    content: PromptMessageContent::Text(TextContent {
                        text: "Say hello, then reverse the word \"template\" with the \
                               `reverse` tool."
                            .into(),
                        annotations: None,
                    }),
                }],
            }),
            _ => Err(PromptError::NotFound(prompt_name)),
        }
    }

    /// Answers `completion/complete`. `request.input.json` holds the MCP
    /// params (`ref`, `argument`, `context`); each text content item of the
    /// response is one suggested value. This router advertises no
    /// completions, so it has nothing to offer.
    fn complete(_request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        Err(CompletionError::NotFound("no completions".into()))
    }
}

/// Talks back to the client while `greet` runs. A log line (`data` is JSON
/// text) and progress go out at once, while the tool works; the question
/// waits for the user's answer. Each fails softly: a client that did not
/// declare elicitation gets a greeting for a stranger.
fn greet() -> Result<String, ToolError> {
    client::notify_logging_message(LogLevel::Info, Some("greet"), r#""asking for a name""#);
    client::notify_progress(0.0, Some(1.0), Some("asking"));
    let question = r#"{"message":"What is your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}"#;
    let name = match client::create_elicitation(question) {
        Ok(answer) => {
            let answer: serde_json::Value =
                serde_json::from_str(&answer).map_err(|e| ToolError::ExecutionError(e.to_string()))?;
            match answer["action"].as_str() {
                Some("accept") => answer["content"]["name"].as_str().unwrap_or("stranger").to_owned(),
                _ => "stranger".to_owned(),
            }
        }
        // The client cannot be asked (it did not declare `elicitation`).
        Err(ClientError::Unsupported(_)) => "stranger".to_owned(),
        Err(other) => return Err(ToolError::ExecutionError(format!("{other:?}"))),
    };
    client::notify_progress(1.0, Some(1.0), Some("done"));
    Ok(format!("Hello, {name}!"))
}

// Export `MyRouter` as the component's implementation of `wasix:mcp/router`.
export!(MyRouter);
