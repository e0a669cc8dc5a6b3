//! Prompts: the fixed ones, one with arguments, and completion of its
//! `arg1`.

use crate::bindings::exports::wasix::mcp::router::{
    CompletionError, CompletionRequest, CompletionResponse, GetPromptResult, Prompt, PromptArgument, PromptError,
    PromptMessage, PromptMessageContent, PromptMessageRole,
};
use crate::bindings::mcp_wit::extension::client::{self, QuestionKind};
use crate::content::{embedded_text, image_content, text, text_content};

pub(crate) fn list_prompts() -> Vec<Prompt> {
    let argument = |name: &str, description: &str| PromptArgument {
        name: name.into(),
        description: Some(description.into()),
        required: Some(true),
    };
    let prompt = |name: &str, description: &str, arguments: Option<Vec<PromptArgument>>| Prompt {
        name: name.into(),
        description: Some(description.into()),
        arguments,
    };
    vec![
        prompt("test_simple_prompt", "A simple prompt without arguments", None),
        prompt(
            "test_prompt_with_arguments",
            "A prompt with required arguments",
            Some(vec![argument("arg1", "First test argument"), argument("arg2", "Second test argument")]),
        ),
        prompt(
            "test_prompt_with_embedded_resource",
            "A prompt that includes an embedded resource",
            Some(vec![argument("resourceUri", "URI of the resource to embed")]),
        ),
        prompt("test_prompt_with_image", "A prompt that includes image content", None),
        prompt("test_input_required_result_prompt", "A prompt that asks the user for context", None),
    ]
}

pub(crate) fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
    let user = |content: PromptMessageContent| PromptMessage { role: PromptMessageRole::User, content };
    let messages = match prompt_name.as_str() {
        "test_input_required_result_prompt" => {
            let question = client::Question {
                key: "user_context".into(),
                kind: QuestionKind::CreateElicitation,
                params: Some(
                    serde_json::json!({
                        "message": "What context should the prompt use?",
                        "requestedSchema": { "type": "object", "properties": { "context": { "type": "string" } }, "required": ["context"] },
                    })
                    .to_string(),
                ),
            };
            let answer = match client::ask(&[question]).pop() {
                Some(Ok(json)) => serde_json::from_str::<serde_json::Value>(&json).unwrap_or_default(),
                Some(Err(error)) => return Err(PromptError::InternalError(format!("{error:?}"))),
                None => return Err(PromptError::InternalError("no answer".into())),
            };
            let context = answer["content"]["context"].as_str().unwrap_or("none").to_owned();
            vec![user(PromptMessageContent::Text(text_content(&format!("Use this context: {context}"))))]
        }
        "test_simple_prompt" => {
            vec![user(PromptMessageContent::Text(text_content("This is a simple prompt for testing.")))]
        }
        // Served with its arguments by `get-prompt-with-arguments`.
        "test_prompt_with_arguments" => {
            return Err(PromptError::InvalidParameters("`arg1` and `arg2` are required".into()));
        }
        "test_prompt_with_embedded_resource" => vec![
            user(PromptMessageContent::McpResource(embedded_text(
                "test://embedded-resource",
                "text/plain",
                "Embedded resource content for testing.",
            ))),
            user(PromptMessageContent::Text(text_content("Please process the embedded resource above."))),
        ],
        "test_prompt_with_image" => vec![
            user(PromptMessageContent::Image(image_content())),
            user(PromptMessageContent::Text(text_content("Please analyze the image above."))),
        ],
        _ => return Err(PromptError::NotFound(prompt_name)),
    };
    Ok(GetPromptResult { description: None, messages })
}

/// Values for `test_prompt_with_arguments`' `arg1`, filtered by prefix;
/// nothing for anything else.
pub(crate) fn complete(request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
    let params: serde_json::Value =
        serde_json::from_str(&request.input.json).map_err(|e| CompletionError::InvalidParameters(e.to_string()))?;
    let argument = &params["argument"];
    let prefix = argument["value"].as_str().unwrap_or_default();
    let candidates: &[&str] = match (params["ref"]["name"].as_str(), argument["name"].as_str()) {
        (Some("test_prompt_with_arguments"), Some("arg1")) => &["paris", "park", "party"],
        _ => &[],
    };
    Ok(CompletionResponse {
        content: candidates.iter().filter(|value| value.starts_with(prefix)).map(|value| text(value)).collect(),
        meta: None,
        is_error: None,
    })
}

pub(crate) fn get_prompt_with_arguments(
    prompt_name: String,
    arguments: Vec<(String, String)>,
) -> Result<GetPromptResult, PromptError> {
    if prompt_name != "test_prompt_with_arguments" {
        return get_prompt(prompt_name);
    }
    let value = |name: &str| {
        arguments
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
            .ok_or_else(|| PromptError::InvalidParameters(format!("`{name}` is required")))
    };
    let text = format!("Prompt with arguments: arg1='{}', arg2='{}'", value("arg1")?, value("arg2")?);
    Ok(GetPromptResult {
        description: None,
        messages: vec![PromptMessage {
            role: PromptMessageRole::User,
            content: PromptMessageContent::Text(text_content(&text)),
        }],
    })
}
