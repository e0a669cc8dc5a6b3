//! Cancellation of requests from outside the session's own message order.
//!
//! A transport that learns of `notifications/cancelled` while the request it
//! names is queued or running (a concurrent HTTP POST, or stdio input read
//! during a long call) tells the session's [`Canceller`]. A running request
//! is interrupted at the next epoch tick; a queued one is dropped when its
//! turn comes. Either way no response is sent, as the spec asks.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Lets another thread (or a transport hook) cancel the call in progress.
#[derive(Debug, Clone, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    /// Asks the running call to stop at the next tick.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether cancellation was asked for.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Clears the flag for the next call.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Whether `self` and `other` are the same flag.
    pub fn same_as(&self, other: &CancelFlag) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A check a transport runs at every tick while a call is in progress (the
/// stdio transport reads pending input there to see cancellations).
pub type TickHook = Arc<dyn Fn() + Send + Sync>;

/// Cancellations remembered for requests that have not started; older ones
/// (most likely for requests that had already finished) are forgotten.
const MAX_PENDING: usize = 64;

/// A shareable handle that cancels requests of one session by id.
#[derive(Debug, Clone, Default)]
pub struct Canceller {
    state: Arc<Mutex<State>>,
}

#[derive(Debug, Default)]
struct State {
    /// Raw id of the request being handled (reused: no allocation per
    /// request), and the flag that stops it while `running`.
    running_id: String,
    running: bool,
    /// The session's flag (one per session, so kept once set).
    flag: Option<CancelFlag>,
    /// Raw ids cancelled before they started.
    pending: VecDeque<String>,
}

impl Canceller {
    /// Cancels the request whose raw JSON id is `id` (e.g. `7` or `"abc"`).
    pub fn cancel(&self, id: &str) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(flag) = &state.flag
            && state.running
            && state.running_id == id
        {
            flag.cancel();
            return;
        }
        if !state.pending.iter().any(|p| p == id) {
            if state.pending.len() == MAX_PENDING {
                state.pending.pop_front();
            }
            state.pending.push_back(id.to_string());
        }
    }

    /// Whether `id`, which this session does not run, was cancelled (and
    /// forgets it): for a transport that runs a request beside the session
    /// (a stdio call that may become a task) and reads its cancellations
    /// through the session's input.
    pub fn take_cancelled(&self, id: &str) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match state.pending.iter().position(|p| p == id) {
            Some(at) => {
                state.pending.remove(at);
                true
            }
            None => false,
        }
    }

    /// Marks `id` as running; `false` if it was cancelled before it started.
    pub(crate) fn start(&self, id: &str, flag: &CancelFlag) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = state.pending.iter().position(|p| p == id) {
            state.pending.remove(at);
            return false;
        }
        flag.reset();
        state.running_id.clear();
        state.running_id.push_str(id);
        state.running = true;
        if state.flag.is_none() {
            state.flag = Some(flag.clone());
        }
        true
    }

    /// Starts `id`, a request that may not be cancelled (`initialize`, per
    /// the spec): a cancellation of it, before or while it runs, is ignored.
    pub(crate) fn start_uncancellable(&self, id: &str, flag: &CancelFlag) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.pending.retain(|p| p != id);
        flag.reset();
        state.running = false;
    }

    /// Whether a handle to the same requests is held elsewhere (a clone
    /// given out): one that might still cancel by id.
    pub(crate) fn is_shared(&self) -> bool {
        Arc::strong_count(&self.state) > 1
    }

    /// Marks the running request as finished.
    pub(crate) fn finish(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.running = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cancels_running_and_queued_requests() {
        let canceller = Canceller::default();
        let flag = CancelFlag::default();
        assert!(canceller.start("1", &flag));
        canceller.cancel("2");
        assert!(!flag.is_cancelled());
        canceller.cancel("1");
        assert!(flag.is_cancelled());
        canceller.finish();
        assert!(!canceller.start("2", &flag), "cancelled before it started");
        assert!(canceller.start("\"2\"", &flag), "a string id is another id");
        assert!(!flag.is_cancelled());
        canceller.finish();
        canceller.cancel("0");
        canceller.start_uncancellable("0", &flag);
        canceller.cancel("0");
        assert!(!flag.is_cancelled(), "initialize runs whatever its client says");
        canceller.cancel("9");
        assert!(canceller.take_cancelled("9") && !canceller.take_cancelled("9"), "taken once");
        assert!(!canceller.take_cancelled("8"));
    }
}
