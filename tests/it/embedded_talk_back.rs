// Routers that talk back through the embedded `RouterHandler`, with rmcp's
// own client and its callbacks as the peer: progress and log messages while
// a tool runs, sampling, elicitation and roots asked of the client, and
// a 2026-07-28 client answering the same questions as rounds, and changes
// reported by one client's request reaching the other clients of
// handlers that share their listeners — a 2025 session by its callbacks, a
// 2026-07-28 client on its `subscriptions/listen` stream.

// rmcp marks sampling, roots and logging deprecated (SEP-2577); a 2025
// session still has them.
#![allow(deprecated)]

use std::time::Duration;

use mcp_wit::rmcp::RouterHandler;
use mcp_wit::{Listeners, LoadedRouter, SandboxPolicy};
use mcp_wit_tests::support;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequestParams, ElicitResult, ElicitationAction, Implementation, ListRootsResult, LoggingLevel,
    LoggingMessageNotificationParam, ProgressNotificationParam, ProtocolVersion, RequestParamsMeta,
    ResourceUpdatedNotificationParam, Root, SamplingMessage, ServerNotification, SubscriptionFilter,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, MaybeSendFuture, NotificationContext, RequestContext, RoleClient,
    RunningService,
};
use rmcp::{ClientHandler, ErrorData, ServiceExt};
use serde_json::{Value, json};
use support::{ANSWER_TIMEOUT, fixture, text_of};
use tokio::sync::mpsc;

/// What the client's callbacks saw, in order.
#[derive(Debug, PartialEq)]
enum Seen {
    Progress(f64),
    Log(String),
    ToolsChanged,
    Updated(String),
}

/// rmcp's client with every callback a router may reach: it answers
/// sampling, elicitation and roots, and reports the notifications it gets.
#[derive(Clone)]
struct Answering {
    seen: mpsc::UnboundedSender<Seen>,
}

impl Answering {
    fn new() -> (Self, mpsc::UnboundedReceiver<Seen>) {
        let (seen, rx) = mpsc::unbounded_channel();
        (Answering { seen }, rx)
    }
}

impl ClientHandler for Answering {
    fn get_info(&self) -> ClientConfig {
        let capabilities = ClientCapabilities::builder().enable_sampling().enable_elicitation().enable_roots().build();
        ClientConfig::new(capabilities, Implementation::new("embedded-talk-back", "0"))
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let asked = serde_json::to_value(&params.messages).unwrap();
        let said = format!("rmcp heard {}", asked[0]["content"]["text"].as_str().unwrap_or("nothing"));
        Ok(CreateMessageResult::new(SamplingMessage::assistant_text(said), "test-model".into()))
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let content = json!({ "username": "ada", "email": "ada@example.com" });
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content))
    }

    async fn list_roots(&self, _context: RequestContext<RoleClient>) -> Result<ListRootsResult, ErrorData> {
        Ok(ListRootsResult::new(vec![Root::new("file:///work/project").with_name("project")]))
    }

    fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) -> impl Future<Output = ()> + MaybeSendFuture + '_ {
        let _ = self.seen.send(Seen::Progress(params.progress));
        std::future::ready(())
    }

    fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) -> impl Future<Output = ()> + MaybeSendFuture + '_ {
        let _ = self.seen.send(Seen::Log(params.data.as_str().unwrap_or_default().to_owned()));
        std::future::ready(())
    }

    fn on_tool_list_changed(
        &self,
        _context: NotificationContext<RoleClient>,
    ) -> impl Future<Output = ()> + MaybeSendFuture + '_ {
        let _ = self.seen.send(Seen::ToolsChanged);
        std::future::ready(())
    }

    fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) -> impl Future<Output = ()> + MaybeSendFuture + '_ {
        let _ = self.seen.send(Seen::Updated(params.uri));
        std::future::ready(())
    }
}

fn conformance() -> LoadedRouter {
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    let policy = SandboxPolicy::builder("conformance").build();
    LoadedRouter::from_file(&engine, &fixture("conformance"), policy).expect("load the fixture")
}

/// `handler` served by rmcp in memory, with `client` connected as a 2025
/// session.
async fn legacy(handler: RouterHandler, client: Answering) -> RunningService<RoleClient, Answering> {
    let transport = support::serve_in_memory(handler);
    tokio::time::timeout(ANSWER_TIMEOUT, client.serve(transport)).await.expect("in time").expect("connected")
}

/// `handler` served by rmcp in memory, with `client` speaking 2026-07-28.
async fn modern<C: ClientHandler>(handler: RouterHandler, client: C) -> RunningService<RoleClient, C> {
    let lifecycle =
        ClientLifecycleMode::Auto { preferred_versions: vec![ProtocolVersion::V_2026_07_28], legacy_version: None };
    let transport = support::serve_in_memory(handler);
    let client = client.serve_with_lifecycle(transport, lifecycle);
    tokio::time::timeout(ANSWER_TIMEOUT, client).await.expect("in time").expect("connected")
}

async fn call<S: rmcp::service::Service<RoleClient>>(
    client: &RunningService<RoleClient, S>,
    tool: &str,
    arguments: Value,
) -> String {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    if let Value::Object(arguments) = arguments {
        params = params.with_arguments(arguments);
    }
    let result = tokio::time::timeout(ANSWER_TIMEOUT, client.call_tool(params)).await.expect("in time");
    text_of(&result.unwrap_or_else(|e| panic!("{tool}: {e}"))).to_owned()
}

async fn next(seen: &mut mpsc::UnboundedReceiver<Seen>) -> Seen {
    tokio::time::timeout(ANSWER_TIMEOUT, seen.recv()).await.expect("a callback in time").expect("the client runs")
}

#[tokio::test]
async fn an_embedded_router_reaches_rmcps_client_while_it_works() {
    let (answering, mut seen) = Answering::new();
    let client = legacy(RouterHandler::new(conformance()), answering).await;

    // Questions are rmcp requests, answered by the client's callbacks.
    let sampled = call(&client, "test_sampling", json!({ "prompt": "What is 2+2?" })).await;
    assert_eq!(sampled, "LLM response: rmcp heard What is 2+2?");
    let elicited = call(&client, "test_elicitation", json!({ "message": "Who are you?" })).await;
    assert_eq!(elicited, r#"User response: <action: accept, content: {"email":"ada@example.com","username":"ada"}>"#);
    let roots = call(&client, "test_input_required_result_list_roots", json!({})).await;
    assert_eq!(roots, r#"Client roots: [{"name":"project","uri":"file:///work/project"}]"#);

    // Progress and log messages come before the result.
    let mut params = CallToolRequestParams::new("test_tool_with_progress");
    params.set_progress_token(rmcp::model::ProgressToken(rmcp::model::NumberOrString::Number(7)));
    let result = client.call_tool(params).await.expect("tools/call");
    assert_eq!(text_of(&result), "Progress test completed");
    for done in [0.0, 50.0, 100.0] {
        assert_eq!(next(&mut seen).await, Seen::Progress(done));
    }
    client.set_level(rmcp::model::SetLevelRequestParams::new(LoggingLevel::Info)).await.expect("logging/setLevel");
    assert_eq!(call(&client, "test_tool_with_logging", json!({})).await, "Tool with logging executed successfully");
    for message in ["Tool execution started", "Tool processing data", "Tool execution completed"] {
        assert_eq!(next(&mut seen).await, Seen::Log(message.into()));
    }
    assert!(seen.try_recv().is_err(), "nothing else");
    client.cancel().await.expect("the client closes");
}

#[tokio::test]
async fn a_2026_rmcp_client_answers_an_embedded_routers_rounds_with_the_same_callbacks() {
    // No request goes to the client: each question ends a round, and rmcp's
    // client answers it from its callbacks and retries with the answers.
    let (answering, mut seen) = Answering::new();
    let client = modern(RouterHandler::new(conformance()), answering).await;
    let elicited = call(&client, "test_elicitation", json!({ "message": "Who are you?" })).await;
    assert_eq!(elicited, r#"User response: <action: accept, content: {"email":"ada@example.com","username":"ada"}>"#);
    let sampled = call(&client, "test_sampling", json!({ "prompt": "What is 2+2?" })).await;
    assert_eq!(sampled, "LLM response: rmcp heard What is 2+2?");
    let all = call(&client, "test_input_required_result_multiple_inputs", json!({})).await;
    assert_eq!(
        all,
        r#"name: null, greeting: "rmcp heard Generate a greeting", roots: [{"name":"project","uri":"file:///work/project"}]"#
    );
    assert!(seen.try_recv().is_err(), "no notification: {:?}", seen.try_recv());
    client.cancel().await.expect("the client closes");
}

#[tokio::test]
async fn changes_reach_the_clients_of_every_handler_that_shares_the_listeners() {
    let listeners = Listeners::new();
    let component = conformance();
    let handler = || RouterHandler::new(component.clone()).with_listeners(listeners.clone());

    // A 2025 session subscribed to a resource.
    let (answering, mut seen) = Answering::new();
    let watcher = legacy(handler(), answering).await;
    let uri = "test://watched-resource";
    watcher.subscribe(rmcp::model::SubscribeRequestParams::new(uri)).await.expect("resources/subscribe");
    // A 2026-07-28 client listening for tool changes.
    let listener = modern(handler(), ()).await;
    let mut subscription = tokio::time::timeout(
        ANSWER_TIMEOUT,
        listener.listen(SubscriptionFilter::builder().tools_list_changed().resource_subscriptions([uri]).build()),
    )
    .await
    .expect("in time")
    .expect("subscriptions/listen");
    let acknowledged = serde_json::to_value(subscription.acknowledged()).unwrap();
    assert_eq!(acknowledged, json!({ "toolsListChanged": true, "resourceSubscriptions": [uri] }));

    // The modern client's own request reports the changes.
    assert_eq!(call(&listener, "test_trigger_tool_change", json!({})).await, "Tool list change announced");
    assert_eq!(call(&listener, "test_update_resource", json!({ "uri": uri })).await, "Resource update announced");
    assert_eq!(next(&mut seen).await, Seen::ToolsChanged);
    assert_eq!(next(&mut seen).await, Seen::Updated(uri.into()));
    let change = tokio::time::timeout(ANSWER_TIMEOUT, subscription.next()).await.expect("in time");
    assert!(matches!(change, Ok(Some(ServerNotification::ToolListChangedNotification(_)))), "{change:?}");
    let change = tokio::time::timeout(ANSWER_TIMEOUT, subscription.next()).await.expect("in time");
    match change {
        Ok(Some(ServerNotification::ResourceUpdatedNotification(update))) => assert_eq!(update.params.uri, uri),
        other => panic!("expected the resource update, got {other:?}"),
    }
    // Cancelled, the subscription stops listening: only the 2025 session does.
    subscription.cancel().await.expect("the subscription ends");
    let deadline = tokio::time::Instant::now() + ANSWER_TIMEOUT;
    while listeners.len() != 1 {
        assert!(tokio::time::Instant::now() < deadline, "{} listeners remain", listeners.len());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    watcher.cancel().await.expect("the client closes");
    listener.cancel().await.expect("the client closes");
}
