//! The imported router as the protocol core's [`RouterComponent`]: its calls
//! are plain imports, made on the thread that serves the request.

use mcp_wit_protocol::contract::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, GetPromptResult, McpResource, Prompt,
    PromptError, ReadResourceResult, ResourceError, ResourceTemplate, ServerCapabilities, Tool, ToolError,
};
use mcp_wit_protocol::{CallContext, GuestResult, Router, RouterComponent};

use crate::wasix::mcp::router as wit;

mcp_wit_protocol::contract_from_wit!();

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

    async fn instructions(&mut self, _: &CallContext) -> GuestResult<String> {
        Ok(wit::instructions())
    }

    async fn capabilities(&mut self, _: &CallContext) -> GuestResult<ServerCapabilities> {
        Ok(wit::capabilities().into_contract())
    }

    async fn list_tools(&mut self, _: &CallContext) -> GuestResult<Vec<Tool>> {
        Ok(wit::list_tools().into_contract())
    }

    async fn call_tool(
        &mut self,
        _: &CallContext,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<CallToolResult, ToolError>> {
        Ok(wit::call_tool(name, &wit::Value { json: arguments.to_owned() }).into_contract())
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

    // The session calls the extension's functions only for routers that
    // offer it (`RouterComponent::extends`), which this one does not claim:
    // these answer as a router without the extension would be served.

    async fn list_resource_templates(&mut self, _: &CallContext) -> GuestResult<Vec<ResourceTemplate>> {
        Ok(Vec::new())
    }

    async fn get_prompt_with_arguments(
        &mut self,
        _: &CallContext,
        name: &str,
        _arguments: &[(String, String)],
    ) -> GuestResult<Result<GetPromptResult, PromptError>> {
        Ok(wit::get_prompt(name).into_contract())
    }

    async fn subscription(
        &mut self,
        _: &CallContext,
        _uri: &str,
        _subscribe: bool,
    ) -> GuestResult<Result<(), ResourceError>> {
        Ok(Ok(()))
    }

    async fn roots_list_changed(&mut self, _: &CallContext) -> GuestResult<()> {
        Ok(())
    }

    fn retire(&mut self) {
        // One instance for the component's life: nothing to drop.
    }
}
