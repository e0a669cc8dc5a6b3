//! MCP's JSON results to the contract's types: what an Extism plugin's
//! exports answer (a servlet's `describe` and `call`,
//! `xtp-plugin-schema-v0.yaml`, and a v1-draft plugin's exports, in the
//! shapes MCP gives them), and what a component that speaks MCP itself
//! answers.

use mcp_wit_protocol::contract;
use serde::Deserialize;
use serde_json::value::RawValue;

/// A JSON value as the guest wrote it, for the contract.
fn json(raw: Option<Box<RawValue>>) -> Option<contract::Value> {
    raw.map(|raw| contract::Value { json: raw.get().to_owned() })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolDescription {
    name: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    input_schema: Box<RawValue>,
    #[serde(default)]
    output_schema: Option<Box<RawValue>>,
    #[serde(default, rename = "_meta")]
    meta: Option<Box<RawValue>>,
    #[serde(default)]
    icons: Option<Box<RawValue>>,
}

/// The tools a servlet describes (`describe`) or a v1-draft plugin lists
/// (`list_tools`): a `ListToolsResult`.
pub(crate) fn tools(output: &[u8]) -> Result<Vec<contract::Tool>, String> {
    let tools: Vec<ToolDescription> = listed(output, "tools", "ListToolsResult")?;
    Ok(tools
        .into_iter()
        .map(|tool| contract::Tool {
            name: tool.name,
            description: tool.description.unwrap_or_default(),
            input_schema: contract::Value { json: tool.input_schema.get().to_owned() },
            output_schema: tool.output_schema.map(|s| contract::Value { json: s.get().to_owned() }),
            // The draft's tool annotations are content annotations
            // (audience, priority): nothing the tool hints say.
            annotations: None,
            meta: None,
            title: tool.title,
            // `_meta` and `icons` pass as written (an app's `ui`, for one);
            // the mapping checks them.
            meta_object: json(tool.meta),
            icons: json(tool.icons),
        })
        .collect())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CallToolResult {
    content: Vec<Content>,
    #[serde(default)]
    is_error: Option<bool>,
    #[serde(default)]
    structured_content: Option<Box<RawValue>>,
    #[serde(default, rename = "_meta")]
    meta: Option<Box<RawValue>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Content {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    data: Option<String>,
    #[serde(default)]
    mime_type: Option<String>,
    #[serde(default)]
    resource: Option<Resource>,
    #[serde(default)]
    annotations: Option<Annotations>,
    // A `resource_link`'s fields.
    #[serde(default)]
    uri: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    size: Option<u64>,
    #[serde(default, rename = "_meta")]
    meta: Option<Box<RawValue>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Resource {
    uri: String,
    #[serde(default)]
    mime_type: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    blob: Option<String>,
    #[serde(default, rename = "_meta")]
    meta: Option<Box<RawValue>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Annotations {
    #[serde(default)]
    audience: Option<Vec<String>>,
    #[serde(default)]
    priority: Option<f32>,
    #[serde(default)]
    last_modified: Option<String>,
}

/// A tool's result: a `CallToolResult` (MCP's shape, which the servlet
/// schema's is a part of).
pub(crate) fn call_result(output: &[u8]) -> Result<contract::CallToolResult, String> {
    let result: CallToolResult =
        serde_json::from_slice(output).map_err(|e| format!("the tool gave no CallToolResult: {e}"))?;
    let content = result.content.into_iter().map(content).collect::<Result<_, _>>()?;
    // Every field of the result reaches the client: `structuredContent` and
    // `_meta` as the guest wrote them (the mapping checks they are objects).
    Ok(contract::CallToolResult {
        content,
        progress: None,
        meta: None,
        is_error: result.is_error,
        structured_content: json(result.structured_content),
        meta_object: json(result.meta),
    })
}

fn annotations(a: Option<Annotations>) -> Option<contract::Annotations> {
    a.map(|a| contract::Annotations {
        audience: a.audience.map(|roles| {
            roles
                .iter()
                .map(|r| if r == "assistant" { contract::Role::Assistant } else { contract::Role::User })
                .collect()
        }),
        priority: a.priority,
        timestamp: a.last_modified,
    })
}

fn resource_contents(resource: Resource) -> Result<contract::ResourceContents, String> {
    Ok(match (resource.text, resource.blob) {
        (Some(text), _) => contract::ResourceContents::Text(contract::TextResourceContents {
            uri: resource.uri,
            mime_type: resource.mime_type,
            text,
            meta_object: json(resource.meta),
        }),
        (None, Some(blob)) => contract::ResourceContents::Blob(contract::BlobResourceContents {
            uri: resource.uri,
            mime_type: resource.mime_type,
            blob,
            meta_object: json(resource.meta),
        }),
        (None, None) => return Err("a resource without `text` or `blob`".into()),
    })
}

fn content(c: Content) -> Result<contract::Content, String> {
    let annotations = annotations(c.annotations);
    let missing = |field: &str| format!("a `{}` content without `{field}`", c.kind);
    Ok(match c.kind.as_str() {
        "text" => contract::Content::Text(contract::TextContent {
            text: c.text.clone().ok_or_else(|| missing("text"))?,
            annotations,
        }),
        "image" | "audio" => {
            let data = c.data.clone().ok_or_else(|| missing("data"))?;
            let mime_type = c.mime_type.clone().ok_or_else(|| missing("mimeType"))?;
            if c.kind == "image" {
                contract::Content::Image(contract::ImageContent { data, mime_type, annotations })
            } else {
                contract::Content::Audio(contract::AudioContent { data, mime_type, annotations })
            }
        }
        "resource" => {
            let resource = c.resource.ok_or_else(|| "a `resource` content without `resource`".to_string())?;
            let contents = resource_contents(resource)?;
            contract::Content::Embedded(contract::EmbeddedResource { resource_contents: contents, annotations })
        }
        "resource_link" => contract::Content::ResourceLink(contract::ResourceLink {
            uri: c.uri.clone().ok_or_else(|| missing("uri"))?,
            name: c.name.clone().ok_or_else(|| missing("name"))?,
            title: c.title,
            description: c.description,
            mime_type: c.mime_type,
            size: c.size,
            annotations,
            meta_object: c.meta.map(|raw| contract::Value { json: raw.get().to_owned() }),
        }),
        other => return Err(format!("a content of unknown type `{other}`")),
    })
}

fn parse<'a, T: Deserialize<'a>>(output: &'a [u8], what: &str) -> Result<T, String> {
    serde_json::from_slice(output).map_err(|e| format!("the guest gave no {what}: {e}"))
}

/// The array `field` of a list result (`what`, e.g. `ListPromptsResult`).
fn listed<T: serde::de::DeserializeOwned>(output: &[u8], field: &str, what: &str) -> Result<Vec<T>, String> {
    let mut result: serde_json::Value = parse(output, what)?;
    // (Not `result[field]`: indexing anything but an object panics.)
    let items = result.as_object_mut().and_then(|fields| fields.remove(field));
    let items = items.ok_or_else(|| format!("the guest gave no {what}: no `{field}`"))?;
    serde_json::from_value(items).map_err(|e| format!("the guest gave no {what}: `{field}`: {e}"))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResourceEntry {
    uri: String,
    name: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    mime_type: Option<String>,
    #[serde(default)]
    annotations: Option<Annotations>,
    #[serde(default, rename = "_meta")]
    meta: Option<Box<RawValue>>,
    #[serde(default)]
    icons: Option<Box<RawValue>>,
}

/// `list_resources`'s `ListResourcesResult`.
pub(crate) fn resources(output: &[u8]) -> Result<Vec<contract::McpResource>, String> {
    let resources: Vec<ResourceEntry> = listed(output, "resources", "ListResourcesResult")?;
    Ok(resources
        .into_iter()
        .map(|r| contract::McpResource {
            uri: r.uri,
            name: r.name,
            description: r.description,
            mime_type: r.mime_type.unwrap_or_default(),
            annotations: annotations(r.annotations),
            title: r.title,
            meta_object: json(r.meta),
            icons: json(r.icons),
        })
        .collect())
}

/// `list_resource_templates`'s `ListResourceTemplatesResult`.
pub(crate) fn resource_templates(output: &[u8]) -> Result<Vec<contract::ResourceTemplate>, String> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Template {
        uri_template: String,
        name: String,
        #[serde(default)]
        title: Option<String>,
        #[serde(default)]
        description: Option<String>,
        #[serde(default)]
        mime_type: Option<String>,
        #[serde(default)]
        annotations: Option<Annotations>,
        #[serde(default)]
        icons: Option<Box<RawValue>>,
    }
    let templates: Vec<Template> = listed(output, "resourceTemplates", "ListResourceTemplatesResult")?;
    Ok(templates
        .into_iter()
        .map(|t| contract::ResourceTemplate {
            uri_template: t.uri_template,
            name: t.name,
            title: t.title,
            description: t.description,
            mime_type: t.mime_type,
            annotations: annotations(t.annotations),
            icons: json(t.icons),
        })
        .collect())
}

/// `read_resource`'s `ReadResourceResult`.
pub(crate) fn read_result(output: &[u8]) -> Result<contract::ReadResourceResult, String> {
    #[derive(Deserialize)]
    struct Read {
        contents: Vec<Resource>,
    }
    let read: Read = parse(output, "ReadResourceResult")?;
    let contents = read.contents.into_iter().map(resource_contents).collect::<Result<_, _>>()?;
    Ok(contract::ReadResourceResult { contents })
}

/// `list_prompts`'s `ListPromptsResult`.
pub(crate) fn prompts(output: &[u8]) -> Result<Vec<contract::Prompt>, String> {
    #[derive(Deserialize)]
    struct Argument {
        name: String,
        #[serde(default)]
        title: Option<String>,
        #[serde(default)]
        description: Option<String>,
        #[serde(default)]
        required: Option<bool>,
    }
    #[derive(Deserialize)]
    struct Entry {
        name: String,
        #[serde(default)]
        title: Option<String>,
        #[serde(default)]
        description: Option<String>,
        #[serde(default)]
        arguments: Option<Vec<Argument>>,
        #[serde(default)]
        icons: Option<Box<RawValue>>,
    }
    let prompts: Vec<Entry> = listed(output, "prompts", "ListPromptsResult")?;
    Ok(prompts
        .into_iter()
        .map(|p| contract::Prompt {
            name: p.name,
            title: p.title,
            description: p.description,
            arguments: p.arguments.map(|arguments| {
                arguments
                    .into_iter()
                    .map(|a| contract::PromptArgument {
                        name: a.name,
                        description: a.description,
                        required: a.required,
                        title: a.title,
                    })
                    .collect()
            }),
            icons: json(p.icons),
        })
        .collect())
}

/// `get_prompt`'s `GetPromptResult`.
pub(crate) fn prompt_result(output: &[u8]) -> Result<contract::GetPromptResult, String> {
    #[derive(Deserialize)]
    struct Message {
        role: String,
        content: Content,
    }
    #[derive(Deserialize)]
    struct Got {
        #[serde(default)]
        description: Option<String>,
        messages: Vec<Message>,
    }
    let got: Got = parse(output, "GetPromptResult")?;
    let messages = got
        .messages
        .into_iter()
        .map(|m| {
            let role = match m.role.as_str() {
                "user" => contract::PromptMessageRole::User,
                "assistant" => contract::PromptMessageRole::Assistant,
                other => return Err(format!("a prompt message of unknown role `{other}`")),
            };
            let content = match content(m.content)? {
                contract::Content::Text(text) => contract::PromptMessageContent::Text(text),
                contract::Content::Image(image) => contract::PromptMessageContent::Image(image),
                contract::Content::Embedded(resource) => contract::PromptMessageContent::McpResource(resource),
                contract::Content::Audio(_) => {
                    return Err("a prompt message of audio, which prompts cannot carry here".into());
                }
                contract::Content::ResourceLink(_) => {
                    return Err("a prompt message of a resource link, which prompts cannot carry here".into());
                }
            };
            Ok(contract::PromptMessage { role, content })
        })
        .collect::<Result<_, String>>()?;
    Ok(contract::GetPromptResult { description: got.description, messages })
}

/// `complete`'s `CompleteResult`: its values, as the contract's text items.
pub(crate) fn completion(output: &[u8]) -> Result<contract::CompletionResponse, String> {
    #[derive(Deserialize)]
    struct Completion {
        values: Vec<String>,
    }
    #[derive(Deserialize)]
    struct Completed {
        completion: Completion,
    }
    let completed: Completed = parse(output, "CompleteResult")?;
    let content = completed
        .completion
        .values
        .into_iter()
        .map(|text| contract::Content::Text(contract::TextContent { text, annotations: None }))
        .collect();
    Ok(contract::CompletionResponse { content, meta: None, is_error: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_listed_tools_and_call_results() {
        let listed =
            tools(br#"{"tools":[{"name":"echo","description":"Echoes","inputSchema":{"type":"object"}}]}"#).unwrap();
        assert_eq!((listed[0].name.as_str(), listed[0].input_schema.json.as_str()), ("echo", r#"{"type":"object"}"#));
        assert!(tools(b"[]").unwrap_err().contains("ListToolsResult"));

        let result = call_result(
            br#"{"content":[{"type":"text","text":"hi"},{"type":"image","data":"AA==","mimeType":"image/png"}],"isError":false}"#,
        )
        .unwrap();
        assert_eq!(result.content.len(), 2);
        assert_eq!(result.is_error, Some(false));
        assert!(call_result(br#"{"content":[{"type":"image"}]}"#).unwrap_err().contains("without `data`"));
        assert!(call_result(br#"{"content":[{"type":"video"}]}"#).unwrap_err().contains("unknown type"));
        assert!(call_result(b"not json").is_err());
    }
}
