//! [`RouterInstance`]: one live guest, the one place components of either
//! contract and plugins part ways.

use wasmtime::Store;

use mcp_wit_protocol::auth::DescribedResource;
use mcp_wit_protocol::{CallContext, CallMode, GuestFault, GuestResult, contract};

#[cfg(feature = "extism")]
use std::collections::BTreeMap;
use std::sync::Arc;

use wasmtime::component::{Instance, InstancePre};

use super::command_server::{PIPE_BYTES, StdioLink};
use super::component::ComponentGuest;
use super::component_25_6_18::ComponentGuest25_6_18;
use super::fault::{FaultFrom, NotMade};
#[cfg(feature = "outgoing-http")]
use super::http_server::{Handler, HttpLink};
use super::mcp_server::{Link, McpServerGuest, ServerPre};
#[cfg(feature = "extism")]
use super::plugin::PluginGuest;
use super::presenting::Presenting;
use super::router_exports::OptionalExports;
use super::router_exports::RouterExports;
use super::typed::TypedGuest;
use crate::runtime::budget::InstanceMemory;
use crate::runtime::limits::{CallView, Limits};
#[cfg(feature = "extism")]
use crate::runtime::plugin::LinkedPlugin;
use crate::runtime::presentation::Decorations;
use crate::runtime::store::{StoreData, new_store};
use crate::runtime::typed::TypedTools;
use crate::sandbox::SandboxPolicy;

/// An instantiated router: its own store, memory and state.
///
/// An instance is made for one way of calling: blocking
/// ([`LoadedRouter::instantiate`]; the methods without a suffix run the
/// guest on the caller's thread) or async
/// ([`LoadedRouter::instantiate_async`]; the `_async` methods run it on a
/// fiber that gives the thread back to the executor at every epoch tick and
/// while the guest waits on the host). The `_async` methods also work on a
/// blocking instance, where they finish at their first poll.
///
/// [`LoadedRouter::instantiate`]: crate::runtime::LoadedRouter::instantiate
/// [`LoadedRouter::instantiate_async`]: crate::runtime::LoadedRouter::instantiate_async
pub struct RouterInstance {
    store: Store<StoreData>,
    /// Boxed: a call's future holds its instance, and inline the guest
    /// (its exports' handles, hundreds of bytes) would be copied with every
    /// such future; an allocation per instantiation is the lesser cost.
    guest: Box<Guest>,
    /// A component's `presentation` export, when it has one: its
    /// decorations are laid onto its lists and read contents.
    presenting: Option<Box<Presenting>>,
}

/// What an instance runs.
#[cfg_attr(
    not(feature = "extism"),
    expect(clippy::large_enum_variant, reason = "boxed whole in its instance: the variants' sizes cost nothing more")
)]
enum Guest {
    /// A `wasix:mcp/router@25.3.26` component.
    Component(ComponentGuest),
    /// A `wasix:mcp/router@25.6.18` component.
    Component25_6_18(ComponentGuest25_6_18),
    /// A typed component: its exported functions as tools.
    Typed(TypedGuest),
    /// A component that serves MCP itself, over `wasi:http` or its stdio.
    McpServer(McpServerGuest),
    #[cfg(feature = "extism")]
    Plugin(PluginGuest),
}

/// Calls `$name` on the instance's guest, whichever kind it is: the one
/// place components of either contract and plugins part ways. A plugin's
/// calls, and a 25.6.18 component's, are async only; on a blocking instance
/// they finish at their first poll (or wait on the calling thread).
macro_rules! on_guest {
    ($self:ident, blocking $name:ident ( $($arg:expr),* )) => {
        match &mut *$self.guest {
            Guest::Component(guest) => guest.$name(&mut $self.store, $($arg),*),
            Guest::Component25_6_18(guest) => mcp_wit_protocol::block_on(guest.$name(&mut $self.store, $($arg),*)),
            Guest::Typed(guest) => mcp_wit_protocol::block_on(guest.$name(&mut $self.store, $($arg),*)),
            // Its handler's body is read by tasks of wasmtime's runtime.
            Guest::McpServer(guest) => wasmtime_wasi::runtime::in_tokio(guest.$name(&mut $self.store, $($arg),*)),
            #[cfg(feature = "extism")]
            Guest::Plugin(guest) => mcp_wit_protocol::block_on(guest.$name(&mut $self.store, $($arg),*)),
        }
    };
    ($self:ident, async $name:ident / $name_async:ident ( $($arg:expr),* )) => {
        match &mut *$self.guest {
            Guest::Component(guest) => guest.$name_async(&mut $self.store, $($arg),*).await,
            Guest::Component25_6_18(guest) => guest.$name(&mut $self.store, $($arg),*).await,
            Guest::Typed(guest) => guest.$name(&mut $self.store, $($arg),*).await,
            // A blocking instance's calls run on wasmtime's runtime, whoever awaits them.
            // Boxed: its client's exchange is many futures deep, and every
            // caller's future would hold them all.
            Guest::McpServer(guest) => match $self.store.data().call_control().mode() {
                CallMode::Blocking => wasmtime_wasi::runtime::in_tokio(guest.$name(&mut $self.store, $($arg),*)),
                CallMode::Async => Box::pin(guest.$name(&mut $self.store, $($arg),*)).await,
            },
            #[cfg(feature = "extism")]
            Guest::Plugin(guest) => guest.$name(&mut $self.store, $($arg),*).await,
        }
    };
}

/// One router function of the instance, blocking and async; with `laid by
/// LAY`, the router's decorations (see [`RouterInstance::decorations`]) are
/// laid onto its answer by `Decorations::LAY`.
macro_rules! router_call {
    ($(#[$doc:meta])* $name:ident / $name_async:ident ( $($arg:ident : $ty:ty),* ) -> $out:ty, $wit_name:literal
        $(, laid by $lay:ident)?) => {
        $(#[$doc])*
        ///
        /// Blocking; fails on an instance made by `instantiate_async`.
        pub fn $name(&mut self, $($arg: $ty),*) -> GuestResult<$out> {
            if self.calls() == CallMode::Async {
                return Err(GuestFault::async_only($wit_name));
            }
            #[allow(unused_mut, reason = "laid onto only for decorated functions")]
            let mut out = on_guest!(self, blocking $name($($arg),*))?;
            $(if let Some(decorations) = mcp_wit_protocol::block_on(self.decorations())? {
                decorations.$lay(&mut out);
            })?
            Ok(out)
        }

        $(#[$doc])*
        ///
        /// Async on an instance made by `instantiate_async`; on a blocking
        /// one, the blocking call.
        pub async fn $name_async(&mut self, $($arg: $ty),*) -> GuestResult<$out> {
            if self.calls() == CallMode::Blocking {
                return self.$name($($arg),*);
            }
            #[allow(unused_mut, reason = "laid onto only for decorated functions")]
            let mut out = on_guest!(self, async $name / $name_async($($arg),*))?;
            $(if let Some(decorations) = self.decorations().await? {
                decorations.$lay(&mut out);
            })?
            Ok(out)
        }
    };
}

impl RouterInstance {
    /// The decorations of a component that exports `presentation`; `None`
    /// for the others, and when it gives none.
    async fn decorations(&mut self) -> GuestResult<Option<Decorations>> {
        match &mut self.presenting {
            // None to lay when the router gives none (an SDK router without apps).
            Some(presenting) => presenting.decorations(&mut self.store).await.map(|d| (!d.is_empty()).then_some(d)),
            None => Ok(None),
        }
    }

    /// How this instance's calls wait: blocking (made by `instantiate`) or
    /// async (made by `instantiate_async`).
    pub fn calls(&self) -> CallMode {
        self.store.data().call_control().mode()
    }

    /// Arms the next calls as `cx` says: a fresh deadline, the flag that
    /// cancels them, a hook to run at every tick while they run, the client
    /// they may reach and the caller they serve.
    pub fn begin_request(&mut self, cx: &CallContext) {
        self.store.data_mut().begin_request(cx);
    }

    /// Ends what [`Self::begin_request`] armed that must not outlive the
    /// request: the client link (it holds the request's stream open) and
    /// the caller.
    pub fn end_request(&mut self) {
        self.store.data_mut().end_request();
    }

    router_call!(/// Calls `name()`.
        name / name_async() -> String, "name");
    /// The server's human-readable name: a 25.6.18 router's `title()`; the
    /// other kinds have none.
    pub async fn title_async(&mut self) -> GuestResult<Option<String>> {
        match &mut *self.guest {
            Guest::Component25_6_18(guest) => guest.title(&mut self.store).await,
            Guest::McpServer(guest) => match self.store.data().call_control().mode() {
                CallMode::Blocking => wasmtime_wasi::runtime::in_tokio(guest.title(&mut self.store)),
                CallMode::Async => guest.title(&mut self.store).await,
            },
            _ => Ok(None),
        }
    }

    /// The server's icons (JSON text): what a component that serves MCP
    /// itself says in its `serverInfo`, or a router's decoration of the
    /// server; the other kinds have none.
    pub async fn icons_async(&mut self) -> GuestResult<Option<String>> {
        match &mut *self.guest {
            Guest::McpServer(guest) => match self.store.data().call_control().mode() {
                CallMode::Blocking => wasmtime_wasi::runtime::in_tokio(guest.icons(&mut self.store)),
                CallMode::Async => guest.icons(&mut self.store).await,
            },
            _ => Ok(self.decorations().await?.and_then(|decorations| decorations.server_icons())),
        }
    }

    /// What the router says of the authorization it expects: a 25.6.18
    /// router's `describe-server()` resource metadata; the other kinds
    /// describe none.
    ///
    /// Blocking; fails on an instance made by `instantiate_async`.
    pub fn described_authorization(&mut self) -> GuestResult<Vec<DescribedResource>> {
        if self.calls() == CallMode::Async {
            return Err(GuestFault::async_only("describe-server"));
        }
        match &mut *self.guest {
            Guest::Component25_6_18(guest) => {
                mcp_wit_protocol::block_on(guest.described_authorization(&mut self.store))
            }
            _ => Ok(Vec::new()),
        }
    }

    /// As [`Self::described_authorization`], async on an instance made by
    /// `instantiate_async`; on a blocking one, the blocking call.
    pub async fn described_authorization_async(&mut self) -> GuestResult<Vec<DescribedResource>> {
        if self.calls() == CallMode::Blocking {
            return self.described_authorization();
        }
        match &mut *self.guest {
            Guest::Component25_6_18(guest) => guest.described_authorization(&mut self.store).await,
            _ => Ok(Vec::new()),
        }
    }

    router_call!(/// Calls `instructions()`.
        instructions / instructions_async() -> String, "instructions");
    router_call!(/// Calls `capabilities()`.
        capabilities / capabilities_async() -> contract::ServerCapabilities, "capabilities");
    router_call!(/// Calls `list-tools()`.
        list_tools / list_tools_async() -> Vec<contract::Tool>, "list-tools",
        laid by tools);
    router_call!(/// Calls `call-tool(tool-name, arguments)`, `arguments` being JSON text.
        call_tool / call_tool_async(name: &str, arguments: &str)
            -> Result<contract::CallToolResult, contract::ToolError>, "call-tool");
    router_call!(/// Calls `list-resources()`.
        list_resources / list_resources_async() -> Vec<contract::McpResource>, "list-resources",
        laid by resources);
    router_call!(/// Calls `read-resource(uri)`.
        read_resource / read_resource_async(uri: &str)
            -> Result<contract::ReadResourceResult, contract::ResourceError>, "read-resource",
        laid by read);
    router_call!(/// Calls `list-prompts()`.
        list_prompts / list_prompts_async() -> Vec<contract::Prompt>, "list-prompts",
        laid by prompts);
    router_call!(/// Calls `get-prompt(prompt-name)`.
        get_prompt / get_prompt_async(name: &str)
            -> Result<contract::GetPromptResult, contract::PromptError>, "get-prompt");
    router_call!(/// Calls `complete(request)`.
        complete / complete_async(request: &contract::CompletionRequest)
            -> Result<contract::CompletionResponse, contract::CompletionError>, "complete");

    /// Calls the extension's `list-resource-templates()`.
    pub async fn list_resource_templates_async(&mut self) -> GuestResult<Vec<contract::ResourceTemplate>> {
        let mut templates = on_guest!(self, async list_resource_templates / list_resource_templates())?;
        if let Some(decorations) = self.decorations().await? {
            decorations.templates(&mut templates);
        }
        Ok(templates)
    }

    /// Calls the extension's `get-prompt-with-arguments(prompt-name, arguments)`.
    pub async fn get_prompt_with_arguments_async(
        &mut self,
        name: &str,
        arguments: &[(String, String)],
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        on_guest!(self, async get_prompt_with_arguments / get_prompt_with_arguments(name, arguments))
    }

    /// Calls the extension's `subscribe(uri)` or `unsubscribe(uri)`.
    pub async fn subscription_async(
        &mut self,
        uri: &str,
        subscribe: bool,
    ) -> GuestResult<Result<(), contract::ResourceError>> {
        on_guest!(self, async subscription / subscription(uri, subscribe))
    }

    /// Calls the extension's `on-roots-list-changed()`.
    pub async fn roots_list_changed_async(&mut self) -> GuestResult<()> {
        on_guest!(self, async roots_list_changed / roots_list_changed())
    }
}

impl RouterInstance {
    /// A blocking instance of a component linked in `pre`.
    pub(crate) fn new(
        pre: &InstancePre<StoreData>,
        exports: &RouterExports,
        optional: OptionalExports,
        policy: &SandboxPolicy,
        limits: Limits,
        memory: Arc<InstanceMemory>,
    ) -> Result<Self, NotMade> {
        let mut store = new_store(pre.engine(), policy, limits, CallMode::Blocking, memory)?;
        match pre.instantiate(&mut store) {
            Ok(instance) => Ok(Self::component(store, instance, exports, optional)),
            Err(e) => Err(NotMade::of(e, store.data())),
        }
    }

    /// An async instance of a component linked in `pre`.
    pub(crate) async fn new_async(
        pre: &InstancePre<StoreData>,
        exports: &RouterExports,
        optional: OptionalExports,
        policy: &SandboxPolicy,
        limits: Limits,
        memory: Arc<InstanceMemory>,
    ) -> Result<Self, NotMade> {
        let mut store = new_store(pre.engine(), policy, limits, CallMode::Async, memory)?;
        match pre.instantiate_async(&mut store).await {
            Ok(instance) => Ok(Self::component(store, instance, exports, optional)),
            Err(e) => Err(NotMade::of(e, store.data())),
        }
    }

    fn component(
        store: Store<StoreData>,
        instance: Instance,
        exports: &RouterExports,
        optional: OptionalExports,
    ) -> Self {
        let guest = match exports {
            RouterExports::V25_3_26(exports) => {
                Guest::Component(ComponentGuest::new(instance, exports, optional.extension))
            }
            RouterExports::V25_6_18(exports) => Guest::Component25_6_18(ComponentGuest25_6_18::new(instance, exports)),
        };
        let presenting = optional.presentation.map(|found| Box::new(Presenting::new(instance, found)));
        RouterInstance { store, guest: Box::new(guest), presenting }
    }

    /// An instance of a typed component linked in `pre`, blocking or async
    /// as `calls` says.
    pub(crate) async fn new_typed(
        pre: &InstancePre<StoreData>,
        tools: &TypedTools,
        policy: &SandboxPolicy,
        (limits, memory): (Limits, Arc<InstanceMemory>),
        calls: CallMode,
    ) -> Result<Self, NotMade> {
        let mut store = new_store(pre.engine(), policy, limits, calls, memory)?;
        let made = match calls {
            CallMode::Blocking => pre.instantiate(&mut store),
            CallMode::Async => pre.instantiate_async(&mut store).await,
        };
        match made {
            Ok(instance) => {
                let guest = TypedGuest::new(instance, tools.clone(), policy.label().into());
                Ok(RouterInstance { store, guest: Box::new(Guest::Typed(guest)), presenting: None })
            }
            Err(e) => Err(NotMade::of(e, store.data())),
        }
    }

    /// An instance of a component that serves MCP itself, linked (async) in
    /// `pre`; a blocking instance runs its calls on wasmtime's runtime.
    ///
    /// A command's `run` is started on a store of its own, whose stdin and
    /// stdout are pipes to the host. The instance's store keeps the call's
    /// deadline and cancel flag, which bound every wait on the command; the
    /// command's store yields at every tick and never times out by itself (a
    /// session's `run` lasts as long as the session).
    pub(crate) async fn new_mcp_server(
        pre: &ServerPre,
        policy: &SandboxPolicy,
        (limits, memory): (Limits, Arc<InstanceMemory>),
        calls: CallMode,
    ) -> Result<Self, NotMade> {
        #[cfg_attr(not(feature = "outgoing-http"), expect(unused_mut, reason = "only a handler is instantiated on it"))]
        let mut store = new_store(pre.instance_pre().engine(), policy, limits, calls, memory.clone())?;
        let link = match pre {
            #[cfg(feature = "outgoing-http")]
            ServerPre::Http(pre) => match pre.instantiate_async(&mut store).await {
                Ok(proxy) => Link::Http(HttpLink::new(Handler::P2(proxy))),
                Err(e) => return Err(NotMade::of(e, store.data())),
            },
            #[cfg(feature = "outgoing-http")]
            ServerPre::HttpP3(pre) => match pre.instantiate_async(&mut store).await {
                Ok(service) => Link::Http(HttpLink::new(Handler::P3(service))),
                Err(e) => return Err(NotMade::of(e, store.data())),
            },
            ServerPre::Command(pre) => {
                let (guest_stdin, host_stdin, guest_stdout, host_stdout) = super::command_pipes::pipes(PIPE_BYTES);
                let sandbox = policy
                    .command_state(limits.timeout, guest_stdin, guest_stdout)
                    .map_err(|e| GuestFault::new(mcp_wit_protocol::FaultKind::Instantiate, e.to_string()))?;
                let mut command_store =
                    crate::runtime::store::store_with(pre.engine(), sandbox, limits, CallMode::Async, memory);
                command_store.epoch_deadline_callback(|_| Ok(wasmtime::UpdateDeadline::Yield(1)));
                let command = match pre.instantiate_async(&mut command_store).await {
                    Ok(command) => command,
                    Err(e) => return Err(NotMade::of(e, command_store.data())),
                };
                let running: super::command_server::Running = Box::pin(async move {
                    let mut command_store = command_store;
                    match command.wasi_cli_run().call_run(&mut command_store).await {
                        Ok(Ok(())) => Ok(()),
                        Ok(Err(())) => Err("exited with a failure status".to_string()),
                        Err(e) => Err(format!(
                            "ended: {}",
                            GuestFault::from_error("wasi:cli/run#run", e, command_store.data()).message
                        )),
                    }
                });
                Link::Stdio(StdioLink::new(running, host_stdin, host_stdout))
            }
        };
        let guest = McpServerGuest::new(link, policy.label().into());
        Ok(RouterInstance { store, guest: Box::new(Guest::McpServer(guest)), presenting: None })
    }

    /// A fresh instance of `plugin`, with its kernel and WASI preview 1
    /// under `policy`, initialised (`_initialize`, for WASI reactors).
    #[cfg(feature = "extism")]
    pub(crate) async fn new_plugin(
        plugin: &LinkedPlugin,
        policy: &SandboxPolicy,
        limits_memory: (Limits, Arc<InstanceMemory>),
        calls: CallMode,
        config: Arc<BTreeMap<String, String>>,
    ) -> Result<Self, NotMade> {
        let (store, guest) = PluginGuest::new(plugin, policy, limits_memory, calls, config).await?;
        Ok(RouterInstance { store, guest: Box::new(Guest::Plugin(guest)), presenting: None })
    }
}
