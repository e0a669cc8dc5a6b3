//! `whoami`: a fixture for authorization. Its one tool, `whoami`, answers
//! with the caller the host authenticated (`mcp-wit:extension/caller`), as
//! JSON, or `anonymous` when requests are not authenticated.

wit_bindgen::generate!({
    path: "../../wit",
    world: "mcp-wit:extension/identified-router",
});

use exports::wasix::mcp::router::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, Content, GetPromptResult, Guest,
    McpResource, Prompt, PromptError, ReadResourceResult, ResourceError, ServerCapabilities, TextContent, Tool,
    ToolError, ToolsCapability, Value,
};
use mcp_wit::extension::caller;

struct Whoami;

impl Guest for Whoami {
    fn name() -> String {
        "whoami".into()
    }

    fn instructions() -> String {
        "Call `whoami` to hear who the server says you are.".into()
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
            name: "whoami".into(),
            description: "Says who the caller is, as the host authenticated it".into(),
            input_schema: Value { json: r#"{"type":"object"}"#.into() },
            output_schema: None,
            annotations: None,
            meta: None,
        }]
    }

    fn call_tool(tool_name: String, _arguments: Value) -> Result<CallToolResult, ToolError> {
        if tool_name != "whoami" {
            return Err(ToolError::NotFound(tool_name));
        }
        let text = match caller::current() {
            Some(identity) => serde_json::json!({
                "issuer": identity.issuer,
                "subject": identity.subject,
                "clientId": identity.client_id,
                "scopes": identity.scopes,
            })
            .to_string(),
            None => "anonymous".into(),
        };
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

export!(Whoami);
