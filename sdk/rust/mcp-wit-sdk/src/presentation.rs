//! What a router shows beside its lists that the contract has no field for:
//! `_meta` (an MCP App's `ui` on its tool and on its view) and icons. The
//! host lays them onto the lists and onto a view's contents (with the
//! `extension` feature, through `mcp-wit:extension/presentation`).

use serde_json::{Value, json};

/// MCP Apps' MIME type for a view: the `mime_type` of its `ui://` resource.
pub const APP_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The extension id a client that hosts MCP Apps declares (see
/// [`Context::hosts_apps`](crate::Context::hosts_apps)).
pub const APPS_EXTENSION: &str = "io.modelcontextprotocol/ui";

/// What a decoration is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// The server itself (its `serverInfo`).
    Server,
    /// A tool, by name.
    Tool(String),
    /// A prompt, by name.
    Prompt(String),
    /// A resource, by URI.
    Resource(String),
    /// A resource template, by URI template.
    ResourceTemplate(String),
}

/// What a router adds to one subject: `_meta` entries and icons.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoration {
    pub subject: Subject,
    /// `_meta` entries (a JSON object), laid over the listed ones.
    pub meta: Option<Value>,
    /// A JSON array of MCP `Icon` objects (`src`, `mimeType`, `sizes`,
    /// `theme`).
    pub icons: Option<Value>,
}

impl Decoration {
    /// Tool `tool` opens the MCP App view at `view` (a `ui://` URI), seen by
    /// the model and the view alike.
    pub fn app_tool(tool: impl Into<String>, view: impl Into<String>) -> Self {
        Decoration {
            subject: Subject::Tool(tool.into()),
            meta: Some(json!({ "ui": { "resourceUri": view.into() } })),
            icons: None,
        }
    }

    /// As [`Self::app_tool`], for a tool only the view may call
    /// (`visibility: ["app"]`: hosts keep it from the model).
    pub fn app_only_tool(tool: impl Into<String>, view: impl Into<String>) -> Self {
        Decoration {
            subject: Subject::Tool(tool.into()),
            meta: Some(json!({ "ui": { "resourceUri": view.into(), "visibility": ["app"] } })),
            icons: None,
        }
    }

    /// The view at `uri` (a `ui://` resource of [`APP_MIME_TYPE`]) with its
    /// `ui` settings (`csp`, `permissions`, `domain`, `prefersBorder`),
    /// given on its listing and on its contents.
    pub fn app_view(uri: impl Into<String>, ui: Value) -> Self {
        Decoration { subject: Subject::Resource(uri.into()), meta: Some(json!({ "ui": ui })), icons: None }
    }

    /// `icons` for `subject`.
    pub fn icons(subject: Subject, icons: Value) -> Self {
        Decoration { subject, meta: None, icons: Some(icons) }
    }
}

#[cfg(feature = "extension")]
impl From<Decoration> for crate::bindings::exports::mcp_wit::extension::presentation::Decoration {
    fn from(decoration: Decoration) -> Self {
        use crate::bindings::exports::mcp_wit::extension::presentation::Subject as Wit;
        let subject = match decoration.subject {
            Subject::Server => Wit::Server,
            Subject::Tool(name) => Wit::Tool(name),
            Subject::Prompt(name) => Wit::Prompt(name),
            Subject::Resource(uri) => Wit::Resource(uri),
            Subject::ResourceTemplate(template) => Wit::ResourceTemplate(template),
        };
        Self {
            subject,
            meta: decoration.meta.map(|meta| meta.to_string()),
            icons: decoration.icons.map(|icons| icons.to_string()),
        }
    }
}
