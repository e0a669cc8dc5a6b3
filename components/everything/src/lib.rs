//! `everything`: a test fixture that exercises every function, record and
//! variant of the `wasix:mcp/router` contract.
//!
//! Tests elsewhere in the repository depend on the exact values returned
//! here; see `README.md` for a summary. Change them only together.

wit_bindgen::generate!({
    path: "../../wit",
    world: "wasix:mcp/mcp-router",
});

mod completion;
mod content;
mod prompts;
mod resources;
mod tools;

use exports::wasix::mcp::router::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, CompletionsCapability, GetPromptResult,
    Guest, McpResource, Prompt, PromptError, PromptsCapability, ReadResourceResult, ResourceError, ResourcesCapability,
    ServerCapabilities, Tool, ToolError, ToolsCapability, Value,
};

struct Everything;

impl Guest for Everything {
    fn name() -> String {
        "everything".into()
    }

    fn instructions() -> String {
        "Exercises every part of the wasix:mcp router contract.".into()
    }

    fn capabilities() -> ServerCapabilities {
        ServerCapabilities {
            prompts: Some(PromptsCapability { list_changed: Some(false) }),
            resources: Some(ResourcesCapability { subscribe: Some(false), list_changed: Some(true) }),
            tools: Some(ToolsCapability { list_changed: Some(true) }),
            completions: Some(CompletionsCapability { enabled: true }),
        }
    }

    fn list_tools() -> Vec<Tool> {
        tools::list()
    }

    fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        tools::call(tool_name, &arguments.json)
    }

    fn list_resources() -> Vec<McpResource> {
        resources::list()
    }

    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
        resources::read(uri)
    }

    fn list_prompts() -> Vec<Prompt> {
        prompts::list()
    }

    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
        prompts::get(prompt_name)
    }

    fn complete(request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        completion::complete(request)
    }
}

export!(Everything);
