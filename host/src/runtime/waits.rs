//! Host-side waits bounded by the call's deadline.
//!
//! Epoch interruption stops a guest only while it runs wasm. A guest that
//! sleeps (`wasi:clocks/monotonic-clock.subscribe-*`, then `poll`/`block`)
//! waits inside the host, where no epoch check happens: `sleep(1 hour)` would
//! hold its session for an hour whatever `--timeout` says. So the two
//! subscribe functions are shadowed by versions that never wait past the
//! call's deadline; the guest wakes at the deadline and the next epoch check
//! stops it with the usual timeout. (Outgoing HTTP waits are capped the same
//! way in [`crate::sandbox::outgoing_http`].)

use wasmtime::StoreContextMut;
use wasmtime::component::{Linker, Resource};
use wasmtime_wasi::clocks::WasiClocksView;
use wasmtime_wasi::p2::DynPollable;
use wasmtime_wasi::p2::bindings::sync::clocks::monotonic_clock::Host as MonotonicClock;

use super::instance::StoreData;

/// The `wasi:clocks` monotonic-clock interface as wasmtime-wasi defines it;
/// guests importing any 0.2 version are linked to it.
const MONOTONIC_CLOCK: &str = "wasi:clocks/monotonic-clock@0.2.12";

/// Replaces `subscribe-duration` and `subscribe-instant` in `linker` (which
/// already holds wasmtime-wasi's WASI) with deadline-bounded versions.
pub(super) fn bound_clock_waits(linker: &mut Linker<StoreData>) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    let mut clock = linker.instance(MONOTONIC_CLOCK)?;
    clock.func_wrap("subscribe-duration", |mut store: StoreContextMut<'_, StoreData>, (nanos,): (u64,)| {
        let nanos = bounded(store.data(), nanos);
        Ok((MonotonicClock::subscribe_duration(&mut store.data_mut().clocks(), nanos)?,))
    })?;
    clock.func_wrap("subscribe-instant", |mut store: StoreContextMut<'_, StoreData>, (when,): (u64,)| {
        let now = MonotonicClock::now(&mut store.data_mut().clocks())?;
        let nanos = bounded(store.data(), when.saturating_sub(now));
        let pollable: Resource<DynPollable> =
            MonotonicClock::subscribe_duration(&mut store.data_mut().clocks(), nanos)?;
        Ok((pollable,))
    })?;
    linker.allow_shadowing(false);
    Ok(())
}

/// `nanos`, but no longer than what is left of the running call's budget.
fn bounded(data: &StoreData, nanos: u64) -> u64 {
    let left = u64::try_from(data.remaining_time().as_nanos()).unwrap_or(u64::MAX);
    nanos.min(left)
}
