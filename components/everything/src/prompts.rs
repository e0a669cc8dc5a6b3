//! Prompts: a plain one, one with every message content kind, and two that
//! fail with different errors.

use crate::content::{PNG, annotations, image_content, text_content, text_resource};
use crate::exports::wasix::mcp::router::{
    EmbeddedResource, GetPromptResult, Prompt, PromptArgument, PromptError, PromptMessage, PromptMessageContent,
    PromptMessageRole, Role,
};

/// A prompt with only a name and an optional description.
fn prompt(name: &str, description: Option<&str>) -> Prompt {
    Prompt { name: name.into(), description: description.map(Into::into), arguments: None }
}

pub fn list() -> Vec<Prompt> {
    vec![
        Prompt {
            arguments: Some(vec![PromptArgument {
                name: "who".into(),
                description: Some("Who to greet".into()),
                required: Some(true),
            }]),
            ..prompt("greeting", Some("Greets someone"))
        },
        prompt("mixed", Some("One message of each content kind")),
        prompt("invalid", None),
        prompt("broken", None),
    ]
}

fn message(role: PromptMessageRole, content: PromptMessageContent) -> PromptMessage {
    PromptMessage { role, content }
}

pub fn get(name: String) -> Result<GetPromptResult, PromptError> {
    match name.as_str() {
        "greeting" => Ok(GetPromptResult {
            description: Some("A greeting".into()),
            messages: vec![message(
                PromptMessageRole::User,
                PromptMessageContent::Text(text_content("Please greet someone warmly.", None)),
            )],
        }),
        "mixed" => Ok(GetPromptResult {
            description: None,
            messages: vec![
                message(
                    PromptMessageRole::User,
                    PromptMessageContent::Text(text_content(
                        "look at this",
                        Some(annotations(Some(vec![Role::User]), Some(0.3), None)),
                    )),
                ),
                message(
                    PromptMessageRole::Assistant,
                    PromptMessageContent::Image(image_content(PNG, "image/png", None)),
                ),
                message(
                    PromptMessageRole::User,
                    PromptMessageContent::McpResource(EmbeddedResource {
                        resource_contents: text_resource(
                            "everything://text",
                            Some("text/plain"),
                            "hello from a resource",
                        ),
                        annotations: None,
                    }),
                ),
            ],
        }),
        "invalid" => {
            Err(PromptError::InvalidParameters("this prompt needs arguments the contract cannot carry".into()))
        }
        "broken" => Err(PromptError::InternalError("prompt store unavailable".into())),
        _ => Err(PromptError::NotFound(name)),
    }
}
