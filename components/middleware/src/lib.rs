//! `mcp-middleware`: what the middleware components share.
//!
//! A middleware targets the `mcp-wit:middleware/middleware` world (in
//! `wit/mcp-wit-middleware.wit`): it imports `wasix:mcp/router@25.3.26`, the
//! router it wraps, and exports the same interface itself. `wac plug` then
//! fills the import with a real router and the result is a router again.
//!
//! wit-bindgen gives the import and the export separate (structurally equal)
//! Rust types. This crate re-exports the export side's types and `Guest`
//! trait at its root, and offers the wrapped router in [`next`] with the same
//! types, so a middleware never sees the import side. A middleware crate
//! implements [`Guest`] and `ExtensionGuest` (the extension's calls:
//! resource templates, prompt arguments, subscriptions, roots changes) and
//! registers them with `mcp_middleware::export!(T);`. One that leaves the
//! extension as it is passes each call to the same function of [`next`].
//!
//! With the `contract-25-6-18` feature the world is
//! `mcp-wit:middleware-successor/middleware` instead
//! (`wit/mcp-wit-middleware@25.6.18/middleware.wit`): the same, for
//! `wasix:mcp/router@25.6.18` routers. The root and [`next`] then speak
//! 25.6.18's types (`call-tool` answers a `Response`, `title` and
//! `describe-server` replace `capabilities`), and there is no extension:
//! `export!(T)` takes a `T: Guest` alone.

#[cfg(not(feature = "contract-25-6-18"))]
wit_bindgen::generate!({
    path: "../../wit",
    world: "mcp-wit:middleware/middleware",
    pub_export_macro: true,
    default_bindings_module: "mcp_middleware",
    // The imported interface lives in another package (`wasix:mcp`).
    generate_all,
});

// Only 25.6.18 is pushed (not `wit/`, which holds 25.3.26), so its modules
// are `wasix::mcp::router` as in the default build, without a version.
#[cfg(feature = "contract-25-6-18")]
wit_bindgen::generate!({
    // The contract first: the world in the second directory uses it.
    path: ["../../wit/wasix-mcp@25.6.18", "../../wit/mcp-wit-middleware@25.6.18"],
    world: "mcp-wit:middleware-successor/middleware",
    pub_export_macro: true,
    default_bindings_module: "mcp_middleware",
    generate_all,
});

mod convert;

#[cfg(not(feature = "contract-25-6-18"))]
pub use exports::mcp_wit::extension::extension::{Guest as ExtensionGuest, ResourceTemplate};
pub use exports::wasix::mcp::router::*;

/// The wrapped router: the `wasix:mcp/router` import, in the export's types.
pub mod next {
    use crate::convert::Convert;
    #[cfg(not(feature = "contract-25-6-18"))]
    use crate::exports::mcp_wit::extension::extension as ext_exp;
    use crate::exports::wasix::mcp::router as exp;
    #[cfg(not(feature = "contract-25-6-18"))]
    use crate::mcp_wit::extension::extension as ext_imp;
    use crate::wasix::mcp::router as imp;

    /// The wrapped router's name.
    pub fn name() -> String {
        imp::name()
    }

    /// The wrapped router's title.
    #[cfg(feature = "contract-25-6-18")]
    pub fn title() -> Option<String> {
        imp::title()
    }

    /// The wrapped router's instructions.
    pub fn instructions() -> String {
        imp::instructions()
    }

    /// The wrapped router's capabilities.
    #[cfg(not(feature = "contract-25-6-18"))]
    pub fn capabilities() -> exp::ServerCapabilities {
        imp::capabilities().convert()
    }

    /// The wrapped router's description: capabilities, resources,
    /// authorization metadata.
    #[cfg(feature = "contract-25-6-18")]
    pub fn describe_server() -> exp::ServerDescription {
        imp::describe_server().convert()
    }

    /// The wrapped router's tools.
    pub fn list_tools() -> Vec<exp::Tool> {
        imp::list_tools().convert()
    }

    /// Calls a tool of the wrapped router.
    #[cfg(not(feature = "contract-25-6-18"))]
    pub fn call_tool(tool_name: &str, arguments: exp::Value) -> Result<exp::CallToolResult, exp::ToolError> {
        imp::call_tool(tool_name, &arguments.convert()).convert()
    }

    /// Calls a tool of the wrapped router: its result, or its question for
    /// the user (an `elicit`; the host calls again with the answers under
    /// `_elicitations` in `arguments`).
    #[cfg(feature = "contract-25-6-18")]
    pub fn call_tool(tool_name: &str, arguments: exp::Json) -> Result<exp::Response, exp::ToolError> {
        imp::call_tool(tool_name, &arguments).convert()
    }

    /// The wrapped router's resources.
    pub fn list_resources() -> Vec<exp::McpResource> {
        imp::list_resources().convert()
    }

    /// Reads a resource of the wrapped router.
    pub fn read_resource(uri: &str) -> Result<exp::ReadResourceResult, exp::ResourceError> {
        imp::read_resource(uri).convert()
    }

    /// The wrapped router's prompts.
    pub fn list_prompts() -> Vec<exp::Prompt> {
        imp::list_prompts().convert()
    }

    /// Gets a prompt of the wrapped router.
    pub fn get_prompt(prompt_name: &str) -> Result<exp::GetPromptResult, exp::PromptError> {
        imp::get_prompt(prompt_name).convert()
    }

    /// Asks the wrapped router for a completion.
    pub fn complete(request: exp::CompletionRequest) -> Result<exp::CompletionResponse, exp::CompletionError> {
        imp::complete(&request.convert()).convert()
    }

    /// The wrapped router's resource templates.
    #[cfg(not(feature = "contract-25-6-18"))]
    pub fn list_resource_templates() -> Vec<ext_exp::ResourceTemplate> {
        ext_imp::list_resource_templates().convert()
    }

    /// Gets a prompt of the wrapped router with the client's arguments.
    #[cfg(not(feature = "contract-25-6-18"))]
    pub fn get_prompt_with_arguments(
        prompt_name: &str,
        arguments: &[(String, String)],
    ) -> Result<exp::GetPromptResult, exp::PromptError> {
        ext_imp::get_prompt_with_arguments(prompt_name, arguments).convert()
    }

    /// Tells the wrapped router that a client subscribes to `uri`.
    #[cfg(not(feature = "contract-25-6-18"))]
    pub fn subscribe(uri: &str) -> Result<(), exp::ResourceError> {
        ext_imp::subscribe(uri).convert()
    }

    /// Tells the wrapped router that a client stops listening to `uri`.
    #[cfg(not(feature = "contract-25-6-18"))]
    pub fn unsubscribe(uri: &str) -> Result<(), exp::ResourceError> {
        ext_imp::unsubscribe(uri).convert()
    }

    /// Tells the wrapped router that the client's roots changed.
    #[cfg(not(feature = "contract-25-6-18"))]
    pub fn on_roots_list_changed() {
        ext_imp::on_roots_list_changed()
    }
}
