// rmcp's own client, as a real peer, in both eras of MCP: the legacy
// lifecycle (`initialize`, which must settle on 2025-11-25) and rmcp's auto
// lifecycle (a `server/discover` probe, then per-request envelopes, which must
// settle on 2026-07-28). Against `mcp-wit serve` over stdio and over
// Streamable HTTP, and against the embedded `RouterHandler` served by rmcp's
// own server, with the `conformance` fixture (`components/conformance`). (A
// handler of one's own with native tools beside the guest's is in
// embedding/native_tools.rs.)

use std::process::Stdio;
use std::time::Duration;

use mcp_wit::rmcp::RouterHandler;
use mcp_wit::{CacheHint, CacheScope, LoadedRouter, SandboxPolicy};
use mcp_wit_tests::support;
use rmcp::model::{
    CacheScope as RmcpCacheScope, CallToolRequestParams, ProtocolVersion, ReadResourceRequestParams, ResourceContents,
    ResultType,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::{IntoTransport, StreamableHttpClientTransport, TokioChildProcess};
use support::http::HttpServer;
use support::{ANSWER_TIMEOUT, fixture, fixture_arg, rpc_error, text_of};

/// The fixture's name, as its `serverInfo` gives it.
const SERVER_NAME: &str = "mcp-wit-conformance";

/// The lifecycle a client starts with.
#[derive(Clone, Copy, Debug)]
enum Era {
    /// `initialize`, as `ServiceExt::serve` does.
    Legacy,
    /// rmcp's auto lifecycle: `server/discover` first, `initialize` only if
    /// the server turns out to be legacy.
    Modern,
}

impl Era {
    fn lifecycle(self) -> ClientLifecycleMode {
        match self {
            Era::Legacy => ClientLifecycleMode::Initialize,
            Era::Modern => ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: Some(ProtocolVersion::V_2025_11_25),
            },
        }
    }

    /// The revision the client must end up speaking.
    fn negotiated(self) -> ProtocolVersion {
        match self {
            Era::Legacy => ProtocolVersion::V_2025_11_25,
            Era::Modern => ProtocolVersion::V_2026_07_28,
        }
    }
}

/// Connects rmcp's client (no handler of its own) over `transport` in `era`.
async fn connect<T, E, A>(transport: T, era: Era) -> RunningService<RoleClient, ()>
where
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    tokio::time::timeout(ANSWER_TIMEOUT, ().serve_with_lifecycle(transport, era.lifecycle()))
        .await
        .expect("the client connected in time")
        .unwrap_or_else(|e| panic!("the {era:?} client could not connect: {e}"))
}

/// `mcp-wit serve conformance.wasm` on stdio, as rmcp spawns a server.
fn spawn_stdio() -> TokioChildProcess {
    let mut command = tokio::process::Command::new(support::binary());
    command.args(["serve", &fixture_arg("conformance")]);
    let (process, _) = TokioChildProcess::builder(command).stderr(Stdio::null()).spawn().expect("spawn mcp-wit serve");
    process
}

/// What every connection is asked, in either era: the negotiated revision,
/// the server's name, a tool listed and called, a resource read, a missing
/// resource refused with the era's code.
async fn exercise(client: &RunningService<RoleClient, ()>, era: Era) {
    let info = client.peer_info().expect("the server's info");
    assert_eq!(info.protocol_version, era.negotiated(), "{era:?}: {info:?}");
    assert_eq!(info.server_info.as_ref().map(|s| s.name.as_str()), Some(SERVER_NAME), "{era:?}: {info:?}");
    assert!(info.capabilities.tools.is_some() && info.capabilities.resources.is_some(), "{era:?}: {info:?}");

    let tools = client.list_all_tools().await.unwrap_or_else(|e| panic!("{era:?} tools/list: {e}"));
    assert!(tools.iter().any(|t| t.name == "test_simple_text"), "{era:?}: {tools:?}");

    let called = client
        .call_tool(CallToolRequestParams::new("test_simple_text"))
        .await
        .unwrap_or_else(|e| panic!("{era:?} tools/call: {e}"));
    assert_eq!(text_of(&called), "This is a simple text response for testing.", "{era:?}");
    assert_ne!(called.is_error, Some(true), "{era:?}: {called:?}");

    let read = client
        .read_resource(ReadResourceRequestParams::new("test://static-text"))
        .await
        .unwrap_or_else(|e| panic!("{era:?} resources/read: {e}"));
    match read.contents.as_slice() {
        [ResourceContents::TextResourceContents { uri, text, .. }] => {
            assert_eq!(uri, "test://static-text", "{era:?}");
            assert_eq!(text, "This is the content of the static text resource.", "{era:?}");
        }
        other => panic!("{era:?}: expected one text item, got {other:?}"),
    }
    match era {
        // The 2025 shape: no discriminator, no cache hint.
        Era::Legacy => {
            assert_eq!(read.result_type, None, "{read:?}");
            assert_eq!((read.ttl_ms, read.cache_scope), (None, None), "{read:?}");
        }
        // Stamped: complete, with a cache hint and the server's name.
        Era::Modern => {
            assert_eq!(read.result_type, Some(ResultType::COMPLETE), "{read:?}");
            assert!(read.ttl_ms.is_some() && read.cache_scope.is_some(), "{read:?}");
            let meta = read.meta.as_ref().expect("a modern result's _meta");
            assert_eq!(meta["io.modelcontextprotocol/serverInfo"]["name"], SERVER_NAME, "{read:?}");
        }
    }

    let missing = rpc_error(client.read_resource(ReadResourceRequestParams::new("test://no-such-resource")).await);
    let code = match era {
        Era::Legacy => -32002,
        Era::Modern => -32602,
    };
    assert_eq!(missing.code.0, code, "{era:?}: {missing:?}");
}

async fn over_stdio(era: Era) {
    let client = connect(spawn_stdio(), era).await;
    exercise(&client, era).await;
    client.cancel().await.expect("the client closes");
}

async fn over_http(era: Era) {
    let server = HttpServer::start(&[&fixture_arg("conformance")]).await;
    let client = connect(StreamableHttpClientTransport::from_uri(server.url()), era).await;
    exercise(&client, era).await;
    client.cancel().await.expect("the client closes");
    server.stop().await;
}

#[tokio::test]
async fn a_legacy_rmcp_client_over_stdio_speaks_2025_11_25() {
    over_stdio(Era::Legacy).await;
}

#[tokio::test]
async fn a_modern_rmcp_client_over_stdio_speaks_2026_07_28() {
    over_stdio(Era::Modern).await;
}

#[tokio::test]
async fn a_legacy_rmcp_client_over_http_speaks_2025_11_25() {
    over_http(Era::Legacy).await;
}

#[tokio::test]
async fn a_modern_rmcp_client_over_http_speaks_2026_07_28() {
    over_http(Era::Modern).await;
}

/// The conformance fixture, in process, with a cache hint of its own.
fn conformance(hint: CacheHint) -> LoadedRouter {
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    let policy = SandboxPolicy::builder("conformance").build();
    LoadedRouter::from_file(&engine, &fixture("conformance"), policy).expect("load the fixture").with_cache_hint(hint)
}

/// A `RouterHandler` served by rmcp's own server, in memory, with rmcp's
/// client connected in `era`.
async fn embedded(component: LoadedRouter, era: Era) -> RunningService<RoleClient, ()> {
    connect(support::serve_in_memory(RouterHandler::new(component)), era).await
}

#[tokio::test]
async fn the_embedded_router_handler_serves_a_modern_rmcp_client() {
    let hint = CacheHint { ttl_ms: 5_000, scope: CacheScope::Private };
    let client = tokio::time::timeout(Duration::from_secs(120), embedded(conformance(hint), Era::Modern))
        .await
        .expect("connected in time");
    exercise(&client, Era::Modern).await;

    // The probe was answered by the session: the routers' instructions, and
    // the revisions served per request with the component's cache hint.
    let info = client.peer_info().expect("the server's info");
    assert_eq!(
        info.instructions.as_deref(),
        Some("Fixtures for the MCP conformance suite's server scenarios."),
        "{info:?}"
    );
    let meta = rmcp::model::RequestMetaObject::with_client_context(
        ProtocolVersion::V_2026_07_28,
        rmcp::model::Implementation::new("rmcp-eras", "0"),
        Default::default(),
    );
    let discovered = client.discover(meta).await.expect("server/discover");
    assert_eq!(discovered.supported_versions, [ProtocolVersion::V_2026_07_28], "{discovered:?}");
    assert_eq!((discovered.ttl_ms, discovered.cache_scope), (5_000, RmcpCacheScope::Private), "{discovered:?}");
    assert_eq!(discovered.server_info().map(|s| s.name), Some(SERVER_NAME.to_owned()), "{discovered:?}");

    // Lists carry the component's scope; a list the router declares it may
    // change (`listChanged`, as this one does) is never kept: ttl 0.
    let tools = client.list_tools(None).await.expect("tools/list");
    assert_eq!((tools.ttl_ms, tools.cache_scope), (Some(0), Some(RmcpCacheScope::Private)), "{tools:?}");
    assert_eq!(tools.result_type, Some(ResultType::COMPLETE), "{tools:?}");
    client.cancel().await.expect("the client closes");
}

#[tokio::test]
async fn the_embedded_router_handler_still_serves_a_legacy_rmcp_client() {
    let client =
        tokio::time::timeout(Duration::from_secs(120), embedded(conformance(CacheHint::default()), Era::Legacy))
            .await
            .expect("connected in time");
    exercise(&client, Era::Legacy).await;
    let tools = client.list_tools(None).await.expect("tools/list");
    assert!(tools.result_type.is_none() && tools.ttl_ms.is_none() && tools.cache_scope.is_none(), "{tools:?}");
    client.cancel().await.expect("the client closes");
}
