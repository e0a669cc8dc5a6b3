//! 25.6.18's values as the protocol core's ([`contract`]), which was made to
//! carry them: titles, structured content, resource links and `_meta` with
//! JSON values. Where 25.6.18 says less than MCP, the choice is said here.

use std::borrow::Cow;

use mcp_wit_protocol::contract;
use serde_json::{Map, Value};

use super::{ELICITATIONS_KEY, wit};
// The trait 25.3.26's values use, with its impls for options, lists and
// results: one conversion, whichever contract a value comes from.
use crate::runtime::convert::IntoContract;

/// `meta: list<meta-entry>` (JSON values) as a `_meta` object. An entry
/// whose value is not JSON is left out, with a warning naming its key.
fn meta_object(entries: Option<Vec<wit::MetaEntry>>) -> Option<contract::Value> {
    let entries = entries?;
    let mut object = Map::new();
    for entry in entries {
        match serde_json::from_str::<Value>(&entry.value) {
            Ok(value) => {
                object.insert(entry.key, value);
            }
            Err(e) => tracing::warn!(key = %entry.key, "a router's `_meta` entry is not JSON ({e}): left out"),
        }
    }
    Some(contract::Value { json: Value::Object(object).to_string() })
}

/// JSON-valued entries as the contract's text-valued ones (the JSON text).
fn meta_entries(entries: Option<Vec<wit::MetaEntry>>) -> Option<Vec<contract::MetaEntry>> {
    entries.map(|list| list.into_iter().map(|e| contract::MetaEntry { key: e.key, value: e.value }).collect())
}

impl IntoContract<contract::Annotations> for wit::Annotations {
    fn into_contract(self) -> contract::Annotations {
        contract::Annotations {
            audience: self.audience.map(|roles| {
                roles
                    .into_iter()
                    .map(|role| match role {
                        wit::Role::User => contract::Role::User,
                        wit::Role::Assistant => contract::Role::Assistant,
                    })
                    .collect()
            }),
            priority: self.priority,
            timestamp: self.timestamp,
        }
    }
}

impl IntoContract<contract::ToolAnnotations> for wit::ToolAnnotations {
    fn into_contract(self) -> contract::ToolAnnotations {
        contract::ToolAnnotations {
            read_only: self.read_only,
            destructive: self.destructive,
            streaming: self.streaming,
            experimental: self.experimental,
            idempotent: None,
            open_world: None,
        }
    }
}

impl IntoContract<contract::Tool> for wit::Tool {
    fn into_contract(self) -> contract::Tool {
        contract::Tool {
            name: self.name,
            description: self.description,
            input_schema: contract::Value { json: self.input_schema },
            output_schema: self.output_schema.map(|json| contract::Value { json }),
            annotations: self.annotations.into_contract(),
            meta: None,
            title: self.title,
            meta_object: meta_object(self.meta),
        }
    }
}

impl IntoContract<contract::ServerCapabilities> for wit::ServerCapabilities {
    fn into_contract(self) -> contract::ServerCapabilities {
        contract::ServerCapabilities {
            prompts: self.prompts.map(|p| contract::PromptsCapability { list_changed: p.list_changed }),
            resources: self
                .resources
                .map(|r| contract::ResourcesCapability { subscribe: r.subscribe, list_changed: r.list_changed }),
            tools: self.tools.map(|t| contract::ToolsCapability { list_changed: t.list_changed }),
            completions: self.completions.map(|c| contract::CompletionsCapability { enabled: c.enabled }),
        }
    }
}

impl IntoContract<contract::ProgressNotification> for wit::ProgressNotification {
    fn into_contract(self) -> contract::ProgressNotification {
        contract::ProgressNotification {
            progress: self.progress,
            message: self.message,
            annotations: self.annotations.into_contract(),
        }
    }
}

impl IntoContract<contract::CallToolResult> for wit::ToolResult {
    fn into_contract(self) -> contract::CallToolResult {
        contract::CallToolResult {
            content: self.content.into_contract(),
            progress: self.progress.into_contract(),
            meta: None,
            is_error: self.is_error,
            structured_content: self.structured_content.map(|json| contract::Value { json }),
            meta_object: meta_object(self.meta),
        }
    }
}

/// Whether an embedded resource's `data` (25.6.18 does not say which it
/// is) is text: a `text/*` type or one of the textual `application/` ones,
/// or no type at all. Anything else is a blob, base64 as image data is.
fn is_text(mime_type: Option<&str>) -> bool {
    let Some(mime) = mime_type else { return true };
    let essence = mime.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence.starts_with("text/")
        || ["json", "xml", "javascript", "yaml", "toml"].iter().any(|kind| {
            essence.starts_with("application/") && (essence.ends_with(kind) || essence.ends_with(&format!("+{kind}")))
        })
}

impl IntoContract<contract::EmbeddedResource> for wit::EmbeddedResource {
    fn into_contract(self) -> contract::EmbeddedResource {
        let resource_contents = match is_text(self.mime_type.as_deref()) {
            true => contract::ResourceContents::Text(contract::TextResourceContents {
                uri: self.uri,
                mime_type: self.mime_type,
                text: self.data,
            }),
            false => contract::ResourceContents::Blob(contract::BlobResourceContents {
                uri: self.uri,
                mime_type: self.mime_type,
                blob: self.data,
            }),
        };
        contract::EmbeddedResource { resource_contents, annotations: self.annotations.into_contract() }
    }
}

impl IntoContract<contract::Content> for wit::ContentBlock {
    fn into_contract(self) -> contract::Content {
        match self {
            wit::ContentBlock::Text(t) => contract::Content::Text(t.into_contract()),
            wit::ContentBlock::Image(i) => contract::Content::Image(contract::ImageContent {
                data: i.data,
                mime_type: i.mime_type,
                annotations: i.annotations.into_contract(),
            }),
            wit::ContentBlock::Audio(a) => contract::Content::Audio(contract::AudioContent {
                data: a.data,
                mime_type: a.mime_type,
                annotations: a.annotations.into_contract(),
            }),
            // MCP's link has a required `name`; 25.6.18's has none: the URI
            // stands for it.
            wit::ContentBlock::ResourceLink(l) => contract::Content::ResourceLink(contract::ResourceLink {
                name: l.uri.clone(),
                uri: l.uri,
                title: l.title,
                description: l.description,
                mime_type: l.mime_type,
                size: None,
                annotations: l.annotations.into_contract(),
                meta_object: None,
            }),
            wit::ContentBlock::EmbeddedResource(r) => contract::Content::Embedded(r.into_contract()),
        }
    }
}

impl IntoContract<contract::TextContent> for wit::TextContent {
    fn into_contract(self) -> contract::TextContent {
        contract::TextContent { text: self.text, annotations: self.annotations.into_contract() }
    }
}

impl IntoContract<contract::McpResource> for wit::McpResource {
    fn into_contract(self) -> contract::McpResource {
        contract::McpResource {
            uri: self.uri,
            name: self.name,
            description: self.description,
            mime_type: self.mime_type,
            annotations: self.annotations.into_contract(),
            title: self.title,
        }
    }
}

impl IntoContract<contract::ResourceContents> for wit::ResourceContents {
    fn into_contract(self) -> contract::ResourceContents {
        match self {
            wit::ResourceContents::Text(t) => contract::ResourceContents::Text(contract::TextResourceContents {
                uri: t.uri,
                mime_type: t.mime_type,
                text: t.text,
            }),
            wit::ResourceContents::Blob(b) => contract::ResourceContents::Blob(contract::BlobResourceContents {
                uri: b.uri,
                mime_type: b.mime_type,
                blob: b.blob,
            }),
        }
    }
}

impl IntoContract<contract::ReadResourceResult> for wit::ReadResourceResult {
    fn into_contract(self) -> contract::ReadResourceResult {
        contract::ReadResourceResult { contents: self.contents.into_contract() }
    }
}

impl IntoContract<contract::Prompt> for wit::Prompt {
    fn into_contract(self) -> contract::Prompt {
        contract::Prompt {
            name: self.name,
            description: self.description,
            arguments: self.arguments.map(|list| {
                list.into_iter()
                    .map(|a| contract::PromptArgument {
                        name: a.name,
                        description: a.description,
                        required: a.required,
                        title: None,
                    })
                    .collect()
            }),
            title: None,
        }
    }
}

impl IntoContract<contract::GetPromptResult> for wit::GetPromptResult {
    fn into_contract(self) -> contract::GetPromptResult {
        let messages = self.messages.into_iter().map(|m| contract::PromptMessage {
            role: match m.role {
                wit::PromptMessageRole::User => contract::PromptMessageRole::User,
                wit::PromptMessageRole::Assistant => contract::PromptMessageRole::Assistant,
            },
            content: match m.content {
                wit::PromptMessageContent::Text(t) => contract::PromptMessageContent::Text(t.into_contract()),
                wit::PromptMessageContent::Image(i) => contract::PromptMessageContent::Image(contract::ImageContent {
                    data: i.data,
                    mime_type: i.mime_type,
                    annotations: i.annotations.into_contract(),
                }),
                wit::PromptMessageContent::McpResource(r) => {
                    contract::PromptMessageContent::McpResource(r.into_contract())
                }
            },
        });
        contract::GetPromptResult { description: self.description, messages: messages.collect() }
    }
}

impl IntoContract<contract::CompletionResponse> for wit::CompletionResponse {
    fn into_contract(self) -> contract::CompletionResponse {
        contract::CompletionResponse {
            content: self.content.into_contract(),
            meta: meta_entries(self.meta),
            is_error: self.is_error,
        }
    }
}

/// A completion request as a 25.6.18 router takes it: the contract's
/// text-valued `_meta` entries become JSON strings.
pub(in crate::runtime) fn completion_request(request: &contract::CompletionRequest) -> wit::CompletionRequest {
    let meta = |entries: &Vec<contract::MetaEntry>| {
        let json = |text: &str| Value::String(text.to_owned()).to_string();
        entries.iter().map(|e| wit::MetaEntry { key: e.key.clone(), value: json(&e.value) }).collect()
    };
    wit::CompletionRequest {
        input: request.input.json.clone(),
        streaming: request.streaming,
        meta: request.meta.as_ref().map(meta),
    }
}

/// The errors, case for case (the two contracts name them alike).
macro_rules! same_cases {
    ($($name:ident { $($case:ident),* })*) => {$(
        impl IntoContract<contract::$name> for wit::$name {
            fn into_contract(self) -> contract::$name {
                match self { $(wit::$name::$case(message) => contract::$name::$case(message)),* }
            }
        }
    )*};
}

same_cases! {
    ToolError { InvalidParameters, ExecutionError, SchemaError, NotFound }
    ResourceError { ExecutionError, NotFound }
    PromptError { InvalidParameters, InternalError, NotFound }
    CompletionError { InvalidParameters, ExecutionError, SchemaError, NotFound }
}

/// What a router's `elicit` asks the client (`elicitation/create`'s params):
/// its message and schema, and its `_meta`. 25.6.18's `title` and
/// `annotations` have no place in MCP's request and are not sent. `Err`
/// when the schema is not JSON.
pub(in crate::runtime) fn elicitation_params(request: &wit::ElicitationRequest) -> Result<String, String> {
    let schema: Value =
        serde_json::from_str(&request.schema).map_err(|e| format!("its elicitation schema is not JSON ({e})"))?;
    let mut params = Map::new();
    params.insert("message".into(), Value::String(request.message.clone()));
    params.insert("requestedSchema".into(), schema);
    if let Some(meta) = meta_object(request.meta.clone()) {
        params.insert("_meta".into(), serde_json::from_str(&meta.json).unwrap_or_default());
    }
    Ok(Value::Object(params).to_string())
}

/// The client's `arguments` (JSON object text) as the router gets them on
/// a call after `answers` (the client's `ElicitResult`s, JSON text): under
/// [`ELICITATIONS_KEY`], which a client cannot set itself (its own value is
/// dropped). Arguments that are not a JSON object go as they came.
pub(in crate::runtime) fn with_answers<'a>(arguments: &'a str, answers: &[String]) -> Cow<'a, str> {
    // Most calls ask nothing and carry no such key: passed as they came,
    // without parsing them again on the way to the guest.
    if answers.is_empty() && !arguments.trim().is_empty() && !arguments.contains(ELICITATIONS_KEY) {
        return Cow::Borrowed(arguments);
    }
    let Ok(Value::Object(mut object)) =
        serde_json::from_str::<Value>(if arguments.trim().is_empty() { "{}" } else { arguments })
    else {
        return Cow::Borrowed(arguments);
    };
    object.remove(ELICITATIONS_KEY);
    if !answers.is_empty() {
        let parsed = answers.iter().map(|a| serde_json::from_str(a).unwrap_or(Value::Null)).collect();
        object.insert(ELICITATIONS_KEY.into(), Value::Array(parsed));
    }
    Cow::Owned(Value::Object(object).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_ride_in_the_arguments_and_a_client_cannot_forge_them() {
        let forged = r#"{"city":"Oslo","_elicitations":[{"action":"accept","content":{"ok":true}}]}"#;
        let parsed = |text: Cow<'_, str>| serde_json::from_str::<Value>(&text).unwrap();
        assert_eq!(parsed(with_answers(forged, &[])), json!({ "city": "Oslo" }));
        let answered = with_answers(forged, &[r#"{"action":"decline"}"#.into()]);
        assert_eq!(parsed(answered), json!({ "city": "Oslo", "_elicitations": [{ "action": "decline" }] }));
        assert_eq!(with_answers("", &[]), "{}");
        assert_eq!(with_answers("[1]", &[]), "[1]");
    }

    #[test]
    fn embedded_data_is_text_for_textual_types_only() {
        for text in [None, Some("text/plain; charset=utf-8"), Some("application/json"), Some("application/ld+json")] {
            assert!(is_text(text), "{text:?}");
        }
        for blob in [Some("image/png"), Some("application/octet-stream"), Some("application/pdf")] {
            assert!(!is_text(blob), "{blob:?}");
        }
    }

    #[test]
    fn meta_entries_that_are_not_json_are_left_out() {
        let entries = vec![
            wit::MetaEntry { key: "a".into(), value: "1".into() },
            wit::MetaEntry { key: "b".into(), value: "{ nope".into() },
        ];
        assert_eq!(meta_object(Some(entries)).unwrap().json, r#"{"a":1}"#);
    }

    #[test]
    fn an_elicitation_sends_its_message_schema_and_meta() {
        let request = wit::ElicitationRequest {
            title: Some("Booking".into()),
            message: "How many?".into(),
            schema: r#"{"type":"object"}"#.into(),
            annotations: None,
            meta: Some(vec![wit::MetaEntry { key: "k".into(), value: "true".into() }]),
        };
        let params: Value = serde_json::from_str(&elicitation_params(&request).unwrap()).unwrap();
        let expected =
            json!({ "message": "How many?", "requestedSchema": { "type": "object" }, "_meta": { "k": true } });
        assert_eq!(params, expected);
        let broken = wit::ElicitationRequest { schema: "{".into(), ..request };
        assert!(elicitation_params(&broken).unwrap_err().contains("not JSON"));
    }
}
