//! The open connections, and which of them are idle.
//!
//! A server at its connection limit makes room by closing the connection
//! idle longest (no request in progress, no response being written): new
//! clients and the health probes are never stuck behind connections that
//! only hold a slot. At shutdown, the server waits for the table to drain.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use http_body::{Body as HttpBody, Frame, SizeHint};
use tokio::sync::{Notify, Semaphore};

use crate::sync::lock;

/// How long a connection must have been idle to be closed for another:
/// a new one gets time to send its first request.
pub(super) const MIN_IDLE: Duration = Duration::from_millis(500);

/// The open connections.
#[derive(Default)]
pub(super) struct Connections {
    state: Mutex<State>,
    /// Told when the last connection goes.
    drained: Notify,
}

#[derive(Default)]
struct State {
    next: u64,
    open: HashMap<u64, Open>,
}

struct Open {
    /// Served, or only told the server is at capacity.
    served: bool,
    /// Requests in progress, responses being written.
    busy: usize,
    idle_since: Instant,
    close: Arc<Notify>,
    /// Asked to close: not picked again.
    closing: bool,
}

impl Connections {
    fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// Registers a new connection (`served`, or turned away), idle until
    /// its first request.
    pub(super) fn open(self: &Arc<Self>, served: bool) -> Arc<Tracked> {
        let close = Arc::new(Notify::new());
        let mut state = self.state();
        let id = state.next;
        state.next += 1;
        state
            .open
            .insert(id, Open { served, busy: 0, idle_since: Instant::now(), close: close.clone(), closing: false });
        Arc::new(Tracked { id, table: self.clone(), close })
    }

    /// Asks the connection idle longest (of those served, or of those
    /// turned away) to close; it ends at once if it is between requests.
    /// `false` when none has been idle [`MIN_IDLE`] at least.
    pub(super) fn close_idle_longest(&self, served: bool) -> bool {
        let mut state = self.state();
        let now = Instant::now();
        let idle = |o: &&mut Open| {
            o.served == served && o.busy == 0 && !o.closing && now.saturating_duration_since(o.idle_since) >= MIN_IDLE
        };
        let Some(open) = state.open.values_mut().filter(idle).min_by_key(|o| o.idle_since) else {
            return false;
        };
        open.closing = true;
        open.close.notify_one();
        tracing::debug!("at the connection limit: the connection idle longest is closed to make room");
        true
    }

    /// Whether some served connection is idle and may give way to a new
    /// one (now, or once it has been idle [`MIN_IDLE`]).
    pub(super) fn has_idle(&self) -> bool {
        self.state().open.values().any(|o| o.served && o.busy == 0 && !o.closing)
    }

    /// Waits until every connection has ended.
    pub(super) async fn drained(&self) {
        loop {
            let drained = self.drained.notified();
            if self.state().open.is_empty() {
                return;
            }
            drained.await;
        }
    }
}

/// One open connection; unregistered when dropped.
pub(super) struct Tracked {
    id: u64,
    table: Arc<Connections>,
    close: Arc<Notify>,
}

impl Tracked {
    /// Marks the connection busy until the guard is dropped.
    pub(super) fn busy(self: &Arc<Self>) -> Busy {
        if let Some(open) = self.table.state().open.get_mut(&self.id) {
            open.busy += 1;
        }
        Busy(self.clone())
    }

    /// Completes once the connection is asked to close.
    pub(super) async fn closed(&self) {
        self.close.notified().await;
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        let mut state = self.table.state();
        state.open.remove(&self.id);
        if state.open.is_empty() {
            self.table.drained.notify_waiters();
        }
    }
}

/// Keeps a connection busy while held.
pub(super) struct Busy(Arc<Tracked>);

impl Drop for Busy {
    fn drop(&mut self) {
        if let Some(open) = self.0.table.state().open.get_mut(&self.0.id) {
            open.busy -= 1;
            open.idle_since = Instant::now();
        }
    }
}

/// `body`, keeping its connection busy until it is written (or dropped).
pub(super) fn busy_until_written(body: Body, busy: Busy) -> Body {
    Body::new(Written { body, _busy: busy })
}

struct Written {
    body: Body,
    _busy: Busy,
}

impl HttpBody for Written {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Serves `connection` until it ends. Asked to close (by `tracked`, to make
/// room, or by `stop`), it ends at once if idle, else once the response in
/// progress is written.
pub(super) async fn drive<I, S, B>(
    connection: hyper::server::conn::http1::Connection<I, S>,
    tracked: &Tracked,
    stop: impl Future<Output = ()>,
) -> hyper::Result<()>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin,
    S: hyper::service::HttpService<hyper::body::Incoming, ResBody = B>,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    B: hyper::body::Body + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    tokio::pin!(connection);
    let ended = tokio::select! {
        ended = connection.as_mut() => Some(ended),
        () = tracked.closed() => None,
        () = stop => None,
    };
    match ended {
        Some(ended) => ended,
        None => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    }
}

/// A slot for a connection just accepted: served if one is free, else
/// after the connection idle longest makes room, else turned away (503)
/// while a few slots for that remain; else it waits for either. `None`:
/// shutting down.
pub(super) async fn permit_for(
    serving: &Arc<Semaphore>,
    turned_away: &Arc<Semaphore>,
    open: &Connections,
    shutdown: &mut std::pin::Pin<&mut impl Future<Output = ()>>,
) -> Option<Permit> {
    loop {
        if let Ok(permit) = serving.clone().try_acquire_owned() {
            return Some(Permit::Serve(permit));
        }
        if open.close_idle_longest(true) {
            // An idle connection ends at once: then its slot is this one's.
            if let Ok(permit) = tokio::time::timeout(MAKE_ROOM_WAIT, serving.clone().acquire_owned()).await {
                return Some(Permit::Serve(permit.expect("never closed")));
            }
            continue;
        }
        if let Ok(permit) = turned_away.clone().try_acquire_owned() {
            return Some(Permit::TurnAway(permit));
        }
        // Connections turned away that never ask give way too.
        if open.close_idle_longest(false)
            && let Ok(permit) = tokio::time::timeout(MAKE_ROOM_WAIT, turned_away.clone().acquire_owned()).await
        {
            return Some(Permit::TurnAway(permit.expect("never closed")));
        }
        // Wait for a slot, looking again for connections idle long enough
        // to make room.
        return tokio::select! {
            biased;
            () = shutdown.as_mut() => None,
            permit = serving.clone().acquire_owned() => Some(Permit::Serve(permit.expect("never closed"))),
            permit = turned_away.clone().acquire_owned() => Some(Permit::TurnAway(permit.expect("never closed"))),
            () = tokio::time::sleep(MIN_IDLE / 4) => continue,
        };
    }
}

/// How long a new connection waits for the slot of an idle one asked to
/// close before another is asked.
const MAKE_ROOM_WAIT: Duration = Duration::from_millis(50);

/// What an accepted connection may do.
pub(super) enum Permit {
    /// Be served.
    Serve(tokio::sync::OwnedSemaphorePermit),
    /// Only hear that the server is at capacity.
    TurnAway(tokio::sync::OwnedSemaphorePermit),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_idle_longest_is_asked_to_close_never_a_busy_one() {
        let table = Arc::new(Connections::default());
        let first = table.open(true);
        let second = table.open(true);
        let turned_away = table.open(false);
        assert!(!table.close_idle_longest(true), "none has been idle long enough");
        let age = |table: &Connections| table.state().open.values_mut().for_each(|o| o.idle_since -= MIN_IDLE);
        age(&table);
        let busy = first.busy();
        assert!(table.close_idle_longest(true), "the second is idle");
        assert!(!table.close_idle_longest(true), "the first is busy, the second already closing");
        assert!(!table.has_idle());
        drop(busy);
        assert!(table.has_idle());
        assert!(!table.close_idle_longest(true), "the first is idle again, but only just");
        age(&table);
        assert!(table.close_idle_longest(true), "the first has been idle long enough");
        assert!(table.close_idle_longest(false), "the turned-away one is idle");
        drop((first, second, turned_away));
        assert!(table.state().open.is_empty());
    }
}
