//! `hello`: the demo router embedded in the `mcp-wit` host binary.
//!
//! It offers a single tool, `hello`, that greets someone by name. It has no
//! resources, prompts or completions, and answers requests for them with the
//! matching `not-found` error.

wit_bindgen::generate!({
    path: "../../wit",
    world: "wasix:mcp/mcp-router",
});

use exports::wasix::mcp::router::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, Content, GetPromptResult, Guest,
    McpResource, Prompt, PromptError, ReadResourceResult, ResourceError, ServerCapabilities, TextContent, Tool,
    ToolAnnotations, ToolError, ToolsCapability, Value,
};

/// JSON Schema for the `hello` tool's arguments.
const HELLO_SCHEMA: &str =
    r#"{"type":"object","properties":{"name":{"type":"string","description":"Who to greet"}},"required":["name"]}"#;

struct Hello;

impl Guest for Hello {
    fn name() -> String {
        "hello".into()
    }

    fn instructions() -> String {
        "A friendly greeter: call the `hello` tool with a name.".into()
    }

    /// Only tools are offered; the tool list never changes.
    fn capabilities() -> ServerCapabilities {
        ServerCapabilities {
            prompts: None,
            resources: None,
            tools: Some(ToolsCapability { list_changed: None }),
            completions: None,
        }
    }

    fn list_tools() -> Vec<Tool> {
        vec![Tool {
            name: "hello".into(),
            description: "Greets someone by name".into(),
            input_schema: Value { json: HELLO_SCHEMA.into() },
            output_schema: None,
            annotations: Some(ToolAnnotations {
                read_only: Some(true),
                destructive: None,
                streaming: None,
                experimental: None,
            }),
            meta: None,
        }]
    }

    fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        if tool_name != "hello" {
            return Err(ToolError::NotFound(tool_name));
        }

        // Arguments arrive as a JSON document; anything that is not an object
        // with a string `name` is the caller's mistake.
        let arguments: serde_json::Value =
            serde_json::from_str(&arguments.json).map_err(|e| ToolError::InvalidParameters(e.to_string()))?;
        let name = arguments
            .get("name")
            .and_then(serde_json::Value::as_str)
            .ok_or_else(|| ToolError::InvalidParameters("`name` must be a string".into()))?;

        Ok(CallToolResult {
            content: vec![Content::Text(TextContent { text: format!("Hello, {name}!"), annotations: None })],
            progress: None,
            meta: None,
            is_error: None,
        })
    }

    fn list_resources() -> Vec<McpResource> {
        Vec::new()
    }

    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
        Err(ResourceError::NotFound(uri))
    }

    fn list_prompts() -> Vec<Prompt> {
        Vec::new()
    }

    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
        Err(PromptError::NotFound(prompt_name))
    }

    fn complete(_request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        Err(CompletionError::NotFound("no completions".into()))
    }
}

export!(Hello);
