//! Per-instance limits: CPU time per call, memory, and interruption.
//!
//! CPU: the engine's epoch advances every [`TICK`] on one shared thread
//! (see [`super::engine`]); each call gives its store a deadline of one tick
//! and a callback that, at each tick, checks the call's wall-clock deadline
//! and its cancellation flag. A runaway guest is therefore stopped within one
//! tick of its deadline, at the cost of an epoch check in the guest's loops.
//!
//! Memory: a [`ResourceLimiter`] counts growth in the instance's
//! [`InstanceMemory`] (its cap and the server's budget, see
//! [`super::budget`]) and turns a refusal into a trap naming the limit.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_wit_protocol::tasks::TaskOffer;
use mcp_wit_protocol::{CallMode, CancelFlag, TickHook};
use wasmtime::{ResourceLimiter, UpdateDeadline};

use super::budget::{InstanceMemory, MemoryRefusal};

/// How often the engine's epoch advances.
pub const TICK: Duration = Duration::from_millis(10);

/// Default wall-clock budget of one guest call.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Default memory cap of one instance: 256 MiB.
pub const DEFAULT_MAX_MEMORY: usize = 256 << 20;

/// The limits every instance of a component runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock budget of one call into the guest.
    pub timeout: Duration,
    /// Most linear memory one instance may have, in bytes.
    pub max_memory: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { timeout: DEFAULT_TIMEOUT, max_memory: DEFAULT_MAX_MEMORY }
    }
}

/// Why a guest call was stopped by the host.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Interrupted {
    /// The call ran past its deadline.
    #[error("timed out after {}", humanize(*.0))]
    Timeout(Duration),
    /// The client cancelled the request.
    #[error("cancelled by the client")]
    Cancelled,
    /// The guest tried to grow its memory past the cap.
    #[error("exceeded the memory limit of {}", bytes(*.0))]
    MemoryLimit(usize),
    /// The guest's growth found no room in the server's memory budget, with
    /// every idle instance released.
    #[error(
        "needed more memory than the server's budget of {} has free, with every idle instance released \
         (retry when other calls are done, or raise --max-total-memory)",
        bytes(*.0)
    )]
    MemoryBudget(usize),
    /// A question of a 2026-07-28 request had no answer yet: the round ends.
    #[error("asked the client a question to be answered in the next round")]
    InputRequired,
}

fn humanize(d: Duration) -> String {
    if d.subsec_nanos() == 0 { format!("{}s", d.as_secs()) } else { format!("{d:?}") }
}

fn bytes(n: usize) -> String {
    if n.is_multiple_of(1 << 20) { format!("{} MiB", n >> 20) } else { format!("{n} bytes") }
}

/// The guest call running in a store, as the host functions that wait
/// inside the host see it (as `WasiView` gives WASI its context): they are
/// generic over it, never over the store's own type.
pub trait CallView {
    /// The running call's control.
    fn call_control(&self) -> &CallControl;
}

/// What a wait inside the host must watch for the running call.
pub struct WaitControls {
    /// How much of the call's budget is left.
    pub left: Duration,
    /// The flag that cancels the call.
    pub cancel: CancelFlag,
    /// The transport's hook, to run at every tick of the wait.
    pub hook: Option<TickHook>,
    /// The call's whole budget, which a wait that runs out names.
    pub timeout: Duration,
    /// The request's way to become a task: once it is one, its deadline
    /// replaces the call's (see [`WaitControls::deadline`]).
    pub task: Option<TaskOffer>,
}

impl WaitControls {
    /// When the wait must end at the latest, `call_deadline` being the
    /// call's own: later once the request became a task.
    pub fn deadline(&self, call_deadline: Instant) -> Instant {
        self.task.as_ref().and_then(TaskOffer::deadline).map_or(call_deadline, |task| task.max(call_deadline))
    }
}

/// The interruption state one store carries.
pub struct CallControl {
    limits: Limits,
    deadline: Instant,
    cancel: CancelFlag,
    hook: Option<TickHook>,
    /// The instance's memory, against its cap and the server's budget.
    memory: Arc<InstanceMemory>,
    /// Why the last call's growth was refused, if it was.
    memory_refused: Option<MemoryRefusal>,
    /// The growth being made, taken back if it fails after all.
    growing: usize,
    /// Async calls give their thread back to the executor at every tick.
    calls: CallMode,
    /// The request's way to become a task, when it may.
    task: Option<TaskOffer>,
}

impl CallControl {
    /// Control state for an instance under `limits`, called `calls`, whose
    /// memory is counted in `memory`.
    pub fn new(limits: Limits, calls: CallMode, memory: Arc<InstanceMemory>) -> Self {
        CallControl {
            limits,
            deadline: Instant::now(),
            cancel: CancelFlag::default(),
            hook: None,
            memory,
            memory_refused: None,
            growing: 0,
            calls,
            task: None,
        }
    }

    /// The instance's memory account (an Extism kernel counts its blocks
    /// there too).
    pub fn memory(&self) -> &Arc<InstanceMemory> {
        &self.memory
    }

    /// Starts the clock for a call.
    pub fn begin_call(&mut self, cancel: &CancelFlag, hook: Option<&TickHook>, task: Option<&TaskOffer>) {
        self.deadline = Instant::now() + self.limits.timeout;
        if self.task.is_some() || task.is_some() {
            self.task = task.cloned();
        }
        // A session passes the same flag and hook to every call: keep them
        // rather than trade reference counts on each one.
        if !self.cancel.same_as(cancel) {
            self.cancel = cancel.clone();
        }
        let same_hook = match (&self.hook, hook) {
            (Some(mine), Some(theirs)) => Arc::ptr_eq(mine, theirs),
            (None, None) => true,
            _ => false,
        };
        if !same_hook {
            self.hook = hook.cloned();
        }
        self.memory_refused = None;
    }

    /// What a wait inside the host must watch, since no epoch check
    /// happens there.
    pub fn wait_controls(&self) -> WaitControls {
        WaitControls {
            left: self.deadline().saturating_duration_since(Instant::now()),
            cancel: self.cancel.clone(),
            hook: self.hook.clone(),
            timeout: self.limits.timeout,
            task: self.task.clone(),
        }
    }

    /// When the call must end: its own deadline, or its task's once the
    /// request became one (a task runs under `--task-timeout`, not
    /// `--timeout`).
    fn deadline(&self) -> Instant {
        match self.task.as_ref().and_then(TaskOffer::deadline) {
            Some(task) => task.max(self.deadline),
            None => self.deadline,
        }
    }

    /// How the calls of this store wait: blocking or async.
    pub fn mode(&self) -> CallMode {
        self.calls
    }

    /// What to do at an epoch tick during a call.
    pub fn on_tick(&self) -> wasmtime::Result<UpdateDeadline> {
        if let Some(hook) = &self.hook {
            hook();
        }
        if self.cancel.is_cancelled() {
            return Err(wasmtime::Error::new(Interrupted::Cancelled));
        }
        if Instant::now() >= self.deadline() {
            return Err(wasmtime::Error::new(Interrupted::Timeout(self.limits.timeout)));
        }
        if self.calls == CallMode::Async {
            // A long async call gives its thread back at every tick. Tokio's
            // own yield also lets the thread look for I/O first: a plain
            // wake-up would run the next busy task, and a server whose
            // threads all run long calls would read no request for a while.
            return Ok(UpdateDeadline::YieldCustom(1, Box::pin(tokio::task::yield_now())));
        }
        Ok(UpdateDeadline::Continue(1))
    }

    /// Why the last call's memory growth was refused, if it was (the guest
    /// may have turned the refusal into its own trap, e.g. an
    /// allocation-failure abort).
    pub fn memory_refused(&self) -> Option<Interrupted> {
        self.memory_refused.map(refusal)
    }
}

fn refusal(refused: MemoryRefusal) -> Interrupted {
    match refused {
        MemoryRefusal::InstanceCap(cap) => Interrupted::MemoryLimit(cap),
        MemoryRefusal::ServerBudget(limit) => Interrupted::MemoryBudget(limit),
    }
}

impl ResourceLimiter for CallControl {
    fn memory_growing(&mut self, current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        // The cap holds for the instance as a whole: all its memories, and a
        // plugin's kernel blocks.
        let growth = desired.saturating_sub(current);
        if let Err(refused) = self.memory.grow(growth) {
            self.memory_refused = Some(refused);
            return Err(wasmtime::Error::new(refusal(refused)));
        }
        self.growing = growth;
        Ok(true)
    }

    fn memory_grow_failed(&mut self, _error: wasmtime::Error) -> wasmtime::Result<()> {
        // Counted, then not made (the system had no room): not held.
        self.memory.shrink(std::mem::take(&mut self.growing));
        Ok(())
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        // Tables hold references, not data; a million entries is far beyond
        // any real guest and keeps a hostile one from eating host memory.
        Ok(desired <= 1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_limit() {
        assert_eq!(Interrupted::Timeout(Duration::from_secs(30)).to_string(), "timed out after 30s");
        assert_eq!(Interrupted::Timeout(Duration::from_millis(1500)).to_string(), "timed out after 1.5s");
        assert_eq!(Interrupted::MemoryLimit(256 << 20).to_string(), "exceeded the memory limit of 256 MiB");
        assert!(Interrupted::MemoryBudget(8 << 30).to_string().contains("budget of 8192 MiB"));
    }
}
