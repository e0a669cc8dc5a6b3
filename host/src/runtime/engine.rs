//! The engine every component is compiled and run with, and its epoch ticker.

use wasmtime::{Config, Enabled, Engine, InstanceAllocationStrategy, OptLevel, PoolingAllocationConfig};

use super::limits::{DEFAULT_MAX_MEMORY, TICK};
use crate::error::EngineError;

/// Engine-wide settings.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    /// Most guest instances alive at once (sessions × components, plus one
    /// being replaced). Sizes the pooling allocator.
    pub max_instances: u32,
    /// Most linear memory of one instance, in bytes; per-component limits
    /// may be lower, not higher.
    pub max_memory: usize,
    /// Pre-allocate instance slots (fast instantiation) instead of mapping
    /// memory on demand.
    pub pooling: bool,
    /// Guests may be called async ([`LoadedComponent::instantiate_async`],
    /// which the Streamable HTTP transport uses): the pool then holds a fiber
    /// stack for each instance. Without it, the pool holds none (setting
    /// them up is a third of a cached cold start) and async calls fail.
    ///
    /// [`LoadedComponent::instantiate_async`]: super::LoadedComponent::instantiate_async
    pub async_calls: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions { max_instances: 1024, max_memory: DEFAULT_MAX_MEMORY, pooling: true, async_calls: true }
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
    config.cranelift_opt_level(OptLevel::Speed);
    // The host serves WASI 0.2 only: the concurrent (0.3) machinery would only
    // add per-store set-up cost.
    config.concurrency_support(false);
    // Copy-on-write images make a fresh instance's memory a mapping, not a copy.
    config.memory_init_cow(true);
    // Per-call deadlines and cancellation (see `limits`).
    config.epoch_interruption(true);
    if options.pooling {
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pooling_config(options)));
    }
    let engine = Engine::new(&config).map_err(EngineError)?;
    spawn_epoch_ticker(&engine);
    Ok(engine)
}

/// Slots for `max_instances` component instances. A component compiled by
/// wit-bindgen/`wasm32-wasip2` holds a few core instances, one or two
/// memories and a few tables; the per-component maxima leave room for larger
/// (e.g. composed) components while the totals bound what is reserved.
fn pooling_config(options: &EngineOptions) -> PoolingAllocationConfig {
    let n = options.max_instances.max(1);
    let mut pool = PoolingAllocationConfig::default();
    pool.total_component_instances(n)
        .total_core_instances(n.saturating_mul(8))
        .total_memories(n.saturating_mul(4))
        .total_tables(n.saturating_mul(8))
        .max_core_instances_per_component(64)
        .max_memories_per_component(16)
        .max_tables_per_component(32)
        .max_memories_per_module(2)
        .max_tables_per_module(8)
        .max_memory_size(options.max_memory)
        // A freed slot keeps the pages its instance touched (up to 1 MiB),
        // reset in place, so the next instance there takes no page faults.
        // With PAGEMAP_SCAN (Linux 6.7+) only the pages actually touched are
        // reset, wherever they are in the memory; without it, the first
        // bytes are.
        .linear_memory_keep_resident(1 << 20)
        .table_keep_resident(64 * 1024)
        .pagemap_scan(Enabled::Auto)
        // Async calls run on a fiber, and each instance's store keeps its
        // stack between calls. Blocking calls run on the caller's stack: no
        // stack pool then (each stack's guard page is set up at start-up).
        .total_stacks(if options.async_calls { n } else { 0 });
    pool
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
