//! Small constructors that keep the fixture data readable.

use mcp_wit_sdk::types::{
    Annotations, AudioContent, BlobResourceContents, ConfigDescriptor, Content, EmbeddedResource, ImageContent,
    MetaEntry, ResourceContents, Role, SecretDescriptor, TextContent, ToolMeta,
};

/// The eight-byte PNG signature, base64 encoded.
pub const PNG: &str = "iVBORw0KGgo=";

pub fn annotations(audience: Option<Vec<Role>>, priority: Option<f32>, timestamp: Option<&str>) -> Annotations {
    Annotations { audience, priority, timestamp: timestamp.map(Into::into) }
}

pub fn text_content(text: &str, annotations: Option<Annotations>) -> TextContent {
    TextContent { text: text.into(), annotations }
}

pub fn image_content(data: &str, mime_type: &str, annotations: Option<Annotations>) -> ImageContent {
    ImageContent { data: data.into(), mime_type: mime_type.into(), annotations }
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

/// Blob contents from base64 text as the fixture spells it.
pub fn blob_resource(uri: &str, mime_type: Option<&str>, blob: &str) -> ResourceContents {
    ResourceContents::Blob(BlobResourceContents {
        uri: uri.into(),
        mime_type: mime_type.map(Into::into),
        blob: blob.into(),
    })
}

/// The `annotated` tool's meta: every field of `tool-meta`.
pub fn every_tool_meta() -> ToolMeta {
    ToolMeta {
        output_hint: Some("a short greeting".into()),
        config: Some(vec![ConfigDescriptor {
            name: "GREETING".into(),
            description: "Greeting word".into(),
            required: true,
        }]),
        secrets: Some(vec![SecretDescriptor {
            name: "API_TOKEN".into(),
            description: "Token for the upstream API".into(),
            required: false,
        }]),
        config_meta: Some(MetaEntry::list(&[("group", "demo")])),
        extra: Some(MetaEntry::list(&[("owner", "tests")])),
    }
}
