//! Resources: a text one, a binary one and one that always fails to read.
//! `everything://both` is readable but deliberately not listed.

use crate::content::{PNG, annotations, blob_resource, text_resource};
use crate::exports::wasix::mcp::router::{McpResource, ReadResourceResult, ResourceError, Role};

pub fn list() -> Vec<McpResource> {
    vec![
        McpResource {
            uri: "everything://text".into(),
            name: "text".into(),
            description: Some("A text resource".into()),
            mime_type: "text/plain".into(),
            annotations: Some(annotations(Some(vec![Role::Assistant]), Some(1.0), Some("2025-06-01T12:00:00Z"))),
        },
        McpResource {
            uri: "everything://blob".into(),
            name: "blob".into(),
            description: None,
            mime_type: "application/octet-stream".into(),
            annotations: None,
        },
        McpResource {
            uri: "everything://broken".into(),
            name: "broken".into(),
            description: Some("Always fails to read".into()),
            mime_type: "text/plain".into(),
            annotations: None,
        },
    ]
}

pub fn read(uri: String) -> Result<ReadResourceResult, ResourceError> {
    let contents = match uri.as_str() {
        "everything://text" => vec![text_resource(&uri, Some("text/plain"), "hello from a resource")],
        "everything://blob" => vec![blob_resource(&uri, Some("application/octet-stream"), "AAECAw==")],
        "everything://both" => vec![text_resource(&uri, None, "part one"), blob_resource(&uri, Some("image/png"), PNG)],
        "everything://broken" => {
            return Err(ResourceError::ExecutionError("storage offline".into()));
        }
        _ => return Err(ResourceError::NotFound(uri)),
    };
    Ok(ReadResourceResult { contents })
}
