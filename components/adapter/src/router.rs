//! The imported router as the protocol core's [`RouterComponent`]: its calls
//! are plain imports, made on the thread that serves the request.

use mcp_wit_protocol::contract::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, GetPromptResult, McpResource, Prompt,
    PromptError, ReadResourceResult, ResourceError, ResourceTemplate, ServerCapabilities, Tool, ToolError,
};
use mcp_wit_protocol::{CacheHint, CallContext, GuestResult, Router, RouterComponent};

use crate::mcp_wit::extension::extension as ext;
use crate::relay::{carried, connected, relayed};
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

    /// `mcp-wit wrap` always plugs the extension: the router's own, or
    /// `plain-extension`, which answers as a router without it is served.
    fn extends(&self) -> bool {
        true
    }

    /// A router that imports the client reaches it through the client cell.
    fn talks_back(&self) -> bool {
        connected()
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

    async fn instructions(&mut self, _: &CallContext) -> GuestResult<String> {
        Ok(wit::instructions())
    }

    async fn capabilities(&mut self, _: &CallContext) -> GuestResult<ServerCapabilities> {
        Ok(carried(wit::capabilities().into_contract()))
    }

    async fn list_tools(&mut self, _: &CallContext) -> GuestResult<Vec<Tool>> {
        Ok(wit::list_tools().into_contract())
    }

    async fn call_tool(
        &mut self,
        cx: &CallContext,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<CallToolResult, ToolError>> {
        let arguments = wit::Value { json: arguments.to_owned() };
        Ok(relayed(cx, || wit::call_tool(name, &arguments)).into_contract())
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

    async fn list_resource_templates(&mut self, cx: &CallContext) -> GuestResult<Vec<ResourceTemplate>> {
        Ok(relayed(cx, ext::list_resource_templates).into_iter().map(resource_template).collect())
    }

    async fn get_prompt_with_arguments(
        &mut self,
        cx: &CallContext,
        name: &str,
        arguments: &[(String, String)],
    ) -> GuestResult<Result<GetPromptResult, PromptError>> {
        Ok(relayed(cx, || ext::get_prompt_with_arguments(name, arguments)).into_contract())
    }

    async fn subscription(
        &mut self,
        cx: &CallContext,
        uri: &str,
        subscribe: bool,
    ) -> GuestResult<Result<(), ResourceError>> {
        let answered = relayed(cx, || if subscribe { ext::subscribe(uri) } else { ext::unsubscribe(uri) });
        Ok(answered.into_contract())
    }

    async fn roots_list_changed(&mut self, cx: &CallContext) -> GuestResult<()> {
        relayed(cx, ext::on_roots_list_changed);
        Ok(())
    }

    fn retire(&mut self) {
        // One instance for the component's life: nothing to drop.
    }
}

fn resource_template(template: ext::ResourceTemplate) -> ResourceTemplate {
    let ext::ResourceTemplate { uri_template, name, title, description, mime_type, annotations } = template;
    ResourceTemplate {
        uri_template,
        name,
        title,
        description,
        mime_type,
        annotations: annotations.into_contract(),
        icons: None,
    }
}
