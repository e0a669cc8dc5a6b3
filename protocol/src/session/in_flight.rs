//! What the request being served carries: the context its guest calls run
//! under, whether it was cancelled or is answered later, the stamp of a
//! modern result, the transport's trace context and what the observer
//! hears of it.

use super::stamp::Stamp;
use super::watch::Watch;
use crate::auth::SharedCaller;
use crate::cancel::TickHook;
use crate::client::ClientLink;
use crate::observe::TraceContext;
use crate::router::{CallContext, CallMode};

#[derive(Default)]
pub(super) struct InFlight {
    /// What every guest call of the current request runs under.
    cx: CallContext,
    /// Set when the request being handled was cancelled: it gets no response.
    cancelled: bool,
    /// While a modern request runs: what its result is stamped with.
    stamp: Option<Stamp>,
    /// Set when the request being handled is answered later, not now
    /// (`subscriptions/listen`).
    deferred: bool,
    /// The trace context the transport carried with the next request.
    transport_context: Option<TraceContext>,
    /// What the request being handled came to, for the observer (filled
    /// only when there is one).
    watch: Watch,
}

impl InFlight {
    /// What its guest calls run under.
    pub(super) fn context(&self) -> &CallContext {
        &self.cx
    }

    pub(super) fn calls(&self) -> CallMode {
        self.cx.calls
    }

    pub(super) fn set_calls(&mut self, calls: CallMode) {
        self.cx.calls = calls;
    }

    pub(super) fn caller(&self) -> Option<&SharedCaller> {
        self.cx.caller.as_ref()
    }

    pub(super) fn set_caller(&mut self, caller: Option<SharedCaller>) {
        self.cx.caller = caller;
    }

    pub(super) fn set_task_offer(&mut self, offer: Option<crate::tasks::TaskOffer>) {
        self.cx.task = offer;
    }

    pub(super) fn set_tick_hook(&mut self, hook: TickHook) {
        self.cx.tick_hook = Some(hook);
    }

    /// The way back to its client, while it has one.
    pub(super) fn link(&self) -> Option<&ClientLink> {
        self.cx.client.as_ref()
    }

    pub(super) fn set_link(&mut self, link: ClientLink) {
        self.cx.client = Some(link);
    }

    pub(super) fn take_link(&mut self) -> Option<ClientLink> {
        self.cx.client.take()
    }

    pub(super) fn cancelled(&self) -> bool {
        self.cancelled
    }

    pub(super) fn set_cancelled(&mut self, cancelled: bool) {
        self.cancelled = cancelled;
    }

    pub(super) fn deferred(&self) -> bool {
        self.deferred
    }

    pub(super) fn set_deferred(&mut self, deferred: bool) {
        self.deferred = deferred;
    }

    pub(super) fn stamp(&self) -> Option<&Stamp> {
        self.stamp.as_ref()
    }

    pub(super) fn take_stamp(&mut self) -> Option<Stamp> {
        self.stamp.take()
    }

    pub(super) fn set_stamp(&mut self, stamp: Option<Stamp>) {
        self.stamp = stamp;
    }

    pub(super) fn set_request_id(&mut self, id: Option<std::sync::Arc<str>>) {
        self.cx.request_id = id;
    }

    pub(super) fn set_transport_context(&mut self, context: Option<TraceContext>) {
        self.transport_context = context;
    }

    pub(super) fn take_transport_context(&mut self) -> Option<TraceContext> {
        self.transport_context.take()
    }

    pub(super) fn watch(&self) -> &Watch {
        &self.watch
    }

    pub(super) fn watch_mut(&mut self) -> &mut Watch {
        &mut self.watch
    }
}
