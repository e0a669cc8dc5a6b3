//! What answering one request takes, in either era: the routers and a way
//! to each, the options, the answer being written, the request's
//! cancellation and context.
//!
//! A 2025 [`Session`](super::Session) keeps one [`Exchange`] for all its
//! requests, beside its own state ([`SessionState`]); a 2026-07-28 request
//! served on its own ([`StatelessRequest`](super::StatelessRequest)) makes
//! one for itself and nothing more.

use std::sync::Arc;
use std::time::Instant;

use serde_json::value::RawValue;
use tracing::Instrument;

use super::stamp::Stamp;
use super::{Era, Outbox, Outcome, Phase, Request, SessionOptions, SessionState};
use crate::cancel::Canceller;
use crate::client::{Peer, QuestionIds};
use crate::jsonrpc::{RpcError, code};
use crate::listeners::Listeners;
use crate::method::Method;
use crate::observe::{CLIENT_TEXT_BYTES, Finished, Origin, Started, Target, TraceContext, clipped};
use crate::router::{CallContext, FaultKind, Router, RouterComponent};
use crate::routers::{PromptNames, Routers, ToolFacts};
use crate::version::ProtocolVersion;

/// Output buffer capacity kept between messages.
const RETAINED_BUFFER: usize = 1 << 20;

pub(super) struct Exchange<C: RouterComponent> {
    pub(super) routers: Routers<C>,
    /// The way to each mounted router, in mount order.
    pub(super) open: Vec<C::Router>,
    pub(super) options: SessionOptions,
    /// Per mount: what its tools declare (filled on first need).
    pub(super) tool_facts: Vec<Option<Arc<ToolFacts>>>,
    /// Per mount: the names of its prompts (filled on first need).
    pub(super) prompt_names: Vec<Option<Arc<PromptNames>>>,
    pub(super) canceller: Canceller,
    /// What every guest call of the current request runs under.
    pub(super) cx: CallContext,
    /// Set when the request being handled was cancelled: it gets no response.
    pub(super) cancelled: bool,
    /// Where the answer being built is written.
    pub(super) buf: Vec<u8>,
    /// Whether answers are written as whole JSON-RPC responses or as bare
    /// results (for in-process callers, see [`Session::call`](super::Session::call)).
    pub(super) envelope: bool,
    /// While a modern request runs: what its result is stamped with.
    pub(super) stamp: Option<Stamp>,
    /// Set when the request being handled is answered later, not now
    /// (`subscriptions/listen`).
    pub(super) deferred: bool,
    /// Whether any router reaches its client: only then does a request get a
    /// [`ClientLink`](crate::ClientLink).
    pub(super) talks_back: bool,
    /// The transport's way to the client outside of answers.
    pub(super) peer: Option<Arc<dyn Peer>>,
    /// Ids of the requests sent to the client.
    pub(super) question_ids: QuestionIds,
    /// Every client of the server that hears of routers' changes.
    pub(super) listeners: Option<Arc<Listeners>>,
    /// Each mount's prefix, when several are mounted.
    pub(super) uri_prefixes: Option<Arc<[String]>>,
    /// Where its requests come from, for the observer.
    pub(super) origin: Origin,
    /// The trace context the transport carried with the next request.
    pub(super) transport_context: Option<TraceContext>,
    /// What the request being handled came to, for the observer (filled
    /// only when there is one).
    pub(super) watch: Watch,
}

/// What a request came to beyond its outcome, noted as it is handled.
#[derive(Default)]
pub(super) struct Watch {
    pub(super) target: Option<(TargetKind, Box<str>)>,
    pub(super) mount: Option<usize>,
    pub(super) tool_error: bool,
    pub(super) fault: Option<FaultKind>,
    pub(super) output_capped: bool,
    pub(super) input_required: bool,
    pub(super) version: Option<ProtocolVersion>,
    /// The message of the error sent, if one was.
    pub(super) error: Option<String>,
}

#[derive(Clone, Copy)]
pub(super) enum TargetKind {
    Tool,
    Prompt,
    Resource,
}

/// A request being watched: the span it runs in and when it started.
pub(super) struct Watching {
    span: tracing::Span,
    started: Instant,
}

/// Runs `answering` inside `watching`'s span, if any.
pub(super) async fn within<F: Future>(watching: Option<&Watching>, answering: F) -> F::Output {
    match watching {
        Some(watching) => answering.instrument(watching.span.clone()).await,
        None => answering.await,
    }
}

impl<C: RouterComponent> Exchange<C> {
    pub(super) fn new(routers: Routers<C>, options: SessionOptions) -> Self {
        let (tool_facts, prompt_names) = routers.learnt_lists();
        Exchange {
            open: routers.open(),
            tool_facts,
            prompt_names,
            talks_back: routers.talks_back(),
            routers,
            options,
            canceller: Canceller::default(),
            cx: CallContext::default(),
            cancelled: false,
            buf: Vec::with_capacity(1024),
            envelope: true,
            stamp: None,
            deferred: false,
            peer: None,
            question_ids: QuestionIds::default(),
            listeners: None,
            uri_prefixes: None,
            origin: Origin::default(),
            transport_context: None,
            watch: Watch::default(),
        }
    }

    /// Starts watching request `id`, when an observer watches.
    pub(super) fn watch_start(&mut self, method: &str, id: &RawValue, params: Option<&RawValue>) -> Option<Watching> {
        let observer = self.options.observer.as_ref()?;
        self.watch = Watch::default();
        let transport_context = self.transport_context.take();
        let started =
            Started { method, id, params, origin: &self.origin, transport_context: transport_context.as_ref() };
        let span = observer.started(&started);
        Some(Watching { span, started: Instant::now() })
    }

    /// Whether an observer watches: only then is what a request came to noted
    /// beyond what costs nothing (a flag, a copy).
    pub(super) fn observed(&self) -> bool {
        self.options.observer.is_some()
    }

    /// Notes what request `id` named, once a router knows it.
    pub(super) fn watch_target(&mut self, mount: usize, kind: TargetKind, name: &str) {
        if self.observed() {
            self.watch.mount = Some(mount);
            self.watch.target = Some((kind, name.into()));
        }
    }

    /// Notes the mount request `id` went to, when what it named is not
    /// reported (see [`Exchange::watch_listed`]).
    pub(super) fn watch_mount(&mut self, mount: usize) {
        if self.observed() {
            self.watch.mount = Some(mount);
        }
    }

    /// Tells the observer what request `id` came to.
    pub(super) fn watch_finish(
        &mut self,
        watching: Watching,
        method_name: &str,
        method: Option<Method>,
        id: &RawValue,
        params: Option<&RawValue>,
        outcome: Outcome,
    ) {
        let Some(observer) = &self.options.observer else { return };
        let watch = std::mem::take(&mut self.watch);
        let target = watch.target.as_ref().map(|(kind, name)| match kind {
            TargetKind::Tool => Target::Tool(name),
            TargetKind::Prompt => Target::Prompt(name),
            TargetKind::Resource => Target::Resource(name),
        });
        let label = watch.mount.map(|mount| self.routers.mounts()[mount].component.label());
        let finished = Finished {
            method_name,
            method,
            id,
            params,
            target,
            component: label,
            outcome,
            tool_error: watch.tool_error,
            fault: watch.fault,
            output_capped: watch.output_capped,
            input_required: watch.input_required,
            error_message: watch.error.as_deref(),
            version: watch.version,
            origin: &self.origin,
            caller: self.cx.caller.as_deref(),
            duration: watching.started.elapsed(),
            answer: matches!(outcome, Outcome::Answered).then_some(self.buf.as_slice()),
        };
        observer.finished(&watching.span, &finished);
    }

    /// Lets go of a huge answer's buffer once it is sent (and reported).
    pub(super) fn recycle_buffer(&mut self) {
        if self.buf.capacity() > RETAINED_BUFFER {
            // One huge result must not pin its size for the session's life.
            self.buf = Vec::with_capacity(1024);
        }
    }

    /// Tells routers' changes to every client registered with `listeners`.
    pub(super) fn set_listeners(&mut self, listeners: Arc<Listeners>) {
        self.uri_prefixes = self.routers.prefixes();
        self.listeners = Some(listeners);
    }

    /// Drops the instances of routers that let them go once idle and have
    /// been idle that long (see [`Router::release_if_idle`]); how many.
    pub(super) fn release_idle_instances(&mut self) -> usize {
        let now = std::time::Instant::now();
        self.open.iter_mut().filter_map(|router| router.release_if_idle(now).then_some(())).count()
    }

    /// Sends what answering request `id` came to: its answer, its error, or
    /// nothing (cancelled, or answered later), and says which. The answer
    /// stays in `self.buf` for the observer until [`Self::recycle_buffer`].
    pub(super) fn deliver<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        answered: Result<(), RpcError>,
        out: &mut O,
    ) -> Outcome {
        match answered {
            Ok(()) if self.deferred => Outcome::Deferred,
            Ok(()) => {
                out.send(&self.buf);
                Outcome::Answered
            }
            Err(_) if self.cancelled => {
                tracing::debug!(id = %clipped(id.get(), CLIENT_TEXT_BYTES), "request cancelled: no response");
                Outcome::Cancelled
            }
            Err(error) => {
                self.send_error(Some(id), &error, out);
                if self.observed() {
                    self.watch.error = Some(error.message.clone());
                }
                Outcome::Failed(error.code)
            }
        }
    }

    /// Calls the handler of `method`. Those that need a 2025 session's
    /// state (`initialize`, subscriptions, the log level) or a connection
    /// that outlives the request (`subscriptions/listen`) are served with
    /// `state`, and refused without one.
    pub(super) async fn dispatch<O: Outbox + ?Sized>(
        &mut self,
        request: Request<'_>,
        state: Option<&mut SessionState>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let Request { id, method, params: read, era } = request;
        let params = read.raw;
        // A legacy request needs an initialized session (but for `ping` and
        // `initialize`); a modern one carries its own revision.
        let ready = match (era, state.as_deref().map(|s| &s.phase)) {
            (Era::Modern { version, .. }, _) => Ok(version),
            (Era::Legacy, Some(Phase::Ready(ready))) => Ok(ready.version),
            (Era::Legacy, _) => {
                Err(RpcError::invalid_request(format!("`{method}` before `initialize`; initialize first")))
            }
        };
        if self.observed() {
            self.watch.version = ready.as_ref().ok().copied();
        }
        let stateful = || {
            RpcError::new(
                code::METHOD_NOT_FOUND,
                format!("Method not found: {method} (it needs a connection that outlives the request)"),
            )
        };
        match method {
            Method::Ping => self.reply(id, &crate::mapping::Empty {}),
            Method::Initialize => self.initialize(id, params, state.ok_or_else(stateful)?).await,
            Method::ListTools => self.list_tools(id, params, ready?).await,
            Method::CallTool => self.call_tool(id, read, ready?, out).await,
            Method::ListResources => self.list_resources(id, params, ready?).await,
            Method::ReadResource => self.read_resource(id, params, ready?).await,
            Method::ListResourceTemplates => self.list_resource_templates(id, params, ready?).await,
            Method::Subscribe | Method::Unsubscribe => {
                ready?;
                self.subscription(id, params, method, state.ok_or_else(stateful)?).await
            }
            Method::ListPrompts => self.list_prompts(id, params, ready?).await,
            Method::GetPrompt => self.get_prompt(id, params, ready?).await,
            Method::Complete => {
                ready?;
                self.complete(id, params).await
            }
            Method::SetLogLevel => {
                ready?;
                self.set_log_level(id, params, state.ok_or_else(stateful)?)
            }
            Method::Discover => self.discover(id, era.about(method)?),
            Method::Listen => self.listen(id, params, era.about(method)?, state.ok_or_else(stateful)?, out),
        }
    }
}
