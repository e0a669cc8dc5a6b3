//! `mcp-wit:extension/extension`: what a router may export beyond the
//! contract (resource templates, prompt arguments, subscriptions, roots
//! changes). Found once per component; called like the router's functions.

use wasmtime::StoreContextMut;
use wasmtime::component::{Component, ComponentExportIndex, ComponentType, Lift, Linker, Lower};

use mcp_wit_protocol::contract;

use super::bindings::wit;
use super::convert::IntoContract;
use super::exports::export_indices;

/// The interface's fully qualified name.
pub const EXTENSION_INTERFACE: &str = "mcp-wit:extension/extension@0.1.0";

/// Its functions by their WIT names, in the order [`ExtensionExports`]
/// holds them.
pub(super) const EXTENSION_FUNCTIONS: [&str; 5] =
    ["list-resource-templates", "get-prompt-with-arguments", "subscribe", "unsubscribe", "on-roots-list-changed"];

/// Where the extension's functions sit among a component's exports.
#[derive(Clone, Copy)]
pub(crate) struct ExtensionExports(pub(super) [ComponentExportIndex; EXTENSION_FUNCTIONS.len()]);

impl ExtensionExports {
    /// The extension's functions in `component`; `None` when it does not
    /// export the interface, an error when it exports it incompletely.
    pub(super) fn find(component: &Component) -> wasmtime::Result<Option<Self>> {
        Ok(export_indices(component, EXTENSION_INTERFACE, &EXTENSION_FUNCTIONS)?.map(ExtensionExports))
    }
}

/// Answers the extension's import of a middleware whose router lacks it, as
/// such a router would: no templates, subscriptions only acknowledged,
/// roots changes ignored, and prompt arguments refused (`internal-error`).
/// The host never calls the extension of such a composition (it serves it
/// as a router without the extension), so only a middleware that calls its
/// router's extension on its own gets these answers.
pub(super) fn add_absent_to_linker<T: 'static>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    type Store<'a, T> = StoreContextMut<'a, T>;
    let mut extension = linker.instance(EXTENSION_INTERFACE)?;
    extension.func_wrap("list-resource-templates", |_: Store<'_, T>, (): ()| Ok((Vec::<ResourceTemplate>::new(),)))?;
    extension.func_wrap(
        "get-prompt-with-arguments",
        |_: Store<'_, T>, (_name, _arguments): (String, Vec<(String, String)>)| {
            let refused = wit::PromptError::InternalError(
                "the router under this middleware takes no prompt arguments (it does not export mcp-wit:extension/extension)"
                    .into(),
            );
            Ok((Err::<wit::GetPromptResult, _>(refused),))
        },
    )?;
    for name in ["subscribe", "unsubscribe"] {
        extension.func_wrap(name, |_: Store<'_, T>, (_uri,): (String,)| Ok((Ok::<(), wit::ResourceError>(()),)))?;
    }
    extension.func_wrap("on-roots-list-changed", |_: Store<'_, T>, (): ()| Ok(()))?;
    Ok(())
}

/// `resource-template`.
#[derive(ComponentType, Lift, Lower)]
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
            icons: None,
        }
    }
}
