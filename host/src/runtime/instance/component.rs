//! A component's instance: its router functions, looked up on first call,
//! called through typed functions, and the extension's functions when the
//! component exports them.

use wasmtime::Store;
use wasmtime::component::{ComponentExportIndex, ComponentNamedList, Instance, Lift, Lower, TypedFunc};

use mcp_wit_protocol::{CallMode, FaultKind, GuestFault, GuestResult, contract};

use super::fault::FaultFrom;
use super::funcs::{LazyFuncs, slot_of};
use crate::runtime::bindings::wit;
use crate::runtime::convert::{IntoContract, completion_request};
use crate::runtime::exports::export_indices;
use crate::runtime::extension::{EXTENSION_FUNCTIONS, EXTENSION_INTERFACE, ExtensionExports, ResourceTemplate};
use crate::runtime::limits::CallView;
use crate::runtime::store::{StoreData, arm_call};

/// The fully qualified name of the interface a router exports: the
/// contract, or its successor
/// [`ROUTER_INTERFACE_25_6_18`](crate::runtime::ROUTER_INTERFACE_25_6_18).
pub const ROUTER_INTERFACE: &str = "wasix:mcp/router@25.3.26";

/// Argument buffer capacity kept between calls.
const RETAINED_ARGUMENTS: usize = 1 << 20;

/// The router's functions by their WIT names, in the order
/// [`RouterExports`](super::RouterExports) holds them.
pub(crate) const ROUTER_FUNCTIONS: [&str; 10] = [
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

/// Where each 25.3.26 router function sits among a component's exports:
/// found once per component, used by each of its instances.
#[derive(Clone, Copy)]
pub(crate) struct Exports25_3_26([ComponentExportIndex; ROUTER_FUNCTIONS.len()]);

impl Exports25_3_26 {
    /// The router's functions in `component`; `None` when it does not
    /// export the interface, an error when it exports it incompletely.
    pub(crate) fn find(component: &wasmtime::component::Component) -> wasmtime::Result<Option<Self>> {
        Ok(export_indices(component, ROUTER_INTERFACE, &ROUTER_FUNCTIONS)?.map(Exports25_3_26))
    }
}

/// What a component's instance holds beside its store.
pub(super) struct ComponentGuest {
    instance: Instance,
    router: LazyFuncs<{ ROUTER_FUNCTIONS.len() }>,
    /// The extension's functions, when the component exports it.
    extension: Option<LazyFuncs<{ EXTENSION_FUNCTIONS.len() }>>,
    /// Tool arguments handed to the guest, kept so that their buffer is
    /// reused from call to call.
    arguments: wit::Value,
}

/// One router function, blocking (`$name`) and async (`$name_async`):
/// typed as loading checked it, run under the call's limits, its result
/// converted to the protocol core's types.
macro_rules! router_function {
    ($name:ident / $name_async:ident ( $($arg:ident : $ty:ty),* ) -> $ret:ty as $out:ty, $wit_name:literal) => {
        pub(super) fn $name(&mut self, store: &mut Store<StoreData>, $($arg: $ty),*) -> GuestResult<$out> {
            let typed = self.typed::<($($ty,)*), ($ret,)>(store, const { slot_of(&ROUTER_FUNCTIONS, $wit_name) })?;
            let result = typed.call(&mut *store, ($($arg,)*)).map(|(ret,)| ret);
            result.map(IntoContract::into_contract).map_err(|e| GuestFault::from_error($wit_name, e, store.data()))
        }

        pub(super) async fn $name_async(&mut self, store: &mut Store<StoreData>, $($arg: $ty),*) -> GuestResult<$out> {
            let typed = self.typed::<($($ty,)*), ($ret,)>(store, const { slot_of(&ROUTER_FUNCTIONS, $wit_name) })?;
            let result = typed.call_async(&mut *store, ($($arg,)*)).await.map(|(ret,)| ret);
            result.map(IntoContract::into_contract).map_err(|e| GuestFault::from_error($wit_name, e, store.data()))
        }
    };
}

impl ComponentGuest {
    /// The guest of a `wasix:mcp/router@25.3.26` component's `instance`.
    pub(super) fn new(instance: Instance, exports: &Exports25_3_26, extension: Option<ExtensionExports>) -> Self {
        ComponentGuest {
            instance,
            router: LazyFuncs::new(ROUTER_INTERFACE, &ROUTER_FUNCTIONS, exports.0),
            extension: extension.map(|found| LazyFuncs::new(EXTENSION_INTERFACE, &EXTENSION_FUNCTIONS, found.0)),
            arguments: wit::Value { json: String::new() },
        }
    }
}

impl ComponentGuest {
    /// The router function in `slot` of [`ROUTER_FUNCTIONS`] as `TypedFunc<P, R>`,
    /// the store armed for calling it.
    fn typed<P, R>(&mut self, store: &mut Store<StoreData>, slot: usize) -> Result<TypedFunc<P, R>, GuestFault>
    where
        P: ComponentNamedList + Lower,
        R: ComponentNamedList + Lift,
    {
        let func = self.router.get(&self.instance, store, slot)?;
        arm_call(store);
        // SAFETY: loading the component (`McpRouterPre::new`) checked this
        // export against the types of its WIT function, which every use above
        // names, as the generated bindings rely on.
        Ok(unsafe { TypedFunc::<P, R>::new_unchecked(func) })
    }

    router_function!(name / name_async() -> String as String, "name");
    router_function!(instructions / instructions_async() -> String as String, "instructions");
    router_function!(capabilities / capabilities_async() -> wit::ServerCapabilities
        as contract::ServerCapabilities, "capabilities");
    router_function!(list_tools / list_tools_async() -> Vec<wit::Tool> as Vec<contract::Tool>, "list-tools");
    router_function!(call_tool_value / call_tool_value_async(name: &str, arguments: &wit::Value)
        -> Result<wit::CallToolResult, wit::ToolError>
        as Result<contract::CallToolResult, contract::ToolError>, "call-tool");
    router_function!(list_resources / list_resources_async() -> Vec<wit::McpResource>
        as Vec<contract::McpResource>, "list-resources");
    router_function!(read_resource / read_resource_async(uri: &str)
        -> Result<wit::ReadResourceResult, wit::ResourceError>
        as Result<contract::ReadResourceResult, contract::ResourceError>, "read-resource");
    router_function!(list_prompts / list_prompts_async() -> Vec<wit::Prompt> as Vec<contract::Prompt>, "list-prompts");
    router_function!(get_prompt / get_prompt_async(name: &str)
        -> Result<wit::GetPromptResult, wit::PromptError>
        as Result<contract::GetPromptResult, contract::PromptError>, "get-prompt");
    router_function!(complete_wit / complete_wit_async(request: &wit::CompletionRequest)
        -> Result<wit::CompletionResponse, wit::CompletionError>
        as Result<contract::CompletionResponse, contract::CompletionError>, "complete");

    pub(super) fn call_tool(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<contract::CallToolResult, contract::ToolError>> {
        let value = self.take_arguments(arguments);
        let result = self.call_tool_value(store, name, &value);
        self.keep_arguments(value);
        result
    }

    pub(super) async fn call_tool_async(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<contract::CallToolResult, contract::ToolError>> {
        let value = self.take_arguments(arguments);
        let result = self.call_tool_value_async(store, name, &value).await;
        self.keep_arguments(value);
        result
    }

    pub(super) fn complete(
        &mut self,
        store: &mut Store<StoreData>,
        request: &contract::CompletionRequest,
    ) -> GuestResult<Result<contract::CompletionResponse, contract::CompletionError>> {
        self.complete_wit(store, &completion_request(request))
    }

    pub(super) async fn complete_async(
        &mut self,
        store: &mut Store<StoreData>,
        request: &contract::CompletionRequest,
    ) -> GuestResult<Result<contract::CompletionResponse, contract::CompletionError>> {
        self.complete_wit_async(store, &completion_request(request)).await
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

    /// Calls the extension's function `name` with `params`, checking its
    /// type against `P` and `R` (these calls are rare: no need to check
    /// once for all).
    async fn call_extension<P, R>(
        &mut self,
        store: &mut Store<StoreData>,
        name: &'static str,
        params: P,
    ) -> GuestResult<R>
    where
        P: ComponentNamedList + Lower + Send + Sync,
        R: ComponentNamedList + Lift + Send + Sync + 'static,
    {
        let Some(extension) = &mut self.extension else {
            return Err(GuestFault::new(
                FaultKind::Trap,
                format!("the component does not export `{EXTENSION_INTERFACE}`"),
            ));
        };
        let func = extension.get(&self.instance, store, slot_of(&EXTENSION_FUNCTIONS, name))?;
        let typed = func.typed::<P, R>(&*store).map_err(|e| {
            GuestFault::new(
                FaultKind::Trap,
                format!("`{name}` does not have the type `{EXTENSION_INTERFACE}` gives it: {e}"),
            )
        })?;
        arm_call(store);
        let result = match store.data().call_control().mode() {
            CallMode::Blocking => typed.call(&mut *store, params),
            CallMode::Async => typed.call_async(&mut *store, params).await,
        };
        result.map_err(|e| GuestFault::from_error(name, e, store.data()))
    }

    pub(super) async fn list_resource_templates(
        &mut self,
        store: &mut Store<StoreData>,
    ) -> GuestResult<Vec<contract::ResourceTemplate>> {
        let (templates,): (Vec<ResourceTemplate>,) = self.call_extension(store, "list-resource-templates", ()).await?;
        Ok(templates.into_contract())
    }

    pub(super) async fn get_prompt_with_arguments(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
        arguments: &[(String, String)],
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        let (result,): (Result<wit::GetPromptResult, wit::PromptError>,) =
            self.call_extension(store, "get-prompt-with-arguments", (name, arguments)).await?;
        Ok(result.into_contract())
    }

    pub(super) async fn subscription(
        &mut self,
        store: &mut Store<StoreData>,
        uri: &str,
        subscribe: bool,
    ) -> GuestResult<Result<(), contract::ResourceError>> {
        let name = if subscribe { "subscribe" } else { "unsubscribe" };
        let (result,): (Result<(), wit::ResourceError>,) = self.call_extension(store, name, (uri,)).await?;
        Ok(result.into_contract())
    }

    pub(super) async fn roots_list_changed(&mut self, store: &mut Store<StoreData>) -> GuestResult<()> {
        self.call_extension::<(), ()>(store, "on-roots-list-changed", ()).await
    }
}
