//! Content blocks the tools and prompts answer with.

use crate::bindings::exports::wasix::mcp::router::{
    CallToolResult, Content, EmbeddedResource, ImageContent, ResourceContents, TextContent, TextResourceContents,
};

/// A 1×1 red PNG.
pub(crate) const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A minimal WAV file.
pub(crate) const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

pub(crate) fn text(text: &str) -> Content {
    Content::Text(text_content(text))
}

pub(crate) fn text_content(text: &str) -> TextContent {
    TextContent { text: text.into(), annotations: None }
}

pub(crate) fn image_content() -> ImageContent {
    ImageContent { data: PNG.into(), mime_type: "image/png".into(), annotations: None }
}

pub(crate) fn embedded_text(uri: &str, mime_type: &str, text: &str) -> EmbeddedResource {
    EmbeddedResource {
        resource_contents: ResourceContents::Text(TextResourceContents {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: text.into(),
        }),
        annotations: None,
    }
}

pub(crate) fn result(content: Vec<Content>) -> CallToolResult {
    CallToolResult { content, progress: None, meta: None, is_error: None }
}
