//! The imported `wasix:mcp/router@25.6.18` as the protocol core's
//! [`RouterComponent`] (the adapter built with the `contract-25-6-18`
//! feature): its calls are plain imports, its values converted by the same
//! macro the native host converts them with.

use mcp_wit_protocol::contract::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, GetPromptResult, McpResource, Prompt,
    PromptError, ReadResourceResult, ResourceError, ResourceTemplate, ServerCapabilities, Tool, ToolError,
};
use mcp_wit_protocol::contract_25_6_18::with_answers;
use mcp_wit_protocol::{CallContext, GuestResult, Router, RouterComponent};

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
        Ok(wit::describe_server().capabilities.into_contract())
    }

    async fn list_tools(&mut self, _: &CallContext) -> GuestResult<Vec<Tool>> {
        Ok(wit::list_tools().into_contract())
    }

    /// A router that completes is answered; one that asks the user
    /// (`response::elicit`) cannot be, here: a request served by an engine
    /// has no way back to the client yet, as for a 25.3.26 router's
    /// questions (`unplugged`), so the call is a tool error that says so.
    async fn call_tool(
        &mut self,
        _: &CallContext,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<CallToolResult, ToolError>> {
        // A client's own `_elicitations` never reaches the router.
        let arguments = with_answers(arguments, &[]);
        Ok(match wit::call_tool(name, &arguments) {
            Ok(wit::Response::Completed(result)) => Ok(result.into_contract()),
            Ok(wit::Response::Elicit(request)) => {
                // Still checked, so a broken request is reported as such.
                let why = match elicitation_params(&request) {
                    Ok(_) => "a router served by an engine cannot ask the client (serve it with `mcp-wit serve` \
                              to have the client answer)"
                        .to_owned(),
                    Err(why) => why,
                };
                Err(ToolError::ExecutionError(format!("the tool `{name}` asked the user for input, but {why}")))
            }
            Err(error) => Err(error.into_contract()),
        })
    }

    async fn list_resources(&mut self, _: &CallContext) -> GuestResult<Vec<McpResource>> {
        Ok(wit::list_resources().into_contract())
    }

    async fn read_resource(
        &mut self,
        _: &CallContext,
        uri: &str,
    ) -> GuestResult<Result<ReadResourceResult, ResourceError>> {
        Ok(wit::read_resource(uri).into_contract())
    }

    async fn list_prompts(&mut self, _: &CallContext) -> GuestResult<Vec<Prompt>> {
        Ok(wit::list_prompts().into_contract())
    }

    async fn get_prompt(&mut self, _: &CallContext, name: &str) -> GuestResult<Result<GetPromptResult, PromptError>> {
        Ok(wit::get_prompt(name).into_contract())
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
