//! `mcp-wit:extension/extension`: what a router may export beyond the
//! contract (resource templates, prompt arguments, subscriptions, roots
//! changes). Found once per component; called like the router's functions.

use wasmtime::component::{Component, ComponentExportIndex, ComponentType, Lift};

use mcp_wit_protocol::contract;

use super::bindings::wit;
use super::convert::IntoContract;
use super::instance::export_indices;

/// The interface's fully qualified name.
pub const EXTENSION_INTERFACE: &str = "mcp-wit:extension/extension@0.1.0";

/// Its functions by their WIT names, in the order [`ExtensionExports`]
/// holds them.
pub(super) const EXTENSION_FUNCTIONS: [&str; 5] =
    ["list-resource-templates", "get-prompt-with-arguments", "subscribe", "unsubscribe", "on-roots-list-changed"];

/// Where the extension's functions sit among a component's exports.
#[derive(Clone, Copy)]
pub(super) struct ExtensionExports(pub(super) [ComponentExportIndex; EXTENSION_FUNCTIONS.len()]);

impl ExtensionExports {
    /// The extension's functions in `component`; `None` when it does not
    /// export the interface, an error when it exports it incompletely.
    pub(super) fn find(component: &Component) -> wasmtime::Result<Option<Self>> {
        Ok(export_indices(component, EXTENSION_INTERFACE, &EXTENSION_FUNCTIONS)?.map(ExtensionExports))
    }
}

/// `resource-template`.
#[derive(ComponentType, Lift)]
#[component(record)]
pub(super) struct ResourceTemplate {
    #[component(name = "uri-template")]
    uri_template: String,
    name: String,
    title: Option<String>,
    description: Option<String>,
    #[component(name = "mime-type")]
    mime_type: Option<String>,
    annotations: Option<wit::Annotations>,
}

impl IntoContract<contract::ResourceTemplate> for ResourceTemplate {
    fn into_contract(self) -> contract::ResourceTemplate {
        contract::ResourceTemplate {
            uri_template: self.uri_template,
            name: self.name,
            title: self.title,
            description: self.description,
            mime_type: self.mime_type,
            annotations: self.annotations.into_contract(),
        }
    }
}
