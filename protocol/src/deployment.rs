//! What a server serves now, replaceable while it serves.
//!
//! A reload puts a new version of the routers in place: new sessions and
//! 2026-07-28 requests take it at once. A 2025 session created with
//! [`Session::following`](crate::Session::following) keeps the version it
//! started on while it holds instances of it (their guest state is the
//! session's), and moves to the newest one at its first request after its
//! instances are gone (released once idle, dropped after a fault), hearing
//! of each list that differs.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use crate::router::RouterComponent;
use crate::routers::Routers;

/// The routers a server serves now, and how many times they were replaced.
pub struct Deployment<C> {
    current: RwLock<(u64, Routers<C>)>,
    /// The generation of `current`, readable without its lock: a session
    /// compares it with its own at every request.
    generation: AtomicU64,
}

impl<C: RouterComponent> Deployment<C> {
    /// Serves `routers`, generation 0.
    pub fn new(routers: impl Into<Routers<C>>) -> Arc<Self> {
        Arc::new(Deployment { current: RwLock::new((0, routers.into())), generation: AtomicU64::new(0) })
    }

    /// The routers served now, with their generation.
    pub fn current(&self) -> (u64, Routers<C>) {
        self.current.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    /// The routers served now.
    pub fn routers(&self) -> Routers<C> {
        self.current().1
    }

    /// The generation served now: one more with each [`Self::replace`].
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Serves `routers` from now on; returns their generation.
    pub fn replace(&self, routers: impl Into<Routers<C>>) -> u64 {
        let mut current = self.current.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        let generation = current.0 + 1;
        *current = (generation, routers.into());
        self.generation.store(generation, Ordering::Release);
        generation
    }
}
