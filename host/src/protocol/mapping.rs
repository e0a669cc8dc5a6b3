//! WIT values → MCP JSON, for one negotiated protocol revision.
//!
//! Every shape here borrows from the guest's returned value, so serialising a
//! result copies each string once, into the output buffer. The README's
//! mapping table documents each rule.

use std::borrow::Cow;

use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::version::ProtocolVersion;
use crate::runtime::bindings::wit;

/// The `_meta` key prefix for contract fields MCP has no place for.
pub const META_PREFIX: &str = "dev.mcp-wit/";

/// Guest-supplied JSON, checked and made safe to embed in one output line.
pub enum GuestJson<'a> {
    /// Valid as given.
    Borrowed(&'a RawValue),
    /// Had line breaks between tokens; re-emitted without them.
    Owned(Box<RawValue>),
}

impl<'a> GuestJson<'a> {
    /// Validates `text` as one JSON value.
    pub fn parse(text: &'a str) -> Result<Self, serde_json::Error> {
        let raw: &RawValue = serde_json::from_str(text)?;
        if raw.get().bytes().any(|b| b == b'\n' || b == b'\r') {
            // Line breaks can only be whitespace in valid JSON; dropping them
            // keeps stdio framing (one message per line) intact.
            let compact = minify(raw.get());
            return Ok(GuestJson::Owned(RawValue::from_string(compact)?));
        }
        Ok(GuestJson::Borrowed(raw))
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        match self {
            GuestJson::Borrowed(raw) => raw.get(),
            GuestJson::Owned(raw) => raw.get(),
        }
    }

    /// Whether the value is an object whose `type` is `"object"`, as MCP
    /// requires of tool input and output schemas.
    pub fn is_object_schema(&self) -> bool {
        #[derive(Deserialize)]
        struct Head<'b> {
            #[serde(rename = "type", borrow)]
            ty: Option<Cow<'b, str>>,
        }
        self.get().starts_with('{')
            && serde_json::from_str::<Head<'_>>(self.get()).is_ok_and(|h| h.ty.as_deref() == Some("object"))
    }
}

impl Serialize for GuestJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            GuestJson::Borrowed(raw) => raw.serialize(s),
            GuestJson::Owned(raw) => raw.serialize(s),
        }
    }
}

/// Removes whitespace outside strings from already-valid JSON.
fn minify(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if !c.is_ascii_whitespace() {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

/// A WIT `f32` as the shortest decimal that reads back as the same `f32`
/// (0.1f32 is sent as 0.1, not 0.10000000149011612); `None` if not finite.
pub fn widen(x: f32) -> Option<f64> {
    x.is_finite().then(|| x.to_string().parse().unwrap_or(f64::from(x)))
}

/// `list<meta-entry>` → a JSON object; a repeated key keeps its last value.
pub struct MetaMap<'a>(pub &'a [wit::MetaEntry]);

impl Serialize for MetaMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let entries = self.0;
        let mut map = s.serialize_map(None)?;
        for (i, entry) in entries.iter().enumerate() {
            if !entries[i + 1..].iter().any(|later| later.key == entry.key) {
                map.serialize_entry(&entry.key, &entry.value)?;
            }
        }
        map.end()
    }
}

fn meta_map(entries: &Option<Vec<wit::MetaEntry>>) -> Option<MetaMap<'_>> {
    entries.as_deref().filter(|e| !e.is_empty()).map(MetaMap)
}

/// MCP `Annotations`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    audience: Option<Vec<&'static str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    priority: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_modified: Option<&'a str>,
}

fn role(role: wit::Role) -> &'static str {
    match role {
        wit::Role::User => "user",
        wit::Role::Assistant => "assistant",
    }
}

/// Maps annotations; `None` when nothing is left to say.
pub fn annotations(a: &Option<wit::Annotations>, v: ProtocolVersion) -> Option<Annotations<'_>> {
    let a = a.as_ref()?;
    let out = Annotations {
        audience: a.audience.as_ref().map(|roles| roles.iter().map(|r| role(*r)).collect()),
        // MCP bounds priority to [0, 1].
        priority: a.priority.and_then(widen).map(|p| p.clamp(0.0, 1.0)),
        last_modified: a.timestamp.as_deref().filter(|_| v.has_last_modified()),
    };
    (out.audience.is_some() || out.priority.is_some() || out.last_modified.is_some()).then_some(out)
}

/// MCP `TextResourceContents` / `BlobResourceContents`.
#[derive(Serialize)]
#[serde(untagged)]
pub enum ResourceContents<'a> {
    /// Text payload.
    Text {
        /// Resource URI.
        uri: Cow<'a, str>,
        /// MIME type.
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<&'a str>,
        /// The text.
        text: &'a str,
    },
    /// Base64 payload.
    Blob {
        /// Resource URI.
        uri: Cow<'a, str>,
        /// MIME type.
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<&'a str>,
        /// Base64 data.
        blob: &'a str,
    },
}

/// Maps one `resource-contents`.
pub fn resource_contents(c: &wit::ResourceContents) -> ResourceContents<'_> {
    match c {
        wit::ResourceContents::Text(t) => {
            ResourceContents::Text { uri: Cow::Borrowed(&t.uri), mime_type: t.mime_type.as_deref(), text: &t.text }
        }
        wit::ResourceContents::Blob(b) => {
            ResourceContents::Blob { uri: Cow::Borrowed(&b.uri), mime_type: b.mime_type.as_deref(), blob: &b.blob }
        }
    }
}

/// An MCP `ContentBlock`.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Content<'a> {
    /// `text`.
    Text {
        /// The text.
        text: &'a str,
        /// Annotations.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations<'a>>,
    },
    /// `image`.
    Image {
        /// Base64 data.
        data: &'a str,
        /// MIME type.
        #[serde(rename = "mimeType")]
        mime_type: &'a str,
        /// Annotations.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations<'a>>,
    },
    /// `audio` (2025-03-26+).
    Audio {
        /// Base64 data.
        data: &'a str,
        /// MIME type.
        #[serde(rename = "mimeType")]
        mime_type: &'a str,
        /// Annotations.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations<'a>>,
    },
    /// `resource` (embedded).
    Resource {
        /// The embedded contents.
        resource: ResourceContents<'a>,
        /// Annotations.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations<'a>>,
    },
}

/// Maps one content item at position `index` of its list.
///
/// Audio before 2025-03-26 has no content type of its own; it is sent as an
/// embedded blob resource with the same data and MIME type and the URI
/// `mcp-wit:audio/<index>`, so no bytes are lost.
pub fn content(c: &wit::Content, index: usize, v: ProtocolVersion) -> Content<'_> {
    match c {
        wit::Content::Text(t) => Content::Text { text: &t.text, annotations: annotations(&t.annotations, v) },
        wit::Content::Image(i) => {
            Content::Image { data: &i.data, mime_type: &i.mime_type, annotations: annotations(&i.annotations, v) }
        }
        wit::Content::Audio(a) if v.has_audio() => {
            Content::Audio { data: &a.data, mime_type: &a.mime_type, annotations: annotations(&a.annotations, v) }
        }
        wit::Content::Audio(a) => Content::Resource {
            resource: ResourceContents::Blob {
                uri: Cow::Owned(format!("mcp-wit:audio/{index}")),
                mime_type: Some(&a.mime_type),
                blob: &a.data,
            },
            annotations: annotations(&a.annotations, v),
        },
        wit::Content::Embedded(e) => embedded(e, v),
    }
}

fn embedded(e: &wit::EmbeddedResource, v: ProtocolVersion) -> Content<'_> {
    Content::Resource { resource: resource_contents(&e.resource_contents), annotations: annotations(&e.annotations, v) }
}

/// Maps a content list.
pub fn contents(list: &[wit::Content], v: ProtocolVersion) -> Vec<Content<'_>> {
    list.iter().enumerate().map(|(i, c)| content(c, i, v)).collect()
}

/// MCP `ToolAnnotations`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    #[serde(skip_serializing_if = "Option::is_none")]
    read_only_hint: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    destructive_hint: Option<bool>,
}

/// The contract's tool fields that MCP has no field for, under `_meta`.
pub struct ToolMetaOut<'a> {
    streaming: Option<bool>,
    experimental: Option<bool>,
    meta: Option<&'a wit::ToolMeta>,
}

impl ToolMetaOut<'_> {
    fn is_empty(&self) -> bool {
        self.streaming.is_none() && self.experimental.is_none() && self.meta.is_none()
    }
}

impl Serialize for ToolMetaOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        if let Some(streaming) = self.streaming {
            map.serialize_entry(&format!("{META_PREFIX}streaming"), &streaming)?;
        }
        if let Some(experimental) = self.experimental {
            map.serialize_entry(&format!("{META_PREFIX}experimental"), &experimental)?;
        }
        if let Some(meta) = self.meta {
            map.serialize_entry(&format!("{META_PREFIX}tool-meta"), &ToolMetaFields::from(meta))?;
        }
        map.end()
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolMetaFields<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    output_hint: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    config: Option<Vec<Descriptor<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    secrets: Option<Vec<Descriptor<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    config_meta: Option<MetaMap<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    extra: Option<MetaMap<'a>>,
}

#[derive(Serialize)]
struct Descriptor<'a> {
    name: &'a str,
    description: &'a str,
    required: bool,
}

impl<'a> From<&'a wit::ToolMeta> for ToolMetaFields<'a> {
    fn from(m: &'a wit::ToolMeta) -> Self {
        ToolMetaFields {
            output_hint: m.output_hint.as_deref(),
            config: m.config.as_ref().map(|list| {
                list.iter()
                    .map(|c| Descriptor { name: &c.name, description: &c.description, required: c.required })
                    .collect()
            }),
            secrets: m.secrets.as_ref().map(|list| {
                list.iter()
                    .map(|c| Descriptor { name: &c.name, description: &c.description, required: c.required })
                    .collect()
            }),
            config_meta: m.config_meta.as_deref().map(MetaMap),
            extra: m.extra.as_deref().map(MetaMap),
        }
    }
}

/// An MCP `Tool`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool<'a> {
    name: Cow<'a, str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    description: &'a str,
    input_schema: GuestJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<GuestJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<ToolAnnotations>,
    #[serde(rename = "_meta", skip_serializing_if = "ToolMetaOut::is_empty")]
    meta: ToolMetaOut<'a>,
}

/// Why a guest's tool cannot be listed.
#[derive(Debug, thiserror::Error)]
pub enum InvalidTool {
    /// A schema is not JSON.
    #[error("its {field} is not valid JSON ({error})")]
    NotJson {
        /// `input-schema` or `output-schema`.
        field: &'static str,
        /// The parser's complaint.
        error: serde_json::Error,
    },
    /// A schema is JSON but not an object schema.
    #[error("its {field} is not a JSON object with \"type\": \"object\"")]
    NotObjectSchema {
        /// `input-schema` or `output-schema`.
        field: &'static str,
    },
}

fn schema<'a>(json: &'a str, field: &'static str) -> Result<GuestJson<'a>, InvalidTool> {
    let parsed = GuestJson::parse(json).map_err(|error| InvalidTool::NotJson { field, error })?;
    if !parsed.is_object_schema() {
        return Err(InvalidTool::NotObjectSchema { field });
    }
    Ok(parsed)
}

/// Maps a tool, or says why it cannot be sent without breaking MCP.
pub fn tool(t: &wit::Tool, v: ProtocolVersion) -> Result<Tool<'_>, InvalidTool> {
    let input_schema = schema(&t.input_schema.json, "input-schema")?;
    let output_schema = match &t.output_schema {
        Some(s) => Some(schema(&s.json, "output-schema")?).filter(|_| v.has_structured_output()),
        None => None,
    };
    let hints = t.annotations.as_ref();
    let annotations = hints
        .map(|a| ToolAnnotations { read_only_hint: a.read_only, destructive_hint: a.destructive })
        .filter(|a| v.has_tool_annotations() && (a.read_only_hint.is_some() || a.destructive_hint.is_some()));
    Ok(Tool {
        name: Cow::Borrowed(&t.name),
        description: &t.description,
        input_schema,
        output_schema,
        annotations,
        meta: ToolMetaOut {
            streaming: hints.and_then(|a| a.streaming),
            experimental: hints.and_then(|a| a.experimental),
            meta: t.meta.as_ref(),
        },
    })
}

impl<'a> Tool<'a> {
    /// The same tool under the name the client sees.
    pub fn with_name(self, name: Cow<'a, str>) -> Self {
        Tool { name, ..self }
    }
}

/// An MCP `CallToolResult`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult<'a> {
    content: Vec<Content<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    structured_content: Option<GuestJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    is_error: Option<bool>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<MetaMap<'a>>,
}

/// Maps a tool result. With `structured` (the tool declares an output schema
/// and the revision has structured output), the first text item that holds a
/// JSON object is also sent as `structuredContent`.
pub fn call_tool_result(r: &wit::CallToolResult, structured: bool, v: ProtocolVersion) -> CallToolResult<'_> {
    let structured_content = structured
        .then(|| {
            r.content.iter().find_map(|c| match c {
                wit::Content::Text(t) if t.text.trim_start().starts_with('{') => GuestJson::parse(&t.text).ok(),
                _ => None,
            })
        })
        .flatten();
    CallToolResult {
        content: contents(&r.content, v),
        structured_content,
        is_error: r.is_error,
        meta: meta_map(&r.meta),
    }
}

/// A tool error reported as a result (`isError: true`), as 2025-11-25 asks
/// for input-validation and execution failures.
pub fn tool_error_result(message: &str) -> CallToolResult<'_> {
    CallToolResult {
        content: vec![Content::Text { text: message, annotations: None }],
        structured_content: None,
        is_error: Some(true),
        meta: None,
    }
}

/// `notifications/progress` params.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressParams<'a> {
    progress_token: &'a RawValue,
    progress: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<ProgressMeta<'a>>,
}

#[derive(Serialize)]
struct ProgressMeta<'a> {
    #[serde(rename = "dev.mcp-wit/annotations")]
    annotations: Annotations<'a>,
}

/// Turns the guest's progress list into notifications whose `progress`
/// strictly increases, as MCP demands: an entry's value is sent as is when it
/// is above the last one sent; an entry without a (finite) value, or with one
/// not above the last, is sent as the last value + 1 (the first such entry as
/// 1 when nothing was sent before).
pub fn progress_notifications<'a>(
    entries: &'a [wit::ProgressNotification],
    token: &'a RawValue,
    v: ProtocolVersion,
) -> Vec<ProgressParams<'a>> {
    let mut last: Option<f64> = None;
    entries
        .iter()
        .map(|entry| {
            let progress = match (entry.progress.and_then(widen), last) {
                (Some(value), None) => value,
                (Some(value), Some(prev)) if value > prev => value,
                (_, Some(prev)) => prev + 1.0,
                (None, None) => 1.0,
            };
            last = Some(progress);
            ProgressParams {
                progress_token: token,
                progress,
                message: entry.message.as_deref().filter(|_| v.has_progress_message()),
                meta: annotations(&entry.annotations, v).map(|annotations| ProgressMeta { annotations }),
            }
        })
        .collect()
}

/// An MCP `Resource`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource<'a> {
    uri: Cow<'a, str>,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    mime_type: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<Annotations<'a>>,
}

/// Maps a resource descriptor.
pub fn resource(r: &wit::McpResource, v: ProtocolVersion) -> Resource<'_> {
    Resource {
        uri: Cow::Borrowed(&r.uri),
        name: &r.name,
        description: r.description.as_deref(),
        mime_type: &r.mime_type,
        annotations: annotations(&r.annotations, v),
    }
}

impl<'a> Resource<'a> {
    /// The same resource under the URI the client sees.
    pub fn with_uri(self, uri: Cow<'a, str>) -> Self {
        Resource { uri, ..self }
    }
}

/// An MCP `ReadResourceResult`.
#[derive(Serialize)]
pub struct ReadResourceResult<'a> {
    contents: Vec<ResourceContents<'a>>,
}

/// Maps a read result; `uri` gives each content's URI as the client sees it.
pub fn read_resource_result<'a>(
    r: &'a wit::ReadResourceResult,
    uri: impl Fn(&'a str) -> Cow<'a, str>,
) -> ReadResourceResult<'a> {
    let contents = r
        .contents
        .iter()
        .map(|c| match resource_contents(c) {
            ResourceContents::Text { uri: u, mime_type, text } => {
                ResourceContents::Text { uri: rewrite(u, &uri), mime_type, text }
            }
            ResourceContents::Blob { uri: u, mime_type, blob } => {
                ResourceContents::Blob { uri: rewrite(u, &uri), mime_type, blob }
            }
        })
        .collect();
    ReadResourceResult { contents }
}

fn rewrite<'a>(uri: Cow<'a, str>, f: &impl Fn(&'a str) -> Cow<'a, str>) -> Cow<'a, str> {
    match uri {
        Cow::Borrowed(u) => f(u),
        owned => owned,
    }
}

/// An MCP `Prompt`.
#[derive(Serialize)]
pub struct Prompt<'a> {
    name: Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    arguments: Option<Vec<PromptArgument<'a>>>,
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
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    required: Option<bool>,
}

/// Maps a prompt descriptor.
pub fn prompt(p: &wit::Prompt) -> Prompt<'_> {
    Prompt {
        name: Cow::Borrowed(&p.name),
        description: p.description.as_deref(),
        arguments: p.arguments.as_ref().map(|args| {
            args.iter()
                .map(|a| PromptArgument { name: &a.name, description: a.description.as_deref(), required: a.required })
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
pub fn get_prompt_result(r: &wit::GetPromptResult, v: ProtocolVersion) -> GetPromptResult<'_> {
    GetPromptResult {
        description: r.description.as_deref(),
        messages: r
            .messages
            .iter()
            .map(|m| PromptMessage {
                role: match m.role {
                    wit::PromptMessageRole::User => "user",
                    wit::PromptMessageRole::Assistant => "assistant",
                },
                content: match &m.content {
                    wit::PromptMessageContent::Text(t) => {
                        Content::Text { text: &t.text, annotations: annotations(&t.annotations, v) }
                    }
                    wit::PromptMessageContent::Image(i) => Content::Image {
                        data: &i.data,
                        mime_type: &i.mime_type,
                        annotations: annotations(&i.annotations, v),
                    },
                    wit::PromptMessageContent::McpResource(e) => embedded(e, v),
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
pub fn complete_result(r: &wit::CompletionResponse) -> CompleteResult<'_> {
    let all: Vec<&str> = r
        .content
        .iter()
        .filter_map(|c| match c {
            wit::Content::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect();
    let total = all.len();
    let values: Vec<&str> = all.into_iter().take(MAX_COMPLETION_VALUES).collect();
    let has_more = total > values.len();
    CompleteResult { completion: Completion { values, total, has_more }, meta: meta_map(&r.meta) }
}

/// MCP `ServerCapabilities`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Capabilities {
    logging: Empty,
    #[serde(skip_serializing_if = "Option::is_none")]
    completions: Option<Empty>,
    #[serde(skip_serializing_if = "Option::is_none")]
    prompts: Option<ListChanged>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resources: Option<ResourcesCapability>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tools: Option<ListChanged>,
}

/// `{}`.
#[derive(Serialize)]
pub struct Empty {}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListChanged {
    #[serde(skip_serializing_if = "Option::is_none")]
    list_changed: Option<bool>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResourcesCapability {
    #[serde(skip_serializing_if = "Option::is_none")]
    subscribe: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    list_changed: Option<bool>,
}

/// Maps the guest's capabilities and adds the host's own (`logging`).
/// `completions` exists from 2025-03-26 (older clients complete without it).
pub fn capabilities(c: &wit::ServerCapabilities, v: ProtocolVersion) -> Capabilities {
    Capabilities {
        logging: Empty {},
        completions: c.completions.as_ref().filter(|c| c.enabled && v.has_completions_capability()).map(|_| Empty {}),
        prompts: c.prompts.as_ref().map(|p| ListChanged { list_changed: p.list_changed }),
        resources: c
            .resources
            .as_ref()
            .map(|r| ResourcesCapability { subscribe: r.subscribe, list_changed: r.list_changed }),
        tools: c.tools.as_ref().map(|t| ListChanged { list_changed: t.list_changed }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minify_keeps_strings_and_drops_layout() {
        assert_eq!(minify("{\n  \"a b\": \"x\\\" \\n y\",\n  \"c\": [1, 2]\n}"), r#"{"a b":"x\" \n y","c":[1,2]}"#);
    }

    #[test]
    fn widen_prints_short_decimals() {
        assert_eq!(serde_json::to_string(&widen(0.1)).unwrap(), "0.1");
        assert_eq!(widen(f32::NAN), None);
    }

    #[test]
    fn guest_json_rejects_invalid_and_checks_schema_shape() {
        assert!(GuestJson::parse("{not json").is_err());
        assert!(GuestJson::parse(r#"{"type":"object"}"#).unwrap().is_object_schema());
        assert!(!GuestJson::parse(r#"{"type":"string"}"#).unwrap().is_object_schema());
        assert!(!GuestJson::parse("[]").unwrap().is_object_schema());
        assert_eq!(GuestJson::parse("{\n\"type\": \"object\"\n}").unwrap().get(), r#"{"type":"object"}"#);
    }
}
