//! The router: the contract's and the extension's exports, each answered by
//! the module of its kind.

use crate::bindings::exports::mcp_wit::extension::extension::{Guest as Extension, ResourceTemplate};
use crate::bindings::exports::wasix::mcp::router::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, CompletionsCapability, GetPromptResult,
    Guest, McpResource, Prompt, PromptError, PromptsCapability, ReadResourceResult, ResourceError, ResourcesCapability,
    ServerCapabilities, Tool, ToolError, ToolsCapability, Value,
};
use crate::{prompts, resources, task_tools, tools};

pub(crate) struct Conformance;

impl Guest for Conformance {
    fn name() -> String {
        "mcp-wit-conformance".into()
    }

    fn instructions() -> String {
        "Fixtures for the MCP conformance suite's server scenarios.".into()
    }

    fn capabilities() -> ServerCapabilities {
        ServerCapabilities {
            // `test_trigger_*` and `test_update_resource` signal changes.
            prompts: Some(PromptsCapability { list_changed: Some(true) }),
            resources: Some(ResourcesCapability { subscribe: Some(true), list_changed: Some(false) }),
            tools: Some(ToolsCapability { list_changed: Some(true) }),
            completions: Some(CompletionsCapability { enabled: true }),
        }
    }

    fn list_tools() -> Vec<Tool> {
        let mut listed = tools::list_tools();
        listed.extend(task_tools::TASK_TOOLS.iter().map(tools::tool));
        listed
    }

    fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        match task_tools::call(&tool_name, &arguments) {
            Some(answer) => answer,
            None => tools::call_tool(tool_name, arguments),
        }
    }

    fn list_resources() -> Vec<McpResource> {
        resources::list_resources()
    }

    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
        resources::read_resource(uri)
    }

    fn list_prompts() -> Vec<Prompt> {
        prompts::list_prompts()
    }

    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
        prompts::get_prompt(prompt_name)
    }

    fn complete(request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        prompts::complete(request)
    }
}

impl Extension for Conformance {
    fn list_resource_templates() -> Vec<ResourceTemplate> {
        resources::list_resource_templates()
    }

    fn get_prompt_with_arguments(
        prompt_name: String,
        arguments: Vec<(String, String)>,
    ) -> Result<GetPromptResult, PromptError> {
        prompts::get_prompt_with_arguments(prompt_name, arguments)
    }

    fn subscribe(uri: String) -> Result<(), ResourceError> {
        resources::subscribe(uri)
    }

    fn unsubscribe(uri: String) -> Result<(), ResourceError> {
        resources::unsubscribe(uri)
    }

    fn on_roots_list_changed() {
        tools::roots_list_changed();
    }
}

impl crate::bindings::exports::mcp_wit::extension::presentation::Guest for Conformance {
    // The suites' fixture tools carry no `_meta` or icons beyond the contract's.
    fn decorations() -> Vec<crate::bindings::exports::mcp_wit::extension::presentation::Decoration> {
        Vec::new()
    }
}
