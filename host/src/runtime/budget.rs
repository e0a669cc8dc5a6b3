//! Memory: one instance's, under its cap, and the whole server's, under one
//! budget.
//!
//! Every instance counts what it holds (its linear memories, and an Extism
//! plugin's kernel memory) in an [`InstanceMemory`]: against its own cap
//! (`--max-memory`), and against the server's [`MemoryBudget`]
//! (`--max-total-memory`), shared by every component and session. An
//! instance keeps its peak while it lives, idle or not, so the budget is
//! what bounds the process: growth that does not fit first releases idle
//! instances, the longest idle first (a session's own instance between its
//! calls, an instance waiting for reuse, a principal's shared instance no
//! call holds); growth that still does not fit is refused, and the call
//! fails with an error that says so. The process is never the one killed.
//!
//! What is counted is what the guest can make the host hold: the bytes its
//! memories span (whether or not it has touched them yet) and its kernel
//! blocks. A store's own structures, its fiber stack and compiled code are
//! not counted; they are small and bounded by the number of instances.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

use crate::sync::lock;
use crate::telemetry::{ComponentStats, Metrics};
use prometheus_client::registry::Unit;

/// How much of the machine the budget takes when none is given: half of
/// the memory the process may use (the cgroup's limit when there is one,
/// else the machine's memory).
pub const DEFAULT_BUDGET_SHARE: f64 = 0.5;

/// The machine's memory assumed when it cannot be read: 8 GiB.
const FALLBACK_MACHINE_MEMORY: usize = 8 << 30;

/// The server's memory budget: what all its instances may hold together.
pub struct MemoryBudget {
    limit: usize,
    used: AtomicUsize,
    peak: AtomicUsize,
    /// Growth refused for want of room.
    refused: AtomicU64,
    /// Idle instances released to make room.
    released: AtomicU64,
    /// What holds instances that may be idle, to release under pressure.
    holders: Mutex<Vec<Weak<dyn IdleInstances>>>,
}

impl std::fmt::Debug for MemoryBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryBudget").field("limit", &self.limit).field("used", &self.used()).finish()
    }
}

/// What holds instances that may sit idle: released under pressure.
pub(super) trait IdleInstances: Send + Sync {
    /// Since when the longest idle instance it holds (and no call uses) has
    /// been idle.
    fn oldest_idle(&self) -> Option<Instant>;
    /// Drops that instance; whether one was dropped.
    fn release_oldest_idle(&self) -> bool;
}

/// A refused growth: the instance's cap, or the server's budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryRefusal {
    /// The instance would hold more than its cap.
    InstanceCap(usize),
    /// The server's instances would hold more than its budget, with every
    /// idle instance released.
    ServerBudget(usize),
}

impl MemoryBudget {
    /// A budget of `limit` bytes for all instances together.
    pub fn new(limit: usize) -> Arc<Self> {
        Arc::new(MemoryBudget {
            limit,
            used: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            refused: AtomicU64::new(0),
            released: AtomicU64::new(0),
            holders: Mutex::new(Vec::new()),
        })
    }

    /// No budget: instances are bound by their own caps only (what an
    /// embedder gets unless it sets one).
    pub fn unlimited() -> Arc<Self> {
        MemoryBudget::new(usize::MAX)
    }

    /// [`DEFAULT_BUDGET_SHARE`] of the memory this process may use.
    pub fn for_this_machine() -> Arc<Self> {
        MemoryBudget::new(default_limit())
    }

    /// Whether it bounds anything ([`MemoryBudget::unlimited`] does not).
    pub fn is_limited(&self) -> bool {
        self.limit < usize::MAX
    }

    /// The budget, in bytes.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// What the live instances hold now.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// The most they ever held at once.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// How many growths were refused, and how many idle instances were
    /// released to make room.
    pub fn pressure(&self) -> (u64, u64) {
        (self.refused.load(Ordering::Relaxed), self.released.load(Ordering::Relaxed))
    }

    /// Reports its figures in `metrics` at each scrape: what instances
    /// hold, their peak, the limit, and the pressure it was under.
    pub fn report_to(self: &Arc<Self>, metrics: &Metrics) {
        let (used, peak, limit, refused, released) =
            (self.clone(), self.clone(), self.clone(), self.clone(), self.clone());
        metrics.gauge(
            "mcp_wit_memory_used",
            "Memory all instances hold (--max-total-memory counts it)",
            Some(Unit::Bytes),
            Box::new(move || used.used() as i64),
        );
        metrics.gauge(
            "mcp_wit_memory_peak",
            "The most memory all instances have held at once",
            Some(Unit::Bytes),
            Box::new(move || peak.peak() as i64),
        );
        if self.is_limited() {
            metrics.gauge(
                "mcp_wit_memory_budget",
                "What all instances may hold (--max-total-memory)",
                Some(Unit::Bytes),
                Box::new(move || limit.limit() as i64),
            );
        }
        metrics.counter(
            "mcp_wit_memory_refused",
            "Memory growth refused for want of room in the budget",
            Box::new(move || refused.pressure().0 as i64),
        );
        metrics.counter(
            "mcp_wit_memory_idle_released",
            "Idle instances released to make room in the budget",
            Box::new(move || released.pressure().1 as i64),
        );
    }

    /// Makes `holder`'s idle instances releasable under pressure, for as
    /// long as it lives.
    pub(super) fn watch(&self, holder: Weak<dyn IdleInstances>) {
        let mut holders = lock(&self.holders);
        // Dead holders (ended sessions) are dropped as the list doubles.
        if holders.len() >= 64 && holders.len().is_power_of_two() {
            holders.retain(|h| h.strong_count() > 0);
        }
        holders.push(holder);
    }

    /// Takes `bytes` from the budget, releasing idle instances (longest idle
    /// first) until they fit; `false` when they do not with none left.
    fn reserve(&self, bytes: usize) -> bool {
        if self.try_reserve(bytes) {
            return true;
        }
        // One thread at a time picks what to release; others wait their
        // turn and then find the room it made.
        let mut holders = lock(&self.holders);
        loop {
            if self.try_reserve(bytes) {
                return true;
            }
            holders.retain(|h| h.strong_count() > 0);
            let oldest = holders
                .iter()
                .filter_map(|h| {
                    let h = h.upgrade()?;
                    Some((h.oldest_idle()?, h))
                })
                .min_by_key(|(since, _)| *since);
            let Some((_, holder)) = oldest else {
                self.refused.fetch_add(1, Ordering::Relaxed);
                return false;
            };
            if holder.release_oldest_idle() {
                self.released.fetch_add(1, Ordering::Relaxed);
                tracing::info!(
                    used = self.used(),
                    budget = self.limit,
                    "memory budget: released the longest idle instance to make room"
                );
            }
        }
    }

    fn try_reserve(&self, bytes: usize) -> bool {
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            let Some(total) = used.checked_add(bytes).filter(|&total| total <= self.limit) else { return false };
            match self.used.compare_exchange_weak(used, total, Ordering::AcqRel, Ordering::Relaxed) {
                Ok(_) => {
                    self.peak.fetch_max(total, Ordering::Relaxed);
                    return true;
                }
                Err(now) => used = now,
            }
        }
    }

    fn release(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Ordering::AcqRel);
    }
}

/// A new instance's memory account.
pub(super) type Memory = Arc<InstanceMemory>;

/// One instance's memory, counted against its cap and the server's budget
/// (shared by its store's limiter and an Extism plugin's kernel). What it
/// holds goes back to the budget when the instance is dropped.
pub struct InstanceMemory {
    cap: usize,
    budget: Arc<MemoryBudget>,
    held: AtomicUsize,
    /// Its component's counts, when metrics are installed.
    stats: Option<Arc<ComponentStats>>,
}

impl std::fmt::Debug for InstanceMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InstanceMemory").field("cap", &self.cap).field("held", &self.held()).finish()
    }
}

impl InstanceMemory {
    /// An instance's account: at most `cap` bytes, taken from `budget`.
    pub fn new(cap: usize, budget: Arc<MemoryBudget>) -> Arc<Self> {
        InstanceMemory::counted(cap, budget, None)
    }

    /// [`InstanceMemory::new`] for an instance of the component `stats`
    /// counts: one more alive while this lives, and its peak its high water.
    pub fn counted(cap: usize, budget: Arc<MemoryBudget>, stats: Option<Arc<ComponentStats>>) -> Arc<Self> {
        if let Some(stats) = &stats {
            stats.instance_made();
        }
        Arc::new(InstanceMemory { cap, budget, held: AtomicUsize::new(0), stats })
    }

    /// The instance's cap.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// The server's budget.
    pub fn budget(&self) -> &MemoryBudget {
        &self.budget
    }

    /// What the instance holds.
    pub fn held(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }

    /// Counts `bytes` more, if they fit the cap and the budget.
    pub fn grow(&self, bytes: usize) -> Result<(), MemoryRefusal> {
        // One store runs one call at a time: no other growth races this one.
        let held = self.held();
        if held.checked_add(bytes).is_none_or(|total| total > self.cap) {
            return Err(MemoryRefusal::InstanceCap(self.cap));
        }
        if !self.budget.reserve(bytes) {
            return Err(MemoryRefusal::ServerBudget(self.budget.limit));
        }
        let now = self.held.fetch_add(bytes, Ordering::Relaxed) + bytes;
        if let Some(stats) = &self.stats {
            stats.memory_held(now);
        }
        Ok(())
    }

    /// Counts `bytes` fewer (a growth that failed after all, memory given
    /// back).
    pub fn shrink(&self, bytes: usize) {
        let bytes = bytes.min(self.held());
        self.held.fetch_sub(bytes, Ordering::Relaxed);
        self.budget.release(bytes);
    }
}

impl Drop for InstanceMemory {
    fn drop(&mut self) {
        self.budget.release(*self.held.get_mut());
        if let Some(stats) = &self.stats {
            stats.instance_dropped();
        }
    }
}

/// [`DEFAULT_BUDGET_SHARE`] of what this process may use: the cgroup's
/// memory limit when one is set, else the machine's memory.
pub fn default_limit() -> usize {
    let machine = machine_memory().unwrap_or(FALLBACK_MACHINE_MEMORY);
    let allowed = cgroup_limit().map_or(machine, |limit| limit.min(machine));
    (allowed as f64 * DEFAULT_BUDGET_SHARE) as usize
}

/// `MemTotal` of `/proc/meminfo`.
fn machine_memory() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The cgroup v2 (`memory.max`) or v1 (`memory.limit_in_bytes`) limit of
/// this process's group, when one is set.
fn cgroup_limit() -> Option<usize> {
    ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .find_map(|text| text.trim().parse::<usize>().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Idle {
        memory: Mutex<Option<Arc<InstanceMemory>>>,
        since: Instant,
    }

    impl IdleInstances for Idle {
        fn oldest_idle(&self) -> Option<Instant> {
            lock(&self.memory).as_ref().map(|_| self.since)
        }
        fn release_oldest_idle(&self) -> bool {
            lock(&self.memory).take().is_some()
        }
    }

    #[test]
    fn growth_past_the_cap_or_the_budget_is_refused_and_nothing_leaks() {
        let budget = MemoryBudget::new(100);
        let a = InstanceMemory::new(60, budget.clone());
        assert_eq!(a.grow(70), Err(MemoryRefusal::InstanceCap(60)));
        a.grow(60).unwrap();
        let b = InstanceMemory::new(60, budget.clone());
        assert_eq!(b.grow(50), Err(MemoryRefusal::ServerBudget(100)), "no idle instance to release");
        b.grow(40).unwrap();
        assert_eq!((budget.used(), budget.peak()), (100, 100));
        b.shrink(10);
        assert_eq!(budget.used(), 90);
        drop((a, b));
        assert_eq!(budget.used(), 0);
        assert_eq!(budget.pressure(), (1, 0));
    }

    #[test]
    fn pressure_releases_the_longest_idle_instance_first() {
        let budget = MemoryBudget::new(100);
        let now = Instant::now();
        let holders: Vec<Arc<Idle>> = [3u64, 1, 2]
            .iter()
            .map(|age| {
                let memory = InstanceMemory::new(100, budget.clone());
                memory.grow(30).unwrap();
                let since = now - std::time::Duration::from_secs(*age);
                Arc::new(Idle { memory: Mutex::new(Some(memory)), since })
            })
            .collect();
        for holder in &holders {
            let weak: Weak<dyn IdleInstances> = Arc::downgrade(holder) as Weak<dyn IdleInstances>;
            budget.watch(weak);
        }
        let busy = InstanceMemory::new(100, budget.clone());
        busy.grow(40).unwrap();
        assert!(lock(&holders[0].memory).is_none(), "the one idle for 3 s went");
        assert!(lock(&holders[1].memory).is_some() && lock(&holders[2].memory).is_some());
        busy.grow(30).unwrap();
        assert!(lock(&holders[2].memory).is_none(), "then the one idle for 2 s");
        assert_eq!(budget.used(), 100);
        assert_eq!(budget.pressure(), (0, 2));
    }

    #[test]
    fn the_default_is_a_share_of_the_machine() {
        let limit = default_limit();
        assert!(limit > 0 && limit <= machine_memory().unwrap_or(FALLBACK_MACHINE_MEMORY));
    }
}
