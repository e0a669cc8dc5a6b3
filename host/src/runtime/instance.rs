//! One live guest instance and typed calls into it.

use wasmtime::Store;
use wasmtime_wasi::{WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtxView, WasiHttpView};

use super::bindings::{McpRouter, McpRouterPre, wit};
use super::limits::{CallControl, CancelFlag, Interrupted, Limits, TickHook};
use crate::sandbox::{SandboxPolicy, SandboxState};

/// What stopped a guest call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// The guest trapped (panic, `unreachable`, stack overflow, …).
    Trap,
    /// The call ran past its deadline.
    Timeout,
    /// The client cancelled the request.
    Cancelled,
    /// The guest grew past its memory cap.
    MemoryLimit,
    /// A fresh instance could not be created.
    Instantiate,
}

/// A guest call that did not return: a trap, an interruption, or a failure
/// to instantiate.
///
/// After a fault the instance must not be used again: a trap can leave the
/// guest's memory in any state, so the caller drops it and instantiates anew.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct GuestFault {
    /// What stopped the call.
    pub kind: FaultKind,
    /// Human-readable description naming the cause and, when known, the
    /// guest's own last words (e.g. its panic message).
    pub message: String,
}

impl GuestFault {
    fn from_error(function: &str, error: wasmtime::Error, state: &StoreData) -> Self {
        let interrupted = error.downcast_ref::<Interrupted>().cloned().or_else(|| {
            // A refused memory growth that the guest itself turned into a trap
            // (e.g. Rust's allocation-failure abort) is still the memory cap.
            state.control.memory_exceeded().then_some(Interrupted::MemoryLimit(state.limits.max_memory))
        });
        let (kind, cause) = match (&interrupted, error.downcast_ref::<wasmtime::Trap>()) {
            (Some(i @ Interrupted::Timeout(_)), _) => (FaultKind::Timeout, format!("`{function}` {i}")),
            (Some(i @ Interrupted::Cancelled), _) => (FaultKind::Cancelled, format!("`{function}` {i}")),
            (Some(i @ Interrupted::MemoryLimit(_)), _) => (FaultKind::MemoryLimit, format!("`{function}` {i}")),
            (None, Some(trap)) => (FaultKind::Trap, format!("guest trapped in `{function}`: {trap}")),
            (None, None) => (FaultKind::Trap, format!("guest failed in `{function}`: {}", error.root_cause())),
        };
        let message = match state.sandbox.output().last_words() {
            Some(words) if kind == FaultKind::Trap => format!("{cause}; the guest {words}"),
            _ => cause,
        };
        GuestFault { kind, message }
    }
}

/// What each instance's store carries: the sandboxed WASI state and the
/// host's control over the running call.
pub struct StoreData {
    sandbox: SandboxState,
    control: CallControl,
    limits: Limits,
}

impl WasiView for StoreData {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        self.sandbox.ctx()
    }
}

impl StoreData {
    /// What a host-side wait of the running call must respect: the time
    /// left of its budget, its cancellation flag and the transport's tick hook.
    pub(super) fn call_wait_controls(&self) -> (std::time::Duration, CancelFlag, Option<TickHook>) {
        self.control.wait_controls()
    }
}

impl WasiHttpView for StoreData {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        self.sandbox.http()
    }
}

/// An instantiated router: its own store, memory and state.
pub struct RouterInstance {
    store: Store<StoreData>,
    router: McpRouter,
}

macro_rules! guest_call {
    ($(#[$doc:meta])* $name:ident => $call:ident ( $($arg:ident : $ty:ty),* ) -> $ret:ty, $wit_name:literal) => {
        $(#[$doc])*
        pub fn $name(&mut self, $($arg: $ty),*) -> Result<$ret, GuestFault> {
            self.store.data().sandbox.output().begin_call();
            self.store.set_epoch_deadline(1);
            let result = self.router.wasix_mcp_router().$call(&mut self.store, $($arg),*);
            result.map_err(|e| GuestFault::from_error($wit_name, e, self.store.data()))
        }
    };
}

impl RouterInstance {
    pub(super) fn new(
        pre: &McpRouterPre<StoreData>,
        policy: &SandboxPolicy,
        limits: Limits,
    ) -> Result<Self, GuestFault> {
        let sandbox = policy
            .instance_state(limits.timeout)
            .map_err(|e| GuestFault { kind: FaultKind::Instantiate, message: e.to_string() })?;
        let data = StoreData { sandbox, control: CallControl::new(limits), limits };
        let mut store = Store::new(pre.engine(), data);
        store.limiter(|data| &mut data.control);
        store.epoch_deadline_callback(|store| store.data().control.on_tick());
        // Instantiation runs guest start code: it gets a deadline too.
        store.data_mut().control.begin_call(&CancelFlag::default(), None);
        store.set_epoch_deadline(1);
        match pre.instantiate(&mut store) {
            Ok(router) => Ok(RouterInstance { store, router }),
            Err(e) => {
                let fault = GuestFault::from_error("instantiate", e, store.data());
                Err(GuestFault { kind: FaultKind::Instantiate, ..fault })
            }
        }
    }

    /// Arms the next calls: a fresh deadline, the flag that cancels them and
    /// a hook to run at every tick while they run.
    pub fn begin_request(&mut self, cancel: &CancelFlag, hook: Option<&TickHook>) {
        self.store.data_mut().control.begin_call(cancel, hook);
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
