//! One client's session: its lifecycle, the era each request is served
//! in, and the messages it answers.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, json};

use tracing::Instrument;

use super::era::{Era, Request, RequestParams};
use super::exchange::Exchange;
use super::modern::Admitted;
use super::options::SessionOptions;
use super::output::Outbox;
use super::stamp::server_info;
use super::state::SessionState;
use super::watch::await_watched;
use crate::auth::SharedCaller;
use crate::cancel::{Canceller, TickHook};
use crate::client::Peer;
use crate::contract;
use crate::deployment::Deployment;
use crate::envelope::{self, Envelope, SERVER_INFO_KEY, SUBSCRIPTION_ID_KEY};
use crate::executor::block_on;
use crate::jsonrpc::{self, Incoming, RpcError, code};
use crate::listeners::{Listeners, Sink};
use crate::method::Method;
use crate::observe::{CLIENT_TEXT_BYTES, Origin, Outcome, SessionEnded, clipped};
use crate::params::{self, LogLevel};
use crate::router::{CallMode, Router, RouterComponent};
use crate::routers::{self, Routers};
use crate::version::ProtocolVersion;

/// One client's session with the routers it is served.
pub struct Session<C: RouterComponent> {
    pub(super) ex: Exchange<C>,
    pub(super) state: SessionState,
    /// The deployment a 2025 session follows, and the generation of the
    /// routers it is served by (see [`Session::following`]).
    pub(super) following: Option<(Arc<Deployment<C>>, u64)>,
}

impl<C: RouterComponent> Session<C> {
    /// A new, uninitialised session with one router, or several
    /// ([`Routers`]). Guests are instantiated on first use.
    pub fn new(routers: impl Into<Routers<C>>, options: SessionOptions) -> Self {
        Session { ex: Exchange::new(routers.into(), options), state: SessionState::new(), following: None }
    }

    /// A new session on the routers `deployment` serves now, that follows
    /// it: once a reload replaced them, the session moves to the newest
    /// routers at its first 2025 request after it let go of its instances
    /// (released once idle, dropped after a fault; see
    /// [`Router::holds_instance`]), and its client hears of each list that
    /// differs between the two (`notifications/tools/list_changed` and the
    /// like, through its sink, else before that request's answer).
    pub fn following(deployment: &Arc<Deployment<C>>, options: SessionOptions) -> Self {
        let (generation, routers) = deployment.current();
        let mut session = Session::new(routers, options);
        session.following = Some((deployment.clone(), generation));
        session
    }

    /// Tells routers' changes (list changes, resource updates) to every
    /// client registered with `listeners` — the transport's, or the
    /// server's — rather than only to the client whose request caused them.
    pub fn set_listeners(&mut self, listeners: Arc<Listeners>) {
        self.ex.server.set_listeners(listeners);
    }

    /// Where this session's client hears of routers' changes outside of
    /// answers (its GET stream, its stdio connection, its
    /// `subscriptions/listen` stream). Together with
    /// [`Self::set_listeners`], a 2025 session listens from `initialize` on,
    /// and `subscriptions/listen` streams deliver. `None` stops it listening
    /// (and lets go of the sink).
    pub fn set_sink(&mut self, sink: Option<Arc<dyn Sink>>) {
        self.state.set_sink(sink);
    }

    /// Gives the session the transport's way to the client: routers that
    /// talk back send their notifications and questions through it, while
    /// they work. Without one, their notifications go out just before the
    /// answer, and their questions fail (`unavailable`).
    pub fn set_peer(&mut self, peer: Option<Arc<dyn Peer>>) {
        self.ex.server.set_peer(peer);
    }

    /// Who makes the requests from now on, as the transport authenticated
    /// them (`None`: not authenticated). Routers are told through their
    /// calls' context, and a 2026-07-28 `requestState` is bound to it.
    pub fn set_caller(&mut self, caller: Option<SharedCaller>) {
        self.ex.request.set_caller(caller);
    }

    /// Where its requests come from, as its observer hears (see
    /// [`SessionOptions::observer`]).
    pub fn set_origin(&mut self, origin: Origin) {
        self.ex.server.set_origin(origin);
    }

    /// The trace context the transport carried with the next request (the
    /// HTTP `traceparent` header): its span's parent when `_meta` names none.
    pub fn set_transport_context(&mut self, context: Option<crate::observe::TraceContext>) {
        self.ex.request.set_transport_context(context);
    }

    /// Who made the last request, when authenticated.
    pub fn caller(&self) -> Option<&SharedCaller> {
        self.ex.request.caller()
    }

    /// A handle that cancels this session's requests from another thread or
    /// task (see [`Canceller`]).
    pub fn canceller(&self) -> Canceller {
        self.ex.server.canceller().clone()
    }

    /// Runs `hook` at every epoch tick while a guest call is in progress
    /// (transports use it to look for cancellations during long calls).
    pub fn set_tick_hook(&mut self, hook: TickHook) {
        self.ex.request.set_tick_hook(hook);
    }

    /// Marks the session initialized at `version` without an `initialize`
    /// exchange: for transports where each request stands alone (stateless
    /// HTTP, where the revision comes from the `MCP-Protocol-Version` header).
    /// The guests are asked for their capabilities with blocking calls.
    pub fn assume_initialized(&mut self, version: ProtocolVersion) -> Result<(), RpcError> {
        self.ex.request.set_calls(CallMode::Blocking);
        block_on(self.assume_ready(version))
    }

    /// [`Self::assume_initialized`] with async guest calls (see
    /// [`Self::handle_async`]).
    pub async fn assume_initialized_async(&mut self, version: ProtocolVersion) -> Result<(), RpcError> {
        self.ex.request.set_calls(CallMode::Async);
        self.assume_ready(version).await
    }

    async fn assume_ready(&mut self, version: ProtocolVersion) -> Result<(), RpcError> {
        if version.is_modern() {
            // 2026-07-28 has no session to set up: each request brings its envelope.
            return Err(RpcError::invalid_request(format!(
                "{version} has no initialization: send each request with its `_meta` envelope"
            )));
        }
        let mut merged = contract::ServerCapabilities::default();
        for mount in 0..self.ex.server.mounts() {
            let caps = self.ex.guest(mount, async |r, cx| r.capabilities(cx).await).await?;
            merged = routers::merge_capabilities(merged, caps);
        }
        self.ex.become_ready(version, &merged, &mut self.state);
        Ok(())
    }

    /// The negotiated revision, once initialized (legacy), or the modern
    /// revision once a modern request fixed the connection's era.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.state.protocol_version()
    }

    /// Whether any of its routers reaches its client (see
    /// [`RouterComponent::talks_back`]): only then do its requests need a
    /// way to the client.
    pub fn talks_back(&self) -> bool {
        self.ex.server.talks_back()
    }

    /// Drops the instances of routers that let them go once idle and have
    /// been idle that long (see [`Router::release_if_idle`]); how many.
    /// For a transport to call between requests.
    pub fn release_idle_instances(&mut self) -> usize {
        self.ex.server.release_idle_instances()
    }

    /// The level the client asked for with `logging/setLevel`, if any.
    pub fn log_level(&self) -> Option<LogLevel> {
        self.state.log_level()
    }

    /// The arguments of tool `name` (as the client names it) that its input
    /// schema marks with `x-mcp-header`, with their header names: on HTTP
    /// each must come as an `Mcp-Param-{header}` equal to its value.
    /// Unknown tools have none (the call itself then fails).
    pub async fn header_arguments(&mut self, name: &str) -> Result<Vec<(String, String)>, RpcError> {
        self.ex.header_arguments(name).await
    }

    /// Handles one incoming message, writing whatever it produces to `out`:
    /// nothing for notifications and responses, else zero or more
    /// notifications followed by exactly one response.
    ///
    /// Guest calls block the calling thread (see [`Self::handle_async`] for
    /// async ones).
    pub fn handle(&mut self, message: &[u8], out: &mut dyn Outbox) {
        block_on(self.handle_blocking(message, out));
    }

    /// What [`Self::handle`] runs, for a transport that drives it on its
    /// own thread with [`block_on`](crate::block_on): guest calls block that
    /// thread, and the future ends at its first poll unless an argument
    /// check waits on another thread.
    pub fn handle_blocking<'a>(
        &'a mut self,
        message: &'a [u8],
        out: &'a mut dyn Outbox,
    ) -> impl Future<Output = ()> + 'a {
        self.ex.request.set_calls(CallMode::Blocking);
        self.handle_message(message, out)
    }

    /// [`Self::handle`] with async guest calls: the guests run on the
    /// executor's thread, each call giving the thread back while the guest
    /// waits on the host and at every epoch tick.
    ///
    /// Run the future to its end (spawn it, so that it goes on if its caller
    /// leaves): dropped mid-call, it abandons the guest in the middle of its
    /// work, and the router replaces that instance at its next call.
    pub async fn handle_async(&mut self, message: &[u8], out: &mut (dyn Outbox + Send)) {
        self.ex.request.set_calls(CallMode::Async);
        self.handle_message(message, out).await;
    }

    /// [`Self::handle_async`] for a message a transport has already parsed
    /// (e.g. to route it), so that it is not parsed twice.
    pub async fn handle_parsed_async(&mut self, message: Incoming<'_>, out: &mut (dyn Outbox + Send)) {
        self.ex.request.set_calls(CallMode::Async);
        self.handle_incoming(message, out).await;
    }

    async fn handle_message<O: Outbox + ?Sized>(&mut self, message: &[u8], out: &mut O) {
        match jsonrpc::parse(message) {
            Ok(incoming) => self.handle_incoming(incoming, out).await,
            Err(rejection) => self.ex.output.send_error(rejection.id, &rejection.error, out),
        }
    }

    async fn handle_incoming<O: Outbox + ?Sized>(&mut self, message: Incoming<'_>, out: &mut O) {
        match message {
            Incoming::Request { id, method, params } => {
                let watching = self.ex.watch_start(&method, id, params);
                let parsed = Method::parse(&method);
                let answered = await_watched!(watching.as_ref(), self.answer_request(id, &method, parsed, params, out));
                let outcome = self.ex.deliver(id, answered, out);
                if let Some(watching) = watching {
                    if method == "initialize" && outcome == Outcome::Answered {
                        self.state.mark_opened();
                    }
                    // `initialize` itself settles the revision it is served at.
                    let version = self.ex.request.watch().version().or(self.protocol_version());
                    self.ex.request.watch_mut().note_version(version);
                    self.ex.watch_finish(watching, &method, parsed, id, params, outcome);
                }
                self.ex.output.recycle();
            }
            Incoming::Notification { method, params } => self.notification(&method, params).await,
            Incoming::Response { id } => {
                // Transports hand the answers to routers' questions over
                // before the session sees them: this one answers nothing.
                tracing::debug!(id = %clipped(id.get(), CLIENT_TEXT_BYTES), "ignoring a response to an unknown request");
            }
        }
    }

    /// Answers request `id` into the exchange's buffer in the era its
    /// `params` choose: a 2026-07-28 envelope makes it modern, its absence
    /// legacy. `name` is the method as sent, `method` what it names, if known.
    pub(super) async fn answer_request<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        name: &str,
        method: Option<Method>,
        params: Option<&RawValue>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        self.ex.request.set_deferred(false);
        // A call's params are read once, with their envelope. Params that do
        // not read as a call's are read again, for the error the spec ranks
        // first (a malformed envelope before a malformed argument).
        let call = match method {
            Some(Method::CallTool) => params::decode::<params::CallToolParams<'_>>(params).ok(),
            _ => None,
        };
        let envelope = match &call {
            Some(call) => Envelope::from_meta(&call.meta.unwrap_or_default())?,
            None => Envelope::read(params)?,
        };
        let params = RequestParams { raw: params, call_tool: call.as_ref() };
        match envelope {
            Some(envelope) => self.modern_request(id, name, method, params, &envelope, out).await,
            None => self.legacy_request(id, name, method, params, out).await,
        }
    }

    /// A request without a modern envelope: served in the `initialize`d
    /// session, unless the connection already speaks 2026-07-28.
    async fn legacy_request<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        name: &str,
        method: Option<Method>,
        params: RequestParams<'_>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let method = method.filter(|m| !m.is_modern_only());
        if self.state.is_modern() {
            return Err(match method {
                Some(Method::Initialize) => initialize_on_modern_connection(params.raw),
                _ => envelope::missing_envelope(&format!(
                    "this connection speaks 2026-07-28, where `{name}` needs its envelope"
                )),
            });
        }
        let Some(method) = method else {
            return Err(RpcError::new(code::METHOD_NOT_FOUND, format!("Method not found: {name}")));
        };
        if self.state.ready_version().is_some() {
            self.follow_deployment(out).await;
        }
        let request = Request { id, method, params, era: Era::Legacy };
        self.ex.run(request, Some(&mut self.state), out).await
    }

    async fn notification(&mut self, method: &str, params: Option<&RawValue>) {
        match method {
            "notifications/initialized" => {}
            "notifications/roots/list_changed" => {
                // Routers that offer the extension hear of it; a failure is
                // theirs to log (a notification gets no answer).
                let server = &self.ex.server;
                let extending: Vec<usize> = (0..server.mounts()).filter(|&m| server.extends(m)).collect();
                for mount in extending {
                    if let Err(error) = self.ex.guest(mount, async |r, cx| r.roots_list_changed(cx).await).await {
                        tracing::debug!("`on-roots-list-changed` failed: {}", error.message);
                    }
                }
            }
            // In message order, the request a cancellation names has already
            // been answered (transports deliver earlier ones via
            // `canceller()`), unless it is an open `subscriptions/listen`:
            // that one ends, and nothing more is sent for it.
            "notifications/cancelled" => {
                if let Some(request) = jsonrpc::cancelled_request(method, params) {
                    self.state.end_subscription(&request);
                }
            }
            other => tracing::debug!(method = %clipped(other, CLIENT_TEXT_BYTES), "ignoring an unknown notification"),
        }
    }
}

impl<C: RouterComponent> Session<C> {
    /// Checks that a modern request can be served, in the order the spec
    /// ranks its errors after the envelope itself: the revision (-32022),
    /// then the method (-32601: unknown, removed in 2026-07-28, or of a kind
    /// the routers do not offer). Transports that answer those errors at
    /// their edge (HTTP 400 and 404) call it, then
    /// [`Session::handle_admitted_async`]; [`Session::handle`] does both.
    pub async fn admit(&mut self, method: &str, envelope: &Envelope) -> Result<Admitted, RpcError> {
        self.ex.admit(method, Method::parse(method), envelope).await
    }

    /// Answers request `id`, which [`Session::admit`] let in, with async
    /// guest calls (see [`Session::handle_async`]), writing what it produces
    /// to `out` as [`Session::handle_async`] would; returns what became of it.
    pub async fn handle_admitted_async(
        &mut self,
        id: &RawValue,
        admitted: Admitted,
        params: Option<&RawValue>,
        out: &mut (dyn Outbox + Send),
    ) -> Outcome {
        self.ex.request.set_calls(CallMode::Async);
        self.ex.request.set_deferred(false);
        let admitted_method = admitted.method();
        let method = admitted_method.as_str();
        let watching = self.ex.watch_start(method, id, params);
        let answering = self.serve_admitted(id, admitted, RequestParams::raw(params), out);
        let span = watching.as_ref().map_or_else(tracing::Span::none, |w| w.span().clone());
        let answered = answering.instrument(span).await;
        let outcome = self.ex.deliver(id, answered, out);
        if let Some(watching) = watching {
            self.ex.watch_finish(watching, method, Some(admitted_method), id, params, outcome);
        }
        self.ex.output.recycle();
        outcome
    }

    /// A request with a modern envelope, on a connection that is not a 2025
    /// session.
    pub(super) async fn modern_request<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        name: &str,
        method: Option<Method>,
        params: RequestParams<'_>,
        envelope: &Envelope,
        out: &mut O,
    ) -> Result<(), RpcError> {
        if let Some(version) = self.state.ready_version() {
            return Err(RpcError::invalid_request(format!(
                "this connection was initialized at {version}; requests with a 2026-07-28 envelope need a connection of their own"
            )));
        }
        if self.state.is_modern() {
            // A reload reaches a modern connection as it does a 2025
            // session: once it holds no instance of its own.
            self.follow_deployment(out).await;
        }
        let admitted = self.ex.admit(name, method, envelope).await?;
        self.serve_admitted(id, admitted, params, out).await
    }

    /// Serves an admitted request on the session's instances, which serve
    /// its next request too: a session is one connection (stdio, an
    /// embedder's), never several clients.
    async fn serve_admitted<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        admitted: Admitted,
        params: RequestParams<'_>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        if admitted.method() != Method::Discover {
            // A probe leaves a legacy client free to `initialize`; anything
            // else makes this a modern connection.
            self.state.become_modern();
        }
        self.ex.serve_admitted(id, admitted, params, Some(&mut self.state), out).await
    }

    /// How many `subscriptions/listen` requests are open.
    pub fn open_subscriptions(&self) -> usize {
        self.state.open_subscriptions()
    }

    /// Ends every open `subscriptions/listen` request gracefully: each gets
    /// its final result (`resultType: "complete"`, tagged with its
    /// subscription id). For server shutdown and the end of a connection.
    pub fn end_subscriptions(&mut self, out: &mut dyn Outbox) {
        let about = self.ex.server.routers().learnt_about();
        for subscription in self.state.take_subscriptions() {
            let mut meta = Map::new();
            meta.insert(SUBSCRIPTION_ID_KEY.into(), json!(subscription.id()));
            if let Some(about) = &about {
                meta.insert(SERVER_INFO_KEY.into(), server_info(about));
            }
            let result = json!({ "resultType": "complete", "_meta": meta });
            if let Err(e) = self.ex.output.send_result(subscription.id(), &result, out) {
                tracing::warn!("cannot serialise the end of a subscription: {e}");
            }
        }
    }
}

/// -32022 for `initialize` on a connection that speaks 2026-07-28.
pub(super) fn initialize_on_modern_connection(params: Option<&RawValue>) -> RpcError {
    #[derive(Deserialize)]
    struct Requested {
        #[serde(rename = "protocolVersion", default)]
        protocol_version: String,
    }
    let requested = params
        .and_then(|p| serde_json::from_str::<Requested>(p.get()).ok())
        .map(|r| r.protocol_version)
        .unwrap_or_default();
    let mut error = envelope::unsupported_version(&requested);
    error.message = format!(
        "Unsupported protocol version: this connection already speaks {} per request; `initialize` needs a connection of its own",
        envelope::supported_versions().join(", ")
    );
    error
}

impl<C: RouterComponent> Drop for Session<C> {
    fn drop(&mut self) {
        // Only sessions `initialize` opened: a stateless 2025 request's
        // session of one message is no session to a client.
        if let (Some((opened, version)), Some(observer)) = (self.state.opened(), &self.ex.server.options().observer) {
            observer.session_ended(&SessionEnded {
                version,
                origin: self.ex.server.origin(),
                lasted: opened.elapsed(),
            });
        }
    }
}
