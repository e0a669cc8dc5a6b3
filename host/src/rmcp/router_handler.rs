//! [`RouterHandler`]: one MCP session with the protocol core, answering
//! rmcp's requests.

use std::borrow::Cow;
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use ::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, DiscoverResult, ErrorCode,
    GetPromptRequestParams, GetPromptResponse, InitializeRequestParams, InitializeResult, InputRequiredResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion as RmcpVersion, ReadResourceRequestParams, ReadResourceResponse, ServerConfig,
};
// rmcp marks these legacy (SEP-2577 and the 2026-07-28 subscriptions); the host still serves them.
use ::rmcp::handler::server::router::tool::ToolRouter;
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model::SubscriptionFilter;
#[allow(deprecated)]
use ::rmcp::model::{SetLevelRequestParams, SubscribeRequestParams, UnsubscribeRequestParams};
use ::rmcp::service::{RequestContext, RoleServer, SubscriptionContext};
use ::rmcp::{ErrorData, ServerHandler};
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::peer_link::{self, PeerChannel};
use mcp_wit_protocol::envelope::PROTOCOL_VERSION_KEY;
use mcp_wit_protocol::listeners::Interest;
use mcp_wit_protocol::{Canceller, Listeners, Method, ProtocolVersion, SessionOptions};

use crate::{Routers, Session};

/// A router (or several, as one server) as an rmcp [`ServerHandler`]: one
/// MCP session with its own guest instance.
///
/// Serve one per client connection (for rmcp's Streamable HTTP service,
/// create one in its session factory). Guest calls are async, one at a time
/// per handler ([`Session::handle_async`]): they run on the executor's
/// threads and give them back at every epoch tick and while the guest waits
/// on the host, so the engine must allow async calls
/// ([`EngineOptions::async_calls`](crate::runtime::engine::EngineOptions::async_calls),
/// on by default).
///
/// Every request method of [`ServerHandler`] that MCP routes to a server's
/// tools, resources, prompts or completions is answered by the guest, so a
/// handler of one's own can delegate to it, e.g. `self.router.call_tool(request,
/// context).await` for tools it does not know; with native `#[tool]`s in a
/// `ToolRouter`, [`list_tools_beside`](Self::list_tools_beside) and
/// [`call_tool_beside`](Self::call_tool_beside) do the merging.
///
/// Both eras of MCP are served, as `mcp-wit serve` serves them: a client
/// that sends `initialize` gets the 2025 session it negotiated; one that
/// speaks 2026-07-28 (rmcp's `ClientLifecycleMode::Discover` or `Auto`) has
/// `server/discover` and each request, envelope and all, answered by the
/// session on its own, results stamped with `resultType`, the server's name
/// and the component's cache hint
/// ([`LoadedRouter::with_cache_hint`](crate::LoadedRouter::with_cache_hint)).
///
/// Routers that talk back (import the client interface) reach the client
/// through rmcp: their progress and log messages go out while they work,
/// their questions are rmcp requests to the client (a 2025 session's), and
/// the changes they report reach the client's session and its
/// `subscriptions/listen` streams — and, through a hub shared with
/// [`with_listeners`](Self::with_listeners), every other handler's clients.
pub struct RouterHandler {
    routers: Routers,
    options: SessionOptions,
    /// Whether any router reaches its client.
    talks_back: bool,
    /// Who hears of the routers' changes.
    listeners: Arc<Listeners>,
    /// The client's rmcp peer, once a request brought it.
    channel: OnceLock<Arc<PeerChannel>>,
    /// The session's core; an async lock, held across the guest call.
    session: Arc<tokio::sync::Mutex<Session>>,
    /// Cancels the session's running request without waiting for its lock.
    canceller: Canceller,
    /// What `initialize` answered, for [`ServerHandler::get_info`].
    info: Mutex<Option<ServerConfig>>,
}

impl RouterHandler {
    /// A handler serving `routers` (a [`LoadedRouter`](crate::LoadedRouter),
    /// or [`Routers`]) with the default session options. The guest is not
    /// instantiated until the first request.
    pub fn new(routers: impl Into<Routers>) -> Self {
        Self::with_options(routers, SessionOptions::default())
    }

    /// A handler with `options`: page size and output cap. How instances are
    /// shared is the component's setting
    /// ([`LoadedRouter::with_instance_mode`](crate::LoadedRouter::with_instance_mode)).
    pub fn with_options(routers: impl Into<Routers>, options: SessionOptions) -> Self {
        let routers = routers.into();
        let talks_back = routers.talks_back();
        let listeners = Listeners::new();
        let mut session = Session::new(routers.clone(), options.clone());
        if talks_back {
            session.set_listeners(listeners.clone());
        }
        let canceller = session.canceller();
        RouterHandler {
            routers,
            options,
            talks_back,
            listeners,
            channel: OnceLock::new(),
            session: Arc::new(tokio::sync::Mutex::new(session)),
            canceller,
            info: Mutex::new(None),
        }
    }

    /// Shares `listeners` with other handlers (one per client of an rmcp
    /// server): a change a router reports while serving one client reaches
    /// every client that listens for it.
    pub fn with_listeners(mut self, listeners: Arc<Listeners>) -> Self {
        if self.talks_back {
            // Nothing has served a request yet, so nothing else holds the session.
            if let Some(session) = Arc::get_mut(&mut self.session) {
                session.get_mut().set_listeners(listeners.clone());
            }
        }
        self.listeners = listeners;
        self
    }

    /// Name, version, instructions and capabilities as `initialize` answers
    /// them (at the newest revision until a client has initialized), asking
    /// the guest off the async executor the first time.
    pub async fn server_config(&self) -> Result<ServerConfig, ErrorData> {
        if let Some(info) = self.cached_info() {
            return Ok(info);
        }
        let (routers, options) = (self.routers.clone(), self.options.clone());
        let info = tokio::task::spawn_blocking(move || probe_info(routers, options))
            .await
            .map_err(|e| ErrorData::internal_error(format!("the guest call failed: {e}"), None))??;
        Ok(self.cache_info(info))
    }

    /// `tools/list` for a handler of one's own that has native tools in
    /// `native` beside the guest's: the native tools first, then the
    /// guest's (all of them, unless the session options set a page size).
    pub async fn list_tools_beside<S: Send + Sync + 'static>(
        &self,
        native: &ToolRouter<S>,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut result = self.list_tools(request, context).await?;
        let mut tools = native.list_all();
        tools.append(&mut result.tools);
        // The guest's result keeps what the session stamped on it (a modern
        // result's `resultType`, cache hint and server name); only the guest's
        // first page is listed, as before.
        Ok(ListToolsResult { tools, next_cursor: None, ..result })
    }

    /// `tools/call` for a handler of one's own (`service`) with native tools
    /// in `native`: a native tool answers for its name, the guest for any
    /// other.
    pub async fn call_tool_beside<S: Send + Sync + 'static>(
        &self,
        native: &ToolRouter<S>,
        service: &S,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if native.has_route(&request.name) {
            native.call(ToolCallContext::new(service, request, context)).await
        } else {
            self.call_tool(request, context).await
        }
    }

    fn cached_info(&self) -> Option<ServerConfig> {
        self.info.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Keeps `info` unless `initialize` has filled the cache meanwhile.
    fn cache_info(&self, info: ServerConfig) -> ServerConfig {
        self.info.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(info).clone()
    }

    /// Hands one request to the session and returns its result as `T`,
    /// forwarding the notifications it produces (progress) to the client.
    ///
    /// The session answers in MCP's JSON (one mapping and one set of errors
    /// for every transport), which serde reads into rmcp's model: a copy the
    /// stdio and HTTP paths do not make.
    ///
    /// A request whose `_meta` carries a 2026-07-28 envelope is handed over
    /// whole, envelope included, so that the session serves it as any
    /// transport's: on its own, its result stamped (`resultType`, the
    /// server's name, the cache hint of lists and reads), its errors those of
    /// 2026-07-28. rmcp adds nothing to such a result that the session has
    /// not set already.
    async fn forward<T: DeserializeOwned>(
        &self,
        method: Method,
        params: Value,
        context: &RequestContext<RoleServer>,
    ) -> Result<T, ErrorData> {
        let id = serde_json::value::to_raw_value(&context.id).map_err(internal)?;
        // rmcp moves a request's `_meta` out of its params into the context.
        let mut params = if params.is_null() { json!({}) } else { params };
        if !context.meta.is_empty()
            && let Some(object) = params.as_object_mut()
        {
            object.insert("_meta".into(), serde_json::to_value(&context.meta).map_err(internal)?);
        }
        let params = serde_json::value::to_raw_value(&params).map_err(internal)?;
        let enveloped = context.meta.contains_key(PROTOCOL_VERSION_KEY);
        // A handler of one's own may answer `initialize` itself: the session
        // then takes the revision the client negotiated with it.
        let version = context
            .protocol_version()
            .and_then(|v| ProtocolVersion::parse(v.as_str()))
            .unwrap_or(ProtocolVersion::LATEST_LEGACY);

        let channel = self.talks_back.then(|| self.channel.get_or_init(|| PeerChannel::start(context.peer.clone())));
        let peer = channel.map(|channel| (channel.peer(), channel.clone()));
        let mut session = self.session.clone().lock_owned().await;
        let call_id = id.clone();
        // A task of its own, so that the call goes on (and ends cleanly) if
        // rmcp drops this request's future.
        let call = tokio::spawn(async move {
            // The session tells the eras apart by the params, envelope and
            // all. A 2025 request reaching a handler that never saw
            // `initialize` (a handler of one's own answered it) gets the
            // session set up first.
            let legacy = !enveloped && !method.is_modern_only() && method != Method::Initialize;
            if legacy && session.protocol_version().is_none() {
                session.assume_initialized_async(version).await?;
            }
            let mut notifications: Vec<Vec<u8>> = Vec::new();
            if let Some((peer, sink)) = peer {
                session.set_peer(Some(peer));
                session.set_sink(Some(sink));
            }
            let result = session.call_async(&call_id, method, Some(&params), &mut notifications).await;
            session.set_peer(None);
            Ok::<_, crate::RpcError>((result, notifications))
        });
        tokio::pin!(call);
        let joined = tokio::select! {
            joined = &mut call => joined,
            () = context.ct.cancelled() => {
                // The session drops the guest call at its next tick.
                self.canceller.cancel(id.get());
                call.await
            }
        };
        let (result, notifications) = match joined {
            Ok(Ok(answer)) => answer,
            Ok(Err(error)) => return Err(rpc_error(error)),
            Err(e) => return Err(ErrorData::internal_error(format!("the guest call failed: {e}"), None)),
        };
        // What the router sent while it worked goes out before its result;
        // then what the session held for the answer.
        if let Some(channel) = channel {
            channel.flush().await;
        }
        for message in &notifications {
            if let Some(notification) = peer_link::notification(message)
                && let Err(e) = context.peer.send_notification(notification).await
            {
                tracing::debug!("cannot send a notification: {e}");
            }
        }
        let result = result.map_err(rpc_error)?;
        serde_json::from_str(result.get())
            .map_err(|e| ErrorData::internal_error(format!("cannot read the {method} result: {e}"), None))
    }
}

/// A result that a 2026-07-28 round may end instead (`resultType:
/// "input_required"`, when a router asked its client something): rmcp's
/// response of either kind, read from the session's JSON.
fn complete_or_round<T, R>(result: &RawValue, method: Method) -> Result<R, ErrorData>
where
    T: DeserializeOwned + Into<R>,
    R: From<InputRequiredResult>,
{
    #[derive(serde::Deserialize)]
    struct Kind<'a> {
        #[serde(rename = "resultType", borrow, default)]
        result_type: Option<&'a str>,
    }
    let unreadable =
        |e: serde_json::Error| ErrorData::internal_error(format!("cannot read the {method} result: {e}"), None);
    let kind: Kind<'_> = serde_json::from_str(result.get()).map_err(unreadable)?;
    match kind.result_type {
        Some("input_required") => {
            serde_json::from_str::<InputRequiredResult>(result.get()).map(R::from).map_err(unreadable)
        }
        _ => serde_json::from_str::<T>(result.get()).map(Into::into).map_err(unreadable),
    }
}

fn internal(e: serde_json::Error) -> ErrorData {
    ErrorData::internal_error(e.to_string(), None)
}

fn rpc_error(error: crate::RpcError) -> ErrorData {
    ErrorData::new(ErrorCode(error.code), error.message, error.data)
}

/// The `initialize` result of a session of its own, for server info asked
/// for before (or without) `initialize`.
fn probe_info(routers: Routers, options: SessionOptions) -> Result<ServerConfig, ErrorData> {
    let mut session = Session::new(routers, options);
    let client = (env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"));
    let result = session.initialize_in_process(client, ProtocolVersion::LATEST_LEGACY).map_err(rpc_error)?;
    serde_json::from_str(result.get()).map_err(internal)
}

/// The revisions rmcp knows that the session serves: the legacy ones
/// through `initialize`, the modern ones per request (rmcp refuses a request
/// naming any other with -32022 before it reaches the handler).
static SERVED_VERSIONS: LazyLock<Vec<RmcpVersion>> = LazyLock::new(|| {
    RmcpVersion::KNOWN_VERSIONS.iter().filter(|v| ProtocolVersion::parse(v.as_str()).is_some()).cloned().collect()
});

fn to_params<P: serde::Serialize>(params: &P) -> Result<Value, ErrorData> {
    serde_json::to_value(params).map_err(internal)
}

impl ServerHandler for RouterHandler {
    fn get_info(&self) -> ServerConfig {
        if let Some(info) = self.cached_info() {
            return info;
        }
        // Asked for before `initialize`: the guest has to be called here, on
        // this thread; tell tokio so that other tasks move elsewhere meanwhile.
        let (routers, options) = (self.routers.clone(), self.options.clone());
        let probe = move || probe_info(routers, options);
        let probed = match tokio::runtime::Handle::try_current() {
            Ok(handle) if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
                tokio::task::block_in_place(probe)
            }
            _ => probe(),
        };
        match probed {
            Ok(info) => self.cache_info(info),
            Err(error) => {
                tracing::warn!("cannot ask the router for its server info: {}", error.message);
                ServerConfig::default()
            }
        }
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [RmcpVersion]> {
        Cow::Borrowed(&SERVED_VERSIONS)
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        // What rmcp's own `initialize` does before answering.
        context.peer.set_peer_info(request.clone());
        let info: ServerConfig = self.forward(Method::Initialize, to_params(&request)?, &context).await?;
        *self.info.lock().unwrap_or_else(|e| e.into_inner()) = Some(info.clone());
        Ok(info)
    }

    /// `server/discover` (2026-07-28): the session's answer, as `mcp-wit
    /// serve` gives it: the routers' capabilities and instructions, the
    /// revisions served per request, the cache hint of the components and
    /// the server's name in `_meta`.
    async fn discover(&self, context: RequestContext<RoleServer>) -> Result<DiscoverResult, ErrorData> {
        self.forward(Method::Discover, json!({}), &context).await
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.forward(Method::ListTools, to_params(&request)?, &context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let result: Box<RawValue> = self.forward(Method::CallTool, to_params(&request)?, &context).await?;
        complete_or_round::<::rmcp::model::CallToolResult, _>(&result, Method::CallTool)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.forward(Method::ListResources, to_params(&request)?, &context).await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.forward(Method::ListResourceTemplates, to_params(&request)?, &context).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let result: Box<RawValue> = self.forward(Method::ReadResource, to_params(&request)?, &context).await?;
        complete_or_round::<::rmcp::model::ReadResourceResult, _>(&result, Method::ReadResource)
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.forward::<Value>(Method::Subscribe, to_params(&request)?, &context).await.map(drop)
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.forward::<Value>(Method::Unsubscribe, to_params(&request)?, &context).await.map(drop)
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.forward(Method::ListPrompts, to_params(&request)?, &context).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let result: Box<RawValue> = self.forward(Method::GetPrompt, to_params(&request)?, &context).await?;
        complete_or_round::<::rmcp::model::GetPromptResult, _>(&result, Method::GetPrompt)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.forward(Method::Complete, to_params(&request)?, &context).await
    }

    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.forward::<Value>(Method::SetLogLevel, to_params(&request)?, &context).await.map(drop)
    }

    /// `subscriptions/listen` (2026-07-28): routers that can report changes
    /// accept what the client asks (rmcp narrows it to what `get_info`
    /// advertises); others accept nothing, and the stream is acknowledged
    /// and stays open empty, as `mcp-wit serve` does it.
    fn accepted_subscription_filter(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        Some(if self.talks_back { requested.clone() } else { SubscriptionFilter::default() })
    }

    /// Passes on the changes the subscription accepted until the client
    /// cancels it or the connection ends.
    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let accepted = context.accepted();
        let on = |flag: Option<bool>| flag.unwrap_or(false);
        let interest = Interest {
            lists: [
                on(accepted.tools_list_changed),
                on(accepted.prompts_list_changed),
                on(accepted.resources_list_changed),
            ],
            resources: accepted.resource_subscriptions.iter().flatten().cloned().collect(),
        };
        let (sink, mut changes) = peer_link::listen_stream();
        let _listening = self.listeners.listen(interest, sink);
        loop {
            tokio::select! {
                () = context.cancelled() => return Ok(()),
                Some(message) = changes.recv() => {
                    if let Some(notification) = peer_link::notification(&message)
                        && let Err(e) = context.sink().send(notification).await
                    {
                        tracing::debug!("a change did not reach a subscription: {e}");
                    }
                }
            }
        }
    }
}
