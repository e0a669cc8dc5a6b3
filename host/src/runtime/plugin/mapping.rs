//! Plugin JSON to and from the contract's types: what a servlet's
//! `describe` and `call` take and give (`xtp-plugin-schema-v0.yaml`), in the
//! shapes MCP gives them.

use mcp_wit_protocol::contract;
use serde::Deserialize;
use serde_json::value::RawValue;

/// `describe`'s output: a `ListToolsResult`.
#[derive(Deserialize)]
struct ListTools {
    tools: Vec<ToolDescription>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolDescription {
    name: String,
    #[serde(default)]
    description: Option<String>,
    input_schema: Box<RawValue>,
    #[serde(default)]
    output_schema: Option<Box<RawValue>>,
}

/// The tools a servlet describes.
pub(crate) fn tools(output: &[u8]) -> Result<Vec<contract::Tool>, String> {
    let listed: ListTools =
        serde_json::from_slice(output).map_err(|e| format!("`describe` gave no ListToolsResult: {e}"))?;
    Ok(listed
        .tools
        .into_iter()
        .map(|tool| contract::Tool {
            name: tool.name,
            description: tool.description.unwrap_or_default(),
            input_schema: contract::Value { json: tool.input_schema.get().to_owned() },
            output_schema: tool.output_schema.map(|s| contract::Value { json: s.get().to_owned() }),
            annotations: None,
            meta: None,
        })
        .collect())
}

/// `call`'s input: a `CallToolRequest` naming the tool, with its
/// arguments (JSON text; empty is none).
pub(crate) fn call_input(name: &str, arguments: &str) -> Vec<u8> {
    let arguments = if arguments.trim().is_empty() { "null" } else { arguments };
    let name = serde_json::to_string(name).expect("a string serialises");
    format!(r#"{{"params":{{"name":{name},"arguments":{arguments}}}}}"#).into_bytes()
}

/// A v1-draft list export's input: the request's `context`.
pub(crate) fn list_input(id: &str) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({ "context": context(id) })).expect("JSON serialises")
}

/// A v1-draft `call_tool`'s input: the request and its `context`.
pub(crate) fn call_tool_input(name: &str, arguments: &str, id: &str) -> Vec<u8> {
    let arguments = if arguments.trim().is_empty() { "{}" } else { arguments };
    let request = format!(
        r#"{{"request":{{"name":{},"arguments":{arguments}}},"context":{}}}"#,
        serde_json::to_string(name).expect("a string serialises"),
        context(id)
    );
    request.into_bytes()
}

/// `PluginRequestContext`: an id unique per request, and `_meta`.
fn context(id: &str) -> serde_json::Value {
    serde_json::json!({ "id": id, "_meta": {} })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CallToolResult {
    content: Vec<Content>,
    #[serde(default)]
    is_error: Option<bool>,
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
}

#[derive(Deserialize)]
struct Annotations {
    #[serde(default)]
    audience: Option<Vec<String>>,
    #[serde(default)]
    priority: Option<f32>,
}

/// A tool's result: a `CallToolResult` (MCP's shape, which the servlet
/// schema's is a part of).
pub(crate) fn call_result(output: &[u8]) -> Result<contract::CallToolResult, String> {
    let result: CallToolResult =
        serde_json::from_slice(output).map_err(|e| format!("the tool gave no CallToolResult: {e}"))?;
    let content = result.content.into_iter().map(content).collect::<Result<_, _>>()?;
    Ok(contract::CallToolResult { content, progress: None, meta: None, is_error: result.is_error })
}

fn content(c: Content) -> Result<contract::Content, String> {
    let annotations = c.annotations.map(|a| contract::Annotations {
        audience: a.audience.map(|roles| {
            roles
                .iter()
                .map(|r| if r == "assistant" { contract::Role::Assistant } else { contract::Role::User })
                .collect()
        }),
        priority: a.priority,
        timestamp: None,
    });
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
            let contents = match (resource.text, resource.blob) {
                (Some(text), _) => contract::ResourceContents::Text(contract::TextResourceContents {
                    uri: resource.uri,
                    mime_type: resource.mime_type,
                    text,
                }),
                (None, Some(blob)) => contract::ResourceContents::Blob(contract::BlobResourceContents {
                    uri: resource.uri,
                    mime_type: resource.mime_type,
                    blob,
                }),
                (None, None) => return Err("a resource without `text` or `blob`".into()),
            };
            contract::Content::Embedded(contract::EmbeddedResource { resource_contents: contents, annotations })
        }
        other => return Err(format!("a content of unknown type `{other}`")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_a_servlet_describes_and_answers() {
        let listed =
            tools(br#"{"tools":[{"name":"echo","description":"Echoes","inputSchema":{"type":"object"}}]}"#).unwrap();
        assert_eq!((listed[0].name.as_str(), listed[0].input_schema.json.as_str()), ("echo", r#"{"type":"object"}"#));
        assert!(tools(b"[]").unwrap_err().contains("ListToolsResult"));

        let input = call_input("say \"hi\"", r#"{"a":1}"#);
        let parsed: serde_json::Value = serde_json::from_slice(&input).unwrap();
        assert_eq!(parsed, serde_json::json!({ "params": { "name": "say \"hi\"", "arguments": { "a": 1 } } }));
        let empty: serde_json::Value = serde_json::from_slice(&call_input("x", "")).unwrap();
        assert_eq!(empty["params"]["arguments"], serde_json::Value::Null);

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
