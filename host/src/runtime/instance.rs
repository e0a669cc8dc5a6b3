//! One live guest instance and typed calls into it.

use wasmtime::Store;

use super::bindings::{McpRouter, McpRouterPre, wit};
use crate::sandbox::{GuestState, SandboxPolicy};

/// A guest call that did not return: a trap, or a failure to instantiate.
///
/// After a fault the instance must not be used again: a trap can leave the
/// guest's memory in any state, so the caller drops it and instantiates anew.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct GuestFault {
    /// Human-readable description naming the trap and, when known, the
    /// guest's own last words (e.g. its panic message).
    pub message: String,
}

impl GuestFault {
    fn from_error(function: &str, error: wasmtime::Error, state: &GuestState) -> Self {
        let cause = match error.downcast_ref::<wasmtime::Trap>() {
            Some(trap) => format!("guest trapped in `{function}`: {trap}"),
            None => format!("guest failed in `{function}`: {}", error.root_cause()),
        };
        let message = match state.output().last_words() {
            Some(words) => format!("{cause}; the guest {words}"),
            None => cause,
        };
        GuestFault { message }
    }
}

/// An instantiated router: its own store, memory and state.
pub struct RouterInstance {
    store: Store<GuestState>,
    router: McpRouter,
}

macro_rules! guest_call {
    ($(#[$doc:meta])* $name:ident => $call:ident ( $($arg:ident : $ty:ty),* ) -> $ret:ty, $wit_name:literal) => {
        $(#[$doc])*
        pub fn $name(&mut self, $($arg: $ty),*) -> Result<$ret, GuestFault> {
            self.store.data().output().begin_call();
            let result = self.router.wasix_mcp_router().$call(&mut self.store, $($arg),*);
            result.map_err(|e| GuestFault::from_error($wit_name, e, self.store.data()))
        }
    };
}

impl RouterInstance {
    pub(super) fn new(pre: &McpRouterPre<GuestState>, policy: &SandboxPolicy) -> Result<Self, GuestFault> {
        let state = policy.instance_state().map_err(|e| GuestFault { message: e.to_string() })?;
        let mut store = Store::new(pre.engine(), state);
        match pre.instantiate(&mut store) {
            Ok(router) => Ok(RouterInstance { store, router }),
            Err(e) => Err(GuestFault::from_error("instantiate", e, store.data())),
        }
    }

    guest_call!(/// Calls `name()`.
        name => call_name() -> String, "name");
    guest_call!(/// Calls `instructions()`.
        instructions => call_instructions() -> String, "instructions");
    guest_call!(/// Calls `capabilities()`.
        capabilities => call_capabilities() -> wit::ServerCapabilities, "capabilities");
    guest_call!(/// Calls `list-tools()`.
        list_tools => call_list_tools() -> Vec<wit::Tool>, "list-tools");
    guest_call!(/// Calls `call-tool(tool-name, arguments)`.
        call_tool => call_call_tool(name: &str, arguments: &wit::Value)
            -> Result<wit::CallToolResult, wit::ToolError>, "call-tool");
    guest_call!(/// Calls `list-resources()`.
        list_resources => call_list_resources() -> Vec<wit::McpResource>, "list-resources");
    guest_call!(/// Calls `read-resource(uri)`.
        read_resource => call_read_resource(uri: &str)
            -> Result<wit::ReadResourceResult, wit::ResourceError>, "read-resource");
    guest_call!(/// Calls `list-prompts()`.
        list_prompts => call_list_prompts() -> Vec<wit::Prompt>, "list-prompts");
    guest_call!(/// Calls `get-prompt(prompt-name)`.
        get_prompt => call_get_prompt(name: &str)
            -> Result<wit::GetPromptResult, wit::PromptError>, "get-prompt");
    guest_call!(/// Calls `complete(request)`.
        complete => call_complete(request: &wit::CompletionRequest)
            -> Result<wit::CompletionResponse, wit::CompletionError>, "complete");
}
