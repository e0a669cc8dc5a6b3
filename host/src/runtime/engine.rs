//! Engine configuration shared by every component the host serves.

use wasmtime::{Config, Engine, OptLevel};

/// Builds the [`Engine`] every component is compiled and run with.
///
/// One engine serves the whole process: compiled code, the instance
/// allocator and the epoch counter are shared by all sessions.
pub fn build_engine() -> wasmtime::Result<Engine> {
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.cranelift_opt_level(OptLevel::Speed);
    // The host serves WASI 0.2 only: the concurrent (0.3) machinery would only
    // add per-store set-up cost.
    config.concurrency_support(false);
    // Copy-on-write images make a fresh instance's memory a mapping, not a copy.
    config.memory_init_cow(true);
    Engine::new(&config)
}
