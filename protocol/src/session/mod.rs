//! One MCP session: its lifecycle and the way messages reach its handlers.
//!
//! A [`Session`] takes one JSON-RPC message at a time and writes the messages
//! it produces (notifications, then the response) to an [`Outbox`]. It knows
//! nothing of transports: stdio, HTTP and the embedding API all drive it the
//! same way, and nothing of instances: it calls its routers through
//! [`Router`](crate::Router).

mod guest;
mod handlers;
mod in_process;
mod lists;
mod modern;
mod output;
mod request;
mod upgrade;

use std::sync::Arc;
use std::time::Duration;

use serde_json::value::RawValue;

use crate::auth::{ScopePolicy, SharedCaller};
use crate::cancel::{Canceller, TickHook};
use crate::client::{ClientCapabilities, Peer, QuestionIds};
use crate::contract;
use crate::deployment::Deployment;
use crate::executor::block_on;
use crate::jsonrpc::{self, Incoming, RpcError, code};
use crate::listeners::{Interest, Listeners, Listening, Sink};
use crate::method::Method;
use crate::modern::Envelope;
use crate::params::LogLevel;
use crate::rounds::StateKey;
use crate::router::{CallContext, Calls, Router, RouterComponent};
use crate::routers::{self, About, Routers, ToolFacts};
use crate::version::ProtocolVersion;

pub use modern::Admitted;
pub use output::Outbox;

/// Output buffer capacity kept between messages.
const RETAINED_BUFFER: usize = 1 << 20;

/// Default for [`SessionOptions::max_output`]: 16 MiB.
pub const DEFAULT_MAX_OUTPUT: usize = 16 << 20;

/// What became of a request a session handled: what its last message to
/// the client says, so that a transport need not read it back (2026-07-28
/// over HTTP gives some errors a status of their own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub enum Outcome {
    /// Its result was sent.
    Answered,
    /// Its error, with this JSON-RPC code, was sent.
    Failed(i32),
    /// Nothing was sent: it was cancelled.
    Cancelled,
    /// It stays open, answered later (`subscriptions/listen`).
    Deferred,
}

/// Settings a session is created with.
#[derive(Debug, Clone)]
pub struct SessionOptions {
    /// Page size for list results; `None` returns every item in one page.
    pub page_size: Option<usize>,
    /// Largest result a guest may produce, in serialised bytes; a larger one
    /// is replaced by -32603 (nothing partial is sent).
    pub max_output: usize,
    /// Signs the `requestState` of 2026-07-28 rounds (one random key per
    /// process by default).
    pub state_key: StateKey,
    /// How long a round's `requestState` is honoured: the time a client has
    /// to answer its questions (whole seconds).
    pub state_ttl: Duration,
    /// When set, the tools, prompts and resources lists of an authenticated
    /// caller leave out what it lacks the scopes to use (unauthenticated
    /// sessions see everything).
    pub list_filter: Option<Arc<ScopePolicy>>,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions {
            page_size: None,
            max_output: DEFAULT_MAX_OUTPUT,
            state_key: StateKey::default(),
            state_ttl: crate::rounds::DEFAULT_STATE_TTL,
            list_filter: None,
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
    Modern { version: ProtocolVersion, about: &'a About, client: &'a Client },
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
    fn about(self, method: Method) -> Result<&'a About, RpcError> {
        match self {
            Era::Modern { about, .. } => Ok(about),
            Era::Legacy => Err(RpcError::new(code::METHOD_NOT_FOUND, format!("Method not found: {method}"))),
        }
    }
}

struct Ready {
    version: ProtocolVersion,
    subscribe: bool,
}

/// One client's session with the routers it is served.
pub struct Session<C: RouterComponent> {
    routers: Routers<C>,
    /// The session's way to each mounted router, in mount order.
    open: Vec<C::Router>,
    options: SessionOptions,
    phase: Phase,
    /// Per mount: what its tools declare (filled on first need).
    tool_facts: Vec<Option<Arc<ToolFacts>>>,
    log_level: Option<LogLevel>,
    canceller: Canceller,
    /// What every guest call of the current request runs under.
    cx: CallContext,
    /// Set when the request being handled was cancelled: it gets no response.
    cancelled: bool,
    /// Where the answer being built is written.
    buf: Vec<u8>,
    /// Whether answers are written as whole JSON-RPC responses or as bare
    /// results (for in-process callers, see [`Session::call`]).
    envelope: bool,
    /// While a modern request runs: what its result is stamped with.
    stamp: Option<modern::Stamp>,
    /// Set when the request being handled is answered later, not now
    /// (`subscriptions/listen`).
    deferred: bool,
    /// Open `subscriptions/listen` streams.
    subscriptions: Vec<modern::Subscription>,
    /// Whether any router reaches its client: only then does a request get a
    /// [`ClientLink`].
    talks_back: bool,
    /// What the client declared at `initialize`.
    client: ClientCapabilities,
    /// The transport's way to the client outside of answers.
    peer: Option<Arc<dyn Peer>>,
    /// Ids of the requests sent to the client.
    question_ids: QuestionIds,
    /// Every client of the server that hears of routers' changes.
    listeners: Option<Arc<Listeners>>,
    /// Where this session's client hears of them, outside of answers.
    sink: Option<Arc<dyn Sink>>,
    /// A 2025 session's registration with `listeners`.
    listening: Option<Listening>,
    /// Each mount's prefix, when several are mounted.
    uri_prefixes: Option<Arc<[String]>>,
    /// The deployment a 2025 session follows, and the generation of the
    /// routers it is served by (see [`Session::following`]).
    following: Option<(Arc<Deployment<C>>, u64)>,
}

impl<C: RouterComponent> Session<C> {
    /// A new, uninitialised session with one router, or several
    /// ([`Routers`]). Guests are instantiated on first use.
    pub fn new(routers: impl Into<Routers<C>>, options: SessionOptions) -> Self {
        let routers = routers.into();
        Session {
            open: routers.open(),
            tool_facts: routers.learnt_tools(),
            talks_back: routers.talks_back(),
            routers,
            options,
            phase: Phase::New,
            log_level: None,
            canceller: Canceller::default(),
            cx: CallContext::default(),
            cancelled: false,
            buf: Vec::with_capacity(1024),
            envelope: true,
            stamp: None,
            deferred: false,
            subscriptions: Vec::new(),
            client: ClientCapabilities::default(),
            peer: None,
            question_ids: QuestionIds::default(),
            listeners: None,
            sink: None,
            listening: None,
            uri_prefixes: None,
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
        self.uri_prefixes = self.routers.prefixes();
        self.listeners = Some(listeners);
    }

    /// Where this session's client hears of routers' changes outside of
    /// answers (its GET stream, its stdio connection, its
    /// `subscriptions/listen` stream). Together with
    /// [`Self::set_listeners`], a 2025 session listens from `initialize` on,
    /// and `subscriptions/listen` streams deliver. `None` stops it listening
    /// (and lets go of the sink).
    pub fn set_sink(&mut self, sink: Option<Arc<dyn Sink>>) {
        if sink.is_none() {
            self.listening = None;
            self.subscriptions.clear();
        }
        self.sink = sink;
    }

    /// Gives the session the transport's way to the client: routers that
    /// talk back send their notifications and questions through it, while
    /// they work. Without one, their notifications go out just before the
    /// answer, and their questions fail (`unavailable`).
    pub fn set_peer(&mut self, peer: Option<Arc<dyn Peer>>) {
        self.peer = peer;
    }

    /// Who makes the requests from now on, as the transport authenticated
    /// them (`None`: not authenticated). Routers are told through their
    /// calls' context, and a 2026-07-28 `requestState` is bound to it.
    pub fn set_caller(&mut self, caller: Option<SharedCaller>) {
        self.cx.caller = caller;
    }

    /// Who made the last request, when authenticated.
    pub fn caller(&self) -> Option<&SharedCaller> {
        self.cx.caller.as_ref()
    }

    /// A handle that cancels this session's requests from another thread or
    /// task (see [`Canceller`]).
    pub fn canceller(&self) -> Canceller {
        self.canceller.clone()
    }

    /// Runs `hook` at every epoch tick while a guest call is in progress
    /// (transports use it to look for cancellations during long calls).
    pub fn set_tick_hook(&mut self, hook: TickHook) {
        self.cx.tick_hook = Some(hook);
    }

    /// Marks the session initialized at `version` without an `initialize`
    /// exchange: for transports where each request stands alone (stateless
    /// HTTP, where the revision comes from the `MCP-Protocol-Version` header).
    /// The guests are asked for their capabilities with blocking calls.
    pub fn assume_initialized(&mut self, version: ProtocolVersion) -> Result<(), RpcError> {
        self.cx.calls = Calls::Blocking;
        block_on(self.assume_ready(version))
    }

    /// [`Self::assume_initialized`] with async guest calls (see
    /// [`Self::handle_async`]).
    pub async fn assume_initialized_async(&mut self, version: ProtocolVersion) -> Result<(), RpcError> {
        self.cx.calls = Calls::Async;
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
        for mount in 0..self.open.len() {
            let caps = self.guest(mount, async |r, cx| r.capabilities(cx).await).await?;
            merged = routers::merge_capabilities(merged, caps);
        }
        self.become_ready(version, &merged);
        Ok(())
    }

    /// Starts serving a 2025 session at `version`, for routers that offer
    /// `caps`: from now on its client hears of the list changes they
    /// advertise, and of updates to the resources it subscribes to.
    fn become_ready(&mut self, version: ProtocolVersion, caps: &contract::ServerCapabilities) {
        let subscribe = caps.resources.as_ref().and_then(|r| r.subscribe).unwrap_or(false);
        self.phase = Phase::Ready(Ready { version, subscribe });
        if let (Some(listeners), Some(sink)) = (&self.listeners, &self.sink) {
            let changes = |flag: Option<bool>| flag.unwrap_or(false);
            let lists = [
                changes(caps.tools.as_ref().and_then(|t| t.list_changed)),
                changes(caps.prompts.as_ref().and_then(|p| p.list_changed)),
                changes(caps.resources.as_ref().and_then(|r| r.list_changed)),
            ];
            let interest = Interest { lists, ..Interest::default() };
            self.listening = Some(listeners.listen(interest, sink.clone()));
        }
    }

    /// The negotiated revision, once initialized (legacy), or the modern
    /// revision once a modern request fixed the connection's era.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        match &self.phase {
            Phase::New => None,
            Phase::Ready(ready) => Some(ready.version),
            Phase::Modern => Some(ProtocolVersion::LATEST),
        }
    }

    /// Whether any of its routers reaches its client (see
    /// [`RouterComponent::talks_back`]): only then do its requests need a
    /// way to the client.
    pub fn talks_back(&self) -> bool {
        self.talks_back
    }

    /// Drops the instances of routers that let them go once idle and have
    /// been idle that long (see [`Router::release_if_idle`]); how many.
    /// For a transport to call between requests.
    pub fn release_idle_instances(&mut self) -> usize {
        let now = std::time::Instant::now();
        self.open.iter_mut().filter_map(|router| router.release_if_idle(now).then_some(())).count()
    }

    /// The level the client asked for with `logging/setLevel`, if any.
    pub fn log_level(&self) -> Option<LogLevel> {
        self.log_level
    }

    /// Handles one incoming message, writing whatever it produces to `out`:
    /// nothing for notifications and responses, else zero or more
    /// notifications followed by exactly one response.
    ///
    /// Guest calls block the calling thread (see [`Self::handle_async`] for
    /// async ones).
    pub fn handle(&mut self, message: &[u8], out: &mut dyn Outbox) {
        self.cx.calls = Calls::Blocking;
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
        self.cx.calls = Calls::Async;
        self.handle_message(message, out).await;
    }

    /// [`Self::handle_async`] for a message a transport has already parsed
    /// (e.g. to route it), so that it is not parsed twice.
    pub async fn handle_parsed_async(&mut self, message: Incoming<'_>, out: &mut (dyn Outbox + Send)) {
        self.cx.calls = Calls::Async;
        self.handle_incoming(message, out).await;
    }

    async fn handle_message<O: Outbox + ?Sized>(&mut self, message: &[u8], out: &mut O) {
        match jsonrpc::parse(message) {
            Ok(incoming) => self.handle_incoming(incoming, out).await,
            Err(rejection) => self.send_error(rejection.id, &rejection.error, out),
        }
    }

    async fn handle_incoming<O: Outbox + ?Sized>(&mut self, message: Incoming<'_>, out: &mut O) {
        match message {
            Incoming::Request { id, method, params } => {
                let answered = self.answer_request(id, &method, Method::parse(&method), params, out).await;
                let _ = self.deliver(id, answered, out);
            }
            Incoming::Notification { method, params } => self.notification(&method, params).await,
            Incoming::Response { id } => {
                // Transports hand the answers to routers' questions over
                // before the session sees them: this one answers nothing.
                tracing::debug!(id = id.get(), "ignoring a response to an unknown request");
            }
        }
    }

    /// Answers request `id` into `self.buf` in the era its `params` choose:
    /// a 2026-07-28 envelope makes it modern, its absence legacy. `name` is
    /// the method as sent, `method` what it names, if known.
    async fn answer_request<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        name: &str,
        method: Option<Method>,
        params: Option<&RawValue>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        self.deferred = false;
        match Envelope::read(params)? {
            Some(envelope) => self.modern_request(id, name, method, params, &envelope, out).await,
            None => self.legacy_request(id, name, method, params, out).await,
        }
    }

    /// Sends what answering request `id` came to: its answer, its error, or
    /// nothing (cancelled, or answered later), and says which.
    fn deliver<O: Outbox + ?Sized>(&mut self, id: &RawValue, answered: Result<(), RpcError>, out: &mut O) -> Outcome {
        let outcome = match answered {
            Ok(()) if self.deferred => Outcome::Deferred,
            Ok(()) => {
                out.send(&self.buf);
                Outcome::Answered
            }
            Err(_) if self.cancelled => {
                tracing::debug!(id = id.get(), "request cancelled: no response");
                Outcome::Cancelled
            }
            Err(error) => {
                self.send_error(Some(id), &error, out);
                Outcome::Failed(error.code)
            }
        };
        if self.buf.capacity() > RETAINED_BUFFER {
            // One huge result must not pin its size for the session's life.
            self.buf = Vec::with_capacity(1024);
        }
        outcome
    }

    /// A request without a modern envelope: served in the `initialize`d
    /// session, unless the connection already speaks 2026-07-28.
    async fn legacy_request<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        name: &str,
        method: Option<Method>,
        params: Option<&RawValue>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let method = method.filter(|m| !m.is_modern_only());
        if matches!(self.phase, Phase::Modern) {
            return Err(match method {
                Some(Method::Initialize) => modern::initialize_on_modern_connection(params),
                _ => crate::modern::missing_envelope(&format!(
                    "this connection speaks 2026-07-28, where `{name}` needs its envelope"
                )),
            });
        }
        let Some(method) = method else {
            return Err(RpcError::new(code::METHOD_NOT_FOUND, format!("Method not found: {name}")));
        };
        if matches!(self.phase, Phase::Ready(_)) {
            self.follow_deployment(out).await;
        }
        self.request(id, method, params, Era::Legacy, out).await
    }

    async fn notification(&mut self, method: &str, params: Option<&RawValue>) {
        match method {
            "notifications/initialized" => {}
            "notifications/roots/list_changed" => {
                // Routers that offer the extension hear of it; a failure is
                // theirs to log (a notification gets no answer).
                let extending: Vec<usize> = (0..self.open.len()).filter(|&m| self.extends(m)).collect();
                for mount in extending {
                    if let Err(error) = self.guest(mount, async |r, cx| r.roots_list_changed(cx).await).await {
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
                    self.subscriptions.retain(|s| s.id.get() != request);
                }
            }
            other => tracing::debug!(method = other, "ignoring an unknown notification"),
        }
    }

    async fn dispatch<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        method: Method,
        params: Option<&RawValue>,
        era: Era<'_>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        // A legacy request needs an initialized session (but for `ping` and
        // `initialize`); a modern one carries its own revision.
        let ready = match (era, &self.phase) {
            (Era::Modern { version, .. }, _) => Ok(version),
            (Era::Legacy, Phase::Ready(ready)) => Ok(ready.version),
            (Era::Legacy, _) => {
                Err(RpcError::invalid_request(format!("`{method}` before `initialize`; initialize first")))
            }
        };
        match method {
            Method::Ping => self.reply(id, &crate::mapping::Empty {}),
            Method::Initialize => self.initialize(id, params).await,
            Method::ListTools => self.list_tools(id, params, ready?).await,
            Method::CallTool => self.call_tool(id, params, ready?, out).await,
            Method::ListResources => self.list_resources(id, params, ready?).await,
            Method::ReadResource => self.read_resource(id, params, ready?).await,
            Method::ListResourceTemplates => self.list_resource_templates(id, params, ready?).await,
            Method::Subscribe | Method::Unsubscribe => {
                ready?;
                self.subscription(id, params, method).await
            }
            Method::ListPrompts => {
                ready?;
                self.list_prompts(id, params).await
            }
            Method::GetPrompt => self.get_prompt(id, params, ready?).await,
            Method::Complete => {
                ready?;
                self.complete(id, params).await
            }
            Method::SetLogLevel => {
                ready?;
                self.set_log_level(id, params)
            }
            Method::Discover => self.discover(id, era.about(method)?),
            Method::Listen => self.listen(id, params, era.about(method)?, out),
        }
    }
}
