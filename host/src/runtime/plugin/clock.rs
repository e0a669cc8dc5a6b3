//! WASI preview 1's `poll_oneoff`, bounded by the call, for plugins.
//!
//! A plugin sleeps with `poll_oneoff` (Rust's `std::thread::sleep` on
//! `wasm32-wasip1`), inside the host, where epoch interruption cannot reach
//! it: wasmtime-wasi's own would hold the session for an hour on
//! `sleep(1 hour)` whatever `--timeout` says, deaf to cancellation. This one
//! never waits past the call's deadline, runs the transport's tick hook and
//! checks the cancellation flag every tick, and ends the call with the usual
//! error when either comes first — what [`crate::runtime::waits`] does for
//! components' clocks. It waits on clocks only: a plugin has no stream to
//! poll (its stdin is empty and it has no sockets), so a subscription to a
//! descriptor is `ENOTSUP`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_wit_protocol::{CallMode, CancelFlag, TickHook};
use wasmtime::{Caller, Linker, Memory};
use wasmtime_wasi::clocks::WasiClocksView;
use wasmtime_wasi::p2::bindings::sync::clocks::monotonic_clock::Host as MonotonicClock;

use super::detect::WASI_P1_MODULE;
use crate::runtime::limits::{CallView, Interrupted, TICK};

/// `subscription` and `event`, as preview 1 lays them out.
const SUBSCRIPTION_SIZE: usize = 48;
const EVENT_SIZE: usize = 32;
/// `eventtype::clock`.
const CLOCK: u8 = 0;
/// `clockid`: realtime and monotonic (the CPU-time clocks are not offered).
const REALTIME: u32 = 0;
const MONOTONIC: u32 = 1;
/// `subclockflags::subscription_clock_abstime`.
const ABSOLUTE: u16 = 1;
/// `errno` values.
const SUCCESS: i32 = 0;
const FAULT: i32 = 21;
const INVAL: i32 = 28;
const NOTSUP: i32 = 58;

/// Replaces `poll_oneoff` in `linker` (which already holds wasmtime-wasi's
/// preview 1) with [`poll_oneoff`].
pub(super) fn bound_sleeps<T: WasiClocksView + CallView + 'static>(
    linker: &mut Linker<T>,
    calls: CallMode,
) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    match calls {
        CallMode::Blocking => linker.func_wrap(
            WASI_P1_MODULE,
            "poll_oneoff",
            |mut c: Caller<'_, T>, subs: i32, events: i32, n: i32, written: i32| {
                let wait = match plan(&mut c, subs, n) {
                    Ok(wait) => wait,
                    Err(errno) => return Ok(errno),
                };
                let bound = Bound::of(c.data(), wait.duration);
                bound.wait_blocking()?;
                Ok(finish(&mut c, &wait, events, written))
            },
        )?,
        CallMode::Async => linker.func_wrap_async(
            WASI_P1_MODULE,
            "poll_oneoff",
            |mut c: Caller<'_, T>, (subs, events, n, written): (i32, i32, i32, i32)| {
                Box::new(async move {
                    let wait = match plan(&mut c, subs, n) {
                        Ok(wait) => wait,
                        Err(errno) => return Ok(errno),
                    };
                    let bound = Bound::of(c.data(), wait.duration);
                    bound.wait().await?;
                    Ok(finish(&mut c, &wait, events, written))
                })
            },
        )?,
    };
    linker.allow_shadowing(false);
    Ok(())
}

/// The clock subscriptions of one `poll_oneoff`: each one's user data and
/// how long until it fires; the wait is until the first.
struct Wait {
    timers: Vec<(u64, Duration)>,
    duration: Duration,
}

/// Reads the `n` subscriptions at `subs`; an `errno` for what cannot be waited on.
fn plan<T: WasiClocksView>(c: &mut Caller<'_, T>, subs: i32, n: i32) -> Result<Wait, i32> {
    let n = usize::try_from(n).map_err(|_| INVAL)?;
    if n == 0 {
        // Indefinite sleeping is not supported in preview 1.
        return Err(INVAL);
    }
    let memory = memory(c).ok_or(FAULT)?;
    let start = usize::try_from(subs as u32).map_err(|_| FAULT)?;
    let bytes = n.checked_mul(SUBSCRIPTION_SIZE).and_then(|len| memory.data(&*c).get(start..start.checked_add(len)?));
    let bytes = bytes.ok_or(FAULT)?.to_vec();
    let monotonic_now = MonotonicClock::now(&mut c.data_mut().clocks()).map_err(|_| INVAL)?;
    let mut timers = Vec::with_capacity(n);
    for sub in bytes.as_chunks::<SUBSCRIPTION_SIZE>().0 {
        let u64_at = |at: usize| u64::from_le_bytes(sub[at..at + 8].try_into().expect("8 bytes"));
        if sub[8] != CLOCK {
            tracing::debug!("a plugin polled a descriptor: it has none to wait on");
            return Err(NOTSUP);
        }
        let clock = u32::from_le_bytes(sub[16..20].try_into().expect("4 bytes"));
        let timeout = u64_at(24);
        let absolute = u16::from_le_bytes(sub[40..42].try_into().expect("2 bytes")) & ABSOLUTE != 0;
        let nanos = match (clock, absolute) {
            (REALTIME | MONOTONIC, false) => timeout,
            (MONOTONIC, true) => timeout.saturating_sub(monotonic_now),
            (REALTIME, true) => {
                let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
                timeout.saturating_sub(u64::try_from(now.as_nanos()).unwrap_or(u64::MAX))
            }
            _ => return Err(INVAL),
        };
        timers.push((u64_at(0), Duration::from_nanos(nanos)));
    }
    let duration = timers.iter().map(|(_, after)| *after).min().unwrap_or_default();
    Ok(Wait { timers, duration })
}

/// Writes an event for each timer that fired and their count.
fn finish<T>(c: &mut Caller<'_, T>, wait: &Wait, events: i32, written: i32) -> i32 {
    let Some(memory) = memory(c) else { return FAULT };
    let fired: Vec<u64> =
        wait.timers.iter().filter(|(_, after)| *after <= wait.duration).map(|(userdata, _)| *userdata).collect();
    let mut out = vec![0u8; fired.len() * EVENT_SIZE];
    for (event, userdata) in out.as_chunks_mut::<EVENT_SIZE>().0.iter_mut().zip(&fired) {
        event[0..8].copy_from_slice(&userdata.to_le_bytes());
        event[10] = CLOCK;
    }
    let count = (fired.len() as u32).to_le_bytes();
    let (events, written) = (events as u32 as usize, written as u32 as usize);
    let data = memory.data_mut(&mut *c);
    let fits = |start: usize, len: usize| start.checked_add(len).is_some_and(|end| end <= data.len());
    if !fits(events, out.len()) || !fits(written, count.len()) {
        return FAULT;
    }
    data[events..events + out.len()].copy_from_slice(&out);
    data[written..written + count.len()].copy_from_slice(&count);
    SUCCESS
}

fn memory<T>(c: &mut Caller<'_, T>) -> Option<Memory> {
    c.get_export("memory").and_then(|export| export.into_memory())
}

/// A wait within the running call: until `until`, or until the call's
/// deadline or cancellation, which end the call.
struct Bound {
    wanted: Duration,
    left: Duration,
    cancel: CancelFlag,
    hook: Option<TickHook>,
    timeout: Duration,
}

impl Bound {
    fn of(data: &impl CallView, wanted: Duration) -> Self {
        let controls = data.call_control().wait_controls();
        Bound { wanted, left: controls.left, cancel: controls.cancel, hook: controls.hook, timeout: controls.timeout }
    }

    /// Each tick of the wait: the hook run, the flag checked; the time
    /// still to wait, or why the call ends.
    fn tick(&self, started: std::time::Instant) -> wasmtime::Result<Option<Duration>> {
        if let Some(hook) = &self.hook {
            hook();
        }
        if self.cancel.is_cancelled() {
            return Err(wasmtime::Error::new(Interrupted::Cancelled));
        }
        let waited = started.elapsed();
        if waited >= self.wanted {
            return Ok(None);
        }
        if waited >= self.left {
            return Err(wasmtime::Error::new(Interrupted::Timeout(self.timeout)));
        }
        Ok(Some((self.wanted.min(self.left) - waited).min(TICK)))
    }

    async fn wait(&self) -> wasmtime::Result<()> {
        let started = std::time::Instant::now();
        while let Some(pause) = self.tick(started)? {
            tokio::time::sleep(pause).await;
        }
        Ok(())
    }

    fn wait_blocking(&self) -> wasmtime::Result<()> {
        let started = std::time::Instant::now();
        while let Some(pause) = self.tick(started)? {
            std::thread::sleep(pause);
        }
        Ok(())
    }
}
