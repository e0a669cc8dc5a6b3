//! How the protocol core reaches a router: two traits a runtime implements.
//!
//! A [`RouterComponent`] is a router as loaded once and shared by every
//! session; [`RouterComponent::open`] gives one session its own [`Router`],
//! whose calls the runtime routes to whichever instance its policy says
//! (one per session, one per call, one for all). The core never sees an
//! instance: it calls the contract's functions and maps their values.

use std::future::Future;
use std::sync::Arc;

use crate::auth::SharedCaller;
use crate::cancel::{CancelFlag, TickHook};
use crate::client::ClientLink;
use crate::contract::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, GetPromptResult, McpResource, Prompt,
    PromptError, ReadResourceResult, ResourceError, ResourceTemplate, ServerCapabilities, Tool, ToolError,
};
use crate::envelope::CacheHint;

/// How a guest call waits for the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CallMode {
    /// On the calling thread, which blocks.
    #[default]
    Blocking,
    /// As a future, which gives the thread back while the guest waits and at
    /// every epoch tick.
    Async,
}

/// What a guest call must respect: set per request by the session.
#[derive(Clone, Default)]
pub struct CallContext {
    /// Cancels the running call at the next tick.
    pub cancel: CancelFlag,
    /// Run at every tick while a call is in progress.
    pub tick_hook: Option<TickHook>,
    /// Blocking or async.
    pub calls: CallMode,
    /// The client of the request being served, for routers that reach it
    /// ([`RouterComponent::talks_back`]); `None` when none does.
    pub client: Option<ClientLink>,
    /// Who made the request, when the transport authenticated it.
    pub caller: Option<SharedCaller>,
    /// The request's way to become a task, when it may become one: once
    /// taken, its calls run until the task's deadline instead of their own.
    pub task: Option<crate::tasks::TaskOffer>,
    /// The JSON-RPC id of the request being served (as sent, clipped to
    /// [`CLIENT_TEXT_BYTES`](crate::observe::CLIENT_TEXT_BYTES)), when an
    /// observer watches: what the guest writes while serving it is logged
    /// with it.
    pub request_id: Option<std::sync::Arc<str>>,
}

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
    /// A question of a 2026-07-28 request had no answer yet: the round ends
    /// with an `input_required` result (not a failure).
    InputRequired,
}

/// A guest call that did not return: a trap, an interruption, or a failure
/// to instantiate.
///
/// The runtime drops an instance after a fault (a trap can leave the guest's
/// memory in any state); the next call gets a fresh one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct GuestFault {
    /// What stopped the call.
    pub kind: FaultKind,
    /// Human-readable description naming the cause and, when known, the
    /// guest's own last words (e.g. its panic message): for the log.
    pub message: String,
    /// For a WebAssembly trap (`unreachable`, an out-of-bounds access, a
    /// stack overflow), whose [`GuestFault::message`] is the runtime's
    /// detail, kept for the log: what the guest itself said of its failure
    /// (a panic's message), if anything. The client hears that, or that
    /// the router failed. `None` for every other fault: its message is in
    /// words already.
    pub trapped: Option<Option<String>>,
}

impl GuestFault {
    /// A fault of `kind`, described by `message`.
    pub fn new(kind: FaultKind, message: impl Into<String>) -> Self {
        GuestFault { kind, message: message.into(), trapped: None }
    }

    /// A WebAssembly trap described by `message`, after the guest said
    /// `said` (e.g. its panic message), if anything.
    pub fn wasm_trap(message: impl Into<String>, said: Option<String>) -> Self {
        GuestFault { kind: FaultKind::Trap, message: message.into(), trapped: Some(said) }
    }
}

/// The outcome of one guest call.
pub type GuestResult<T> = Result<T, GuestFault>;

/// A router as loaded once: cheap to clone, shared by every session.
pub trait RouterComponent: Clone + Send + Sync + 'static {
    /// One session's way to the router.
    type Router: Router;

    /// The name used for this router in logs and error messages.
    fn label(&self) -> &str;

    /// A new session's router; no instance is made until its first call.
    fn open(&self) -> Self::Router;

    /// Whether the router offers `mcp-wit:extension/extension` (resource
    /// templates, prompt arguments, subscriptions, roots changes): only then
    /// does the session call the [`Router`] methods that use it.
    fn extends(&self) -> bool {
        false
    }

    /// Whether the router reaches the client that calls it
    /// (`mcp-wit:extension/client`): its calls then get a
    /// [`CallContext::client`].
    fn talks_back(&self) -> bool {
        false
    }

    /// How long and by whom modern clients may cache the router's lists and
    /// reads (`ttlMs`, `cacheScope`).
    fn cache_hint(&self) -> CacheHint {
        CacheHint::default()
    }

    /// The names of the tools it lists, when they are fixed at load and it
    /// offers nothing else (a typed component's): beside other components
    /// it may then be served without a prefix (see
    /// [`Routers::new`](crate::routers::Routers::new)).
    fn fixed_tool_names(&self) -> Option<Arc<[String]>> {
        None
    }
}

/// One session's way to a router: the functions of
/// `wasix:mcp/router@25.3.26`, called under a [`CallContext`].
pub trait Router: Send + 'static {
    /// `name()`.
    fn name(&mut self, cx: &CallContext) -> impl Future<Output = GuestResult<String>> + Send;
    /// The server's human-readable name: `title()` of a 25.6.18 router;
    /// none for the others.
    fn title(&mut self, cx: &CallContext) -> impl Future<Output = GuestResult<Option<String>>> + Send {
        let _ = cx;
        async { Ok(None) }
    }
    /// The server's icons, a JSON array of MCP `Icon`s: a component that
    /// serves MCP itself says them in its `serverInfo`; the contracts have
    /// none.
    fn icons(&mut self, cx: &CallContext) -> impl Future<Output = GuestResult<Option<String>>> + Send {
        let _ = cx;
        async { Ok(None) }
    }
    /// `instructions()`.
    fn instructions(&mut self, cx: &CallContext) -> impl Future<Output = GuestResult<String>> + Send;
    /// `capabilities()`.
    fn capabilities(&mut self, cx: &CallContext) -> impl Future<Output = GuestResult<ServerCapabilities>> + Send;
    /// `list-tools()`.
    fn list_tools(&mut self, cx: &CallContext) -> impl Future<Output = GuestResult<Vec<Tool>>> + Send;
    /// `call-tool(tool-name, arguments)`, the arguments as JSON object text.
    fn call_tool(
        &mut self,
        cx: &CallContext,
        name: &str,
        arguments: &str,
    ) -> impl Future<Output = GuestResult<Result<CallToolResult, ToolError>>> + Send;
    /// `list-resources()`.
    fn list_resources(&mut self, cx: &CallContext) -> impl Future<Output = GuestResult<Vec<McpResource>>> + Send;
    /// `read-resource(uri)`.
    fn read_resource(
        &mut self,
        cx: &CallContext,
        uri: &str,
    ) -> impl Future<Output = GuestResult<Result<ReadResourceResult, ResourceError>>> + Send;
    /// `list-prompts()`.
    fn list_prompts(&mut self, cx: &CallContext) -> impl Future<Output = GuestResult<Vec<Prompt>>> + Send;
    /// `get-prompt(prompt-name)`.
    fn get_prompt(
        &mut self,
        cx: &CallContext,
        name: &str,
    ) -> impl Future<Output = GuestResult<Result<GetPromptResult, PromptError>>> + Send;
    /// `complete(request)`.
    fn complete(
        &mut self,
        cx: &CallContext,
        request: &CompletionRequest,
    ) -> impl Future<Output = GuestResult<Result<CompletionResponse, CompletionError>>> + Send;

    /// `list-resource-templates()` of the extension.
    fn list_resource_templates(
        &mut self,
        cx: &CallContext,
    ) -> impl Future<Output = GuestResult<Vec<ResourceTemplate>>> + Send;
    /// `get-prompt-with-arguments(prompt-name, arguments)` of the extension.
    fn get_prompt_with_arguments(
        &mut self,
        cx: &CallContext,
        name: &str,
        arguments: &[(String, String)],
    ) -> impl Future<Output = GuestResult<Result<GetPromptResult, PromptError>>> + Send;
    /// `subscribe(uri)` (`subscribe: true`) or `unsubscribe(uri)` of the
    /// extension.
    fn subscription(
        &mut self,
        cx: &CallContext,
        uri: &str,
        subscribe: bool,
    ) -> impl Future<Output = GuestResult<Result<(), ResourceError>>> + Send;
    /// `on-roots-list-changed()` of the extension.
    fn roots_list_changed(&mut self, cx: &CallContext) -> impl Future<Output = GuestResult<()>> + Send;

    /// Drops the instance the next call would use, e.g. after it produced a
    /// result too large to send (its memory grew to hold it and never shrinks).
    fn retire(&mut self);

    /// Drops the session's own instance if its router lets it go once idle
    /// and it has been idle that long at `now`; the next call makes a fresh
    /// one (the guest's state is lost). Whether it dropped one. By default
    /// instances are kept.
    fn release_if_idle(&mut self, now: std::time::Instant) -> bool {
        let _ = now;
        false
    }

    /// Whether the session's next call would be served by an instance the
    /// session holds now, whose guest state is the session's: while it does,
    /// a session following a [`Deployment`](crate::deployment::Deployment)
    /// stays on its version. By default, it does.
    fn holds_instance(&self) -> bool {
        true
    }

    /// Lets go of everything the session holds, as dropping the router
    /// would (its own instance goes back to where instances are kept), so
    /// that the same way to the router may serve another session: whether
    /// it did. By default it cannot, and is dropped instead.
    fn hand_back(&mut self) -> bool {
        false
    }
}
