//! The engine every component is compiled and run with, its epoch ticker,
//! and the engine that takes over when its pool is full.
//!
//! Every memory reserves WebAssembly's whole 4 GiB range, whatever the
//! memory cap: compiled code depends on the reservation (wasmtime refuses
//! code compiled for another), so one constant reservation lets one
//! compiled artifact serve every `--max-memory`, `--timeout` and pool size.
//! The cap is enforced as memory grows (the pool's `max_memory_size`, each
//! store's limiter). The pooling allocator reserves that address space for
//! every slot up front, about 8 GiB a slot, and holds what is usually alive
//! at once. An instance beyond the pool is allocated on demand by an engine
//! with the same settings (see `overflow_of`): slower to make, but nothing
//! is refused.
//!
//! A component with no compiled code at hand can be served at once with
//! code from Winch, wasmtime's baseline compiler, while Cranelift's
//! optimised code compiles beside it (see `baseline_of` and
//! [`EngineOptions::baseline_first`]). A build without the `compiler`
//! feature compiles nothing: it runs code compiled ahead of time by one
//! with it, for the same settings.

use std::sync::{Mutex, OnceLock};

use crate::sync::lock;
use wasmtime::{Config, Enabled, Engine, EngineWeak, InstanceAllocationStrategy, PoolingAllocationConfig};

use super::limits::{DEFAULT_MAX_MEMORY, TICK};
use crate::error::EngineError;

/// Engine-wide settings.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    /// Instances the pooling allocator keeps slots for (sessions ×
    /// components, plus one being replaced, for a pool that never
    /// overflows). More may be alive: beyond the pool, instances are
    /// allocated on demand. The pool is set up when the engine is built,
    /// at about 3 µs a slot on a 2-CPU machine: the default 1,024 slots take
    /// longer than a whole cached start with 16 (bench/results/2026-11-30-no-compiler).
    pub pool_instances: u32,
    /// Most linear memory of one instance, in bytes; per-component limits
    /// may be lower, not higher.
    pub max_memory: usize,
    /// Pre-allocate instance slots (fast instantiation) instead of mapping
    /// memory on demand. A process with one client, as over stdio, makes its
    /// instances once: without a pool its start costs a fifth less CPU
    /// (bench/results/2026-12-03-stdio-on-demand).
    pub pooling: bool,
    /// Guests may be called async ([`LoadedRouter::instantiate_async`],
    /// which the Streamable HTTP transport uses): the pool then holds a fiber
    /// stack for each instance. Without it, the pool holds none: async calls
    /// fail, and a command server (whose `run` lives on a fiber even when
    /// called blocking) gets every instance from the on-demand engine, its
    /// code serialized and loaded again for it. The stacks of a stdio
    /// server's pool (21) cost nothing measurable at a cached start.
    ///
    /// [`LoadedRouter::instantiate_async`]: super::LoadedRouter::instantiate_async
    pub async_calls: bool,
    /// Give freed slots' memory back in batches (up to 32 a shard):
    /// fewer `madvise` runs, but a batch's memory stays resident, uncounted
    /// by any [`MemoryBudget`](crate::MemoryBudget), until it goes. Off, a
    /// freed slot's memory goes back at once: set it off when a tight budget
    /// must hold (`--max-total-memory`).
    pub batch_decommits: bool,
    /// Serve a component that has no compiled code in the cache (or no
    /// cache) at once, compiled by Winch, wasmtime's baseline compiler (3–4×
    /// quicker to compile, slower code), while Cranelift compiles the
    /// optimised code on a thread of its own, into the cache; every
    /// instance made once it is ready runs it. For servers, whose first
    /// start must not keep a client waiting; off, a miss compiles the
    /// optimised code before anything is served. Without the `compiler`
    /// feature nothing is compiled, and this does nothing.
    pub baseline_first: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            pool_instances: 1024,
            max_memory: DEFAULT_MAX_MEMORY,
            pooling: true,
            async_calls: true,
            batch_decommits: true,
            baseline_first: false,
        }
    }
}

impl EngineOptions {
    /// Builds the engine these options describe (see [`build_engine_with`]).
    pub fn build(&self) -> Result<Engine, EngineError> {
        build_engine_with(self)
    }
}

/// Builds the engine with default options (see [`build_engine_with`]).
pub fn build_engine() -> Result<Engine, EngineError> {
    build_engine_with(&EngineOptions::default())
}

/// Builds the [`Engine`] and starts its epoch ticker.
///
/// One engine serves the whole process: compiled code, the instance
/// allocator and the epoch counter are shared by all sessions.
pub fn build_engine_with(options: &EngineOptions) -> Result<Engine, EngineError> {
    let mut config = Config::new();
    config.wasm_component_model(true);
    #[cfg(feature = "compiler")]
    config.cranelift_opt_level(wasmtime::OptLevel::Speed);
    // Routers, typed components and commands are WASI 0.2: the concurrent
    // (0.3) machinery would add set-up to every store and route every async
    // call through it. Components that need it (WASIp3 handlers) run on a
    // sibling engine that has it (`concurrent_of`).
    config.concurrency_support(false);
    // Copy-on-write images make a fresh instance's memory a mapping, not a copy.
    config.memory_init_cow(true);
    // Per-call deadlines and cancellation (see `limits`).
    config.epoch_interruption(true);
    // The same for every cap (see the module's documentation). With the
    // whole range reserved and a guard after it, an access whose offset
    // fits the guard needs no bounds check in code.
    config.memory_reservation(RESERVATION);
    config.memory_reservation_for_growth(0);
    config.memory_guard_size(GUARD);
    if options.pooling {
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pooling_config(options)));
    }
    let engine = Engine::new(&config).map_err(|e| match options.pooling {
        true => EngineError(e.context(refused(options))),
        false => EngineError(e),
    })?;
    spawn_epoch_ticker(&engine);
    record(&engine, options);
    Ok(engine)
}

/// The guard after each memory (wasmtime's default on 64-bit hosts is
/// 32 MiB; with bounds checked in code a guard only lets constant offsets
/// skip their check).
const GUARD: u64 = 2 << 20;

/// Memories kept in the pool per instance slot: a `wasm32-wasip2` component
/// has one or two (an adapter's); a slot whose instance needs more takes
/// from the others'.
const MEMORIES_PER_SLOT: u32 = 2;

/// Bytes reserved for each memory: a 32-bit memory's whole range.
const RESERVATION: u64 = 4 << 30;

/// What one memory may grow to in the pool: the cap, within the range.
fn pooled_memory_size(max_memory: usize) -> usize {
    max_memory.min(RESERVATION as usize)
}

/// What a refused pool asked of the system, and which settings lower it.
fn refused(options: &EngineOptions) -> String {
    // Wide enough for any pool asked for (4 billion slots of 8 GiB).
    let slots = u128::from(options.pool_instances.max(1));
    let per_slot = u128::from(MEMORIES_PER_SLOT) * u128::from(RESERVATION + GUARD);
    format!(
        "the pooling allocator asked for {} of address space for {slots} instance slots ({} each: {MEMORIES_PER_SLOT} \
         memories of {} + a {} guard){}; lower the pool (`--pool-instances`; by default sessions × components + 8, \
         at most {DEFAULT_POOL_CAP}), or raise the system's limits (`ulimit -v`, `vm.max_map_count`, \
         `vm.overcommit_memory`)",
        size_text(slots * per_slot),
        size_text(per_slot),
        size_text(RESERVATION.into()),
        size_text(GUARD.into()),
        if options.async_calls { ", and a fiber stack per slot" } else { "" },
    )
}

fn size_text(bytes: u128) -> String {
    match bytes >> 20 {
        mib if mib >= 1 << 20 => format!("{:.1} TiB", bytes as f64 / (1u64 << 40) as f64),
        mib if mib >= 1 << 10 => format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64),
        mib => format!("{mib} MiB"),
    }
}

/// The largest pool `mcp-wit serve` sizes by default: 16 TiB of address
/// space (an eighth of x86-64's user half), room for the default 1,024
/// sessions; and within Linux's default `vm.max_map_count` (65,530 memory
/// mappings) with every slot alive and 7,500 instances beyond the pool: a
/// pooled slot costs about 6.25 mappings when alive (2.25 for its stacks, 4
/// for its memory), an on-demand instance about 6.
pub const DEFAULT_POOL_CAP: u32 = 2_048;

/// An engine this module built: what it was built for, and the engines
/// made beside it on first need (where a full pool's instances go, the
/// baseline compiler's).
struct Built {
    engine: EngineWeak,
    /// Its instances come from a pool (else each is allocated on demand,
    /// and none overflows).
    pooled: bool,
    async_calls: bool,
    /// What one memory may grow to (`EngineOptions::max_memory`).
    max_memory: usize,
    overflow: std::sync::Arc<OnceLock<Result<Engine, String>>>,
    /// The Winch engine, when [`EngineOptions::baseline_first`] asked for
    /// one (made on first need).
    baseline: Option<std::sync::Arc<OnceLock<Result<Engine, String>>>>,
}

/// Every engine built in this process. wasmtime's `Engine` holds no data of
/// ours, and the library's API takes it as it is, so its siblings and its
/// memory cap are found here.
static BUILT: Mutex<Vec<Built>> = Mutex::new(Vec::new());

fn record(engine: &Engine, options: &EngineOptions) {
    let mut built = lock(&BUILT);
    built.retain(|record| record.engine.upgrade().is_some());
    built.push(Built {
        engine: engine.weak(),
        pooled: options.pooling,
        async_calls: options.async_calls,
        max_memory: options.max_memory,
        overflow: Default::default(),
        baseline: options.baseline_first.then(Default::default),
    });
}

/// What `read` takes of `engine`'s record, when this module built it.
fn record_of<T>(engine: &Engine, read: impl FnOnce(&Built) -> T) -> Option<T> {
    let built = lock(&BUILT);
    built.iter().find(|record| record.engine.upgrade().is_some_and(|built| Engine::same(&built, engine))).map(read)
}

/// What one memory may grow to on `engine`, when this module built it (or
/// made it a sibling of one it built).
pub(crate) fn memory_cap_of(engine: &Engine) -> Option<usize> {
    match concurrent_base(engine).or_else(|| baseline_base(engine)) {
        Some(base) => record_of(&base, |record| record.max_memory),
        None => record_of(engine, |record| record.max_memory),
    }
}

/// The engine that compiles with Winch beside `engine`, when `engine` was
/// built with [`EngineOptions::baseline_first`]: its settings with Winch
/// as the compiler, instances allocated on demand (baseline code serves
/// only until the optimised code is ready: no second pool's address space
/// is held for it), with an epoch ticker of its own. Made once per engine;
/// `Some(Err)` says why it could not be.
#[cfg(feature = "compiler")]
pub(crate) fn baseline_of(engine: &Engine) -> Option<Result<Engine, String>> {
    let baseline = record_of(engine, |record| record.baseline.clone()).flatten()?;
    Some(
        baseline
            .get_or_init(|| {
                let mut config = engine.config().clone();
                config.strategy(wasmtime::Strategy::Winch);
                config.allocation_strategy(InstanceAllocationStrategy::OnDemand);
                let baseline = Engine::new(&config).map_err(|e| format!("{e:#}"))?;
                spawn_epoch_ticker(&baseline);
                Ok(baseline)
            })
            .clone(),
    )
}

/// The engine `engine` is the baseline sibling of, when it is one.
pub(crate) fn baseline_base(engine: &Engine) -> Option<Engine> {
    let built = lock(&BUILT);
    let made = |record: &&Built| {
        let baseline = record.baseline.as_ref().and_then(|b| b.get()).and_then(|b| b.as_ref().ok());
        baseline.is_some_and(|baseline| Engine::same(baseline, engine))
    };
    built.iter().find(made).and_then(|record| record.engine.upgrade())
}

/// Where instances go when `pooled`'s pool has no free slot.
pub(crate) enum Overflow {
    /// Not an engine this module pooled (e.g. one the embedder built, or
    /// one whose instances are all allocated on demand): the refusal
    /// stands.
    None,
    /// Built without fiber stacks ([`EngineOptions::async_calls`] off): an
    /// async instance is refused, as the engine was asked.
    NoFibers,
    /// The on-demand engine, or why it could not be made.
    OnDemand(Result<Engine, String>),
}

/// The engine that makes instances once `pooled`'s pool is full: the same
/// settings (so what `pooled` compiled runs on it), with memories, tables
/// and fiber stacks allocated on demand.
pub(crate) fn overflow_of(pooled: &Engine, async_instance: bool, full: &wasmtime::Error) -> Overflow {
    let pool = |record: &Built| record.pooled.then(|| (record.async_calls, record.overflow.clone()));
    let Some((async_calls, overflow)) = record_of(pooled, pool).flatten() else { return Overflow::None };
    if async_instance && !async_calls {
        return Overflow::NoFibers;
    }
    Overflow::OnDemand(
        overflow
            .get_or_init(|| {
                let mut config = pooled.config().clone();
                config.allocation_strategy(InstanceAllocationStrategy::OnDemand);
                let engine = Engine::new(&config).map_err(|e| format!("{e:#}"))?;
                spawn_epoch_ticker(&engine);
                tracing::info!("the instance pool is full ({full:#}): further instances are allocated on demand");
                Ok(engine)
            })
            .clone(),
    )
}

/// The engine built for components that use the component model's
/// concurrency, beside each engine that asked for one.
#[cfg(feature = "outgoing-http")]
struct Concurrent {
    of: EngineWeak,
    engine: Engine,
}

#[cfg(feature = "outgoing-http")]
static CONCURRENT: Mutex<Vec<Concurrent>> = Mutex::new(Vec::new());

/// The engine that compiles and runs components using the component
/// model's concurrency (a WASIp3 `wasi:http/handler@0.3`): `engine`'s
/// settings with concurrency on, instances allocated on demand (no second
/// pool's address space held for the few such components), with an epoch
/// ticker of its own. Made once per engine; `engine` itself when it is one.
#[cfg(feature = "outgoing-http")]
pub(crate) fn concurrent_of(engine: &Engine) -> Result<Engine, EngineError> {
    let mut siblings = lock(&CONCURRENT);
    siblings.retain(|sibling| sibling.of.upgrade().is_some());
    if let Some(sibling) = siblings
        .iter()
        .find(|s| Engine::same(&s.engine, engine) || s.of.upgrade().is_some_and(|of| Engine::same(&of, engine)))
    {
        return Ok(sibling.engine.clone());
    }
    let mut config = engine.config().clone();
    config.concurrency_support(true);
    config.wasm_component_model_async(true);
    config.allocation_strategy(InstanceAllocationStrategy::OnDemand);
    let sibling = Engine::new(&config).map_err(EngineError)?;
    spawn_epoch_ticker(&sibling);
    siblings.push(Concurrent { of: engine.weak(), engine: sibling.clone() });
    Ok(sibling)
}

/// The engine `engine` was made the concurrent sibling of, when it is one.
#[cfg(feature = "outgoing-http")]
fn concurrent_base(engine: &Engine) -> Option<Engine> {
    lock(&CONCURRENT).iter().find(|s| Engine::same(&s.engine, engine)).and_then(|s| s.of.upgrade())
}

#[cfg(not(feature = "outgoing-http"))]
fn concurrent_base(_: &Engine) -> Option<Engine> {
    None
}

/// Slots for `max_instances` component instances. A component compiled by
/// wit-bindgen/`wasm32-wasip2` holds a few core instances, one or two
/// memories and a few tables; the per-component maxima leave room for larger
/// (e.g. composed) components while the totals bound what is reserved.
fn pooling_config(options: &EngineOptions) -> PoolingAllocationConfig {
    let n = options.pool_instances.max(1);
    let mut pool = PoolingAllocationConfig::default();
    pool.total_component_instances(n)
        .total_core_instances(n.saturating_mul(8))
        .total_memories(n.saturating_mul(MEMORIES_PER_SLOT))
        .total_tables(n.saturating_mul(8))
        .max_core_instances_per_component(64)
        .max_memories_per_component(16)
        .max_tables_per_component(32)
        .max_memories_per_module(2)
        .max_tables_per_module(8)
        .max_memory_size(pooled_memory_size(options.max_memory))
        // A freed slot gives its memory back (`madvise`) rather than
        // resetting pages in place. Wasmtime 50 resets in place every page
        // its `PAGEMAP_SCAN` reports as written, present or not (a swapped
        // out page still holds the last instance's data), and the kernel
        // reports the untouched pages of the slot too: the budget goes to
        // the first pages of memory, which a Rust guest's stack leaves
        // untouched, while the pages it does touch (above its 1 MiB stack)
        // are given back anyway. Measured with the echo router, 2026-07-28
        // requests over HTTP at 8 sessions, server CPU per call: 116-120 µs
        // keeping nothing, 124-129 µs keeping 64 KiB, 181-187 µs keeping
        // 1 MiB (BENCHMARKS.md, "Wasmtime 50"). With an instance per call
        // (2026-11-27), keeping 16 MiB: the Rust echo router 24 -> 124 µs a
        // call, while Python and TypeScript routers (MBs written per
        // instance) gained 12-28%; the kernel reports every not-present page
        // of a 2 MiB run with one written page as written.
        .linear_memory_keep_resident(0)
        .table_keep_resident(64 * 1024)
        .pagemap_scan(Enabled::Auto)
        // Async calls run on a fiber, and each instance's store keeps its
        // stack between calls; a plugin's store takes a second one for the
        // length of a call (its host functions call into its kernel). A
        // stack is taken when a call starts, after the instance is made on
        // one engine or the other: an eighth more stacks than slots (at
        // least 4) cover the plugins' calls in progress. Each stack is two
        // mappings (its guard page is set up at start-up), which count
        // against `vm.max_map_count`. Blocking calls run on the caller's
        // stack: no stack pool then.
        .total_stacks(if options.async_calls { n.saturating_add((n / 8).max(4)) } else { 0 })
        .decommit_batch_size(if options.batch_decommits { decommit_batch(n) } else { 1 });
    pool
}

/// Freed slots whose memory is given back together: one `madvise` run
/// (and its TLB shootdowns across the server's threads) per batch instead
/// of per instance, which with an instance per HTTP request was a sixth of
/// the server's CPU (echo router, 8 connections: 73 -> 57 µs a call at 32).
/// Each of wasmtime's shards (one per CPU, at most 16) holds up to a batch
/// less one slot, memory still resident, which no instance can take until
/// the batch goes: at most a quarter of the pool waits so.
const DECOMMIT_BATCH: usize = 32;

fn decommit_batch(slots: u32) -> usize {
    let shards = std::thread::available_parallelism().map_or(1, |n| n.get().min(16));
    let waiting = slots as usize / 4 / shards;
    (waiting + 1).min(DECOMMIT_BATCH)
}

/// Advances the engine's epoch every [`TICK`] on one thread for the whole
/// process; the thread ends when the engine is dropped.
fn spawn_epoch_ticker(engine: &Engine) {
    let weak = engine.weak();
    std::thread::Builder::new()
        .name("mcp-wit-epoch".into())
        .spawn(move || {
            loop {
                std::thread::sleep(TICK);
                match weak.upgrade() {
                    Some(engine) => engine.increment_epoch(),
                    None => break,
                }
            }
        })
        .expect("cannot start the epoch ticker thread");
}

/// Reports `engine`'s instance pool in `metrics` at each scrape: component
/// instances and linear memories in the pool's slots, and the slots kept
/// warm (used before, free now). Nothing for an engine without a pool.
pub fn report_pool_to(engine: &Engine, metrics: &crate::telemetry::Metrics) {
    let Some(pool) = engine.pooling_allocator_metrics() else { return };
    let (instances, memories, warm) = (pool.clone(), pool.clone(), pool);
    metrics.gauge(
        "mcp_wit_pool_instances",
        "Component instances in the pooling allocator's slots",
        None,
        Box::new(move || instances.component_instances() as i64),
    );
    metrics.gauge(
        "mcp_wit_pool_memories",
        "Linear memories in the pooling allocator's slots",
        None,
        Box::new(move || memories.memories() as i64),
    );
    metrics.gauge(
        "mcp_wit_pool_warm_memories",
        "Memory slots used before and free now (the fastest to instantiate into)",
        None,
        Box::new(move || i64::from(warm.unused_warm_memories())),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine whose instances are all allocated on demand (`serve` over
    /// stdio) is known here as a pooled one is: its memory cap refuses a
    /// component before any compile, and its baseline compiler serves a miss;
    /// only a full pool has somewhere else to go.
    #[test]
    fn an_on_demand_engine_keeps_its_cap_and_baseline_and_never_overflows() {
        let max_memory = 3 << 20;
        let options = EngineOptions { pooling: false, max_memory, baseline_first: true, ..EngineOptions::default() };
        let engine = options.build().unwrap();
        assert_eq!(memory_cap_of(&engine), Some(max_memory));
        #[cfg(feature = "compiler")]
        {
            let baseline = baseline_of(&engine).expect("a baseline engine").unwrap();
            assert!(baseline_base(&baseline).is_some_and(|base| Engine::same(&base, &engine)));
            assert_eq!(memory_cap_of(&baseline), Some(max_memory), "a sibling's cap is its base's");
        }
        let full = wasmtime::Error::msg("no free slot");
        assert!(matches!(overflow_of(&engine, true, &full), Overflow::None));

        let pooled = EngineOptions { pool_instances: 2, max_memory, ..EngineOptions::default() }.build().unwrap();
        assert_eq!(memory_cap_of(&pooled), Some(max_memory));
        assert!(matches!(overflow_of(&pooled, true, &full), Overflow::OnDemand(Ok(_))));
    }
}
