//! Per-instance limits: CPU time per call, memory, and interruption.
//!
//! CPU: the engine's epoch advances every [`TICK`] on one shared thread
//! (see [`super::engine`]); each call gives its store a deadline of one tick
//! and a callback that, at each tick, checks the call's wall-clock deadline
//! and its cancellation flag. A runaway guest is therefore stopped within one
//! tick of its deadline, at the cost of an epoch check in the guest's loops.
//!
//! Memory: a [`ResourceLimiter`] refuses growth past the cap and turns the
//! refusal into a trap naming the limit.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_wit_protocol::{Calls, CancelFlag, TickHook};
use wasmtime::{ResourceLimiter, UpdateDeadline};

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

/// The interruption state one store carries.
pub struct CallControl {
    limits: Limits,
    deadline: Instant,
    cancel: CancelFlag,
    hook: Option<TickHook>,
    memory_exceeded: bool,
    /// Async calls give their thread back to the executor at every tick.
    calls: Calls,
}

impl CallControl {
    /// Control state for an instance under `limits`, called `calls`.
    pub fn new(limits: Limits, calls: Calls) -> Self {
        CallControl {
            limits,
            deadline: Instant::now(),
            cancel: CancelFlag::default(),
            hook: None,
            memory_exceeded: false,
            calls,
        }
    }

    /// Starts the clock for a call.
    pub fn begin_call(&mut self, cancel: &CancelFlag, hook: Option<&TickHook>) {
        self.deadline = Instant::now() + self.limits.timeout;
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
        self.memory_exceeded = false;
    }

    /// How much of the running call's budget is left, the flag that cancels
    /// it and the transport's tick hook: what a wait inside the host must
    /// watch, since no epoch check happens there.
    pub fn wait_controls(&self) -> (Duration, CancelFlag, Option<TickHook>) {
        (self.deadline.saturating_duration_since(Instant::now()), self.cancel.clone(), self.hook.clone())
    }

    /// What to do at an epoch tick during a call.
    pub fn on_tick(&self) -> wasmtime::Result<UpdateDeadline> {
        if let Some(hook) = &self.hook {
            hook();
        }
        if self.cancel.is_cancelled() {
            return Err(wasmtime::Error::new(Interrupted::Cancelled));
        }
        if Instant::now() >= self.deadline {
            return Err(wasmtime::Error::new(Interrupted::Timeout(self.limits.timeout)));
        }
        if self.calls == Calls::Async {
            // A long async call gives its thread back at every tick. Tokio's
            // own yield also lets the thread look for I/O first: a plain
            // wake-up would run the next busy task, and a server whose
            // threads all run long calls would read no request for a while.
            return Ok(UpdateDeadline::YieldCustom(1, Box::pin(tokio::task::yield_now())));
        }
        Ok(UpdateDeadline::Continue(1))
    }

    /// Whether the last call hit the memory cap (the guest may have turned
    /// the refused growth into its own trap, e.g. an allocation-failure abort).
    pub fn memory_exceeded(&self) -> bool {
        self.memory_exceeded
    }
}

impl ResourceLimiter for CallControl {
    fn memory_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        if desired > self.limits.max_memory {
            self.memory_exceeded = true;
            return Err(wasmtime::Error::new(Interrupted::MemoryLimit(self.limits.max_memory)));
        }
        Ok(true)
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
    }
}
