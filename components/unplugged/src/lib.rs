//! `unplugged`: what a middleware composition imports of the project's
//! extension that no engine provides, answered inside the component that
//! `mcp-wit wrap` builds (see `mcp-wit:adapter/unplugged`).

wit_bindgen::generate!({
    path: "../../wit",
    world: "mcp-wit:adapter/unplugged",
    generate_all,
});

use exports::mcp_wit::extension::extension::{self, ResourceTemplate};
use exports::wasix::mcp::router::{self, GetPromptResult, PromptError, ResourceError};

struct Unplugged;

// The dangling extension import of a middleware whose router lacks it, as
// the native host answers it: such a composition is served as a router
// without the extension, so only a middleware that calls it on its own
// gets these answers.
impl extension::Guest for Unplugged {
    fn list_resource_templates() -> Vec<ResourceTemplate> {
        Vec::new()
    }

    fn get_prompt_with_arguments(_: String, _: Vec<(String, String)>) -> Result<GetPromptResult, PromptError> {
        Err(PromptError::InternalError(
            "the router under this middleware takes no prompt arguments (it does not export mcp-wit:extension/extension)"
                .into(),
        ))
    }

    fn subscribe(_: String) -> Result<(), ResourceError> {
        Ok(())
    }

    fn unsubscribe(_: String) -> Result<(), ResourceError> {
        Ok(())
    }

    fn on_roots_list_changed() {}
}

// The router import a middleware composition keeps for the extension's
// types: only a middleware without a router would call it, and `mcp-wit
// wrap` refuses those before composing.
const NO_ROUTER: &str = "no router is plugged into this middleware";

impl exports::wasix::mcp::router::Guest for Unplugged {
    fn name() -> String {
        panic!("{NO_ROUTER}")
    }

    fn instructions() -> String {
        panic!("{NO_ROUTER}")
    }

    fn capabilities() -> router::ServerCapabilities {
        panic!("{NO_ROUTER}")
    }

    fn list_tools() -> Vec<router::Tool> {
        panic!("{NO_ROUTER}")
    }

    fn call_tool(_: String, _: router::Value) -> Result<router::CallToolResult, router::ToolError> {
        panic!("{NO_ROUTER}")
    }

    fn list_resources() -> Vec<router::McpResource> {
        panic!("{NO_ROUTER}")
    }

    fn read_resource(_: String) -> Result<router::ReadResourceResult, ResourceError> {
        panic!("{NO_ROUTER}")
    }

    fn list_prompts() -> Vec<router::Prompt> {
        panic!("{NO_ROUTER}")
    }

    fn get_prompt(_: String) -> Result<GetPromptResult, PromptError> {
        panic!("{NO_ROUTER}")
    }

    fn complete(_: router::CompletionRequest) -> Result<router::CompletionResponse, router::CompletionError> {
        panic!("{NO_ROUTER}")
    }
}

export!(Unplugged);
