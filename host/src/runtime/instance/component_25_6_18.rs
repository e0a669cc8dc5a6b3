//! A `wasix:mcp/router@25.6.18` component's instance: its functions,
//! looked up on first call as 25.3.26's are, and `call-tool`'s elicitations
//! asked of the client until the router completes (see
//! [`ELICITATIONS_KEY`](crate::runtime::ELICITATIONS_KEY)).

use wasmtime::Store;
use wasmtime::component::{ComponentExportIndex, ComponentNamedList, Instance, Lift, Lower, TypedFunc};

use mcp_wit_protocol::client::Question;
use mcp_wit_protocol::{CallMode, GuestFault, GuestResult, contract};

use super::fault::FaultFrom;
use super::funcs::{LazyFuncs, slot_of};
use crate::runtime::client::Asking;
use crate::runtime::convert::IntoContract;
use crate::runtime::exports::export_indices;
use crate::runtime::limits::CallView;
use crate::runtime::store::{StoreData, arm_call};
use crate::runtime::v25_6_18::convert::{completion_request, elicitation_params};
use crate::runtime::v25_6_18::{MAX_ELICITATIONS, ROUTER_FUNCTIONS_25_6_18, ROUTER_INTERFACE_25_6_18, wit};
use mcp_wit_protocol::contract_25_6_18::{too_many_elicitations, with_answers};

/// Where each 25.6.18 router function sits among a component's exports.
#[derive(Clone, Copy)]
pub(crate) struct Exports25_6_18([ComponentExportIndex; ROUTER_FUNCTIONS_25_6_18.len()]);

impl Exports25_6_18 {
    /// The functions in `component`; `None` when it does not export the
    /// interface, an error when it exports it incompletely.
    pub(crate) fn find(component: &wasmtime::component::Component) -> wasmtime::Result<Option<Self>> {
        Ok(export_indices(component, ROUTER_INTERFACE_25_6_18, &ROUTER_FUNCTIONS_25_6_18)?.map(Exports25_6_18))
    }
}

/// What a 25.6.18 component's instance holds beside its store.
pub(super) struct ComponentGuest25_6_18 {
    instance: Instance,
    router: LazyFuncs<{ ROUTER_FUNCTIONS_25_6_18.len() }>,
}

impl ComponentGuest25_6_18 {
    pub(super) fn new(instance: Instance, exports: &Exports25_6_18) -> Self {
        let router = LazyFuncs::new(ROUTER_INTERFACE_25_6_18, &ROUTER_FUNCTIONS_25_6_18, exports.0);
        ComponentGuest25_6_18 { instance, router }
    }

    /// Calls the router function `name` with `params`, under the call's
    /// limits, blocking or async as the instance was made.
    async fn call<P, R>(&mut self, store: &mut Store<StoreData>, name: &'static str, params: P) -> GuestResult<R>
    where
        P: ComponentNamedList + Lower + Send + Sync,
        R: ComponentNamedList + Lift + Send + Sync + 'static,
    {
        let func = self.router.get(&self.instance, store, slot_of(&ROUTER_FUNCTIONS_25_6_18, name))?;
        arm_call(store);
        // SAFETY: loading the component (25.6.18's `McpRouterPre::new`)
        // checked every export against the types of its WIT function, which
        // each caller below names.
        let typed = unsafe { TypedFunc::<P, R>::new_unchecked(func) };
        let result = match store.data().call_control().mode() {
            CallMode::Blocking => typed.call(&mut *store, params),
            CallMode::Async => typed.call_async(&mut *store, params).await,
        };
        result.map_err(|e| GuestFault::from_error(name, e, store.data()))
    }

    pub(super) async fn name(&mut self, store: &mut Store<StoreData>) -> GuestResult<String> {
        Ok(self.call::<(), (String,)>(store, "name", ()).await?.0)
    }

    pub(super) async fn title(&mut self, store: &mut Store<StoreData>) -> GuestResult<Option<String>> {
        Ok(self.call::<(), (Option<String>,)>(store, "title", ()).await?.0)
    }

    pub(super) async fn instructions(&mut self, store: &mut Store<StoreData>) -> GuestResult<String> {
        Ok(self.call::<(), (String,)>(store, "instructions", ()).await?.0)
    }

    /// `describe-server()`'s capabilities. Its resource list is not used
    /// (`list-resources` is asked when the client asks), nor its resource
    /// metadata and `_meta`, which MCP's initialize result has no field for.
    pub(super) async fn capabilities(
        &mut self,
        store: &mut Store<StoreData>,
    ) -> GuestResult<contract::ServerCapabilities> {
        let (described,) = self.call::<(), (wit::ServerDescription,)>(store, "describe-server", ()).await?;
        Ok(described.capabilities.into_contract())
    }

    /// `describe-server()`'s resource metadata: the authorization the router
    /// expects (its token endpoints are the authorization servers' business,
    /// not the resource server's, and are left out).
    pub(super) async fn described_authorization(
        &mut self,
        store: &mut Store<StoreData>,
    ) -> GuestResult<Vec<mcp_wit_protocol::auth::DescribedResource>> {
        let (described,) = self.call::<(), (wit::ServerDescription,)>(store, "describe-server", ()).await?;
        let described = described.resource_metadata.unwrap_or_default().into_iter().map(|metadata| {
            mcp_wit_protocol::auth::DescribedResource {
                resource_indicator: metadata.resource_indicator,
                issuers: metadata.authorization_servers.into_iter().map(|server| server.issuer).collect(),
                default_scopes: metadata.default_scopes,
            }
        });
        Ok(described.collect())
    }

    pub(super) async fn list_tools(&mut self, store: &mut Store<StoreData>) -> GuestResult<Vec<contract::Tool>> {
        Ok(self.call::<(), (Vec<wit::Tool>,)>(store, "list-tools", ()).await?.0.into_contract())
    }

    /// `call-tool`, again after each elicitation with the answers so far,
    /// until the router completes or fails, at most [`MAX_ELICITATIONS`]
    /// questions. A question that ends a 2026-07-28 round stops the call
    /// (the client's retry runs it again, the answers given by then).
    pub(super) async fn call_tool(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<contract::CallToolResult, contract::ToolError>> {
        type Outcome = Result<wit::Response, wit::ToolError>;
        let mut answers: Vec<String> = Vec::new();
        loop {
            let given = with_answers(arguments, &answers);
            let (outcome,) = self.call::<(&str, &str), (Outcome,)>(store, "call-tool", (name, given.as_ref())).await?;
            let request = match outcome {
                Ok(wit::Response::Completed(result)) => return Ok(Ok(result.into_contract())),
                Ok(wit::Response::Elicit(request)) => request,
                Err(error) => return Ok(Err(error.into_contract())),
            };
            if answers.len() == MAX_ELICITATIONS {
                return Ok(Err(contract::ToolError::ExecutionError(too_many_elicitations(name))));
            }
            let params = match elicitation_params(&request) {
                Ok(params) => params,
                Err(why) => {
                    tracing::warn!(tool = %name, "a router's elicitation cannot be asked: {why}");
                    let message = format!("the tool `{name}` asked the user for input, but {why}");
                    return Ok(Err(contract::ToolError::ExecutionError(message)));
                }
            };
            match Asking::of(store.data()).ask(Question::Elicit, Some(&params)).await {
                Ok(Ok(answer)) => answers.push(answer),
                Ok(Err(error)) => {
                    let message = format!("the tool `{name}` asked the user for input, which failed: {error}");
                    return Ok(Err(contract::ToolError::ExecutionError(message)));
                }
                Err(stopped) => return Err(GuestFault::from_error("call-tool", stopped, store.data())),
            }
        }
    }

    pub(super) async fn list_resources(
        &mut self,
        store: &mut Store<StoreData>,
    ) -> GuestResult<Vec<contract::McpResource>> {
        Ok(self.call::<(), (Vec<wit::McpResource>,)>(store, "list-resources", ()).await?.0.into_contract())
    }

    pub(super) async fn read_resource(
        &mut self,
        store: &mut Store<StoreData>,
        uri: &str,
    ) -> GuestResult<Result<contract::ReadResourceResult, contract::ResourceError>> {
        type Outcome = Result<wit::ReadResourceResult, wit::ResourceError>;
        Ok(self.call::<(&str,), (Outcome,)>(store, "read-resource", (uri,)).await?.0.into_contract())
    }

    pub(super) async fn list_prompts(&mut self, store: &mut Store<StoreData>) -> GuestResult<Vec<contract::Prompt>> {
        Ok(self.call::<(), (Vec<wit::Prompt>,)>(store, "list-prompts", ()).await?.0.into_contract())
    }

    pub(super) async fn get_prompt(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        type Outcome = Result<wit::GetPromptResult, wit::PromptError>;
        Ok(self.call::<(&str,), (Outcome,)>(store, "get-prompt", (name,)).await?.0.into_contract())
    }

    pub(super) async fn complete(
        &mut self,
        store: &mut Store<StoreData>,
        request: &contract::CompletionRequest,
    ) -> GuestResult<Result<contract::CompletionResponse, contract::CompletionError>> {
        type Outcome = Result<wit::CompletionResponse, wit::CompletionError>;
        let request = completion_request(request);
        Ok(self.call::<(&wit::CompletionRequest,), (Outcome,)>(store, "complete", (&request,)).await?.0.into_contract())
    }

    /// 25.6.18 has no resource templates.
    pub(super) async fn list_resource_templates(
        &mut self,
        _store: &mut Store<StoreData>,
    ) -> GuestResult<Vec<contract::ResourceTemplate>> {
        Ok(Vec::new())
    }

    /// 25.6.18's `get-prompt` takes no arguments: the prompt is got without
    /// them.
    pub(super) async fn get_prompt_with_arguments(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
        _arguments: &[(String, String)],
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        self.get_prompt(store, name).await
    }

    /// 25.6.18 has no subscriptions.
    pub(super) async fn subscription(
        &mut self,
        _store: &mut Store<StoreData>,
        _uri: &str,
        _subscribe: bool,
    ) -> GuestResult<Result<(), contract::ResourceError>> {
        let refused = "a wasix:mcp@25.6.18 router has no resource subscriptions";
        Ok(Err(contract::ResourceError::ExecutionError(refused.into())))
    }

    /// 25.6.18 is not told of roots changes.
    pub(super) async fn roots_list_changed(&mut self, _store: &mut Store<StoreData>) -> GuestResult<()> {
        Ok(())
    }
}
