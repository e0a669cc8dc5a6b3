//! The table of live HTTP sessions, their activity and their expiry.
//!
//! A session is busy while a request runs on it or a stream of it is open;
//! once it has been idle (not busy) for the session timeout, the sweeper ends
//! it and its guest instance is freed (when the last in-flight user lets go).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use tokio::sync::mpsc;

use super::resume::EventLog;
use super::session_talk_back::PendingAnswers;
use super::sse;
use mcp_wit_protocol::auth::{Caller, SharedCaller};
use mcp_wit_protocol::{Canceller, ProtocolVersion, Sink};

use crate::Session;

/// Which transport a session belongs to; each looks up only its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// Streamable HTTP (`/mcp`).
    Streamable,
    /// The 2024-11-05 HTTP+SSE transport (`/sse` + `/messages`).
    HttpSse,
}

/// One MCP session served over HTTP.
pub struct HttpSession {
    /// The `Mcp-Session-Id` (or the HTTP+SSE transport's `sessionId`).
    pub id: Arc<str>,
    transport: Transport,
    /// The protocol core; one request at a time.
    pub core: Arc<tokio::sync::Mutex<Session>>,
    /// Cancels the core's requests without waiting for its lock.
    pub canceller: Canceller,
    /// Whether request streams are resumable (2025-11-25 and later).
    pub resumable: bool,
    /// The events of its request streams, for resumption.
    pub events: Arc<EventLog>,
    /// Its routers' questions waiting for the client's answer.
    pub answers: Arc<PendingAnswers>,
    /// Whether its routers reach their client. Fixed for its life: after a
    /// reload it moves only to routers that do as its own do.
    pub talks_back: bool,
    /// The caller that created it, when requests are authenticated: only
    /// the same principal (issuer and subject) reaches it.
    owner: Option<SharedCaller>,
    /// Who holds it, for the cap on sessions per client: the principal when
    /// authenticated, else the client's address.
    client: Option<Arc<str>>,
    /// Its server-to-client stream, when open.
    stream: Arc<ServerStream>,
    state: Mutex<State>,
}

struct State {
    last_active: Instant,
    /// Requests in flight plus open streams.
    busy: usize,
    /// Requests running or waiting for the core (see [`HttpSession::request`]).
    requests: usize,
}

/// A server-to-client stream, when one is open: a session's (GET `/mcp`, or
/// the HTTP+SSE transport's `/sse` stream), or a `subscriptions/listen` request's. Where
/// its client hears of routers' changes.
#[derive(Default)]
pub struct ServerStream(Mutex<Option<mpsc::Sender<Bytes>>>);

impl ServerStream {
    fn sender(&self) -> MutexGuard<'_, Option<mpsc::Sender<Bytes>>> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Opens the stream, ending any earlier one.
    pub fn open(&self, capacity: usize) -> (mpsc::Sender<Bytes>, mpsc::Receiver<Bytes>) {
        let (tx, rx) = mpsc::channel(capacity);
        if self.sender().replace(tx.clone()).is_some() {
            tracing::debug!("a new stream replaces the open one");
        }
        (tx, rx)
    }

    /// The open stream's sender, if any.
    fn current(&self) -> Option<mpsc::Sender<Bytes>> {
        self.sender().clone().filter(|tx| !tx.is_closed())
    }
}

/// A change goes out as an event if the stream has room; a session without
/// an open stream misses it.
impl Sink for ServerStream {
    fn offer(&self, message: &[u8]) {
        if let Some(tx) = self.current()
            && tx.try_send(sse::message(message)).is_err()
        {
            tracing::debug!("a change notification was dropped: a client reads its stream too slowly");
        }
    }
}

impl HttpSession {
    /// Whether `caller` may use the session: the principal that created it,
    /// or anyone when it was created unauthenticated by a server that does
    /// not authenticate.
    fn reachable_by(&self, caller: Option<&Caller>) -> bool {
        match (&self.owner, caller) {
            (None, None) => true,
            (Some(owner), Some(caller)) => owner.same_principal(caller),
            _ => false,
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Marks the session busy until the guard is dropped.
    pub fn activity(self: &Arc<Self>) -> Activity {
        self.state().busy += 1;
        Activity { session: self.clone(), request: false }
    }

    /// Admits a request: busy until the guard is dropped, unless `limit`
    /// requests of the session are already running or waiting for its core
    /// (`None`: the session is saturated; its client is told at once).
    pub fn request(self: &Arc<Self>, limit: usize) -> Option<Activity> {
        let mut state = self.state();
        if state.requests >= limit {
            return None;
        }
        state.requests += 1;
        state.busy += 1;
        Some(Activity { session: self.clone(), request: true })
    }

    /// Opens the session's server-to-client stream, ending any earlier one.
    pub fn open_stream(&self, capacity: usize) -> (mpsc::Sender<Bytes>, mpsc::Receiver<Bytes>) {
        self.stream.open(capacity)
    }

    /// The open server-to-client stream, if any.
    pub fn stream(&self) -> Option<mpsc::Sender<Bytes>> {
        self.stream.current()
    }

    /// Ends the server-to-client stream (its receiver sees the end once the
    /// senders in flight are gone).
    fn close_stream(&self) {
        *self.stream.sender() = None;
    }
}

/// Keeps a session from expiring while held.
pub struct Activity {
    session: Arc<HttpSession>,
    /// Whether it admitted a request ([`HttpSession::request`]).
    request: bool,
}

impl Drop for Activity {
    fn drop(&mut self) {
        let mut state = self.session.state();
        state.busy -= 1;
        state.requests -= usize::from(self.request);
        state.last_active = Instant::now();
    }
}

/// No room for another session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    /// Every slot is held, by sessions busy or idle for less than
    /// [`EVICTABLE_AFTER`].
    Table,
    /// The client already holds as many as one client may.
    Client(usize),
}

/// How long a session must have been idle before a new one may take its
/// slot in a full table: long enough for a client between its requests
/// (or a quarter of the session timeout, if shorter).
pub const EVICTABLE_AFTER: Duration = Duration::from_secs(30);

/// The live sessions.
pub struct Sessions {
    map: Mutex<HashMap<Arc<str>, Arc<HttpSession>>>,
    max: usize,
    /// Most sessions one client (principal, or address) holds.
    max_per_client: usize,
    timeout: Duration,
    /// How long idle a session gives way to a new one in a full table.
    evictable_after: Duration,
}

impl Sessions {
    /// An empty table holding at most `max` sessions, `max_per_client` of
    /// them for any one client, each ending after `timeout` of idleness.
    pub fn new(max: usize, max_per_client: usize, timeout: Duration) -> Self {
        let evictable_after = EVICTABLE_AFTER.min(timeout / 4);
        Sessions {
            map: Mutex::new(HashMap::new()),
            max,
            max_per_client: max_per_client.max(1),
            timeout,
            evictable_after,
        }
    }

    /// Most sessions one client may hold.
    pub fn max_per_client(&self) -> usize {
        self.max_per_client
    }

    fn map(&self) -> MutexGuard<'_, HashMap<Arc<str>, Arc<HttpSession>>> {
        self.map.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether another session by `client` would find no room (see
    /// [`Sessions::insert`]).
    pub fn room_for(&self, client: Option<&str>) -> Result<(), Full> {
        let map = self.map();
        self.check_room(&map, client, Instant::now()).map(drop)
    }

    /// Whether the table is full of sessions none of which may give way.
    pub fn is_full(&self) -> bool {
        self.room_for(None).is_err()
    }

    /// `Ok(Some(id))`: room once session `id`, idle longest, gives way.
    fn check_room(
        &self,
        map: &HashMap<Arc<str>, Arc<HttpSession>>,
        client: Option<&str>,
        now: Instant,
    ) -> Result<Option<Arc<str>>, Full> {
        if let Some(client) = client {
            let held = map.values().filter(|s| s.client.as_deref() == Some(client)).count();
            if held >= self.max_per_client {
                return Err(Full::Client(self.max_per_client));
            }
        }
        if map.len() < self.max {
            return Ok(None);
        }
        map.values()
            .filter_map(|s| {
                let state = s.state();
                let idle = now.saturating_duration_since(state.last_active);
                (state.busy == 0 && idle >= self.evictable_after).then(|| (state.last_active, s.id.clone()))
            })
            .min_by_key(|(since, _)| *since)
            .map(|(_, id)| Some(id))
            .ok_or(Full::Table)
    }

    /// Registers `session`, whose client hears of changes on `stream`, under
    /// a fresh random id. `client` (the principal, else the address) may
    /// hold at most [`Sessions::max_per_client`]; in a full table, the
    /// session idle longest (at least [`EVICTABLE_AFTER`]) gives way.
    pub fn insert(
        &self,
        transport: Transport,
        mut session: Session,
        stream: Arc<ServerStream>,
        client: Option<Arc<str>>,
    ) -> Result<Arc<HttpSession>, Full> {
        let mut map = self.map();
        if let Some(evicted) = self.check_room(&map, client.as_deref(), Instant::now())?
            && let Some(evicted) = map.remove(&evicted)
        {
            evicted.close_stream();
            tracing::info!(session = %evicted.id, "the session idle longest gives way to a new one: every slot was taken");
        }
        let id: Arc<str> = loop {
            let id = new_session_id();
            if !map.contains_key(id.as_str()) {
                break id.into();
            }
        };
        session.set_origin(mcp_wit_protocol::observe::Origin {
            transport: mcp_wit_protocol::observe::Transport::Tcp,
            session_id: Some(id.clone()),
        });
        let entry = Arc::new(HttpSession {
            id: id.clone(),
            transport,
            canceller: session.canceller(),
            resumable: transport == Transport::Streamable
                && session.protocol_version().is_some_and(|v| v >= ProtocolVersion::V2025_11_25),
            events: Arc::default(),
            answers: Arc::default(),
            talks_back: session.talks_back(),
            owner: session.caller().cloned(),
            client,
            core: Arc::new(tokio::sync::Mutex::new(session)),
            stream,
            state: Mutex::new(State { last_active: Instant::now(), busy: 0, requests: 0 }),
        });
        map.insert(id, entry.clone());
        tracing::debug!(session = %entry.id, ?transport, live = map.len(), "session started");
        Ok(entry)
    }

    /// The live session `id` of `transport`, if `caller` may use it. Another
    /// principal's session is not there for it, as an unknown one.
    pub fn get(&self, id: &str, transport: Transport, caller: Option<&Caller>) -> Option<Arc<HttpSession>> {
        self.map().get(id).filter(|s| s.transport == transport && s.reachable_by(caller)).cloned()
    }

    /// Ends session `id` of `transport` if `caller` may use it; `false` when
    /// there is no such session.
    pub fn remove(&self, id: &str, transport: Transport, caller: Option<&Caller>) -> bool {
        let removed = {
            let mut map = self.map();
            match map.get(id) {
                Some(s) if s.transport == transport && s.reachable_by(caller) => map.remove(id),
                _ => None,
            }
        };
        match removed {
            Some(session) => {
                session.close_stream();
                tracing::debug!(session = %session.id, "session ended");
                true
            }
            None => false,
        }
    }

    /// Ends every session idle for longer than the timeout; returns how many.
    pub fn expire_idle(&self, now: Instant) -> usize {
        let expired: Vec<Arc<HttpSession>> = {
            let mut map = self.map();
            let ids: Vec<Arc<str>> = map
                .values()
                .filter(|s| {
                    let state = s.state();
                    state.busy == 0 && now.saturating_duration_since(state.last_active) >= self.timeout
                })
                .map(|s| s.id.clone())
                .collect();
            ids.iter().filter_map(|id| map.remove(id)).collect()
        };
        for session in &expired {
            session.close_stream();
            tracing::debug!(session = %session.id, "session expired after {:?} idle", self.timeout);
        }
        expired.len()
    }

    /// Number of live sessions.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Releases the guest instances sessions have not used for their
    /// component's `instance_idle_timeout`; returns how many. A session
    /// whose core is in use is left for the next sweep.
    pub fn release_idle_instances(&self) -> usize {
        let sessions: Vec<Arc<HttpSession>> = self.map().values().cloned().collect();
        sessions.iter().filter_map(|session| Some(session.core.try_lock().ok()?.release_idle_instances())).sum()
    }
}

/// 128 bits from the OS's cryptographic generator, as 32 hex digits.
fn new_session_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the OS random number generator is unavailable");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_are_random_visible_ascii() {
        let a = new_session_id();
        let b = new_session_id();
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_graphic()));
    }
}
