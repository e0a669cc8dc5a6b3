//! Small constructors that keep the fixture data readable.

use crate::exports::wasix::mcp::router::{
    Annotations, AudioContent, BlobResourceContents, Content, EmbeddedResource, ImageContent, MetaEntry,
    ResourceContents, Role, TextContent, TextResourceContents, Value,
};

/// The eight-byte PNG signature, base64 encoded.
pub const PNG: &str = "iVBORw0KGgo=";

pub fn json(json: &str) -> Value {
    Value { json: json.into() }
}

pub fn annotations(audience: Option<Vec<Role>>, priority: Option<f32>, timestamp: Option<&str>) -> Annotations {
    Annotations { audience, priority, timestamp: timestamp.map(Into::into) }
}

pub fn meta(entries: &[(&str, &str)]) -> Vec<MetaEntry> {
    entries.iter().map(|&(key, value)| MetaEntry { key: key.into(), value: value.into() }).collect()
}

pub fn text_content(text: &str, annotations: Option<Annotations>) -> TextContent {
    TextContent { text: text.into(), annotations }
}

pub fn image_content(data: &str, mime_type: &str, annotations: Option<Annotations>) -> ImageContent {
    ImageContent { data: data.into(), mime_type: mime_type.into(), annotations }
}

/// Plain text content without annotations.
pub fn text(text: impl Into<String>) -> Content {
    Content::Text(TextContent { text: text.into(), annotations: None })
}

/// Text content carrying annotations.
pub fn annotated_text(text: &str, annotations: Annotations) -> Content {
    Content::Text(text_content(text, Some(annotations)))
}

pub fn image(data: &str, mime_type: &str, annotations: Option<Annotations>) -> Content {
    Content::Image(image_content(data, mime_type, annotations))
}

pub fn audio(data: &str, mime_type: &str, annotations: Option<Annotations>) -> Content {
    Content::Audio(AudioContent { data: data.into(), mime_type: mime_type.into(), annotations })
}

pub fn embedded(resource_contents: ResourceContents, annotations: Option<Annotations>) -> Content {
    Content::Embedded(EmbeddedResource { resource_contents, annotations })
}

pub fn text_resource(uri: &str, mime_type: Option<&str>, text: &str) -> ResourceContents {
    ResourceContents::Text(TextResourceContents {
        uri: uri.into(),
        mime_type: mime_type.map(Into::into),
        text: text.into(),
    })
}

pub fn blob_resource(uri: &str, mime_type: Option<&str>, blob: &str) -> ResourceContents {
    ResourceContents::Blob(BlobResourceContents {
        uri: uri.into(),
        mime_type: mime_type.map(Into::into),
        blob: blob.into(),
    })
}
