//! What a component keeps of its instances between sessions: the shared
//! instance, the principals' instances, those handed back for reuse and a
//! spare that served no client, which the memory budget may release when
//! they are idle.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::budget::IdleInstances;
use super::instance::RouterInstance;
use crate::sync::lock;

/// What a component keeps of its instances between sessions.
#[derive(Default)]
pub(super) struct Kept {
    /// The one instance of [`InstanceMode::Shared`](super::InstanceMode::Shared).
    pub(super) shared: Arc<SharedInstance>,
    /// [`InstanceMode::PerCaller`](super::InstanceMode::PerCaller)'s instances, by principal.
    pub(super) callers: Mutex<CallerInstances>,
    /// Instances handed back ([`InstanceReuse`](super::InstanceReuse)), oldest first.
    pub(super) warm: Mutex<VecDeque<Warm>>,
    /// An instance that served no client (the start-up check's), for the
    /// next one a session asks for; `has_spare` says one may wait, so that
    /// the path that makes an instance per request looks at no lock.
    pub(super) spare: Mutex<Option<Warm>>,
    pub(super) has_spare: AtomicBool,
    /// The memory budget watches these instances (see [`IdleInstances`]).
    pub(super) watched: AtomicBool,
}

/// What a component keeps may be released under memory pressure: an
/// instance waiting for reuse, a principal's instance no call holds, the
/// shared instance between calls. Locks are only tried: what is in use is
/// not idle.
impl IdleInstances for Kept {
    fn oldest_idle(&self) -> Option<Instant> {
        self.oldest().map(|(since, _)| since)
    }

    fn release_oldest_idle(&self) -> bool {
        let released = match self.oldest() {
            None => None,
            Some((_, KeptIdle::Spare)) => {
                self.spare.try_lock().ok().and_then(|mut spare| spare.take()).map(|w| w.instance)
            }
            Some((_, KeptIdle::Warm)) => {
                self.warm.try_lock().ok().and_then(|mut warm| warm.pop_front()).map(|w| w.instance)
            }
            Some((_, KeptIdle::Caller(key))) => {
                let instance = self.callers.try_lock().ok().and_then(|mut callers| callers.map.remove(&key));
                instance.and_then(|instance| instance.slot.try_lock().ok()?.take())
            }
            Some((_, KeptIdle::Shared)) => self.shared.slot.try_lock().ok().and_then(|mut slot| slot.take()),
        };
        released.is_some()
    }
}

/// Which of a component's kept instances is idle longest.
enum KeptIdle {
    Spare,
    Warm,
    Caller(String),
    Shared,
}

impl Kept {
    fn oldest(&self) -> Option<(Instant, KeptIdle)> {
        let spare = match self.has_spare.load(Ordering::Relaxed) {
            true => self.spare.try_lock().ok().and_then(|spare| spare.as_ref().map(|w| (w.since, KeptIdle::Spare))),
            false => None,
        };
        let warm = self.warm.try_lock().ok().and_then(|warm| warm.front().map(|w| (w.since, KeptIdle::Warm)));
        let caller = self.callers.try_lock().ok().and_then(|callers| {
            callers
                .map
                .iter()
                .filter(|(_, instance)| Arc::strong_count(instance) == 1)
                .filter_map(|(key, instance)| Some((instance.idle_since()?, KeptIdle::Caller(key.clone()))))
                .min_by_key(|(since, _)| *since)
        });
        let shared = match Arc::strong_count(&self.shared) {
            1 => self.shared.idle_since().map(|since| (since, KeptIdle::Shared)),
            _ => None,
        };
        [spare, warm, caller, shared].into_iter().flatten().min_by_key(|(since, _)| *since)
    }
}

/// An instance that calls take turns on: [`InstanceMode::Shared`](super::InstanceMode::Shared)'s, or one
/// principal's in [`InstanceMode::PerCaller`](super::InstanceMode::PerCaller).
pub(super) struct SharedInstance {
    /// An async lock: async calls hold it across their awaits.
    pub(super) slot: tokio::sync::Mutex<Option<RouterInstance>>,
    /// The instance is to be replaced before its next call.
    pub(super) retire: AtomicBool,
    /// When a call last began on it.
    pub(super) last_used: Mutex<Instant>,
}

impl SharedInstance {
    /// When its instance began its last call, if it has one and no call
    /// holds it.
    pub(super) fn idle_since(&self) -> Option<Instant> {
        let slot = self.slot.try_lock().ok()?;
        slot.as_ref()?;
        Some(*lock(&self.last_used))
    }
}

impl Default for SharedInstance {
    fn default() -> Self {
        SharedInstance {
            slot: tokio::sync::Mutex::default(),
            retire: AtomicBool::new(false),
            last_used: Mutex::new(Instant::now()),
        }
    }
}

/// The instances of [`InstanceMode::PerCaller`](super::InstanceMode::PerCaller), by principal key.
#[derive(Default)]
pub(super) struct CallerInstances {
    pub(super) map: HashMap<String, Arc<SharedInstance>>,
    /// When idle ones were last looked for.
    pub(super) swept: Option<Instant>,
}

/// An instance waiting for reuse.
pub(super) struct Warm {
    pub(super) principal: Option<String>,
    pub(super) instance: RouterInstance,
    /// Sessions or calls it served.
    pub(super) uses: u32,
    pub(super) since: Instant,
}
