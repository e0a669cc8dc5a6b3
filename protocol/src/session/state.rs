//! What a 2025 session keeps between its requests beside what serves them:
//! where it is in its lifecycle, what its client declared, and where its
//! client hears of changes.

use std::sync::Arc;
use std::time::Instant;

use serde_json::value::RawValue;

use super::era::Client;
use crate::client::ClientCapabilities;
use crate::listeners::{Interest, Listeners, Listening, Sink};
use crate::params::LogLevel;
use crate::version::ProtocolVersion;

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

struct Ready {
    version: ProtocolVersion,
    subscribe: bool,
}

/// An open `subscriptions/listen` stream.
pub(super) struct Subscription {
    /// The id of the listen request: the subscription's id.
    id: Box<RawValue>,
    /// Its registration with the server's listeners, if the transport gave
    /// the session any: it hears of changes until this drops.
    _listening: Option<Listening>,
}

impl Subscription {
    pub(super) fn id(&self) -> &RawValue {
        &self.id
    }
}

/// What a 2025 session keeps between its requests.
pub(super) struct SessionState {
    phase: Phase,
    log_level: Option<LogLevel>,
    /// Open `subscriptions/listen` streams.
    subscriptions: Vec<Subscription>,
    /// What the client declared at `initialize`.
    client: ClientCapabilities,
    /// Where this session's client hears of routers' changes, outside of answers.
    sink: Option<Arc<dyn Sink>>,
    /// A 2025 session's registration with the listeners.
    listening: Option<Listening>,
    /// When `initialize` opened it, if an observer watches.
    opened: Option<Instant>,
}

impl SessionState {
    pub(super) fn new() -> Self {
        SessionState {
            phase: Phase::New,
            log_level: None,
            subscriptions: Vec::new(),
            client: ClientCapabilities::default(),
            sink: None,
            listening: None,
            opened: None,
        }
    }

    /// The revision `initialize` settled, once it did.
    pub(super) fn ready_version(&self) -> Option<ProtocolVersion> {
        match &self.phase {
            Phase::Ready(ready) => Some(ready.version),
            _ => None,
        }
    }

    /// Whether a request with a 2026-07-28 envelope (other than a probe)
    /// made this a modern connection.
    pub(super) fn is_modern(&self) -> bool {
        matches!(self.phase, Phase::Modern)
    }

    /// The negotiated revision, once initialized (legacy), or the modern
    /// revision once a modern request fixed the connection's era.
    pub(super) fn protocol_version(&self) -> Option<ProtocolVersion> {
        match &self.phase {
            Phase::New => None,
            Phase::Ready(ready) => Some(ready.version),
            Phase::Modern => Some(ProtocolVersion::LATEST),
        }
    }

    /// Makes this a modern connection.
    pub(super) fn become_modern(&mut self) {
        self.phase = Phase::Modern;
    }

    /// Whether the session was initialized with routers that offer resource
    /// subscriptions.
    pub(super) fn offers_subscriptions(&self) -> bool {
        matches!(&self.phase, Phase::Ready(r) if r.subscribe)
    }

    /// What its client declared, for the way back to it: `None` before
    /// `initialize`.
    pub(super) fn client(&self) -> Option<(ProtocolVersion, Client)> {
        match &self.phase {
            Phase::Ready(ready) => {
                Some((ready.version, Client { capabilities: self.client.clone(), log_level: self.log_level }))
            }
            _ => None,
        }
    }

    pub(super) fn set_client(&mut self, client: ClientCapabilities) {
        self.client = client;
    }

    pub(super) fn log_level(&self) -> Option<LogLevel> {
        self.log_level
    }

    pub(super) fn set_log_level(&mut self, level: LogLevel) {
        self.log_level = Some(level);
    }

    /// Starts serving at `version`, for routers that offer resource
    /// subscriptions or not; with `listeners`, its client hears from now on
    /// of what `interest` names, through its sink.
    pub(super) fn become_ready(
        &mut self,
        version: ProtocolVersion,
        subscribe: bool,
        listeners: Option<&Arc<Listeners>>,
        interest: Interest,
    ) {
        self.phase = Phase::Ready(Ready { version, subscribe });
        if let (Some(listeners), Some(sink)) = (listeners, &self.sink) {
            self.listening = Some(listeners.listen(interest, sink.clone()));
        }
    }

    /// Its registration with the listeners, while it listens.
    pub(super) fn listening(&self) -> Option<&Listening> {
        self.listening.as_ref()
    }

    /// Where its client hears of routers' changes outside of answers.
    pub(super) fn sink(&self) -> Option<&Arc<dyn Sink>> {
        self.sink.as_ref()
    }

    /// Sets where its client hears of changes; `None` stops it listening.
    pub(super) fn set_sink(&mut self, sink: Option<Arc<dyn Sink>>) {
        if sink.is_none() {
            self.listening = None;
            self.subscriptions.clear();
        }
        self.sink = sink;
    }

    /// Keeps `subscriptions/listen` request `id` open, registered with
    /// `listening` if the transport gave the session listeners.
    pub(super) fn open_subscription(&mut self, id: &RawValue, listening: Option<Listening>) {
        self.subscriptions.push(Subscription { id: id.to_owned(), _listening: listening });
    }

    /// Ends the subscription of request `id`, if one is open.
    pub(super) fn end_subscription(&mut self, id: &str) {
        self.subscriptions.retain(|s| s.id.get() != id);
    }

    pub(super) fn open_subscriptions(&self) -> usize {
        self.subscriptions.len()
    }

    /// Every open subscription, which ends.
    pub(super) fn take_subscriptions(&mut self) -> Vec<Subscription> {
        std::mem::take(&mut self.subscriptions)
    }

    /// Notes when `initialize` opened the session.
    pub(super) fn mark_opened(&mut self) {
        self.opened = Some(Instant::now());
    }

    /// When `initialize` opened it, and at which revision, once it did.
    pub(super) fn opened(&self) -> Option<(Instant, ProtocolVersion)> {
        Some((self.opened?, self.ready_version()?))
    }
}
