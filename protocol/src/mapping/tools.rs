//! Tools, their results and the progress they report.

use std::borrow::Cow;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::value::RawValue;

use crate::contract;
use crate::version::ProtocolVersion;

use super::annotations::{Annotations, annotations};
use super::content::{Content, contents};
use super::json::{GuestJson, object, object_value};
use super::meta::{GuestMeta, META_PREFIX, MetaMap, drop_reserved_meta, guest_meta, meta_map, widen, without_reserved};

/// MCP `ToolAnnotations`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    #[serde(skip_serializing_if = "Option::is_none")]
    read_only_hint: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    destructive_hint: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    idempotent_hint: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    open_world_hint: Option<bool>,
}

/// The contract's tool fields that MCP has no field for, under `_meta`.
pub struct ToolMetaOut<'a> {
    streaming: Option<bool>,
    experimental: Option<bool>,
    meta: Option<&'a contract::ToolMeta>,
    /// The guest's own `_meta` object, its keys beside the ones above.
    object: Option<serde_json::Map<String, serde_json::Value>>,
}

impl ToolMetaOut<'_> {
    fn is_empty(&self) -> bool {
        self.streaming.is_none() && self.experimental.is_none() && self.meta.is_none() && self.object.is_none()
    }
}

impl Serialize for ToolMetaOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        // The guest's keys first, but none under a reserved prefix: ours,
        // which mcp-wit defines, and MCP's.
        for (key, value) in without_reserved(self.object.iter().flatten().map(|(key, value)| (key.as_str(), value))) {
            map.serialize_entry(key, value)?;
        }
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

impl<'a> From<&'a contract::ToolMeta> for ToolMetaFields<'a> {
    fn from(m: &'a contract::ToolMeta) -> Self {
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
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    description: &'a str,
    input_schema: GuestJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<GuestJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<ToolAnnotations>,
    #[serde(skip_serializing_if = "Option::is_none")]
    icons: Option<GuestJson<'a>>,
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
    /// Its `_meta.ui` (MCP Apps) is not what the extension allows.
    #[error("{0}")]
    App(String),
    /// The name is not one MCP allows.
    #[error(
        "its name is not a valid MCP tool name (1 to {MAX_TOOL_NAME_CHARS} characters of A-Z, a-z, 0-9, `_`, `-` \
         and `.`)"
    )]
    Name,
}

/// The longest tool name MCP allows (2025-11-25).
pub const MAX_TOOL_NAME_CHARS: usize = 128;

/// Whether `name` is a valid MCP tool name (2025-11-25): 1 to
/// [`MAX_TOOL_NAME_CHARS`] ASCII letters, digits, `_`, `-` and `.`; no
/// space or line break a client could show or log as something else.
pub fn is_valid_tool_name(name: &str) -> bool {
    (1..=MAX_TOOL_NAME_CHARS).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

fn schema<'a>(json: &'a str, field: &'static str) -> Result<GuestJson<'a>, InvalidTool> {
    let parsed = GuestJson::parse(json).map_err(|error| InvalidTool::NotJson { field, error })?;
    if !parsed.is_object_schema() {
        return Err(InvalidTool::NotObjectSchema { field });
    }
    Ok(parsed)
}

/// Maps a tool, or says why it cannot be sent without breaking MCP.
pub fn tool(t: &contract::Tool, v: ProtocolVersion) -> Result<Tool<'_>, InvalidTool> {
    if !is_valid_tool_name(&t.name) {
        return Err(InvalidTool::Name);
    }
    let input_schema = schema(&t.input_schema.json, "input-schema")?;
    let output_schema = match &t.output_schema {
        // Checked in every revision: a broken schema leaves the tool out.
        Some(s) => {
            let parsed = schema(&s.json, "output-schema")?;
            v.has_structured_output().then_some(parsed)
        }
        None => None,
    };
    let hints = t.annotations.as_ref();
    let annotations = hints
        .map(|a| ToolAnnotations {
            read_only_hint: a.read_only,
            destructive_hint: a.destructive,
            idempotent_hint: a.idempotent,
            open_world_hint: a.open_world,
        })
        .filter(|a| {
            let hints = [a.read_only_hint, a.destructive_hint, a.idempotent_hint, a.open_world_hint];
            v.has_tool_annotations() && hints.iter().any(Option::is_some)
        });
    let object = t.meta_object.as_ref().and_then(|o| object(&o.json));
    let parsed: Option<serde_json::Map<String, serde_json::Value>> =
        object.as_ref().and_then(|o| serde_json::from_str(o.get()).ok());
    if let Some(meta) = &parsed {
        super::apps::check_tool_ui(meta).map_err(InvalidTool::App)?;
    }
    Ok(Tool {
        name: Cow::Borrowed(&t.name),
        title: t.title.as_deref().filter(|_| v.has_resource_links_and_titles()),
        description: &t.description,
        input_schema,
        output_schema,
        annotations,
        icons: super::apps::icons(t.icons.as_ref(), v, &format!("tool `{}`", t.name)),
        meta: ToolMetaOut {
            streaming: hints.and_then(|a| a.streaming),
            experimental: hints.and_then(|a| a.experimental),
            meta: t.meta.as_ref(),
            object: parsed,
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
    structured_content: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    is_error: Option<bool>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<ResultMeta<'a>>,
}

/// A result's `_meta`: the 25.3.26 entries (text values), a guest's own
/// object (any JSON), or both merged (an entry wins over the object's key).
pub enum ResultMeta<'a> {
    /// Entries only.
    Entries(MetaMap<'a>),
    /// A JSON object only.
    Object(GuestMeta<'a>),
    /// Both, merged.
    Merged(serde_json::Map<String, serde_json::Value>),
}

impl Serialize for ResultMeta<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ResultMeta::Entries(entries) => entries.serialize(s),
            ResultMeta::Object(object) => object.serialize(s),
            ResultMeta::Merged(map) => map.serialize(s),
        }
    }
}

fn result_meta<'a>(
    entries: &'a Option<Vec<contract::MetaEntry>>,
    object: Option<&'a contract::Value>,
) -> Option<ResultMeta<'a>> {
    let object = object.and_then(|o| guest_meta(&o.json));
    match (meta_map(entries), object) {
        (None, None) => None,
        (Some(entries), None) => Some(ResultMeta::Entries(entries)),
        (None, Some(object)) => Some(ResultMeta::Object(object)),
        (Some(entries), Some(object)) => {
            let mut map: serde_json::Map<String, serde_json::Value> = match object {
                GuestMeta::AsGiven(json) => serde_json::from_str(json.get()).unwrap_or_default(),
                GuestMeta::Filtered(map) => map,
            };
            for entry in entries.0 {
                map.insert(entry.key.clone(), serde_json::Value::String(entry.value.clone()));
            }
            drop_reserved_meta(&mut map);
            Some(ResultMeta::Merged(map))
        }
    }
}

/// Maps a tool result. With `structured` (the tool declares an output schema
/// and the revision has structured output), its structured content goes out
/// as `structuredContent`: what the guest gave as such, else (25.3.26, which
/// has no field for it) the first text item that holds a JSON object.
#[cfg(test)]
pub fn call_tool_result(r: &contract::CallToolResult, structured: bool, v: ProtocolVersion) -> CallToolResult<'_> {
    checked_call_tool_result(r, structured, None, v)
}

/// [`call_tool_result`], with the structured content as it was read to be
/// checked against the output schema (`checked`): sent as that value, not
/// as the guest's text, so what goes out is what was checked (a key the
/// guest gave twice goes out once, with the value the check saw). Without
/// it, the guest's text is read here, to the same end.
pub fn checked_call_tool_result(
    r: &contract::CallToolResult,
    structured: bool,
    checked: Option<serde_json::Value>,
    v: ProtocolVersion,
) -> CallToolResult<'_> {
    let structured_content = match (&r.structured_content, structured) {
        _ if !v.has_structured_output() => None,
        _ if checked.is_some() => checked,
        // Given explicitly: sent wherever the revision has the field.
        (Some(given), _) => object_value(&given.json),
        (None, true) => structured_text(r).and_then(|text| serde_json::from_str(text).ok()),
        (None, false) => None,
    };
    CallToolResult {
        content: contents(&r.content, v),
        structured_content,
        is_error: r.is_error,
        meta: result_meta(&r.meta, r.meta_object.as_ref()),
    }
}

/// The JSON text a result's `structuredContent` is made of when the tool
/// declares an output schema: what it gives explicitly, or else (the
/// 25.3.26 contract has no field for it) its first text content that is a
/// JSON object.
pub fn structured_text(r: &contract::CallToolResult) -> Option<&str> {
    if let Some(given) = &r.structured_content {
        return Some(&given.json);
    }
    r.content.iter().find_map(|c| match c {
        contract::Content::Text(t) if t.text.trim_start().starts_with('{') => Some(t.text.as_str()),
        _ => None,
    })
}

/// A tool error reported as a result (`isError: true`), as 2025-11-25 asks
/// for input-validation and execution failures.
pub fn tool_error_result(message: &str) -> CallToolResult<'_> {
    CallToolResult {
        content: vec![Content::Text { text: Cow::Borrowed(message), annotations: None }],
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
    entries: &'a [contract::ProgressNotification],
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
