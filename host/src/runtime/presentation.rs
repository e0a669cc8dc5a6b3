//! `mcp-wit:extension/presentation`: what a router shows beside its lists
//! that its contract has no field for (`_meta`, MCP Apps' `ui` among it,
//! and icons). Found once per component; asked whenever the router's lists
//! or a resource's contents are read, and laid onto what they return. The
//! protocol core checks the result as it checks any guest's `_meta` and
//! icons (`mapping::apps`).

use std::collections::HashMap;

use serde_json::{Map, Value};
use wasmtime::component::{Component, ComponentExportIndex, ComponentType, Lift};

use mcp_wit_protocol::contract;

use super::exports::export_indices;

/// The interface's fully qualified name.
pub const PRESENTATION_INTERFACE: &str = "mcp-wit:extension/presentation@0.1.0";

/// Its functions by their WIT names.
pub(super) const PRESENTATION_FUNCTIONS: [&str; 1] = ["decorations"];

/// Where the interface's functions sit among a component's exports.
#[derive(Clone, Copy)]
pub(crate) struct PresentationExports(pub(super) [ComponentExportIndex; PRESENTATION_FUNCTIONS.len()]);

impl PresentationExports {
    /// The interface's functions in `component`; `None` when it does not
    /// export it, an error when it exports it incompletely.
    pub(super) fn find(component: &Component) -> wasmtime::Result<Option<Self>> {
        Ok(export_indices(component, PRESENTATION_INTERFACE, &PRESENTATION_FUNCTIONS)?.map(PresentationExports))
    }
}

/// `subject`.
#[derive(ComponentType, Lift, Debug, Clone, PartialEq, Eq, Hash)]
#[component(variant)]
pub(super) enum Subject {
    #[component(name = "server")]
    Server,
    #[component(name = "tool")]
    Tool(String),
    #[component(name = "prompt")]
    Prompt(String),
    #[component(name = "resource")]
    Resource(String),
    #[component(name = "resource-template")]
    ResourceTemplate(String),
}

/// `decoration`.
#[derive(ComponentType, Lift)]
#[component(record)]
pub(super) struct Decoration {
    subject: Subject,
    meta: Option<String>,
    icons: Option<String>,
}

/// What one subject is given, read from its JSON text.
#[derive(Debug, Default, Clone, PartialEq)]
struct Decor {
    meta: Option<Map<String, Value>>,
    icons: Option<Value>,
}

/// A router's decorations, by subject.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Decorations(HashMap<Subject, Decor>);

impl Decorations {
    /// The decorations the guest gave. Text that is not JSON of the right
    /// kind (`meta` an object, `icons` an array) is left out with a warning
    /// naming its subject; the rest is checked where every guest's is.
    pub(super) fn from_given(given: Vec<Decoration>) -> Self {
        let mut read = HashMap::new();
        for Decoration { subject, meta, icons } in given {
            let decor: &mut Decor = read.entry(subject.clone()).or_default();
            if let Some(meta) = meta {
                match serde_json::from_str::<Value>(&meta) {
                    Ok(Value::Object(meta)) => decor.meta = Some(meta),
                    _ => tracing::warn!("the `_meta` the router gives {subject:?} is not a JSON object: left out"),
                }
            }
            if let Some(icons) = icons {
                match serde_json::from_str::<Value>(&icons) {
                    Ok(icons @ Value::Array(_)) => decor.icons = Some(icons),
                    _ => tracing::warn!("the icons the router gives {subject:?} are not a JSON array: left out"),
                }
            }
        }
        Decorations(read)
    }

    /// Whether the router gave nothing to lay.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The server's icons, as JSON text.
    pub(crate) fn server_icons(&self) -> Option<String> {
        self.0.get(&Subject::Server)?.icons.as_ref().map(Value::to_string)
    }

    pub(crate) fn tools(&self, tools: &mut [contract::Tool]) {
        for tool in tools {
            self.lay(Subject::Tool(tool.name.clone()), &mut tool.meta_object, &mut tool.icons);
        }
    }

    pub(crate) fn prompts(&self, prompts: &mut [contract::Prompt]) {
        for prompt in prompts {
            let mut meta = None;
            self.lay(Subject::Prompt(prompt.name.clone()), &mut meta, &mut prompt.icons);
        }
    }

    pub(crate) fn resources(&self, resources: &mut [contract::McpResource]) {
        for resource in resources {
            self.lay(Subject::Resource(resource.uri.clone()), &mut resource.meta_object, &mut resource.icons);
        }
    }

    pub(crate) fn templates(&self, templates: &mut [contract::ResourceTemplate]) {
        for template in templates {
            let mut meta = None;
            self.lay(Subject::ResourceTemplate(template.uri_template.clone()), &mut meta, &mut template.icons);
        }
    }

    /// A read resource's contents get the `_meta` of the resource of their
    /// URI (MCP Apps puts a view's `ui` on both).
    pub(crate) fn read(&self, read: &mut Result<contract::ReadResourceResult, contract::ResourceError>) {
        let Ok(read) = read else { return };
        for contents in &mut read.contents {
            let (uri, meta) = match contents {
                contract::ResourceContents::Text(text) => (&text.uri, &mut text.meta_object),
                contract::ResourceContents::Blob(blob) => (&blob.uri, &mut blob.meta_object),
            };
            let mut icons = None;
            self.lay(Subject::Resource(uri.clone()), meta, &mut icons);
        }
    }

    /// Lays `subject`'s decoration over what the router listed: its `_meta`
    /// entries over the listed ones, its icons where none were listed.
    fn lay(&self, subject: Subject, meta: &mut Option<contract::Value>, icons: &mut Option<contract::Value>) {
        let Some(decor) = self.0.get(&subject) else { return };
        if let Some(given) = &decor.meta {
            let listed = meta.as_ref().and_then(|listed| serde_json::from_str::<Map<String, Value>>(&listed.json).ok());
            let mut laid = listed.unwrap_or_default();
            laid.extend(given.clone());
            *meta = Some(contract::Value { json: Value::Object(laid).to_string() });
        }
        if icons.is_none() {
            *icons = decor.icons.as_ref().map(|given| contract::Value { json: given.to_string() });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoration(subject: Subject, meta: Option<&str>, icons: Option<&str>) -> Decoration {
        Decoration { subject, meta: meta.map(str::to_owned), icons: icons.map(str::to_owned) }
    }

    #[test]
    fn decorations_lay_over_what_was_listed_and_bad_json_is_left_out() {
        let icons = r#"[{"src":"data:image/svg+xml;base64,PHN2Zy8+"}]"#;
        let decorations = Decorations::from_given(vec![
            decoration(Subject::Server, None, Some(icons)),
            decoration(Subject::Tool("show".into()), Some(r#"{"ui":{"resourceUri":"ui://v"}}"#), Some(icons)),
            decoration(Subject::Tool("broken".into()), Some("[1]"), Some("{")),
            decoration(Subject::Resource("ui://v".into()), Some(r#"{"ui":{"prefersBorder":true}}"#), None),
        ]);
        assert_eq!(
            decorations.server_icons().as_deref(),
            Some(&*serde_json::from_str::<Value>(icons).unwrap().to_string())
        );

        let tool = |name: &str| contract::Tool {
            name: name.into(),
            description: String::new(),
            input_schema: contract::Value { json: r#"{"type":"object"}"#.into() },
            output_schema: None,
            annotations: None,
            meta: None,
            title: None,
            meta_object: Some(contract::Value { json: r#"{"kept":1,"ui":"replaced"}"#.into() }),
            icons: None,
        };
        let json =
            |value: &Option<contract::Value>| value.as_ref().map(|v| serde_json::from_str::<Value>(&v.json).unwrap());
        let mut tools = vec![tool("show"), tool("broken"), tool("plain")];
        decorations.tools(&mut tools);
        assert_eq!(
            json(&tools[0].meta_object),
            Some(serde_json::json!({ "kept": 1, "ui": { "resourceUri": "ui://v" } }))
        );
        assert!(tools[0].icons.is_some());
        // Left out: neither the array given as `_meta` nor the broken icons.
        assert_eq!(tools[1].meta_object, tool("broken").meta_object);
        assert_eq!(tools[1].icons, None);
        assert_eq!(tools[2].meta_object, tool("plain").meta_object);

        let read = contract::ReadResourceResult {
            contents: vec![contract::ResourceContents::Text(contract::TextResourceContents {
                uri: "ui://v".into(),
                mime_type: Some("text/html;profile=mcp-app".into()),
                text: "<p>".into(),
                meta_object: None,
            })],
        };
        let mut read = Ok(read);
        decorations.read(&mut read);
        let contract::ResourceContents::Text(text) = &read.unwrap().contents[0] else { unreachable!() };
        assert_eq!(json(&text.meta_object), Some(serde_json::json!({ "ui": { "prefersBorder": true } })));
    }
}
