//! Host-side waits bounded by the call's deadline, and cut short by its
//! cancellation.
//!
//! Epoch interruption stops a guest only while it runs wasm. A guest that
//! sleeps (`wasi:clocks/monotonic-clock.subscribe-*`, then `poll`/`block`)
//! waits inside the host, where no epoch check happens: `sleep(1 hour)` would
//! hold its session for an hour whatever `--timeout` says, deaf to
//! `notifications/cancelled`. So the two subscribe functions are shadowed by
//! a timer that never waits past the call's deadline and, every tick, runs
//! the transport's tick hook and checks the cancellation flag; the guest
//! wakes, and the next epoch check stops it with the usual error. (Outgoing
//! HTTP waits are capped the same way in [`crate::sandbox::outgoing_http`].)

use std::time::Duration;

use tokio::time::Instant;
use wasmtime::StoreContextMut;
use wasmtime::component::{Linker, Resource};
use wasmtime_wasi::WasiView;
use wasmtime_wasi::clocks::WasiClocksView;
use wasmtime_wasi::p2::bindings::sync::clocks::monotonic_clock::Host as MonotonicClock;
use wasmtime_wasi::p2::{DynPollable, Pollable, subscribe};

use mcp_wit_protocol::client::{AskError, WaitBound};

use super::limits::{CallView, TICK, WaitControls};

/// The `wasi:clocks` monotonic-clock interface as wasmtime-wasi defines it;
/// guests importing any 0.2 version are linked to it.
const MONOTONIC_CLOCK: &str = "wasi:clocks/monotonic-clock@0.2.12";

/// Replaces `subscribe-duration` and `subscribe-instant` in `linker` (which
/// already holds wasmtime-wasi's WASI) with [`CallTimer`]s.
pub(super) fn bound_clock_waits<T: WasiView + CallView + 'static>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    let mut clock = linker.instance(MONOTONIC_CLOCK)?;
    clock.func_wrap("subscribe-duration", |store: StoreContextMut<'_, T>, (nanos,): (u64,)| {
        Ok((CallTimer::subscribe(store, nanos)?,))
    })?;
    clock.func_wrap("subscribe-instant", |mut store: StoreContextMut<'_, T>, (when,): (u64,)| {
        let now = MonotonicClock::now(&mut store.data_mut().clocks())?;
        Ok((CallTimer::subscribe(store, when.saturating_sub(now))?,))
    })?;
    linker.allow_shadowing(false);
    Ok(())
}

/// A guest's timer: ready when its time comes, when the call's deadline
/// passes, or when the call is cancelled, whichever is first.
struct CallTimer {
    /// When the guest asked to wake.
    wanted: Instant,
    /// When the call's time runs out (later if it becomes a task meanwhile).
    call_deadline: Instant,
    controls: WaitControls,
}

impl CallTimer {
    /// The pollable for a wait of `nanos` within the running call.
    fn subscribe<T: WasiView + CallView>(
        mut store: StoreContextMut<'_, T>,
        nanos: u64,
    ) -> wasmtime::Result<Resource<DynPollable>> {
        let controls = store.data().call_control().wait_controls();
        let now = Instant::now();
        // At most a day at a time: never past the end of tokio's clock (the
        // guest wakes early and waits again).
        let wanted = now + Duration::from_nanos(nanos).min(MAX_WAIT);
        let call_deadline = now + controls.left;
        let table = store.data_mut().ctx().table;
        let timer = table.push(CallTimer { wanted, call_deadline, controls })?;
        subscribe(table, timer)
    }

    /// When it is ready at the latest, as things stand.
    fn until(&self) -> Instant {
        let deadline = Instant::from_std(self.controls.deadline(self.call_deadline.into_std()));
        self.wanted.min(deadline)
    }
}

/// The longest one guest wait lasts.
const MAX_WAIT: Duration = Duration::from_secs(24 * 60 * 60);

#[wasmtime_wasi::async_trait]
impl Pollable for CallTimer {
    async fn ready(&mut self) {
        loop {
            if let Some(hook) = &self.controls.hook {
                hook();
            }
            if self.controls.cancel.is_cancelled() {
                return;
            }
            let (now, until) = (Instant::now(), self.until());
            if now >= until {
                return;
            }
            tokio::time::sleep_until(until.min(now + TICK)).await;
        }
    }
}

/// Waits for `answer` (the client's response to a router's question, a
/// plugin's HTTP response) within `bound`: until the guest call's deadline, or until its request is
/// cancelled, whichever comes first.
#[cfg_attr(
    not(any(feature = "http", feature = "rmcp", all(feature = "extism", feature = "outgoing-http"))),
    allow(dead_code)
)]
pub(crate) async fn answer_within<T>(answer: impl Future<Output = T>, bound: &WaitBound) -> Result<T, AskError> {
    let deadline = tokio::time::Instant::from_std(bound.deadline);
    tokio::pin!(answer);
    loop {
        if bound.cancel.is_cancelled() {
            return Err(AskError::Cancelled);
        }
        let now = tokio::time::Instant::now();
        if now >= deadline {
            return Err(AskError::TimedOut);
        }
        tokio::select! {
            answered = &mut answer => return Ok(answered),
            () = tokio::time::sleep_until(deadline.min(now + TICK)) => {}
        }
    }
}
