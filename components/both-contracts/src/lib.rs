//! `both-contracts`: a fixture for a component that exports both router
//! contracts, `wasix:mcp/router@25.3.26` and `wasix:mcp/router@25.6.18`. The
//! host serves one of them and warns. Each export has one tool, `which`,
//! that answers with its contract's version, so a test sees which one the
//! host picked; everything else is empty.

wit_bindgen::generate!({
    // The contracts first: `wit/world.wit` uses both.
    path: ["../../wit/wasix-mcp-router@25.3.26.wit", "../../wit/wasix-mcp@25.6.18", "wit"],
    world: "fixture:both/both",
});

// wit-bindgen puts the version in the module name when two versions of a
// package meet: `mcp25_3_26` and `mcp25_6_18`.
use exports::wasix::mcp25_3_26::router as old;
use exports::wasix::mcp25_6_18::router as new;

const NAME: &str = "both-contracts";
const WHICH_INPUT: &str = r#"{"type":"object","properties":{}}"#;
const WHICH_DESCRIPTION: &str = "Names the contract the host called";

struct Both;

impl old::Guest for Both {
    fn name() -> String {
        NAME.into()
    }

    fn instructions() -> String {
        String::new()
    }

    fn capabilities() -> old::ServerCapabilities {
        old::ServerCapabilities {
            prompts: None,
            resources: None,
            tools: Some(old::ToolsCapability { list_changed: None }),
            completions: None,
        }
    }

    fn list_tools() -> Vec<old::Tool> {
        vec![old::Tool {
            name: "which".into(),
            description: WHICH_DESCRIPTION.into(),
            input_schema: old::Value { json: WHICH_INPUT.into() },
            output_schema: None,
            annotations: None,
            meta: None,
        }]
    }

    fn call_tool(tool_name: String, _arguments: old::Value) -> Result<old::CallToolResult, old::ToolError> {
        if tool_name != "which" {
            return Err(old::ToolError::NotFound(tool_name));
        }
        Ok(old::CallToolResult {
            content: vec![old::Content::Text(old::TextContent { text: "25.3.26".into(), annotations: None })],
            progress: None,
            meta: None,
            is_error: None,
        })
    }

    fn list_resources() -> Vec<old::McpResource> {
        Vec::new()
    }

    fn read_resource(uri: String) -> Result<old::ReadResourceResult, old::ResourceError> {
        Err(old::ResourceError::NotFound(uri))
    }

    fn list_prompts() -> Vec<old::Prompt> {
        Vec::new()
    }

    fn get_prompt(prompt_name: String) -> Result<old::GetPromptResult, old::PromptError> {
        Err(old::PromptError::NotFound(prompt_name))
    }

    fn complete(_request: old::CompletionRequest) -> Result<old::CompletionResponse, old::CompletionError> {
        Err(old::CompletionError::NotFound("no completions".into()))
    }
}

impl new::Guest for Both {
    fn name() -> String {
        NAME.into()
    }

    fn title() -> Option<String> {
        None
    }

    fn instructions() -> String {
        String::new()
    }

    fn describe_server() -> new::ServerDescription {
        new::ServerDescription {
            name: NAME.into(),
            title: None,
            capabilities: new::ServerCapabilities {
                prompts: None,
                resources: None,
                tools: Some(new::ToolsCapability { list_changed: None }),
                completions: None,
            },
            resources: None,
            resource_metadata: None,
            meta: None,
        }
    }

    fn list_tools() -> Vec<new::Tool> {
        vec![new::Tool {
            name: "which".into(),
            title: None,
            description: WHICH_DESCRIPTION.into(),
            input_schema: WHICH_INPUT.into(),
            output_schema: None,
            annotations: None,
            meta: None,
        }]
    }

    fn call_tool(tool_name: String, _arguments: new::Json) -> Result<new::Response, new::ToolError> {
        if tool_name != "which" {
            return Err(new::ToolError::NotFound(tool_name));
        }
        Ok(new::Response::Completed(new::ToolResult {
            content: vec![new::ContentBlock::Text(new::TextContent { text: "25.6.18".into(), annotations: None })],
            structured_content: None,
            progress: None,
            meta: None,
            is_error: None,
        }))
    }

    fn list_resources() -> Vec<new::McpResource> {
        Vec::new()
    }

    fn read_resource(uri: String) -> Result<new::ReadResourceResult, new::ResourceError> {
        Err(new::ResourceError::NotFound(uri))
    }

    fn list_prompts() -> Vec<new::Prompt> {
        Vec::new()
    }

    fn get_prompt(prompt_name: String) -> Result<new::GetPromptResult, new::PromptError> {
        Err(new::PromptError::NotFound(prompt_name))
    }

    fn complete(_request: new::CompletionRequest) -> Result<new::CompletionResponse, new::CompletionError> {
        Err(new::CompletionError::NotFound("no completions".into()))
    }
}

export!(Both);
