//! One live guest instance and typed calls into it.

use wasmtime::Store;
use wasmtime::component::{
    ComponentExportIndex, ComponentNamedList, Func, Instance, InstancePre, Lift, Lower, TypedFunc,
};

use mcp_wit_protocol::{CallContext, CallMode, FaultKind, GuestFault, GuestResult, contract};

use std::sync::Arc;

use super::bindings::wit;
use super::budget::InstanceMemory;
use super::convert::{IntoContract, completion_request};
use super::exports::export_indices;
use super::extension::{EXTENSION_FUNCTIONS, EXTENSION_INTERFACE, ExtensionExports, ResourceTemplate};
use super::limits::{Interrupted, Limits};
#[cfg(feature = "extism")]
use super::plugin::{ENTRY_POINTS, PluginKind};
use super::store::{StoreData, new_store};
use crate::sandbox::SandboxPolicy;

#[cfg(feature = "extism")]
mod plugin_calls;

/// Faults as the runtime finds them.
trait FaultFrom {
    fn instantiate(error: wasmtime::Error, state: &StoreData) -> Self;
    fn async_only(function: &str) -> Self;
    fn from_error(function: &str, error: wasmtime::Error, state: &StoreData) -> Self;
}

impl FaultFrom for GuestFault {
    fn instantiate(error: wasmtime::Error, state: &StoreData) -> Self {
        let fault = GuestFault::from_error("instantiate", error, state);
        GuestFault { kind: FaultKind::Instantiate, ..fault }
    }

    fn async_only(function: &str) -> Self {
        GuestFault::new(
            FaultKind::Trap,
            format!("`{function}` called without `_async` on an instance made by `instantiate_async`"),
        )
    }

    fn from_error(function: &str, error: wasmtime::Error, state: &StoreData) -> Self {
        let interrupted = error.downcast_ref::<Interrupted>().cloned().or_else(|| {
            // A refused memory growth that the guest itself turned into a trap
            // (e.g. Rust's allocation-failure abort) is still the memory cap.
            state.control.memory_refused()
        });
        let trap = error.downcast_ref::<wasmtime::Trap>();
        let (kind, cause) = match (&interrupted, trap) {
            (Some(i @ Interrupted::Timeout(_)), _) => (FaultKind::Timeout, format!("`{function}` {i}")),
            (Some(i @ Interrupted::Cancelled), _) => (FaultKind::Cancelled, format!("`{function}` {i}")),
            (Some(i @ (Interrupted::MemoryLimit(_) | Interrupted::MemoryBudget(_))), _) => {
                (FaultKind::MemoryLimit, format!("`{function}` {i}"))
            }
            (Some(i @ Interrupted::InputRequired), _) => (FaultKind::InputRequired, format!("`{function}` {i}")),
            (None, Some(trap)) => (FaultKind::Trap, format!("guest trapped in `{function}`: {trap}")),
            (None, None) => (FaultKind::Trap, format!("guest failed in `{function}`: {}", error.root_cause())),
        };
        let output = state.sandbox.output();
        let message = match output.last_words() {
            Some(words) if kind == FaultKind::Trap => format!("{cause}; the guest {words}"),
            _ => cause,
        };
        match (&interrupted, trap) {
            (None, Some(_)) => GuestFault::wasm_trap(message, output.panic_message()),
            _ => GuestFault::new(kind, message),
        }
    }
}

/// An instantiated router: its own store, memory and state.
///
/// An instance is made for one way of calling: blocking
/// ([`LoadedComponent::instantiate`]; the methods without a suffix run the
/// guest on the caller's thread) or async
/// ([`LoadedComponent::instantiate_async`]; the `_async` methods run it on a
/// fiber that gives the thread back to the executor at every epoch tick and
/// while the guest waits on the host). The `_async` methods also work on a
/// blocking instance, where they finish at their first poll.
///
/// [`LoadedComponent::instantiate`]: super::LoadedComponent::instantiate
/// [`LoadedComponent::instantiate_async`]: super::LoadedComponent::instantiate_async
pub struct RouterInstance {
    store: Store<StoreData>,
    guest: Guest,
    calls: CallMode,
    /// Tool arguments handed to the guest, kept so that their buffer is
    /// reused from call to call.
    arguments: wit::Value,
}

/// What an instance runs.
enum Guest {
    /// A component: its router functions, looked up on first call.
    Component {
        instance: Instance,
        router: LazyFuncs<{ ROUTER_FUNCTIONS.len() }>,
        /// The extension's functions, when the component exports it.
        extension: Option<LazyFuncs<{ EXTENSION_FUNCTIONS.len() }>>,
    },
    /// An Extism plugin (see `plugin_calls`).
    #[cfg(feature = "extism")]
    Plugin {
        instance: wasmtime::Instance,
        kind: PluginKind,
        /// What it can say changed.
        signals: crate::runtime::plugin::PluginSignals,
        label: std::sync::Arc<str>,
        /// Its entry points ([`ENTRY_POINTS`]), each looked up and its type
        /// checked on first use; `Some(None)`: not exported.
        entries: [Option<Option<wasmtime::TypedFunc<(), i32>>>; ENTRY_POINTS.len()],
        /// Requests made of it so far (for their `context.id`).
        requests: u64,
    },
}

/// Argument buffer capacity kept between calls.
const RETAINED_ARGUMENTS: usize = 1 << 20;

/// The router's functions by their WIT names, in the order
/// [`RouterExports`] and [`RouterFuncs`] hold them.
pub(super) const ROUTER_FUNCTIONS: [&str; 10] = [
    "name",
    "instructions",
    "capabilities",
    "list-tools",
    "call-tool",
    "list-resources",
    "read-resource",
    "list-prompts",
    "get-prompt",
    "complete",
];

/// Where `name` stands in `names`; evaluated at compile time where it is
/// used, so a name that is not there fails the build.
const fn slot_of(names: &[&str], name: &str) -> usize {
    let mut slot = 0;
    while slot < names.len() {
        // (`==` is not const; no two names differ only in case.)
        if names[slot].eq_ignore_ascii_case(name) {
            return slot;
        }
        slot += 1;
    }
    panic!("not one of the functions");
}

/// Where each router function sits among a component's exports: found once
/// per component, used by each of its instances.
#[derive(Clone, Copy)]
pub(super) struct RouterExports([ComponentExportIndex; ROUTER_FUNCTIONS.len()]);

impl RouterExports {
    /// The router's functions in `component`.
    pub(super) fn find(component: &wasmtime::component::Component) -> wasmtime::Result<Self> {
        let interface = super::ROUTER_INTERFACE;
        let found = export_indices(component, interface, &ROUTER_FUNCTIONS)?;
        found.map(RouterExports).ok_or_else(|| wasmtime::format_err!("the component does not export `{interface}`"))
    }
}

/// The functions `names` of one exported interface of an instance, each
/// looked up on its first call: most instances (one per modern request)
/// call one function, and a lookup is a good part of what instantiating
/// costs.
struct LazyFuncs<const N: usize> {
    interface: &'static str,
    names: &'static [&'static str; N],
    exports: [ComponentExportIndex; N],
    found: [Option<Func>; N],
}

impl<const N: usize> LazyFuncs<N> {
    fn new(interface: &'static str, names: &'static [&'static str; N], exports: [ComponentExportIndex; N]) -> Self {
        LazyFuncs { interface, names, exports, found: [None; N] }
    }

    /// The function in `slot` of `names`.
    fn get(&mut self, instance: &Instance, store: &mut Store<StoreData>, slot: usize) -> Result<Func, GuestFault> {
        if let Some(func) = self.found[slot] {
            return Ok(func);
        }
        let func = instance.get_func(&mut *store, self.exports[slot]).ok_or_else(|| {
            GuestFault::new(
                FaultKind::Instantiate,
                format!("`{}` exports `{}` as something other than a function", self.interface, self.names[slot]),
            )
        })?;
        self.found[slot] = Some(func);
        Ok(func)
    }
}

macro_rules! guest_call {
    ($(#[$doc:meta])* $vis:vis $name:ident / $name_async:ident => $call:ident
        ( $($arg:ident : $ty:ty),* ) -> $ret:ty as $out:ty, $wit_name:literal, plugin $plugin:ident) => {
        $(#[$doc])*
        ///
        /// Blocking; fails on an instance made by `instantiate_async`.
        $vis fn $name(&mut self, $($arg: $ty),*) -> GuestResult<$out> {
            if self.calls == CallMode::Async {
                return Err(GuestFault::async_only($wit_name));
            }
            #[cfg(feature = "extism")]
            if self.is_plugin() {
                // A blocking instance's plugin call finishes at its first poll.
                return mcp_wit_protocol::block_on(self.$plugin($($arg),*));
            }
            let func = self.func(const { slot_of(&ROUTER_FUNCTIONS, $wit_name) })?;
            self.store.data().sandbox.output().begin_call();
            self.store.set_epoch_deadline(1);
            // SAFETY: loading the component (`McpRouterPre::new`) checked this
            // export against these same types, as the generated bindings rely on.
            let typed = unsafe { TypedFunc::<($($ty,)*), ($ret,)>::new_unchecked(func) };
            let result = typed.call(&mut self.store, ($($arg,)*)).map(|(ret,)| ret);
            result.map(IntoContract::into_contract).map_err(|e| GuestFault::from_error($wit_name, e, self.store.data()))
        }

        $(#[$doc])*
        ///
        /// Async on an instance made by `instantiate_async`; on a blocking
        /// one, the blocking call.
        $vis async fn $name_async(&mut self, $($arg: $ty),*) -> GuestResult<$out> {
            if self.calls == CallMode::Blocking {
                return self.$name($($arg),*);
            }
            #[cfg(feature = "extism")]
            if self.is_plugin() {
                return self.$plugin($($arg),*).await;
            }
            let func = self.func(const { slot_of(&ROUTER_FUNCTIONS, $wit_name) })?;
            self.store.data().sandbox.output().begin_call();
            self.store.set_epoch_deadline(1);
            // SAFETY: loading the component (`McpRouterPre::new`) checked this
            // export against these same types, as the generated bindings rely on.
            let typed = unsafe { TypedFunc::<($($ty,)*), ($ret,)>::new_unchecked(func) };
            let result = typed.call_async(&mut self.store, ($($arg,)*)).await.map(|(ret,)| ret);
            result.map(IntoContract::into_contract).map_err(|e| GuestFault::from_error($wit_name, e, self.store.data()))
        }
    };
}

/// Why an instance was not made.
pub(super) enum NotMade {
    /// The engine's pool has no free slot of some kind (what the error
    /// says): another engine may make it.
    PoolFull(wasmtime::Error),
    /// Anything else.
    Fault(GuestFault),
}

impl From<GuestFault> for NotMade {
    fn from(fault: GuestFault) -> Self {
        NotMade::Fault(fault)
    }
}

impl NotMade {
    /// `error`, which instantiating in `state`'s store gave.
    pub(super) fn of(error: wasmtime::Error, state: &StoreData) -> Self {
        if error.is::<wasmtime::PoolConcurrencyLimitError>() {
            return NotMade::PoolFull(error);
        }
        let refused = error.chain().any(|cause| {
            cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.raw_os_error() == Some(libc::ENOMEM))
                || cause.to_string().contains("Cannot allocate memory")
        });
        let mut fault = GuestFault::instantiate(error, state);
        if refused {
            fault.message = format!(
                "{}: the system refused the mappings of a new instance (about 6 per live instance count against \
                 `vm.max_map_count`); raise it, lower `--max-sessions`, or release idle instances \
                 (`--instance-idle-timeout`)",
                fault.message
            );
        }
        NotMade::Fault(fault)
    }
}

impl RouterInstance {
    pub(super) fn new(
        pre: &InstancePre<StoreData>,
        exports: &RouterExports,
        extension: Option<ExtensionExports>,
        policy: &SandboxPolicy,
        limits: Limits,
        memory: Arc<InstanceMemory>,
    ) -> Result<Self, NotMade> {
        let mut store = new_store(pre.engine(), policy, limits, CallMode::Blocking, memory)?;
        match pre.instantiate(&mut store) {
            Ok(instance) => Ok(Self::made(store, instance, exports, extension, CallMode::Blocking)),
            Err(e) => Err(NotMade::of(e, store.data())),
        }
    }

    pub(super) async fn new_async(
        pre: &InstancePre<StoreData>,
        exports: &RouterExports,
        extension: Option<ExtensionExports>,
        policy: &SandboxPolicy,
        limits: Limits,
        memory: Arc<InstanceMemory>,
    ) -> Result<Self, NotMade> {
        let mut store = new_store(pre.engine(), policy, limits, CallMode::Async, memory)?;
        match pre.instantiate_async(&mut store).await {
            Ok(instance) => Ok(Self::made(store, instance, exports, extension, CallMode::Async)),
            Err(e) => Err(NotMade::of(e, store.data())),
        }
    }

    fn made(
        store: Store<StoreData>,
        instance: Instance,
        exports: &RouterExports,
        extension: Option<ExtensionExports>,
        calls: CallMode,
    ) -> Self {
        let guest = Guest::Component {
            instance,
            router: LazyFuncs::new(super::ROUTER_INTERFACE, &ROUTER_FUNCTIONS, exports.0),
            extension: extension.map(|found| LazyFuncs::new(EXTENSION_INTERFACE, &EXTENSION_FUNCTIONS, found.0)),
        };
        RouterInstance { store, guest, calls, arguments: empty_value() }
    }

    /// Calls the extension's function `name` with `params`, checking its
    /// type against `P` and `R` (these calls are rare: no need to check
    /// once for all).
    async fn call_extension<P, R>(&mut self, name: &'static str, params: P) -> GuestResult<R>
    where
        P: ComponentNamedList + Lower + Send + Sync,
        R: ComponentNamedList + Lift + Send + Sync + 'static,
    {
        let Guest::Component { instance, extension: Some(extension), .. } = &mut self.guest else {
            return Err(GuestFault::new(
                FaultKind::Trap,
                format!("the component does not export `{EXTENSION_INTERFACE}`"),
            ));
        };
        let func = extension.get(instance, &mut self.store, slot_of(&EXTENSION_FUNCTIONS, name))?;
        let typed = func.typed::<P, R>(&self.store).map_err(|e| {
            GuestFault::new(
                FaultKind::Trap,
                format!("`{name}` does not have the type `{EXTENSION_INTERFACE}` gives it: {e}"),
            )
        })?;
        self.store.data().sandbox.output().begin_call();
        self.store.set_epoch_deadline(1);
        let result = match self.calls {
            CallMode::Blocking => typed.call(&mut self.store, params),
            CallMode::Async => typed.call_async(&mut self.store, params).await,
        };
        result.map_err(|e| GuestFault::from_error(name, e, self.store.data()))
    }

    /// Calls the extension's `list-resource-templates()`.
    pub async fn list_resource_templates_async(&mut self) -> GuestResult<Vec<contract::ResourceTemplate>> {
        #[cfg(feature = "extism")]
        if self.is_plugin() {
            return self.plugin_list_resource_templates().await;
        }
        let (templates,): (Vec<ResourceTemplate>,) = self.call_extension("list-resource-templates", ()).await?;
        Ok(templates.into_contract())
    }

    /// Calls the extension's `get-prompt-with-arguments(prompt-name, arguments)`.
    pub async fn get_prompt_with_arguments_async(
        &mut self,
        name: &str,
        arguments: &[(String, String)],
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        #[cfg(feature = "extism")]
        if self.is_plugin() {
            return self.plugin_get_prompt_with_arguments(name, arguments).await;
        }
        let (result,): (Result<wit::GetPromptResult, wit::PromptError>,) =
            self.call_extension("get-prompt-with-arguments", (name, arguments)).await?;
        Ok(result.into_contract())
    }

    /// Calls the extension's `subscribe(uri)` or `unsubscribe(uri)`.
    pub async fn subscription_async(
        &mut self,
        uri: &str,
        subscribe: bool,
    ) -> GuestResult<Result<(), contract::ResourceError>> {
        // A v1-draft plugin has nothing to be told: acknowledged.
        #[cfg(feature = "extism")]
        if self.is_plugin() {
            return Ok(Ok(()));
        }
        let name = if subscribe { "subscribe" } else { "unsubscribe" };
        let (result,): (Result<(), wit::ResourceError>,) = self.call_extension(name, (uri,)).await?;
        Ok(result.into_contract())
    }

    /// Calls the extension's `on-roots-list-changed()`.
    pub async fn roots_list_changed_async(&mut self) -> GuestResult<()> {
        #[cfg(feature = "extism")]
        if self.is_plugin() {
            return self.plugin_roots_list_changed().await;
        }
        self.call_extension::<(), ()>("on-roots-list-changed", ()).await
    }

    /// The router function in `slot` of [`ROUTER_FUNCTIONS`].
    fn func(&mut self, slot: usize) -> Result<Func, GuestFault> {
        match &mut self.guest {
            Guest::Component { instance, router, .. } => router.get(instance, &mut self.store, slot),
            #[cfg(feature = "extism")]
            Guest::Plugin { .. } => unreachable!("plugin calls are dispatched before a function is looked up"),
        }
    }

    /// How this instance's calls wait: blocking (made by `instantiate`) or
    /// async (made by `instantiate_async`).
    pub fn calls(&self) -> CallMode {
        self.calls
    }

    /// Arms the next calls as `cx` says: a fresh deadline, the flag that
    /// cancels them, a hook to run at every tick while they run, the client
    /// they may reach and the caller they serve.
    pub fn begin_request(&mut self, cx: &CallContext) {
        let data = self.store.data_mut();
        data.control.begin_call(&cx.cancel, cx.tick_hook.as_ref());
        if data.client.is_some() || cx.client.is_some() {
            data.client = cx.client.clone();
        }
        if data.caller.is_some() || cx.caller.is_some() {
            data.caller = cx.caller.clone();
        }
    }

    /// Ends what [`Self::begin_request`] armed that must not outlive the
    /// request: the client link (it holds the request's stream open) and
    /// the caller.
    pub fn end_request(&mut self) {
        let data = self.store.data_mut();
        data.client = None;
        data.caller = None;
    }

    guest_call!(/// CallMode `name()`.
        pub name / name_async => call_name() -> String as String, "name", plugin plugin_name);
    guest_call!(/// CallMode `instructions()`.
        pub instructions / instructions_async => call_instructions() -> String as String, "instructions", plugin plugin_instructions);
    guest_call!(/// CallMode `capabilities()`.
        pub capabilities / capabilities_async => call_capabilities() -> wit::ServerCapabilities
            as contract::ServerCapabilities, "capabilities", plugin plugin_capabilities);
    guest_call!(/// CallMode `list-tools()`.
        pub list_tools / list_tools_async => call_list_tools() -> Vec<wit::Tool> as Vec<contract::Tool>, "list-tools", plugin plugin_list_tools);
    guest_call!(
        call_tool_value / call_tool_value_async => call_call_tool(name: &str, arguments: &wit::Value)
            -> Result<wit::CallToolResult, wit::ToolError>
            as Result<contract::CallToolResult, contract::ToolError>, "call-tool", plugin plugin_call_tool);
    guest_call!(/// CallMode `list-resources()`.
        pub list_resources / list_resources_async => call_list_resources() -> Vec<wit::McpResource>
            as Vec<contract::McpResource>, "list-resources", plugin plugin_list_resources);
    guest_call!(/// CallMode `read-resource(uri)`.
        pub read_resource / read_resource_async => call_read_resource(uri: &str)
            -> Result<wit::ReadResourceResult, wit::ResourceError>
            as Result<contract::ReadResourceResult, contract::ResourceError>, "read-resource", plugin plugin_read_resource);
    guest_call!(/// CallMode `list-prompts()`.
        pub list_prompts / list_prompts_async => call_list_prompts() -> Vec<wit::Prompt> as Vec<contract::Prompt>, "list-prompts", plugin plugin_list_prompts);
    guest_call!(/// CallMode `get-prompt(prompt-name)`.
        pub get_prompt / get_prompt_async => call_get_prompt(name: &str)
            -> Result<wit::GetPromptResult, wit::PromptError>
            as Result<contract::GetPromptResult, contract::PromptError>, "get-prompt", plugin plugin_get_prompt);
    guest_call!(
        complete_wit / complete_wit_async => call_complete(request: &wit::CompletionRequest)
            -> Result<wit::CompletionResponse, wit::CompletionError>
            as Result<contract::CompletionResponse, contract::CompletionError>, "complete", plugin plugin_complete);

    /// Calls `call-tool(tool-name, arguments)`, `arguments` being JSON text.
    ///
    /// Blocking; fails on an instance made by `instantiate_async`.
    pub fn call_tool(
        &mut self,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<contract::CallToolResult, contract::ToolError>> {
        let value = self.take_arguments(arguments);
        let result = self.call_tool_value(name, &value);
        self.keep_arguments(value);
        result
    }

    /// Calls `call-tool(tool-name, arguments)`, `arguments` being JSON text.
    ///
    /// Async on an instance made by `instantiate_async`; on a blocking one,
    /// the blocking call.
    pub async fn call_tool_async(
        &mut self,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<contract::CallToolResult, contract::ToolError>> {
        let value = self.take_arguments(arguments);
        let result = self.call_tool_value_async(name, &value).await;
        self.keep_arguments(value);
        result
    }

    /// Calls `complete(request)`.
    ///
    /// Blocking; fails on an instance made by `instantiate_async`.
    pub fn complete(
        &mut self,
        request: &contract::CompletionRequest,
    ) -> GuestResult<Result<contract::CompletionResponse, contract::CompletionError>> {
        self.complete_wit(&completion_request(request))
    }

    /// Calls `complete(request)`.
    ///
    /// Async on an instance made by `instantiate_async`; on a blocking one,
    /// the blocking call.
    pub async fn complete_async(
        &mut self,
        request: &contract::CompletionRequest,
    ) -> GuestResult<Result<contract::CompletionResponse, contract::CompletionError>> {
        self.complete_wit_async(&completion_request(request)).await
    }

    /// The retained argument buffer, filled with `arguments`.
    fn take_arguments(&mut self, arguments: &str) -> wit::Value {
        let mut json = std::mem::take(&mut self.arguments.json);
        json.clear();
        json.push_str(arguments);
        wit::Value { json }
    }

    /// Keeps the argument buffer for the next call, unless one huge call
    /// would pin its size.
    fn keep_arguments(&mut self, value: wit::Value) {
        if value.json.capacity() <= RETAINED_ARGUMENTS {
            self.arguments = value;
        }
    }
}

fn empty_value() -> wit::Value {
    wit::Value { json: String::new() }
}
