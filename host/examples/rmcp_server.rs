//! An rmcp server over stdio with a native tool (`reverse`, a `#[tool]`
//! method) beside the tools of a router component; every other request goes
//! to the component.
//!
//! ```sh
//! cargo run -p mcp-wit --example rmcp_server -- router.wasm
//! ```
//!
//! Then speak MCP on stdin, or register the command with a client.

use std::borrow::Cow;

use mcp_wit::rmcp::RouterHandler;
use mcp_wit::{LoadedRouter, SandboxPolicy};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, DiscoverResult,
    GetPromptRequestParams, GetPromptResponse, InitializeRequestParams, InitializeResult, ListPromptsResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ServerConfig, ToolsCapability,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt, tool, tool_router};

/// The server: native tools in `tools`, everything else in `router`.
struct Server {
    router: RouterHandler,
    tools: ToolRouter<Self>,
}

#[derive(serde::Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct ReverseArgs {
    /// The text to reverse.
    text: String,
}

#[tool_router(router = tools)]
impl Server {
    /// A native tool: runs in this process, not in the sandbox.
    #[tool(description = "Reverses a text")]
    fn reverse(&self, Parameters(ReverseArgs { text }): Parameters<ReverseArgs>) -> String {
        text.chars().rev().collect()
    }
}

/// The guest's server info, with the tools capability our own tools need.
fn with_tools(mut info: ServerConfig) -> ServerConfig {
    info.capabilities.tools.get_or_insert_with(ToolsCapability::default);
    info
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        with_tools(self.router.get_info())
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.router.supported_protocol_versions()
    }

    // Through the router, so the guest's session sees the client's revision.
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        self.router.initialize(request, context).await.map(with_tools)
    }

    // A 2026-07-28 client's probe: the guest's answer, with our tools.
    async fn discover(&self, context: RequestContext<RoleServer>) -> Result<DiscoverResult, ErrorData> {
        let mut discovered = self.router.discover(context).await?;
        discovered.capabilities.tools.get_or_insert_with(ToolsCapability::default);
        Ok(discovered)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.router.list_tools_beside(&self.tools, request, context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.router.call_tool_beside(&self.tools, self, request, context).await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.router.list_resources(request, context).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.router.read_resource(request, context).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.router.list_prompts(request, context).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.router.get_prompt(request, context).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.router.complete(request, context).await
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: cargo run -p mcp-wit --example rmcp_server -- ROUTER.wasm")?;
    let engine = mcp_wit::EngineOptions::default().build()?;
    let component = LoadedRouter::load(&engine, path.as_ref(), SandboxPolicy::builder("router").build(), None)?;

    let server = Server { router: RouterHandler::new(component), tools: Server::tools() };
    let running = server.serve((tokio::io::stdin(), tokio::io::stdout())).await?;
    running.waiting().await?;
    Ok(())
}
