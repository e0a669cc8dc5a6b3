//! Answering MCP requests: one client's session, or one 2026-07-28 request
//! on its own.
//!
//! A [`Session`] takes one JSON-RPC message at a time and writes the messages
//! it produces (notifications, then the response) to an [`Outbox`]. It knows
//! nothing of transports: stdio, HTTP and the embedding API all drive it the
//! same way, and nothing of instances: it calls its routers through
//! [`Router`](crate::Router). A [`StatelessRequest`] answers one 2026-07-28
//! request, as stateless HTTP serves each, without a session around it.
//! Both answer through an `Exchange` (`exchange.rs`): the routers, the
//! answer being written, the request's cancellation and context.

mod completion;
mod exchange;
mod guest;
mod handlers;
mod in_process;
mod lists;
mod modern;
mod output;
mod request;
mod stamp;
mod stateless;
#[cfg(feature = "validate")]
mod tool_checks;
mod upgrade;

use std::sync::Arc;
use std::time::Duration;

use serde_json::value::RawValue;

use crate::auth::{ScopePolicy, SharedCaller};
use crate::cancel::{Canceller, TickHook};
use crate::client::{ClientCapabilities, Peer};
use crate::contract;
use crate::deployment::Deployment;
use crate::envelope::Envelope;
use crate::executor::{Offload, block_on};
use crate::jsonrpc::{self, Incoming, RpcError, code};
use crate::listeners::{Listeners, Listening, Sink};
use crate::method::Method;
use crate::observe::{CLIENT_TEXT_BYTES, Observer, Origin, SessionEnded, clipped};
use crate::params::{self, LogLevel};
use crate::rounds::{StateKey, StateKeySharing};
use crate::router::{CallMode, Router, RouterComponent};
use crate::routers::{self, Routers, ServerDescription};
use crate::version::ProtocolVersion;

use exchange::Exchange;
pub use modern::Admitted;
pub use output::Outbox;
pub use stateless::StatelessRequest;

/// Default for [`SessionOptions::validation_budget`]: 1 s (schemas that are
/// not hostile to their input check a call in well under a millisecond).
pub const DEFAULT_VALIDATION_BUDGET: Duration = Duration::from_secs(1);

/// Default for [`SessionOptions::max_output`]: 16 MiB.
pub const DEFAULT_MAX_OUTPUT: usize = 16 << 20;

pub use crate::observe::Outcome;

/// Settings a session is created with.
#[derive(Clone)]
pub struct SessionOptions {
    /// Page size for list results; `None` returns every item in one page.
    pub page_size: Option<usize>,
    /// Largest result a guest may produce, in serialised bytes; a larger one
    /// is replaced by -32603 (nothing partial is sent).
    pub max_output: usize,
    /// Signs the `requestState` of 2026-07-28 rounds (one random key per
    /// process by default).
    pub state_key: StateKey,
    /// Whether every instance a client's retry may reach holds `state_key`;
    /// when only this one does, a round is refused, not sealed.
    pub state_key_sharing: StateKeySharing,
    /// How long a round's `requestState` is honoured: the time a client has
    /// to answer its questions (whole seconds).
    pub state_ttl: Duration,
    /// When set, the tools, prompts and resources lists of an authenticated
    /// caller leave out what it lacks the scopes to use (unauthenticated
    /// sessions see everything).
    pub list_filter: Option<Arc<ScopePolicy>>,
    /// Whether a tool's arguments are checked against its input schema
    /// before the guest runs (a failure is a tool error naming why).
    pub validate_input: bool,
    /// How long checking one call's arguments against its tool's input
    /// schema may take, from when the call asks (waiting for a thread
    /// counts): past it the call is refused with a tool error saying so.
    pub validation_budget: Duration,
    /// Where argument checks run: on its threads when set (the host's
    /// bounded pool), else on the thread serving the request.
    pub offload: Option<Arc<dyn Offload>>,
    /// Told of every request and of every 2025 session's end (logs,
    /// metrics, traces); none by default.
    pub observer: Option<Arc<dyn Observer>>,
}

impl std::fmt::Debug for SessionOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionOptions")
            .field("page_size", &self.page_size)
            .field("max_output", &self.max_output)
            .field("state_key_sharing", &self.state_key_sharing)
            .field("state_ttl", &self.state_ttl)
            .field("list_filter", &self.list_filter)
            .field("validate_input", &self.validate_input)
            .field("validation_budget", &self.validation_budget)
            .field("offload", &self.offload.is_some())
            .field("observer", &self.observer.is_some())
            .finish_non_exhaustive()
    }
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions {
            page_size: None,
            max_output: DEFAULT_MAX_OUTPUT,
            state_key: StateKey::default(),
            state_key_sharing: StateKeySharing::Shared,
            state_ttl: crate::rounds::DEFAULT_STATE_TTL,
            list_filter: None,
            validate_input: true,
            validation_budget: DEFAULT_VALIDATION_BUDGET,
            offload: None,
            observer: None,
        }
    }
}

/// Where the session is in its lifecycle: which era the connection speaks.
enum Phase {
    /// Nothing but `server/discover` probes yet: a legacy client may still
    /// `initialize`, and a modern one may send any request.
    New,
    /// Legacy: initialized with this revision.
    Ready(Ready),
    /// Modern: a request other than `server/discover` came with a 2026-07-28
    /// envelope. Each request stands alone; `initialize` gets -32022.
    Modern,
}

/// The era a request is served in.
#[derive(Clone, Copy)]
enum Era<'a> {
    /// In the session `initialize` set up.
    Legacy,
    /// On its own, at this revision, by routers that say this of themselves.
    Modern { version: ProtocolVersion, about: &'a ServerDescription, client: &'a Client },
}

/// What a request's client declared of itself, for the [`ClientLink`] of
/// its guest calls.
#[derive(Debug, Clone, Copy, Default)]
struct Client {
    capabilities: ClientCapabilities,
    log_level: Option<LogLevel>,
}

impl<'a> Era<'a> {
    /// What the routers say of themselves, for a method only modern
    /// requests reach (-32601 for any other, as a 2025 session knows none).
    fn about(self, method: Method) -> Result<&'a ServerDescription, RpcError> {
        match self {
            Era::Modern { about, .. } => Ok(about),
            Era::Legacy => Err(RpcError::new(code::METHOD_NOT_FOUND, format!("Method not found: {method}"))),
        }
    }
}

/// One request as an [`Exchange`] runs it: its id, what it asks, its
/// params and the era it is served in.
#[derive(Clone, Copy)]
struct Request<'a> {
    id: &'a RawValue,
    method: Method,
    params: RequestParams<'a>,
    era: Era<'a>,
}

/// A request's params: as sent, and for `tools/call` as read already, with
/// the envelope in its `_meta`, so that its handler does not read them again.
#[derive(Clone, Copy)]
pub(super) struct RequestParams<'a> {
    pub(super) raw: Option<&'a RawValue>,
    pub(super) call_tool: Option<&'a params::CallToolParams<'a>>,
}

impl<'a> RequestParams<'a> {
    /// Params not read yet.
    pub(super) fn raw(raw: Option<&'a RawValue>) -> Self {
        RequestParams { raw, call_tool: None }
    }
}

struct Ready {
    version: ProtocolVersion,
    subscribe: bool,
}

/// What a 2025 session keeps between its requests beside its
/// [`Exchange`]: where it is in its lifecycle, what its client declared,
/// and where its client hears of changes.
pub(super) struct SessionState {
    phase: Phase,
    log_level: Option<LogLevel>,
    /// Open `subscriptions/listen` streams.
    subscriptions: Vec<modern::Subscription>,
    /// What the client declared at `initialize`.
    client: ClientCapabilities,
    /// Where this session's client hears of routers' changes, outside of answers.
    sink: Option<Arc<dyn Sink>>,
    /// A 2025 session's registration with the listeners.
    listening: Option<Listening>,
    /// When `initialize` opened it, if an observer watches.
    opened: Option<std::time::Instant>,
}

/// One client's session with the routers it is served.
pub struct Session<C: RouterComponent> {
    ex: Exchange<C>,
    state: SessionState,
    /// The deployment a 2025 session follows, and the generation of the
    /// routers it is served by (see [`Session::following`]).
    following: Option<(Arc<Deployment<C>>, u64)>,
}

impl<C: RouterComponent> Session<C> {
    /// A new, uninitialised session with one router, or several
    /// ([`Routers`]). Guests are instantiated on first use.
    pub fn new(routers: impl Into<Routers<C>>, options: SessionOptions) -> Self {
        Session {
            ex: Exchange::new(routers.into(), options),
            state: SessionState {
                phase: Phase::New,
                log_level: None,
                subscriptions: Vec::new(),
                client: ClientCapabilities::default(),
                sink: None,
                listening: None,
                opened: None,
            },
            following: None,
        }
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
        self.ex.set_listeners(listeners);
    }

    /// Where this session's client hears of routers' changes outside of
    /// answers (its GET stream, its stdio connection, its
    /// `subscriptions/listen` stream). Together with
    /// [`Self::set_listeners`], a 2025 session listens from `initialize` on,
    /// and `subscriptions/listen` streams deliver. `None` stops it listening
    /// (and lets go of the sink).
    pub fn set_sink(&mut self, sink: Option<Arc<dyn Sink>>) {
        if sink.is_none() {
            self.state.listening = None;
            self.state.subscriptions.clear();
        }
        self.state.sink = sink;
    }

    /// Gives the session the transport's way to the client: routers that
    /// talk back send their notifications and questions through it, while
    /// they work. Without one, their notifications go out just before the
    /// answer, and their questions fail (`unavailable`).
    pub fn set_peer(&mut self, peer: Option<Arc<dyn Peer>>) {
        self.ex.peer = peer;
    }

    /// Who makes the requests from now on, as the transport authenticated
    /// them (`None`: not authenticated). Routers are told through their
    /// calls' context, and a 2026-07-28 `requestState` is bound to it.
    pub fn set_caller(&mut self, caller: Option<SharedCaller>) {
        self.ex.cx.caller = caller;
    }

    /// Where its requests come from, as its observer hears (see
    /// [`SessionOptions::observer`]).
    pub fn set_origin(&mut self, origin: Origin) {
        self.ex.origin = origin;
    }

    /// The trace context the transport carried with the next request (the
    /// HTTP `traceparent` header): its span's parent when `_meta` names none.
    pub fn set_transport_context(&mut self, context: Option<crate::observe::TraceContext>) {
        self.ex.transport_context = context;
    }

    /// Who made the last request, when authenticated.
    pub fn caller(&self) -> Option<&SharedCaller> {
        self.ex.cx.caller.as_ref()
    }

    /// A handle that cancels this session's requests from another thread or
    /// task (see [`Canceller`]).
    pub fn canceller(&self) -> Canceller {
        self.ex.canceller.clone()
    }

    /// Runs `hook` at every epoch tick while a guest call is in progress
    /// (transports use it to look for cancellations during long calls).
    pub fn set_tick_hook(&mut self, hook: TickHook) {
        self.ex.cx.tick_hook = Some(hook);
    }

    /// Marks the session initialized at `version` without an `initialize`
    /// exchange: for transports where each request stands alone (stateless
    /// HTTP, where the revision comes from the `MCP-Protocol-Version` header).
    /// The guests are asked for their capabilities with blocking calls.
    pub fn assume_initialized(&mut self, version: ProtocolVersion) -> Result<(), RpcError> {
        self.ex.cx.calls = CallMode::Blocking;
        block_on(self.assume_ready(version))
    }

    /// [`Self::assume_initialized`] with async guest calls (see
    /// [`Self::handle_async`]).
    pub async fn assume_initialized_async(&mut self, version: ProtocolVersion) -> Result<(), RpcError> {
        self.ex.cx.calls = CallMode::Async;
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
        for mount in 0..self.ex.open.len() {
            let caps = self.ex.guest(mount, async |r, cx| r.capabilities(cx).await).await?;
            merged = routers::merge_capabilities(merged, caps);
        }
        self.ex.become_ready(version, &merged, &mut self.state);
        Ok(())
    }

    /// The negotiated revision, once initialized (legacy), or the modern
    /// revision once a modern request fixed the connection's era.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        match &self.state.phase {
            Phase::New => None,
            Phase::Ready(ready) => Some(ready.version),
            Phase::Modern => Some(ProtocolVersion::LATEST),
        }
    }

    /// Whether any of its routers reaches its client (see
    /// [`RouterComponent::talks_back`]): only then do its requests need a
    /// way to the client.
    pub fn talks_back(&self) -> bool {
        self.ex.talks_back
    }

    /// Drops the instances of routers that let them go once idle and have
    /// been idle that long (see [`Router::release_if_idle`]); how many.
    /// For a transport to call between requests.
    pub fn release_idle_instances(&mut self) -> usize {
        self.ex.release_idle_instances()
    }

    /// The level the client asked for with `logging/setLevel`, if any.
    pub fn log_level(&self) -> Option<LogLevel> {
        self.state.log_level
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
        self.ex.cx.calls = CallMode::Blocking;
        block_on(self.handle_message(message, out));
    }

    /// [`Self::handle`] with async guest calls: the guests run on the
    /// executor's thread, each call giving the thread back while the guest
    /// waits on the host and at every epoch tick.
    ///
    /// Run the future to its end (spawn it, so that it goes on if its caller
    /// leaves): dropped mid-call, it abandons the guest in the middle of its
    /// work, and the router replaces that instance at its next call.
    pub async fn handle_async(&mut self, message: &[u8], out: &mut (dyn Outbox + Send)) {
        self.ex.cx.calls = CallMode::Async;
        self.handle_message(message, out).await;
    }

    /// [`Self::handle_async`] for a message a transport has already parsed
    /// (e.g. to route it), so that it is not parsed twice.
    pub async fn handle_parsed_async(&mut self, message: Incoming<'_>, out: &mut (dyn Outbox + Send)) {
        self.ex.cx.calls = CallMode::Async;
        self.handle_incoming(message, out).await;
    }

    async fn handle_message<O: Outbox + ?Sized>(&mut self, message: &[u8], out: &mut O) {
        match jsonrpc::parse(message) {
            Ok(incoming) => self.handle_incoming(incoming, out).await,
            Err(rejection) => self.ex.send_error(rejection.id, &rejection.error, out),
        }
    }

    async fn handle_incoming<O: Outbox + ?Sized>(&mut self, message: Incoming<'_>, out: &mut O) {
        match message {
            Incoming::Request { id, method, params } => {
                let watching = self.ex.watch_start(&method, id, params);
                let parsed = Method::parse(&method);
                let answering = self.answer_request(id, &method, parsed, params, out);
                let answered = exchange::within(watching.as_ref(), answering).await;
                let outcome = self.ex.deliver(id, answered, out);
                if let Some(watching) = watching {
                    if method == "initialize" && outcome == Outcome::Answered {
                        self.state.opened = Some(std::time::Instant::now());
                    }
                    // `initialize` itself settles the revision it is served at.
                    self.ex.watch.version = self.ex.watch.version.or(self.protocol_version());
                    self.ex.watch_finish(watching, &method, parsed, id, params, outcome);
                }
                self.ex.recycle_buffer();
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
    async fn answer_request<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        name: &str,
        method: Option<Method>,
        params: Option<&RawValue>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        self.ex.deferred = false;
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
        if matches!(self.state.phase, Phase::Modern) {
            return Err(match method {
                Some(Method::Initialize) => modern::initialize_on_modern_connection(params.raw),
                _ => crate::envelope::missing_envelope(&format!(
                    "this connection speaks 2026-07-28, where `{name}` needs its envelope"
                )),
            });
        }
        let Some(method) = method else {
            return Err(RpcError::new(code::METHOD_NOT_FOUND, format!("Method not found: {name}")));
        };
        if matches!(self.state.phase, Phase::Ready(_)) {
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
                let extending: Vec<usize> = (0..self.ex.open.len()).filter(|&m| self.ex.extends(m)).collect();
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
                    self.state.subscriptions.retain(|s| s.id.get() != request);
                }
            }
            other => tracing::debug!(method = %clipped(other, CLIENT_TEXT_BYTES), "ignoring an unknown notification"),
        }
    }
}

impl<C: RouterComponent> Drop for Session<C> {
    fn drop(&mut self) {
        // Only sessions `initialize` opened: a stateless 2025 request's
        // session of one message is no session to a client.
        if let (Some(opened), Some(observer), Phase::Ready(ready)) =
            (self.state.opened, &self.ex.options.observer, &self.state.phase)
        {
            observer.session_ended(&SessionEnded {
                version: ready.version,
                origin: &self.ex.origin,
                lasted: opened.elapsed(),
            });
        }
    }
}
