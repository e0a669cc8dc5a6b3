//! The open connections, and which of them are idle.
//!
//! A server at its connection limit makes room by closing the connection
//! idle longest (no request in progress, no response being written): new
//! clients and the health probes are never stuck behind connections that
//! only hold a slot. At shutdown, the server waits for the table to drain.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    open: HashMap<u64, Arc<Load>>,
}

/// What the table and its connection share of one connection. The
/// connection marks itself busy and idle without the table's lock (every
/// request does, and the table's lock is every connection's); the table
/// reads it only when it looks for one to close.
struct Load {
    /// Served, or only told the server is at capacity.
    served: bool,
    /// Requests in progress, responses being written.
    busy: AtomicUsize,
    /// When it last fell idle (its own lock: only the connection and a
    /// scan of the table take it).
    idle_since: Mutex<Instant>,
    close: Notify,
    /// Asked to close: not picked again.
    closing: AtomicBool,
}

impl Load {
    /// Whether the connection may give way: idle, not already closing.
    fn is_idle(&self) -> bool {
        self.busy.load(Ordering::Acquire) == 0 && !self.closing.load(Ordering::Relaxed)
    }
}

impl Connections {
    fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// Registers a new connection (`served`, or turned away), idle until
    /// its first request.
    pub(super) fn open(self: &Arc<Self>, served: bool) -> Arc<Tracked> {
        let load = Arc::new(Load {
            served,
            busy: AtomicUsize::new(0),
            idle_since: Mutex::new(Instant::now()),
            close: Notify::new(),
            closing: AtomicBool::new(false),
        });
        let mut state = self.state();
        let id = state.next;
        state.next += 1;
        state.open.insert(id, load.clone());
        Arc::new(Tracked { id, table: self.clone(), load })
    }

    /// Asks the connection idle longest (of those served, or of those
    /// turned away) to close; it ends at once if it is between requests.
    /// `false` when none has been idle [`MIN_IDLE`] at least.
    pub(super) fn close_idle_longest(&self, served: bool) -> bool {
        let state = self.state();
        let now = Instant::now();
        let idle_longest = state
            .open
            .values()
            .filter(|load| load.served == served && load.is_idle())
            .map(|load| (*lock(&load.idle_since), load))
            .filter(|(since, _)| now.saturating_duration_since(*since) >= MIN_IDLE)
            .min_by_key(|(since, _)| *since);
        let Some((_, load)) = idle_longest else { return false };
        load.closing.store(true, Ordering::Relaxed);
        load.close.notify_one();
        tracing::debug!("at the connection limit: the connection idle longest is closed to make room");
        true
    }

    /// Whether some served connection is idle and may give way to a new
    /// one (now, or once it has been idle [`MIN_IDLE`]).
    pub(super) fn has_idle(&self) -> bool {
        self.state().open.values().any(|load| load.served && load.is_idle())
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
    load: Arc<Load>,
}

impl Tracked {
    /// Marks the connection busy until the guard is dropped.
    pub(super) fn busy(self: &Arc<Self>) -> Busy {
        self.load.busy.fetch_add(1, Ordering::AcqRel);
        Busy(self.clone())
    }

    /// Completes once the connection is asked to close.
    pub(super) async fn closed(&self) {
        self.load.close.notified().await;
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
        let load = &self.0.load;
        // Idle from now: the time first, so that a scan that sees it idle
        // sees since when.
        *lock(&load.idle_since) = Instant::now();
        load.busy.fetch_sub(1, Ordering::AcqRel);
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
        let age = |table: &Connections| table.state().open.values().for_each(|o| *lock(&o.idle_since) -= MIN_IDLE);
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
