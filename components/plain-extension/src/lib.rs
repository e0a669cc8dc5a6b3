//! `plain-extension`: the extension of a router that exports none, from its
//! contract alone, so the adapter serves every router through the
//! extension (see `mcp-wit:adapter/plain-extension`). Its answers are what
//! the native host gives a router without the extension.

wit_bindgen::generate!({
    path: "../../wit",
    world: "mcp-wit:adapter/plain-extension",
    generate_all,
});

use exports::mcp_wit::extension::extension::{Guest, ResourceTemplate};
use wasix::mcp::router::{self, GetPromptResult, PromptError, ResourceError};

struct PlainExtension;

impl Guest for PlainExtension {
    fn list_resource_templates() -> Vec<ResourceTemplate> {
        Vec::new()
    }

    /// The contract's `get-prompt` takes no arguments: they are ignored.
    fn get_prompt_with_arguments(name: String, _: Vec<(String, String)>) -> Result<GetPromptResult, PromptError> {
        router::get_prompt(&name)
    }

    /// Acknowledged: without the extension a router cannot signal updates.
    fn subscribe(_: String) -> Result<(), ResourceError> {
        Ok(())
    }

    fn unsubscribe(_: String) -> Result<(), ResourceError> {
        Ok(())
    }

    fn on_roots_list_changed() {}
}

export!(PlainExtension);
