//! `echo`: a minimal router used for benchmarks. Its one tool, `echo`,
//! returns its `text` argument unchanged.

wit_bindgen::generate!({
    path: "../../wit",
    world: "wasix:mcp/mcp-router",
});

use exports::wasix::mcp::router::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, Content, GetPromptResult, Guest,
    McpResource, Prompt, PromptError, ReadResourceResult, ResourceError, ServerCapabilities, TextContent, Tool,
    ToolError, ToolsCapability, Value,
};

const ECHO_SCHEMA: &str = r#"{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}"#;

struct Echo;

#[derive(serde::Deserialize)]
struct EchoArguments {
    text: String,
}

impl Guest for Echo {
    fn name() -> String {
        "echo".into()
    }

    fn instructions() -> String {
        "Call the `echo` tool to get its `text` argument back.".into()
    }

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
            name: "echo".into(),
            description: "Echoes its text argument".into(),
            input_schema: Value { json: ECHO_SCHEMA.into() },
            output_schema: None,
            annotations: None,
            meta: None,
        }]
    }

    fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        if tool_name != "echo" {
            return Err(ToolError::NotFound(tool_name));
        }
        // Typed, as a native server would parse it: no JSON tree is built.
        // (The host hands over a JSON object, so only `text` can be wrong.)
        let EchoArguments { text } = serde_json::from_str(&arguments.json)
            .map_err(|_| ToolError::InvalidParameters("`text` must be a string".into()))?;
        Ok(CallToolResult {
            content: vec![Content::Text(TextContent { text, annotations: None })],
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

export!(Echo);
