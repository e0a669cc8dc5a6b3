//! The contract's types, as the bindings define them, with constructors for
//! the common cases. Every field of the contract stays reachable: build the
//! records directly when a constructor does not fit.

pub use crate::bindings::exports::wasix::mcp::router::{
    Annotations, AudioContent, BlobResourceContents, CallToolResult, CompletionRequest, CompletionResponse,
    CompletionsCapability, ConfigDescriptor, Content, EmbeddedResource, GetPromptResult, ImageContent, McpResource,
    MetaEntry, ProgressNotification, Prompt, PromptArgument, PromptMessage, PromptMessageContent, PromptMessageRole,
    PromptsCapability, ReadResourceResult, ResourceContents, ResourcesCapability, Role, SecretDescriptor,
    ServerCapabilities, TextContent, TextResourceContents, Tool, ToolAnnotations, ToolMeta, ToolsCapability, Value,
};

impl Value {
    /// JSON text as the contract carries it.
    pub fn json(json: impl Into<String>) -> Self {
        Value { json: json.into() }
    }
}

impl Annotations {
    /// Annotations with only an audience.
    pub fn for_audience(audience: impl Into<Vec<Role>>) -> Self {
        Annotations { audience: Some(audience.into()), priority: None, timestamp: None }
    }
}

impl MetaEntry {
    /// Meta entries from key/value pairs.
    pub fn list(entries: &[(&str, &str)]) -> Vec<MetaEntry> {
        entries.iter().map(|&(key, value)| MetaEntry { key: key.into(), value: value.into() }).collect()
    }
}

impl Content {
    /// Text content.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text(TextContent { text: text.into(), annotations: None })
    }

    /// An image, its bytes base64 encoded.
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Image(ImageContent {
            data: crate::base64::encode(bytes),
            mime_type: mime_type.into(),
            annotations: None,
        })
    }

    /// Audio, its bytes base64 encoded.
    pub fn audio(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Audio(AudioContent {
            data: crate::base64::encode(bytes),
            mime_type: mime_type.into(),
            annotations: None,
        })
    }

    /// An embedded resource.
    pub fn resource(contents: ResourceContents) -> Self {
        Content::Embedded(EmbeddedResource { resource_contents: contents, annotations: None })
    }

    /// The same content with `annotations`.
    pub fn with_annotations(self, annotations: Annotations) -> Self {
        let annotations = Some(annotations);
        match self {
            Content::Text(c) => Content::Text(TextContent { annotations, ..c }),
            Content::Image(c) => Content::Image(ImageContent { annotations, ..c }),
            Content::Audio(c) => Content::Audio(AudioContent { annotations, ..c }),
            Content::Embedded(c) => Content::Embedded(EmbeddedResource { annotations, ..c }),
        }
    }
}

impl CallToolResult {
    /// A successful result holding `content`.
    pub fn success(content: Vec<Content>) -> Self {
        CallToolResult { content, progress: None, meta: None, is_error: None }
    }

    /// A failure told to the model as ordinary content (`isError: true`),
    /// rather than a protocol error: the model can read it and try again.
    pub fn error(content: Vec<Content>) -> Self {
        CallToolResult { content, progress: None, meta: None, is_error: Some(true) }
    }
}

impl ResourceContents {
    /// Text contents of `uri`.
    pub fn text(uri: impl Into<String>, mime_type: Option<&str>, text: impl Into<String>) -> Self {
        ResourceContents::Text(TextResourceContents {
            uri: uri.into(),
            mime_type: mime_type.map(Into::into),
            text: text.into(),
        })
    }

    /// Binary contents of `uri`, base64 encoded here.
    pub fn blob(uri: impl Into<String>, mime_type: Option<&str>, bytes: &[u8]) -> Self {
        ResourceContents::Blob(BlobResourceContents {
            uri: uri.into(),
            mime_type: mime_type.map(Into::into),
            blob: crate::base64::encode(bytes),
        })
    }
}

impl PromptMessage {
    /// A text message from the user.
    pub fn user(text: impl Into<String>) -> Self {
        PromptMessage::text(PromptMessageRole::User, text)
    }

    /// A text message from the assistant.
    pub fn assistant(text: impl Into<String>) -> Self {
        PromptMessage::text(PromptMessageRole::Assistant, text)
    }

    /// A text message.
    pub fn text(role: PromptMessageRole, text: impl Into<String>) -> Self {
        PromptMessage {
            role,
            content: PromptMessageContent::Text(TextContent { text: text.into(), annotations: None }),
        }
    }
}

/// A parameterised resource, listed by `resources/templates/list` (with the
/// `extension` feature).
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceTemplate {
    /// An RFC 6570 URI template, e.g. `weather://city/{name}`.
    pub uri_template: String,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<String>,
    pub annotations: Option<Annotations>,
}
