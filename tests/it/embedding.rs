// The embedding API. The rmcp adapter (`mcp_wit::rmcp::RouterHandler`) served
// over an in-memory pipe to a real rmcp client, with the `everything` fixture
// (see `components/everything/README.md`): what a client sees must be what
// `mcp-wit serve` sends, errors and fault recovery included; and a handler of
// one's own can put native tools beside the guest's. Then the HTTP endpoints
// merged into an axum app of the test's own.

use std::borrow::Cow;
use std::time::Duration;

use mcp_wit::rmcp::RouterHandler;
use mcp_wit::runtime::limits::Limits;
use mcp_wit::transport::http::{HttpOptions, axum_router};
use mcp_wit::{CacheHint, CacheScope, LoadedRouter, SandboxPolicy, SessionOptions};
use mcp_wit_tests::support;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    ArgumentInfo, CacheScope as RmcpCacheScope, CallToolRequest, CallToolRequestParams, CallToolResponse,
    ClientRequest, CompleteRequestParams, DiscoverResult, GetPromptRequestParams, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, Reference, ResourceContents,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, PeerRequestOptions, RequestContext, RoleClient, RoleServer, RunningService,
};
use rmcp::{ClientHandler, ErrorData, ServerHandler, ServiceExt, tool, tool_router};
use serde_json::{Value, json};
use support::http::RawClient;
use support::{ProgressRecorder, TOOLS, call, fixture, rpc_error, text_of};

fn load(name: &str) -> LoadedRouter {
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    let policy = SandboxPolicy::builder(name).build();
    LoadedRouter::from_file(&engine, &fixture(name), policy).expect("load the fixture")
}

/// Serves `server` on one end of an in-memory pipe and connects `client` to
/// the other.
async fn connect<S, C>(server: S, client: C) -> RunningService<RoleClient, C>
where
    S: ServerHandler,
    C: ClientHandler,
{
    let client_end = support::serve_in_memory(server);
    tokio::time::timeout(Duration::from_secs(60), client.serve(client_end))
        .await
        .expect("initialize in time")
        .expect("the client connects")
}

#[tokio::test]
async fn serves_the_guest_through_rmcp() {
    let recorder = ProgressRecorder::default();
    let client = connect(RouterHandler::new(load("everything")), recorder.clone()).await;

    // initialize: the guest's name, instructions and capabilities.
    let info = client.peer_info().expect("server info");
    assert_eq!(info.server_info.as_ref().map(|s| s.name.as_str()), Some("everything"));
    assert_eq!(info.instructions.as_deref(), Some("Exercises every part of the wasix:mcp router contract."));
    assert_eq!(info.protocol_version.as_str(), "2025-11-25");
    let capabilities = serde_json::to_value(&info.capabilities).unwrap();
    assert_eq!(capabilities["tools"], json!({ "listChanged": true }));
    assert_eq!(capabilities["resources"], json!({ "subscribe": false, "listChanged": true }));
    assert_eq!(capabilities["completions"], json!({}));

    // Tools, with their schemas and annotations.
    let tools = client.list_all_tools().await.expect("tools/list");
    assert_eq!(tools.iter().map(|t| t.name.as_ref()).collect::<Vec<_>>(), TOOLS);
    let echo = &tools[0];
    assert_eq!(echo.description.as_deref(), Some("Echoes its text argument"));
    assert_eq!(echo.input_schema.get("required"), Some(&json!(["text"])));
    assert_eq!(echo.annotations.as_ref().and_then(|a| a.read_only_hint), Some(true));

    let result = client.call_tool(call("echo", json!({ "text": "hello" }))).await.expect("echo");
    assert_eq!(text_of(&result), "hello");
    let result = client.call_tool(call("add", json!({ "a": 2, "b": 3.5 }))).await.expect("add");
    assert_eq!(text_of(&result), r#"{"sum":5.5}"#);
    assert_eq!(result.structured_content, Some(json!({ "sum": 5.5 })), "add declares an output schema");

    // Progress reaches the client before the result.
    let result = client.call_tool(call("progress", json!({}))).await.expect("progress");
    assert_eq!(text_of(&result), "done");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while recorder.seen.lock().unwrap().len() < 4 {
        assert!(tokio::time::Instant::now() < deadline, "on_progress was not called four times");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut progress: Vec<f64> = recorder.seen.lock().unwrap().iter().map(|p| p.progress).collect();
    progress.sort_by(f64::total_cmp);
    assert_eq!(progress, [0.25, 1.25, 2.25, 10.0]);

    // Resources, prompts and completions.
    let resources = client.list_all_resources().await.expect("resources/list");
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["everything://text", "everything://blob", "everything://broken"]);
    let read = client.read_resource(ReadResourceRequestParams::new("everything://text")).await.expect("read");
    match &read.contents[..] {
        [ResourceContents::TextResourceContents { text, mime_type, .. }] => {
            assert_eq!((text.as_str(), mime_type.as_deref()), ("hello from a resource", Some("text/plain")));
        }
        other => panic!("expected one text content: {other:?}"),
    }
    let prompt = client.get_prompt(GetPromptRequestParams::new("greeting")).await.expect("prompts/get");
    assert_eq!(prompt.messages.len(), 1);
    let completion = client
        .complete(CompleteRequestParams::new(Reference::for_prompt("greeting"), ArgumentInfo::new("who", "lang-14")))
        .await
        .expect("completion/complete");
    assert_eq!(completion.completion.values, (140..150).map(|i| format!("lang-{i}")).collect::<Vec<_>>());
    assert!(client.list_all_resource_templates().await.expect("templates").is_empty());

    client.cancel().await.expect("close");
}

#[tokio::test]
async fn guest_errors_are_the_sessions_errors() {
    let client = connect(RouterHandler::new(load("everything")), ()).await;

    let error = rpc_error(client.call_tool(call("nope", json!({}))).await);
    assert_eq!((error.code.0, error.message.as_ref()), (-32602, "Unknown tool: nope"));

    // A tool's own failure is a result flagged as an error, as 2025-11-25 asks.
    let result = client.call_tool(call("fail", json!({ "kind": "execution-error" }))).await.expect("fail");
    assert_eq!(result.is_error, Some(true));
    // Arguments that break the tool's input schema never reach the guest.
    let result = client.call_tool(call("echo", json!({}))).await.expect("echo without text");
    let refused = "Invalid arguments for tool `echo`: \"text\" is a required property";
    assert_eq!((text_of(&result), result.is_error), (refused, Some(true)));

    let error = rpc_error(client.read_resource(ReadResourceRequestParams::new("everything://nope")).await);
    assert_eq!(error.code.0, -32002);
    assert_eq!(error.data, Some(json!({ "uri": "everything://nope" })));
    let error = rpc_error(client.read_resource(ReadResourceRequestParams::new("everything://broken")).await);
    assert_eq!((error.code.0, error.message.as_ref()), (-32603, "storage offline"));
    let error = rpc_error(client.get_prompt(GetPromptRequestParams::new("broken")).await);
    assert_eq!((error.code.0, error.message.as_ref()), (-32603, "prompt store unavailable"));

    // A trap fails its own request; the next one gets a fresh instance.
    for expected in ["1", "2"] {
        let result = client.call_tool(call("counter", json!({}))).await.expect("counter");
        assert_eq!(text_of(&result), expected);
    }
    let error = rpc_error(client.call_tool(call("panic", json!({}))).await);
    assert_eq!(error.code.0, -32603);
    assert_eq!(error.message, "the router `everything` failed: deliberate panic in the panic tool");
    let result = client.call_tool(call("counter", json!({}))).await.expect("counter after the trap");
    assert_eq!(text_of(&result), "1", "a fresh instance counts from one");

    client.cancel().await.expect("close");
}

#[tokio::test]
async fn a_cancelled_call_stops_the_guest() {
    // Without cancellation the spinning call would hold the session for two minutes.
    let limits = Limits { timeout: Duration::from_secs(120), ..Limits::default() };
    let client = connect(RouterHandler::new(load("hostile").with_limits(limits)), ()).await;
    let spin = ClientRequest::CallToolRequest(CallToolRequest::new(call("spin", json!({}))));
    let handle = client.send_cancellable_request(spin, PeerRequestOptions::no_options()).await.expect("send spin");
    tokio::time::sleep(Duration::from_millis(300)).await;
    handle.cancel(Some("enough".into())).await.expect("cancel");
    let next = tokio::time::timeout(Duration::from_secs(20), client.call_tool(call("counter", json!({}))));
    let result = next.await.expect("answered once the spin stopped").expect("counter");
    assert_eq!(text_of(&result), "1");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn server_config_is_the_guests_before_any_client() {
    let handler = RouterHandler::new(load("everything"));
    let config = handler.server_config().await.expect("server config");
    assert_eq!(config.server_info.name, "everything");
    assert!(config.capabilities.prompts.is_some());
    assert_eq!(handler.get_info(), config, "cached");
}

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

#[tokio::test]
async fn axum_router_serves_mcp_beside_the_apps_routes() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|&stop| stop).await;
    };
    let mcp = axum_router(load("hello"), SessionOptions::default(), HttpOptions::new(addr), stopped(stopping.clone()))
        .expect("the options work");
    let app = axum::Router::new().route("/health", axum::routing::get(|| async { "ok" })).merge(mcp);
    let server =
        tokio::spawn(async move { axum::serve(listener, app).with_graceful_shutdown(stopped(stopping)).await });

    let mut client = RawClient::new(format!("http://{addr}/mcp"));
    let reply = client.initialize("2025-11-25").await;
    assert_eq!(reply.response()["result"]["serverInfo"]["name"], "hello");
    let answer = client.request(1, "tools/call", json!({ "name": "hello", "arguments": { "name": "axum" } })).await;
    assert_eq!(answer["result"]["content"][0]["text"], "Hello, axum!");

    // The MCP routes keep their checks; the app's own routes are not subject to them.
    let foreign = [("origin", "http://evil.example")];
    let refused = client.post_raw(&foreign, json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" }).to_string()).await;
    assert_eq!(refused.status, reqwest::StatusCode::FORBIDDEN);
    let health = client.http.get(format!("http://{addr}/health")).header("origin", "http://evil.example").send();
    let health = health.await.unwrap();
    assert_eq!((health.status(), health.text().await.unwrap().as_str()), (reqwest::StatusCode::OK, "ok"));

    // An open server-to-client stream ends at shutdown, so the app can stop.
    let stream = client.get_stream(&client.url, &[]).await;
    assert_eq!(stream.status(), reqwest::StatusCode::OK);
    stop.send_replace(true);
    let body = tokio::time::timeout(Duration::from_secs(10), stream.text()).await.expect("the stream ended");
    assert!(body.is_ok(), "{body:?}");
    let served = tokio::time::timeout(Duration::from_secs(10), server).await.expect("the app stopped");
    served.unwrap().expect("served without error");
}

#[tokio::test]
async fn typed_calls_block_or_await_and_instances_keep_to_their_kind() {
    use mcp_wit::{CallMode, contract};
    let component = load("everything");
    let arguments = r#"{"text":"same either way"}"#;
    let text = |result: contract::CallToolResult| match &result.content[..] {
        [contract::Content::Text(t)] => t.text.clone(),
        other => panic!("one text item expected: {other:?}"),
    };

    let mut blocking = component.instantiate().expect("a blocking instance");
    let mut asynchronous = component.instantiate_async().await.expect("an async instance");
    assert_eq!((blocking.calls(), asynchronous.calls()), (CallMode::Blocking, CallMode::Async));
    let blocked = blocking.call_tool("echo", arguments).expect("no fault").expect("a result");
    let awaited = asynchronous.call_tool_async("echo", arguments).await.expect("no fault").expect("a result");
    assert_eq!(text(blocked), "same either way");
    assert_eq!(text(awaited), "same either way");
    // Every router function, both ways, with the same answers.
    assert_eq!(blocking.name().unwrap(), asynchronous.name_async().await.unwrap());
    assert_eq!(blocking.list_tools().unwrap().len(), asynchronous.list_tools_async().await.unwrap().len());
    assert_eq!(blocking.list_prompts().unwrap().len(), asynchronous.list_prompts_async().await.unwrap().len());
    assert_eq!(blocking.list_resources().unwrap().len(), asynchronous.list_resources_async().await.unwrap().len());
    // `_async` works on a blocking instance; a blocking call on an async one
    // is refused, naming the way out, and the instance goes on.
    assert_eq!(count_async(&mut blocking).await, 1);
    let refused = asynchronous.call_tool("echo", arguments).expect_err("refused");
    assert!(refused.message.contains("_async"), "{}", refused.message);
    assert_eq!(text(asynchronous.call_tool_async("echo", arguments).await.unwrap().unwrap()), "same either way");
}

/// `counter` through the `_async` method.
async fn count_async(instance: &mut mcp_wit::runtime::RouterInstance) -> u64 {
    use mcp_wit::contract;
    let result = instance.call_tool_async("counter", "{}").await.expect("no fault").expect("a result");
    match &result.content[..] {
        [contract::Content::Text(t)] => t.text.parse().expect("a count"),
        other => panic!("one text item expected: {other:?}"),
    }
}

#[tokio::test]
async fn a_session_driven_both_ways_replaces_an_instance_of_the_other_kind() {
    let component = load("everything");
    let mut session = mcp_wit::Session::new(component, SessionOptions::default());
    let mut out: Vec<Vec<u8>> = Vec::new();
    let initialize = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params("2025-11-25") });
    session.handle_async(initialize.to_string().as_bytes(), &mut out).await;
    let counter = |id: i64| {
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": "counter" } }).to_string()
    };
    let count = |out: &Vec<Vec<u8>>| {
        let answer: Value = serde_json::from_slice(out.last().expect("an answer")).unwrap();
        answer["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{answer}")).to_owned()
    };
    session.handle_async(counter(1).as_bytes(), &mut out).await;
    session.handle_async(counter(2).as_bytes(), &mut out).await;
    assert_eq!(count(&out), "2", "one async instance");
    // Blocking now: a fresh instance of the blocking kind.
    session.handle(counter(3).as_bytes(), &mut out);
    assert_eq!(count(&out), "1");
    session.handle(counter(4).as_bytes(), &mut out);
    assert_eq!(count(&out), "2");
}

#[tokio::test]
async fn async_calls_on_an_engine_without_fiber_stacks_say_what_to_change() {
    let options = mcp_wit::EngineOptions { async_calls: false, ..Default::default() };
    let engine = options.build().expect("engine");
    let policy = SandboxPolicy::builder("echo").build();
    let component = LoadedRouter::from_file(&engine, &fixture("echo"), policy).expect("load echo");
    let fault = match component.instantiate_async().await {
        Ok(_) => panic!("no fiber stacks, yet an async instance"),
        Err(fault) => fault,
    };
    assert!(fault.message.contains("EngineOptions::async_calls"), "{}", fault.message);
    // Blocking calls need no fiber: they work.
    assert!(component.instantiate().is_ok());
}

#[tokio::test]
async fn a_handle_async_dropped_mid_call_costs_the_next_request_nothing() {
    let mut session = mcp_wit::Session::new(load("hostile"), SessionOptions::default());
    let mut out: Vec<Vec<u8>> = Vec::new();
    let initialize = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params("2025-11-25") });
    session.handle_async(initialize.to_string().as_bytes(), &mut out).await;
    let call = |id: i64, name: &str, arguments: Value| {
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": name, "arguments": arguments } })
            .to_string()
    };
    // The caller gives up on a guest that sleeps for a minute: the future is
    // dropped while the guest waits in the host.
    let sleep = call(1, "sleep", json!({ "secs": 60 }));
    let gave_up = tokio::time::timeout(Duration::from_millis(200), session.handle_async(sleep.as_bytes(), &mut out));
    assert!(gave_up.await.is_err(), "the sleep cannot have finished");
    // The next request is answered, by a fresh instance.
    out.clear();
    session.handle_async(call(2, "counter", json!({})).as_bytes(), &mut out).await;
    let answer: Value = serde_json::from_slice(out.last().expect("an answer")).unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], "1", "{answer}");
}

#[test]
fn one_shared_instance_serves_blocking_sessions_on_many_threads() {
    let component = load("everything").with_instance_mode(mcp_wit::InstanceMode::Shared);
    let options = SessionOptions::default();
    let initialize = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params("2025-11-25") }).to_string();
    let counter =
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "counter" } }).to_string();
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (component, options) = (component.clone(), options.clone());
            let (initialize, counter) = (initialize.clone(), counter.clone());
            std::thread::spawn(move || {
                let mut session = mcp_wit::Session::new(component, options);
                let mut out: Vec<Vec<u8>> = Vec::new();
                session.handle(initialize.as_bytes(), &mut out);
                for _ in 0..50 {
                    session.handle(counter.as_bytes(), &mut out);
                }
                out
            })
        })
        .collect();
    for thread in threads {
        let out = thread.join().expect("no panic");
        assert_eq!(out.len(), 51, "every call answered");
    }
    // The four sessions' 200 calls all went to the one instance.
    let mut session = mcp_wit::Session::new(component, options);
    let mut out: Vec<Vec<u8>> = Vec::new();
    session.handle(initialize.as_bytes(), &mut out);
    session.handle(counter.as_bytes(), &mut out);
    let answer: Value = serde_json::from_slice(out.last().unwrap()).unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], "201", "{answer}");
}

/// The text of a tool's result, from an instance call.
fn called(
    result: Result<Result<mcp_wit::contract::CallToolResult, mcp_wit::contract::ToolError>, mcp_wit::GuestFault>,
) -> String {
    format!("{:?}", result.expect("the guest ran").expect("the tool succeeded"))
}

#[tokio::test]
async fn instances_beyond_the_pool_are_allocated_on_demand() {
    // Two slots: every instance after them comes from the on-demand engine.
    let engine = mcp_wit::EngineOptions { pool_instances: 2, ..Default::default() }.build().expect("engine");
    let echo =
        LoadedRouter::from_file(&engine, &mcp_wit_tests::fixture("echo"), SandboxPolicy::builder("echo").build())
            .expect("load echo");
    let plugin_path = mcp_wit_tests::plugin_fixture("pdk-plugin");
    let plugin = LoadedRouter::from_file(&engine, &plugin_path, SandboxPolicy::builder("pdk").build()).expect("load");
    let mut alive = Vec::new();
    for i in 0..6 {
        let text = format!("instance {i}");
        let arguments = json!({ "text": text }).to_string();
        let mut blocking = echo.instantiate().expect("a blocking instance, in the pool or beyond it");
        assert!(called(blocking.call_tool("echo", &arguments)).contains(&text));
        let mut made_async = echo.instantiate_async().await.expect("an async instance, in the pool or beyond it");
        assert!(called(made_async.call_tool_async("echo", &arguments).await).contains(&text));
        alive.extend([blocking, made_async]);
    }
    for word in ["pool", "demand"] {
        let mut instance = plugin.instantiate_async().await.expect("a plugin instance beyond the pool");
        let reversed: String = word.chars().rev().collect();
        let arguments = json!({ "text": word }).to_string();
        assert!(called(instance.call_tool_async("reverse", &arguments).await).contains(&reversed));
        alive.push(instance);
    }
    // Every instance stays usable while the others live.
    for instance in &mut alive[..2] {
        assert!(called(instance.call_tool_async("echo", r#"{"text":"again"}"#).await).contains("again"));
    }
}

/// An HTTP server of `component` running in this test, with its reloader.
struct Reloadable {
    url: String,
    reloader: mcp_wit::transport::http::Reloader,
    stop: tokio::sync::oneshot::Sender<()>,
    running: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Reloadable {
    async fn start(component: LoadedRouter, options: HttpOptions) -> Self {
        let server = mcp_wit::transport::http::HttpServer::bind(component, SessionOptions::default(), options)
            .await
            .expect("binds");
        let url = format!("http://{}/mcp", server.local_addr().expect("an address"));
        let reloader = server.reloader();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let running = tokio::spawn(server.run(async move {
            let _ = stopped.await;
        }));
        Reloadable { url, reloader, stop, running }
    }

    async fn stop(self) {
        self.stop.send(()).expect("the server runs");
        self.running.await.expect("the server task").expect("the server stops cleanly");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reload_under_load_loses_no_call_and_serves_new_sessions_the_new_routers() {
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    let load = |name: &str| {
        let policy =
            SandboxPolicy::builder(name).guest_output(mcp_wit::sandbox::guest_output::OutputTarget::Discard).build();
        LoadedRouter::from_file(&engine, &fixture(name), policy).expect("loads")
    };
    let (echo, hostile) = (load("echo"), load("hostile"));
    let options = HttpOptions::new("127.0.0.1:0".parse().unwrap()).json_response(true);
    let server = Reloadable::start(echo.clone(), options).await;
    let (url, reloader) = (server.url.clone(), server.reloader.clone());

    // Eight sessions call while the routers are replaced back and forth: each
    // is served for its life by the routers it started with, whichever.
    let mut callers = Vec::new();
    for session in 0..8 {
        let mut client = RawClient::new(url.clone());
        callers.push(tokio::spawn(async move {
            client.initialize("2025-11-25").await;
            let tools = client.request(0, "tools/list", json!({})).await;
            let echoes = tools["result"]["tools"].as_array().unwrap().iter().any(|t| t["name"] == "echo");
            for id in 1..=40 {
                let text = format!("session {session} call {id}");
                if echoes {
                    let arguments = json!({ "text": text });
                    let answer =
                        client.request(id, "tools/call", json!({ "name": "echo", "arguments": arguments })).await;
                    assert_eq!(answer["result"]["content"][0]["text"], text, "{answer}");
                } else {
                    let answer = client.request(id, "tools/call", json!({ "name": "counter" })).await;
                    assert_eq!(answer["result"]["content"][0]["text"], id.to_string(), "{answer}");
                }
            }
            (client, echoes)
        }));
    }
    for round in 0..20 {
        reloader.replace(if round % 2 == 0 { hostile.clone() } else { echo.clone() });
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    reloader.replace(hostile.clone());
    let mut sessions = Vec::new();
    for caller in callers {
        sessions.push(caller.await.expect("no call was lost"));
    }

    // A new session gets the new routers; one from before keeps its own.
    let mut fresh = RawClient::new(url.clone());
    fresh.initialize("2025-11-25").await;
    let tools = fresh.request(1, "tools/list", json!({})).await;
    let names: Vec<&str> =
        tools["result"]["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"counter") && !names.contains(&"echo"), "{names:?}");
    // Sessions that started on echo call it still, though hostile is served now.
    for (old, _) in sessions.iter().filter(|(_, echoes)| *echoes) {
        let arguments = json!({ "text": "still echo" });
        let answer = old.request(100, "tools/call", json!({ "name": "echo", "arguments": arguments })).await;
        assert_eq!(answer["result"]["content"][0]["text"], "still echo", "{answer}");
    }
    server.stop().await;
}

/// The `notifications/*/list_changed` methods on a session's GET stream
/// within `wait` (each checked against the schema).
async fn list_changes_heard(
    client: &RawClient,
    events: &mut support::http::EventReader,
    wait: Duration,
) -> Vec<String> {
    let mut heard = Vec::new();
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        // The reader's own wait (it panics) outlasts this one.
        let next = events.next_event(wait + Duration::from_secs(1));
        let Ok(Some(event)) = tokio::time::timeout(left, next).await else { return heard };
        if event.data.is_empty() {
            continue;
        }
        let message: Value = serde_json::from_str(&event.data).expect("JSON events");
        client.check(&message);
        heard.push(message["method"].as_str().expect("a notification").to_string());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_2025_session_moves_to_the_reloaded_routers_once_its_instance_is_recreated() {
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    let load = |name: &str, idle: Option<Duration>| {
        let policy =
            SandboxPolicy::builder(name).guest_output(mcp_wit::sandbox::guest_output::OutputTarget::Discard).build();
        LoadedRouter::from_file(&engine, &fixture(name), policy).expect("loads").with_instance_idle_timeout(idle)
    };
    let tools_of = async |client: &RawClient, id| {
        let listed = client.request(id, "tools/list", json!({})).await;
        let tools = listed["result"]["tools"].as_array().expect("tools").iter();
        tools.map(|t| t["name"].as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    let counter = async |client: &RawClient, id| {
        let answer = client.request(id, "tools/call", json!({ "name": "counter", "arguments": {} })).await;
        answer["result"]["content"][0]["text"].as_str().expect("a count").to_string()
    };

    // After a fault: `everything` is served, then `echo` (no prompts, no
    // resources, other tools).
    let any_port = || HttpOptions::new("127.0.0.1:0".parse().unwrap());
    let server = Reloadable::start(load("everything", None), any_port()).await;
    let (url, reloader) = (&server.url, &server.reloader);
    let mut faulting = RawClient::new(url.clone());
    faulting.initialize("2025-11-25").await;
    let mut events = support::http::EventReader::new(faulting.get_stream(url, &[]).await);
    let mut keeping = RawClient::new(url.clone());
    keeping.initialize("2025-11-25").await;
    for client in [&faulting, &keeping] {
        assert_eq!(counter(client, 1).await, "1");
    }
    reloader.replace(load("echo", None));
    // Its instance lives: the session stays on the version it started on.
    assert_eq!(counter(&faulting, 2).await, "2");
    assert!(list_changes_heard(&faulting, &mut events, Duration::from_millis(300)).await.is_empty());
    // A trap drops the instance; the next request is served by the new version.
    let trapped = faulting.request(3, "tools/call", json!({ "name": "panic", "arguments": {} })).await;
    assert!(trapped["error"].is_object() || trapped["result"]["isError"] == true, "{trapped}");
    assert_eq!(tools_of(&faulting, 4).await, ["echo"]);
    let mut heard = list_changes_heard(&faulting, &mut events, Duration::from_secs(2)).await;
    heard.sort();
    assert_eq!(
        heard,
        [
            "notifications/prompts/list_changed",
            "notifications/resources/list_changed",
            "notifications/tools/list_changed"
        ]
    );
    // A session whose instance lives on keeps its version and state.
    assert_eq!(counter(&keeping, 2).await, "2");
    assert!(tools_of(&keeping, 3).await.contains(&"counter".to_string()));
    server.stop().await;

    // Once idle: the instance is released, and the next request moves on.
    let idle = Some(Duration::from_millis(150));
    let server = Reloadable::start(load("everything", idle), any_port()).await;
    let (url, reloader) = (&server.url, &server.reloader);
    let mut client = RawClient::new(url.clone());
    client.initialize("2025-11-25").await;
    let mut events = support::http::EventReader::new(client.get_stream(url, &[]).await);
    assert_eq!(counter(&client, 1).await, "1");
    reloader.replace(load("everything", idle));
    // Same lists: when it moves (its instance released), it hears nothing.
    let mut moved = false;
    for id in 2..40 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        if counter(&client, id).await == "1" {
            moved = true;
            break;
        }
    }
    assert!(moved, "the idle instance was never released");
    assert!(list_changes_heard(&client, &mut events, Duration::from_millis(300)).await.is_empty());
    reloader.replace(load("echo", idle));
    let mut moved = false;
    for id in 100..140 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        if tools_of(&client, id).await == ["echo"] {
            moved = true;
            break;
        }
    }
    assert!(moved, "the session never moved to the reloaded routers");
    assert_eq!(list_changes_heard(&client, &mut events, Duration::from_secs(2)).await.len(), 3);
    server.stop().await;
}
