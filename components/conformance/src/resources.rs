//! Resources: the fixed ones, the template, reads and subscriptions.

use crate::bindings::exports::mcp_wit::extension::extension::ResourceTemplate;
use crate::bindings::exports::wasix::mcp::router::{
    BlobResourceContents, McpResource, ReadResourceResult, ResourceContents, ResourceError, TextResourceContents,
};
use crate::content::PNG;

pub(crate) fn list_resources() -> Vec<McpResource> {
    let resource = |uri: &str, name: &str, description: &str, mime_type: &str| McpResource {
        uri: uri.into(),
        name: name.into(),
        description: Some(description.into()),
        mime_type: mime_type.into(),
        annotations: None,
    };
    vec![
        resource("test://static-text", "static-text", "A static text resource for testing", "text/plain"),
        resource("test://static-binary", "static-binary", "A static binary resource (image) for testing", "image/png"),
        resource("test://watched-resource", "watched-resource", "A resource that can be subscribed to", "text/plain"),
    ]
}

pub(crate) fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
    let text = |mime_type: &str, text: String| ReadResourceResult {
        contents: vec![ResourceContents::Text(TextResourceContents {
            uri: uri.clone(),
            mime_type: Some(mime_type.into()),
            text,
        })],
    };
    match uri.as_str() {
        "test://static-text" => Ok(text("text/plain", "This is the content of the static text resource.".into())),
        "test://static-binary" => Ok(ReadResourceResult {
            contents: vec![ResourceContents::Blob(BlobResourceContents {
                uri: uri.clone(),
                mime_type: Some("image/png".into()),
                blob: PNG.into(),
            })],
        }),
        "test://watched-resource" => Ok(text("text/plain", "Watched resource content".into())),
        _ => {
            // The template `test://template/{id}/data`: the contract has no
            // templates to list, but a router can still serve their URIs.
            let id = uri
                .strip_prefix("test://template/")
                .and_then(|rest| rest.strip_suffix("/data"))
                .filter(|id| !id.is_empty() && !id.contains('/'));
            match id {
                Some(id) => {
                    let body = serde_json::json!({
                        "id": id,
                        "templateTest": true,
                        "data": format!("Data for ID: {id}"),
                    });
                    Ok(text("application/json", body.to_string()))
                }
                None => Err(ResourceError::NotFound(uri)),
            }
        }
    }
}

pub(crate) fn list_resource_templates() -> Vec<ResourceTemplate> {
    vec![ResourceTemplate {
        uri_template: "test://template/{id}/data".into(),
        name: "template".into(),
        title: None,
        description: Some("A resource template with parameter substitution".into()),
        mime_type: Some("application/json".into()),
        annotations: None,
    }]
}

pub(crate) fn subscribe(uri: String) -> Result<(), ResourceError> {
    known_resource(uri)
}

pub(crate) fn unsubscribe(uri: String) -> Result<(), ResourceError> {
    known_resource(uri)
}

/// Subscriptions are to resources the router lists.
fn known_resource(uri: String) -> Result<(), ResourceError> {
    if list_resources().iter().any(|r| r.uri == uri) { Ok(()) } else { Err(ResourceError::NotFound(uri)) }
}
