//! The imported `wasix:mcp/router@25.6.18` as the protocol core's
//! [`RouterComponent`] (the adapter built with the `contract-25-6-18`
//! feature): its calls are plain imports, its values converted by the same
//! macro the native host converts them with.

use mcp_wit_protocol::contract::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, GetPromptResult, McpResource, Prompt,
    PromptError, ReadResourceResult, ResourceError, ResourceTemplate, ServerCapabilities, Tool, ToolError,
};
use mcp_wit_protocol::client::{AskError, Question, WaitBound};
use mcp_wit_protocol::contract_25_6_18::{MAX_ELICITATIONS, too_many_elicitations, with_answers};
use mcp_wit_protocol::{CacheHint, CallContext, FaultKind, GuestFault, GuestResult, Router, RouterComponent};

use crate::relay::{carried, relayed};
use crate::wasix::mcp25_6_18::router as wit;

mcp_wit_protocol::contract_from_wit!(@trait);
mcp_wit_protocol::contract_from_wit_25_6_18!();

/// The router this component imports.
#[derive(Clone)]
pub struct Imported;

impl RouterComponent for Imported {
    type Router = ImportedRouter;

    fn label(&self) -> &str {
        "router"
    }

    fn open(&self) -> ImportedRouter {
        ImportedRouter
    }

    /// A 25.6.18 router asks the user by returning `elicit`.
    fn talks_back(&self) -> bool {
        true
    }

    fn cache_hint(&self) -> CacheHint {
        crate::relay::cache_hint()
    }
}

/// A session's way to the imported router. A trap in the router ends the
/// whole component instance: the engine answers that, and a new instance
/// serves what comes next.
pub struct ImportedRouter;

impl Router for ImportedRouter {
    async fn name(&mut self, _: &CallContext) -> GuestResult<String> {
        Ok(wit::name())
    }

    async fn title(&mut self, _: &CallContext) -> GuestResult<Option<String>> {
        Ok(wit::title())
    }

    async fn instructions(&mut self, _: &CallContext) -> GuestResult<String> {
        Ok(wit::instructions())
    }

    /// `describe-server()`'s capabilities, as the native host takes them.
    async fn capabilities(&mut self, _: &CallContext) -> GuestResult<ServerCapabilities> {
        Ok(carried(wit::describe_server().capabilities.into_contract()))
    }

    async fn list_tools(&mut self, _: &CallContext) -> GuestResult<Vec<Tool>> {
        Ok(wit::list_tools().into_contract())
    }

    /// `call-tool`, again after each elicitation with the answers so far,
    /// until the router completes or fails, at most [`MAX_ELICITATIONS`]
    /// questions, as the native host calls it. A question that ends a
    /// 2026-07-28 round ends the request with it (the client's retry runs the
    /// call again, the answers given by then).
    async fn call_tool(
        &mut self,
        cx: &CallContext,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<CallToolResult, ToolError>> {
        let mut answers: Vec<String> = Vec::new();
        loop {
            // A client's own `_elicitations` never reaches the router.
            let given = with_answers(arguments, &answers);
            let request = match relayed(cx, || wit::call_tool(name, &given)) {
                Ok(wit::Response::Completed(result)) => return Ok(Ok(result.into_contract())),
                Ok(wit::Response::Elicit(request)) => request,
                Err(error) => return Ok(Err(error.into_contract())),
            };
            if answers.len() == MAX_ELICITATIONS {
                return Ok(Err(ToolError::ExecutionError(too_many_elicitations(name))));
            }
            let asked = match (elicitation_params(&request), &cx.client) {
                (Ok(params), Some(link)) => link.ask(Question::Elicit, Some(&params), WaitBound::answered_at_hand()).await,
                (Ok(_), None) => unreachable!("the session links every request of a router that talks back"),
                (Err(why), _) => {
                    eprintln!("adapter: the tool `{name}` asked the user for input, but {why}");
                    return Ok(Err(ToolError::ExecutionError(format!(
                        "the tool `{name}` asked the user for input, but {why}"
                    ))));
                }
            };
            match asked {
                Ok(answer) => answers.push(answer.get().to_owned()),
                Err(AskError::Client(error)) => {
                    let message = format!("the tool `{name}` asked the user for input, which failed: {error}");
                    return Ok(Err(ToolError::ExecutionError(message)));
                }
                Err(_) => return Err(GuestFault::new(FaultKind::InputRequired, "`call-tool` asked the user: input required")),
            }
        }
    }

    async fn list_resources(&mut self, _: &CallContext) -> GuestResult<Vec<McpResource>> {
        Ok(wit::list_resources().into_contract())
    }

    async fn read_resource(
        &mut self,
        cx: &CallContext,
        uri: &str,
    ) -> GuestResult<Result<ReadResourceResult, ResourceError>> {
        Ok(relayed(cx, || wit::read_resource(uri)).into_contract())
    }

    async fn list_prompts(&mut self, _: &CallContext) -> GuestResult<Vec<Prompt>> {
        Ok(wit::list_prompts().into_contract())
    }

    async fn get_prompt(&mut self, cx: &CallContext, name: &str) -> GuestResult<Result<GetPromptResult, PromptError>> {
        Ok(relayed(cx, || wit::get_prompt(name)).into_contract())
    }

    async fn complete(
        &mut self,
        _: &CallContext,
        request: &CompletionRequest,
    ) -> GuestResult<Result<CompletionResponse, CompletionError>> {
        Ok(wit::complete(&completion_request(request)).into_contract())
    }

    // 25.6.18 has no extension: the session, told so by `extends`, does not
    // call what follows; each answers as the native host does.

    async fn list_resource_templates(&mut self, _: &CallContext) -> GuestResult<Vec<ResourceTemplate>> {
        Ok(Vec::new())
    }

    async fn get_prompt_with_arguments(
        &mut self,
        cx: &CallContext,
        name: &str,
        _arguments: &[(String, String)],
    ) -> GuestResult<Result<GetPromptResult, PromptError>> {
        self.get_prompt(cx, name).await
    }

    async fn subscription(&mut self, _: &CallContext, _: &str, _: bool) -> GuestResult<Result<(), ResourceError>> {
        let refused = "a wasix:mcp@25.6.18 router has no resource subscriptions";
        Ok(Err(ResourceError::ExecutionError(refused.into())))
    }

    async fn roots_list_changed(&mut self, _: &CallContext) -> GuestResult<()> {
        Ok(())
    }

    fn retire(&mut self) {
        // One instance for the component's life: nothing to drop.
    }
}
