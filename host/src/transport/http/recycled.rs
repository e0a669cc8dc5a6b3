//! 2026-07-28 requests kept, once answered, to serve the next ones: making
//! a request's exchange (a way to each router, its cancellation, the
//! answer's buffer) and dropping it cost a request about 3,000 instructions
//! of 57,000 and seven of its 40 allocations
//! (bench/results/2026-12-02-recycled-requests).
//!
//! A request is kept only when it can serve another as a new one would
//! ([`StatelessRequest::recycle`]: its routers hand their instances back as
//! a drop would) and only for the deployment it was made for: after a
//! reload, the requests kept are dropped.

use std::ops::{Deref, DerefMut};
use std::sync::Mutex;

use crate::StatelessRequest;

/// How many answered requests are kept at most: enough for every request
/// in flight on a busy server to find one, few enough that what they hold
/// (their routers' ways, a buffer each) stays small.
const MAX_KEPT: usize = 64;

/// A 2026-07-28 request, and the deployment generation it serves.
pub(super) struct ServedRequest {
    generation: u64,
    request: Box<StatelessRequest>,
}

impl ServedRequest {
    pub(super) fn new(generation: u64, request: StatelessRequest) -> Self {
        ServedRequest { generation, request: Box::new(request) }
    }

    /// The request itself, for whoever serves it to its end (a task).
    pub(super) fn into_request(self) -> StatelessRequest {
        *self.request
    }
}

impl Deref for ServedRequest {
    type Target = StatelessRequest;

    fn deref(&self) -> &StatelessRequest {
        &self.request
    }
}

impl DerefMut for ServedRequest {
    fn deref_mut(&mut self) -> &mut StatelessRequest {
        &mut self.request
    }
}

/// The answered requests kept for the next ones.
#[derive(Default)]
pub(super) struct RecycledRequests {
    kept: Mutex<Vec<ServedRequest>>,
}

impl RecycledRequests {
    /// A kept request for deployment `generation`, if there is one; kept
    /// requests of an older one are dropped.
    pub(super) fn take(&self, generation: u64) -> Option<ServedRequest> {
        let mut kept = self.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let request = kept.pop()?;
        if request.generation == generation {
            return Some(request);
        }
        // Dropped outside the lock: their routers hand their instances back.
        let stale = std::mem::take(&mut *kept);
        drop(kept);
        drop((request, stale));
        None
    }

    /// Keeps `served`, answered, for a later request if it can serve one
    /// for deployment `generation`; else drops it.
    pub(super) fn keep(&self, mut served: ServedRequest, generation: u64) {
        if served.generation != generation || !served.request.recycle() {
            return;
        }
        let mut kept = self.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if kept.len() < MAX_KEPT {
            kept.push(served);
        }
        // One beyond the limit is dropped once the lock is let go.
    }
}
