//! A handler of one's own: native tools beside the guest's.

use std::borrow::Cow;
use std::time::Duration;

use mcp_wit::rmcp::RouterHandler;
use mcp_wit::{CacheHint, CacheScope};
use mcp_wit_tests::support;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CacheScope as RmcpCacheScope, CallToolRequestParams, CallToolResponse, DiscoverResult, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, tool, tool_router};
use serde_json::json;
use support::{TOOLS, call, rpc_error, text_of};

use super::harness::{connect, load};

/// A server of one's own, as `host/examples/rmcp_server.rs` writes one: a
/// native tool beside the guest's, the revisions served, the 2026-07-28
/// probe and every other request passed to the `RouterHandler`.
struct Combined {
    router: RouterHandler,
    tool_router: ToolRouter<Self>,
}

#[derive(serde::Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct ShoutArgs {
    text: String,
}

#[tool_router]
impl Combined {
    /// Upper-cases its text.
    #[tool(description = "Upper-cases its text")]
    fn shout(&self, Parameters(ShoutArgs { text }): Parameters<ShoutArgs>) -> String {
        text.to_uppercase()
    }
}

impl ServerHandler for Combined {
    fn get_info(&self) -> ServerConfig {
        let info = self.router.get_info();
        let capabilities = ServerCapabilities::builder().enable_tools().build();
        ServerConfig::new(capabilities).with_server_info(info.server_info).with_protocol_version(info.protocol_version)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.router.supported_protocol_versions()
    }

    async fn discover(&self, context: RequestContext<RoleServer>) -> Result<DiscoverResult, ErrorData> {
        self.router.discover(context).await
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.router.list_tools_beside(&self.tool_router, request, context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.router.call_tool_beside(&self.tool_router, self, request, context).await
    }
}

#[tokio::test]
async fn native_tools_sit_beside_the_guests() {
    let combined = Combined { router: RouterHandler::new(load("everything")), tool_router: Combined::tool_router() };
    let client = connect(combined, ()).await;

    let tools = client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names[0], "shout");
    assert_eq!(names[1..], TOOLS);

    let result = client.call_tool(call("shout", json!({ "text": "hi" }))).await.expect("shout");
    assert_eq!(text_of(&result), "HI");
    // The guest answers without ever having seen `initialize`.
    let result = client.call_tool(call("echo", json!({ "text": "hi" }))).await.expect("echo");
    assert_eq!(text_of(&result), "hi");
    let error = rpc_error(client.call_tool(call("nope", json!({}))).await);
    assert_eq!(error.code.0, -32602);

    client.cancel().await.expect("close");
}

#[tokio::test]
async fn native_tools_beside_the_guests_keep_the_modern_stamp() {
    let hint = CacheHint { ttl_ms: 7_000, scope: CacheScope::Public };
    let router = RouterHandler::new(load("conformance").with_cache_hint(hint));
    let combined = Combined { router, tool_router: Combined::tool_router() };
    // rmcp's auto lifecycle: `server/discover` first, then per-request envelopes.
    let lifecycle = ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::V_2025_11_25),
    };
    let client_end = support::serve_in_memory(combined);
    let client = tokio::time::timeout(Duration::from_secs(60), ().serve_with_lifecycle(client_end, lifecycle))
        .await
        .expect("connected in time")
        .expect("the client connects");
    let info = client.peer_info().expect("the server's info");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2026_07_28, "{info:?}");

    let tools = client.list_tools(None).await.expect("tools/list");
    assert_eq!(tools.tools[0].name, "shout", "{tools:?}");
    assert!(tools.tools.iter().any(|t| t.name == "test_simple_text"), "{tools:?}");
    // The conformance router declares `listChanged`: its list may change, so
    // no client may keep it (ttl 0) whatever the hint; the hint's scope stays.
    assert_eq!((tools.ttl_ms, tools.cache_scope), (Some(0), Some(RmcpCacheScope::Public)), "{tools:?}");
    let meta = tools.meta.as_ref().expect("the guest's _meta");
    assert_eq!(meta["io.modelcontextprotocol/serverInfo"]["name"], "mcp-wit-conformance", "{tools:?}");

    let shouted = client.call_tool(call("shout", json!({ "text": "hi" }))).await.expect("shout");
    assert_eq!(text_of(&shouted), "HI");
    let guest = client.call_tool(CallToolRequestParams::new("test_simple_text")).await.expect("the guest's tool");
    assert_eq!(text_of(&guest), "This is a simple text response for testing.");
    client.cancel().await.expect("the client closes");
}
