//! Prompts and completions.

use std::borrow::Cow;

use serde::Serialize;

use crate::contract;
use crate::version::ProtocolVersion;

use super::annotations::annotations;
use super::content::{Content, embedded, text_items};
use super::meta::{MetaMap, meta_map};

/// An MCP `Prompt`.
#[derive(Serialize)]
pub struct Prompt<'a> {
    name: Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    arguments: Option<Vec<PromptArgument<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    icons: Option<super::json::GuestJson<'a>>,
}

impl<'a> Prompt<'a> {
    /// The same prompt under the name the client sees.
    pub fn with_name(self, name: Cow<'a, str>) -> Self {
        Prompt { name, ..self }
    }
}

#[derive(Serialize)]
struct PromptArgument<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    required: Option<bool>,
}

/// Maps a prompt descriptor.
pub fn prompt(p: &contract::Prompt, v: ProtocolVersion) -> Prompt<'_> {
    Prompt {
        name: Cow::Borrowed(&p.name),
        title: p.title.as_deref().filter(|_| v.has_resource_links_and_titles()),
        description: p.description.as_deref(),
        icons: super::apps::icons(p.icons.as_ref(), v, &format!("prompt `{}`", p.name.escape_debug())),
        arguments: p.arguments.as_ref().map(|args| {
            args.iter()
                .map(|a| PromptArgument {
                    name: &a.name,
                    title: a.title.as_deref().filter(|_| v.has_resource_links_and_titles()),
                    description: a.description.as_deref(),
                    required: a.required,
                })
                .collect()
        }),
    }
}

/// An MCP `GetPromptResult`.
#[derive(Serialize)]
pub struct GetPromptResult<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    messages: Vec<PromptMessage<'a>>,
}

#[derive(Serialize)]
struct PromptMessage<'a> {
    role: &'static str,
    content: Content<'a>,
}

/// Maps a prompt; `mcp-resource` content becomes an embedded `resource`.
pub fn get_prompt_result(r: &contract::GetPromptResult, v: ProtocolVersion) -> GetPromptResult<'_> {
    GetPromptResult {
        description: r.description.as_deref(),
        messages: r
            .messages
            .iter()
            .map(|m| PromptMessage {
                role: match m.role {
                    contract::PromptMessageRole::User => "user",
                    contract::PromptMessageRole::Assistant => "assistant",
                },
                content: match &m.content {
                    contract::PromptMessageContent::Text(t) => {
                        Content::Text { text: Cow::Borrowed(&t.text), annotations: annotations(&t.annotations, v) }
                    }
                    contract::PromptMessageContent::Image(i) => Content::Image {
                        data: &i.data,
                        mime_type: &i.mime_type,
                        annotations: annotations(&i.annotations, v),
                    },
                    contract::PromptMessageContent::McpResource(e) => embedded(e, v),
                },
            })
            .collect(),
    }
}

/// Most values one `completion/complete` answer may carry.
pub const MAX_COMPLETION_VALUES: usize = 100;

/// An MCP `CompleteResult`.
#[derive(Serialize)]
pub struct CompleteResult<'a> {
    completion: Completion<'a>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<MetaMap<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Completion<'a> {
    values: Vec<&'a str>,
    total: usize,
    has_more: bool,
}

/// Maps a completion response: its text items are the values (non-text
/// items are skipped), at most [`MAX_COMPLETION_VALUES`] of them.
pub fn complete_result(r: &contract::CompletionResponse) -> CompleteResult<'_> {
    let all: Vec<&str> = text_items(&r.content).collect();
    let total = all.len();
    let values: Vec<&str> = all.into_iter().take(MAX_COMPLETION_VALUES).collect();
    let has_more = total > values.len();
    CompleteResult { completion: Completion { values, total, has_more }, meta: meta_map(&r.meta) }
}
