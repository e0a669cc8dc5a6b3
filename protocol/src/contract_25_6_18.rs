//! `wasix:mcp/router@25.6.18`, the contract's successor, as the protocol
//! core takes it: its values become [`crate::contract`]'s (which was made to
//! carry them: titles, structured content, resource links, `_meta` with JSON
//! values) through [`crate::contract_from_wit_25_6_18`], for every binding
//! generator (wasmtime's `bindgen!` in the native host, wit-bindgen in the
//! adapter component); and how an elicitation's answer gets back to the
//! router, which the WIT leaves open ([`ELICITATIONS_KEY`]). Where 25.6.18
//! says less than MCP, the choice is said here.

use std::borrow::Cow;

use serde_json::{Map, Value};

/// How many times one call may ask the user before it is stopped: a router
/// that asks again whatever the answer would otherwise never finish.
pub const MAX_ELICITATIONS: usize = 8;

/// The key under which a router gets the answers to its elicitations when
/// `call-tool` is called again: a JSON array of the client's `ElicitResult`s,
/// in the order asked. The WIT does not say how an answer gets back; this is
/// mcp-wit's convention, documented with the contract.
pub const ELICITATIONS_KEY: &str = "_elicitations";

/// `meta: list<meta-entry>` (keys and JSON values) as a `_meta` object. An
/// entry whose value is not JSON is left out, with a warning naming its key.
pub fn meta_object(entries: impl IntoIterator<Item = (String, String)>) -> Map<String, Value> {
    let mut object = Map::new();
    for (key, value) in entries {
        match serde_json::from_str::<Value>(&value) {
            Ok(value) => {
                object.insert(key, value);
            }
            Err(e) => tracing::warn!(%key, "a router's `_meta` entry is not JSON ({e}): left out"),
        }
    }
    object
}

/// Whether an embedded resource's `data` (25.6.18 does not say which it
/// is) is text: a `text/*` type or one of the textual `application/` ones,
/// or no type at all. Anything else is a blob, base64 as image data is.
pub fn is_text(mime_type: Option<&str>) -> bool {
    let Some(mime) = mime_type else { return true };
    let essence = mime.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence.starts_with("text/")
        || ["json", "xml", "javascript", "yaml", "toml"].iter().any(|kind| {
            essence.starts_with("application/") && (essence.ends_with(kind) || essence.ends_with(&format!("+{kind}")))
        })
}

/// What a router's `elicit` asks the client (`elicitation/create`'s params):
/// its message, its schema and its `_meta` (the entries of
/// [`meta_object`]). 25.6.18's `title` and `annotations` have no place in
/// MCP's request and are not sent. `Err` when the schema is not JSON.
pub fn elicitation_params(
    message: &str,
    schema: &str,
    meta: Option<impl IntoIterator<Item = (String, String)>>,
) -> Result<String, String> {
    let schema: Value =
        serde_json::from_str(schema).map_err(|e| format!("its elicitation schema is not JSON ({e})"))?;
    let mut params = Map::new();
    params.insert("message".into(), Value::String(message.to_owned()));
    params.insert("requestedSchema".into(), schema);
    if let Some(meta) = meta {
        let mut meta = meta_object(meta);
        crate::mapping::drop_reserved_meta(&mut meta);
        params.insert("_meta".into(), Value::Object(meta));
    }
    Ok(Value::Object(params).to_string())
}

/// The client's `arguments` (JSON object text) as the router gets them on
/// a call after `answers` (the client's `ElicitResult`s, JSON text): under
/// [`ELICITATIONS_KEY`], which a client cannot set itself (its own value is
/// dropped). Arguments that are not a JSON object go as they came.
pub fn with_answers<'a>(arguments: &'a str, answers: &[String]) -> Cow<'a, str> {
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

/// The tool error of a call that asked more than [`MAX_ELICITATIONS`] times.
pub fn too_many_elicitations(tool: &str) -> String {
    format!(
        "the tool `{tool}` asked the user for input {MAX_ELICITATIONS} times in one call without finishing \
         (mcp-wit stops there; a router should finish once `{ELICITATIONS_KEY}` holds the answers it needs)"
    )
}

/// Implements, in the calling module, `IntoContract` (which must be in
/// scope: [`crate::contract_from_wit`]'s, or `contract_from_wit!(@trait)`)
/// for every value of `wasix:mcp/router@25.6.18`, from the module the caller
/// has in scope as `wit` to [`crate::contract`]; and defines
/// `completion_request` and `elicitation_params`, the values a router takes
/// or asks with, the other way. A field or case the WIT changes fails the
/// caller's build.
#[macro_export]
macro_rules! contract_from_wit_25_6_18 {
    () => {
        /// JSON-valued `_meta` entries as an object (`contract_25_6_18::meta_object`).
        fn meta_object_25_6_18(entries: Option<Vec<wit::MetaEntry>>) -> Option<$crate::contract::Value> {
            let object = $crate::contract_25_6_18::meta_object(entries?.into_iter().map(|e| (e.key, e.value)));
            Some($crate::contract::Value { json: $crate::__serde_json::Value::Object(object).to_string() })
        }

        impl IntoContract<$crate::contract::Annotations> for wit::Annotations {
            fn into_contract(self) -> $crate::contract::Annotations {
                $crate::contract::Annotations {
                    audience: self.audience.map(|roles| {
                        roles
                            .into_iter()
                            .map(|role| match role {
                                wit::Role::User => $crate::contract::Role::User,
                                wit::Role::Assistant => $crate::contract::Role::Assistant,
                            })
                            .collect()
                    }),
                    priority: self.priority,
                    timestamp: self.timestamp,
                }
            }
        }

        impl IntoContract<$crate::contract::ToolAnnotations> for wit::ToolAnnotations {
            fn into_contract(self) -> $crate::contract::ToolAnnotations {
                $crate::contract::ToolAnnotations {
                    read_only: self.read_only,
                    destructive: self.destructive,
                    streaming: self.streaming,
                    experimental: self.experimental,
                    idempotent: None,
                    open_world: None,
                }
            }
        }

        impl IntoContract<$crate::contract::Tool> for wit::Tool {
            fn into_contract(self) -> $crate::contract::Tool {
                $crate::contract::Tool {
                    name: self.name,
                    description: self.description,
                    input_schema: $crate::contract::Value { json: self.input_schema },
                    output_schema: self.output_schema.map(|json| $crate::contract::Value { json }),
                    annotations: self.annotations.into_contract(),
                    meta: None,
                    title: self.title,
                    meta_object: meta_object_25_6_18(self.meta),
                    icons: None,
                }
            }
        }

        impl IntoContract<$crate::contract::ServerCapabilities> for wit::ServerCapabilities {
            fn into_contract(self) -> $crate::contract::ServerCapabilities {
                use $crate::contract as c;
                c::ServerCapabilities {
                    prompts: self.prompts.map(|p| c::PromptsCapability { list_changed: p.list_changed }),
                    resources: self
                        .resources
                        .map(|r| c::ResourcesCapability { subscribe: r.subscribe, list_changed: r.list_changed }),
                    tools: self.tools.map(|t| c::ToolsCapability { list_changed: t.list_changed }),
                    completions: self.completions.map(|c| c::CompletionsCapability { enabled: c.enabled }),
                }
            }
        }

        impl IntoContract<$crate::contract::ProgressNotification> for wit::ProgressNotification {
            fn into_contract(self) -> $crate::contract::ProgressNotification {
                $crate::contract::ProgressNotification {
                    progress: self.progress,
                    message: self.message,
                    annotations: self.annotations.into_contract(),
                }
            }
        }

        impl IntoContract<$crate::contract::CallToolResult> for wit::ToolResult {
            fn into_contract(self) -> $crate::contract::CallToolResult {
                $crate::contract::CallToolResult {
                    content: self.content.into_contract(),
                    progress: self.progress.into_contract(),
                    meta: None,
                    is_error: self.is_error,
                    structured_content: self.structured_content.map(|json| $crate::contract::Value { json }),
                    meta_object: meta_object_25_6_18(self.meta),
                }
            }
        }

        impl IntoContract<$crate::contract::EmbeddedResource> for wit::EmbeddedResource {
            fn into_contract(self) -> $crate::contract::EmbeddedResource {
                use $crate::contract as c;
                let resource_contents = match $crate::contract_25_6_18::is_text(self.mime_type.as_deref()) {
                    true => c::ResourceContents::Text(c::TextResourceContents {
                        uri: self.uri,
                        mime_type: self.mime_type,
                        text: self.data,
                        meta_object: None,
                    }),
                    false => c::ResourceContents::Blob(c::BlobResourceContents {
                        uri: self.uri,
                        mime_type: self.mime_type,
                        blob: self.data,
                        meta_object: None,
                    }),
                };
                c::EmbeddedResource { resource_contents, annotations: self.annotations.into_contract() }
            }
        }

        impl IntoContract<$crate::contract::Content> for wit::ContentBlock {
            fn into_contract(self) -> $crate::contract::Content {
                use $crate::contract as c;
                match self {
                    wit::ContentBlock::Text(t) => c::Content::Text(t.into_contract()),
                    wit::ContentBlock::Image(i) => c::Content::Image(c::ImageContent {
                        data: i.data,
                        mime_type: i.mime_type,
                        annotations: i.annotations.into_contract(),
                    }),
                    wit::ContentBlock::Audio(a) => c::Content::Audio(c::AudioContent {
                        data: a.data,
                        mime_type: a.mime_type,
                        annotations: a.annotations.into_contract(),
                    }),
                    // MCP's link has a required `name`; 25.6.18's has none:
                    // the URI stands for it.
                    wit::ContentBlock::ResourceLink(l) => c::Content::ResourceLink(c::ResourceLink {
                        name: l.uri.clone(),
                        uri: l.uri,
                        title: l.title,
                        description: l.description,
                        mime_type: l.mime_type,
                        size: None,
                        annotations: l.annotations.into_contract(),
                        meta_object: None,
                    }),
                    wit::ContentBlock::EmbeddedResource(r) => c::Content::Embedded(r.into_contract()),
                }
            }
        }

        impl IntoContract<$crate::contract::TextContent> for wit::TextContent {
            fn into_contract(self) -> $crate::contract::TextContent {
                $crate::contract::TextContent { text: self.text, annotations: self.annotations.into_contract() }
            }
        }

        impl IntoContract<$crate::contract::McpResource> for wit::McpResource {
            fn into_contract(self) -> $crate::contract::McpResource {
                $crate::contract::McpResource {
                    uri: self.uri,
                    name: self.name,
                    description: self.description,
                    mime_type: self.mime_type,
                    annotations: self.annotations.into_contract(),
                    title: self.title,
                    meta_object: None,
                    icons: None,
                }
            }
        }

        impl IntoContract<$crate::contract::ResourceContents> for wit::ResourceContents {
            fn into_contract(self) -> $crate::contract::ResourceContents {
                use $crate::contract as c;
                match self {
                    wit::ResourceContents::Text(t) => c::ResourceContents::Text(c::TextResourceContents {
                        uri: t.uri,
                        mime_type: t.mime_type,
                        text: t.text,
                        meta_object: None,
                    }),
                    wit::ResourceContents::Blob(b) => c::ResourceContents::Blob(c::BlobResourceContents {
                        uri: b.uri,
                        mime_type: b.mime_type,
                        blob: b.blob,
                        meta_object: None,
                    }),
                }
            }
        }

        impl IntoContract<$crate::contract::ReadResourceResult> for wit::ReadResourceResult {
            fn into_contract(self) -> $crate::contract::ReadResourceResult {
                $crate::contract::ReadResourceResult { contents: self.contents.into_contract() }
            }
        }

        impl IntoContract<$crate::contract::Prompt> for wit::Prompt {
            fn into_contract(self) -> $crate::contract::Prompt {
                $crate::contract::Prompt {
                    name: self.name,
                    description: self.description,
                    arguments: self.arguments.map(|list| {
                        list.into_iter()
                            .map(|a| $crate::contract::PromptArgument {
                                name: a.name,
                                description: a.description,
                                required: a.required,
                                title: None,
                            })
                            .collect()
                    }),
                    title: None,
                    icons: None,
                }
            }
        }

        impl IntoContract<$crate::contract::GetPromptResult> for wit::GetPromptResult {
            fn into_contract(self) -> $crate::contract::GetPromptResult {
                use $crate::contract as c;
                let messages = self.messages.into_iter().map(|m| c::PromptMessage {
                    role: match m.role {
                        wit::PromptMessageRole::User => c::PromptMessageRole::User,
                        wit::PromptMessageRole::Assistant => c::PromptMessageRole::Assistant,
                    },
                    content: match m.content {
                        wit::PromptMessageContent::Text(t) => c::PromptMessageContent::Text(t.into_contract()),
                        wit::PromptMessageContent::Image(i) => c::PromptMessageContent::Image(c::ImageContent {
                            data: i.data,
                            mime_type: i.mime_type,
                            annotations: i.annotations.into_contract(),
                        }),
                        wit::PromptMessageContent::McpResource(r) => {
                            c::PromptMessageContent::McpResource(r.into_contract())
                        }
                    },
                });
                c::GetPromptResult { description: self.description, messages: messages.collect() }
            }
        }

        impl IntoContract<$crate::contract::CompletionResponse> for wit::CompletionResponse {
            fn into_contract(self) -> $crate::contract::CompletionResponse {
                // JSON-valued entries as the contract's text-valued ones
                // (the JSON text).
                let meta = self.meta.map(|list| {
                    list.into_iter().map(|e| $crate::contract::MetaEntry { key: e.key, value: e.value }).collect()
                });
                $crate::contract::CompletionResponse {
                    content: self.content.into_contract(),
                    meta,
                    is_error: self.is_error,
                }
            }
        }

        $crate::contract_from_wit_25_6_18!(@errors
            ToolError { InvalidParameters, ExecutionError, SchemaError, NotFound }
            ResourceError { ExecutionError, NotFound }
            PromptError { InvalidParameters, InternalError, NotFound }
            CompletionError { InvalidParameters, ExecutionError, SchemaError, NotFound }
        );

        /// A completion request as a 25.6.18 router takes it: the
        /// contract's text-valued `_meta` entries become JSON strings.
        pub(crate) fn completion_request(request: &$crate::contract::CompletionRequest) -> wit::CompletionRequest {
            let meta = |entries: &Vec<$crate::contract::MetaEntry>| {
                let json = |text: &str| $crate::__serde_json::Value::String(text.to_owned()).to_string();
                entries.iter().map(|e| wit::MetaEntry { key: e.key.clone(), value: json(&e.value) }).collect()
            };
            wit::CompletionRequest {
                input: request.input.json.clone(),
                streaming: request.streaming,
                meta: request.meta.as_ref().map(meta),
            }
        }

        /// What a router's `elicit` asks the client
        /// (`contract_25_6_18::elicitation_params`).
        pub(crate) fn elicitation_params(request: &wit::ElicitationRequest) -> Result<String, String> {
            let meta = request.meta.clone().map(|list| list.into_iter().map(|e| (e.key, e.value)));
            $crate::contract_25_6_18::elicitation_params(&request.message, &request.schema, meta)
        }
    };
    // The errors, case for case (the two contracts name them alike).
    (@errors $($name:ident { $($case:ident),* })*) => {$(
        impl IntoContract<$crate::contract::$name> for wit::$name {
            fn into_contract(self) -> $crate::contract::$name {
                match self { $(wit::$name::$case(message) => $crate::contract::$name::$case(message)),* }
            }
        }
    )*};
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
        let entries = [("a".to_string(), "1".to_string()), ("b".to_string(), "{ nope".to_string())];
        assert_eq!(Value::Object(meta_object(entries)), json!({ "a": 1 }));
    }

    #[test]
    fn an_elicitation_sends_its_message_schema_and_meta() {
        let meta = Some([("k".to_string(), "true".to_string())]);
        let params: Value =
            serde_json::from_str(&elicitation_params("How many?", r#"{"type":"object"}"#, meta).unwrap()).unwrap();
        let expected =
            json!({ "message": "How many?", "requestedSchema": { "type": "object" }, "_meta": { "k": true } });
        assert_eq!(params, expected);
        let none: Option<[(String, String); 0]> = None;
        assert!(elicitation_params("How many?", "{", none).unwrap_err().contains("not JSON"));
    }
}
