//! A starting point for an MCP server written against
//! `wasix:mcp/router@25.6.18` (see `wit/`), served by `mcp-wit serve`.
//! This router offers:
//!
//! - a `reverse` tool with a title and structured output,
//! - a `greet` tool that asks the user their name (elicitation),
//! - a text resource, `template://readme`,
//! - a `welcome` prompt.
//!
//! Rename things, replace the bodies, and keep the shape.

wit_bindgen::generate!({
    path: "wit",
    world: "wasix:mcp/mcp-router@25.6.18",
});

use exports::wasix::mcp::router::{
    CompletionError, CompletionRequest, CompletionResponse, ContentBlock, ElicitationRequest, GetPromptResult, Guest,
    Json, McpResource, Prompt, PromptError, PromptMessage, PromptMessageContent, PromptMessageRole, PromptsCapability,
    ReadResourceResult, ResourceContents, ResourceError, ResourcesCapability, Response, ServerCapabilities,
    ServerDescription, TextContent, TextResourceContents, Tool, ToolAnnotations, ToolError, ToolResult,
    ToolsCapability,
};
use serde_json::{Value, json};

const README: &str = "template://readme";

struct MyRouter;

impl Guest for MyRouter {
    fn name() -> String {
        "my-router".into()
    }

    fn title() -> Option<String> {
        Some("My router".into())
    }

    fn instructions() -> String {
        "Reverses text and greets people.".into()
    }

    fn describe_server() -> ServerDescription {
        ServerDescription {
            name: Self::name(),
            title: Self::title(),
            capabilities: ServerCapabilities {
                prompts: Some(PromptsCapability { list_changed: None }),
                resources: Some(ResourcesCapability { subscribe: None, list_changed: None }),
                tools: Some(ToolsCapability { list_changed: None }),
                completions: None,
            },
            resources: None,
            resource_metadata: None,
            meta: None,
        }
    }

    fn list_tools() -> Vec<Tool> {
        let text = json!({ "type": "string", "minLength": 1, "description": "The text to reverse" });
        let reverse = Tool {
            name: "reverse".into(),
            title: Some("Reverse".into()),
            description: "Reverses a string".into(),
            input_schema: json!({ "type": "object", "properties": { "text": text }, "required": ["text"] }).to_string(),
            output_schema: Some(
                json!({
                    "type": "object",
                    "properties": { "text": { "type": "string" }, "length": { "type": "integer" } },
                    "required": ["text", "length"]
                })
                .to_string(),
            ),
            annotations: Some(ToolAnnotations {
                read_only: Some(true),
                destructive: Some(false),
                streaming: None,
                experimental: None,
            }),
            meta: None,
        };
        let greet = Tool {
            name: "greet".into(),
            title: None,
            description: "Asks the user their name (elicitation), then greets them".into(),
            input_schema: json!({ "type": "object", "properties": {} }).to_string(),
            output_schema: None,
            annotations: None,
            meta: None,
        };
        vec![reverse, greet]
    }

    fn call_tool(tool_name: String, arguments: Json) -> Result<Response, ToolError> {
        // The host has checked the arguments against the input schema.
        let arguments: Value =
            serde_json::from_str(&arguments).map_err(|e| ToolError::InvalidParameters(e.to_string()))?;
        match tool_name.as_str() {
            "reverse" => {
                let text = arguments["text"].as_str().ok_or_else(|| ToolError::InvalidParameters("`text`".into()))?;
                let reversed =
                    json!({ "text": text.chars().rev().collect::<String>(), "length": text.chars().count() });
                Ok(completed(reversed.to_string(), Some(reversed.to_string())))
            }
            "greet" => Ok(greet(&arguments)),
            other => Err(ToolError::NotFound(format!("no tool `{other}`"))),
        }
    }

    fn list_resources() -> Vec<McpResource> {
        vec![McpResource {
            uri: README.into(),
            name: "readme".into(),
            title: Some("Read me".into()),
            description: Some("What this router offers".into()),
            mime_type: "text/markdown".into(),
            annotations: None,
        }]
    }

    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
        if uri != README {
            return Err(ResourceError::NotFound(uri));
        }
        let text = "# my-router\n\nTools: `reverse`, `greet`. Prompt: `welcome`.\n".into();
        let contents = TextResourceContents { uri, mime_type: Some("text/markdown".into()), text };
        Ok(ReadResourceResult { contents: vec![ResourceContents::Text(contents)] })
    }

    fn list_prompts() -> Vec<Prompt> {
        vec![Prompt {
            name: "welcome".into(),
            description: Some("A welcome message for a new user".into()),
            arguments: None,
        }]
    }

    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
        if prompt_name != "welcome" {
            return Err(PromptError::NotFound(prompt_name));
        }
        let text = TextContent { text: "Write a one-line welcome.".into(), annotations: None };
        let message = PromptMessage { role: PromptMessageRole::User, content: PromptMessageContent::Text(text) };
        Ok(GetPromptResult { description: Some("A welcome message for a new user".into()), messages: vec![message] })
    }

    fn complete(_request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        Err(CompletionError::NotFound("this router completes nothing".into()))
    }
}

/// `greet`: with no answer yet, asks the user their name; called again by
/// the host with the answer under `_elicitations`, greets them.
fn greet(arguments: &Value) -> Response {
    let Some(answer) = arguments["_elicitations"].get(0) else {
        let schema = json!({
            "type": "object",
            "properties": { "name": { "type": "string", "description": "What should I call you?" } },
            "required": ["name"]
        });
        return Response::Elicit(ElicitationRequest {
            title: None,
            message: "What is your name?".into(),
            schema: schema.to_string(),
            annotations: None,
            meta: None,
        });
    };
    match (answer["action"].as_str(), answer["content"]["name"].as_str()) {
        (Some("accept"), Some(name)) => completed(format!("Hello, {name}!"), None),
        _ => completed("Hello, whoever you are!".into(), None),
    }
}

/// A finished call: one text item, and the same as structured content when
/// the tool declares an output schema.
fn completed(text: String, structured: Option<Json>) -> Response {
    let content = vec![ContentBlock::Text(TextContent { text, annotations: None })];
    Response::Completed(ToolResult {
        content,
        structured_content: structured,
        progress: None,
        meta: None,
        is_error: None,
    })
}

export!(MyRouter);
