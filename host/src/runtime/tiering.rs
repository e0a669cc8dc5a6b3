//! Baseline code first: a component with no compiled code at hand is
//! served with Winch's code while Cranelift's optimised code compiles on a
//! thread of its own
//! ([`EngineOptions::baseline_first`](super::engine::EngineOptions::baseline_first)).
//! Here: that way of loading, and those threads, so that a server that
//! ends of itself can let them finish and leave the optimised code in the
//! cache for its next start.
//!
//! Measured with wasmtime 50 on the project's 2-CPU machine (compile wall
//! time, medians of 3): the componentize-py weather router 5.3 s with
//! Cranelift, 1.7 s with Winch; the QuickJS one 1.0 s and 0.24 s; Winch's
//! code is 1.3–1.6× larger.

use std::sync::Mutex;
use std::thread::JoinHandle;

use wasmtime::Engine;
use wasmtime::component::Component;

use super::cache::{CacheOutcome, CompileCache};
use super::load::compile_error;
use super::loaded_router::LoadedRouter;
use super::typed::PackageDocs;
use crate::error::LoadError;
use crate::sandbox::SandboxPolicy;
use crate::sync::lock;

impl LoadedRouter {
    /// Serves `bytes` compiled by the `baseline` (Winch) engine, and
    /// compiles the optimised code for `engine` on a thread of its own, into
    /// `cache`: instances made once it is ready run it (those alive keep
    /// their state, and the baseline code).
    pub(super) fn baseline_first(
        engine: &Engine,
        baseline: &Engine,
        bytes: &[u8],
        policy: SandboxPolicy,
        cache: Option<&CompileCache>,
    ) -> Result<Self, LoadError> {
        let started = std::time::Instant::now();
        let component = Component::new(baseline, bytes).map_err(|e| compile_error(baseline, bytes, e))?;
        let loaded = Self::link(baseline, component, policy.clone(), || PackageDocs::in_component(bytes))?;
        let label = policy.label().to_string();
        tracing::info!(
            component = %label,
            elapsed = ?started.elapsed(),
            "serving code from the baseline compiler while the optimised code compiles"
        );
        let optimised = loaded.inner.optimised.clone();
        let (engine, bytes, cache) = (engine.clone(), bytes.to_vec(), cache.cloned());
        let compile = move || {
            let started = std::time::Instant::now();
            let compiled = match &cache {
                Some(cache) => cache.load_or_compile(&engine, &bytes),
                None => Component::new(&engine, &bytes).map(|component| (component, CacheOutcome::Compiled)),
            };
            let linked = compiled.map_err(|e| compile_error(&engine, &bytes, e)).and_then(|(component, outcome)| {
                Ok((Self::link(&engine, component, policy, || PackageDocs::in_component(&bytes))?, outcome))
            });
            match linked {
                Ok((router, outcome)) => {
                    let _ = optimised.set(router.inner.code.clone());
                    let elapsed = started.elapsed();
                    tracing::info!(component = %label, ?outcome, ?elapsed, "the optimised code is ready: new instances run it");
                }
                Err(e) => tracing::warn!(
                    component = %label,
                    "the optimised code could not be made ({e}): the baseline code goes on serving"
                ),
            }
        };
        optimise_in_background(compile);
        Ok(loaded)
    }
}

/// The optimising compiles under way.
static UNDER_WAY: Mutex<Vec<JoinHandle<()>>> = Mutex::new(Vec::new());

/// Runs `compile` on a thread of its own, and wasmtime's parallel
/// compilation on threads of their own, all at a low priority: serving
/// (the baseline code's calls, a reload's baseline compile) comes first,
/// and the optimised code takes the CPU left over.
pub(super) fn optimise_in_background(compile: impl FnOnce() + Send + 'static) {
    let mut under_way = lock(&UNDER_WAY);
    under_way.retain(|handle| !handle.is_finished());
    let at_low_priority = move || {
        lower_this_threads_priority();
        match low_priority_pool() {
            Some(pool) => pool.install(compile),
            None => compile(),
        }
    };
    match std::thread::Builder::new().name("mcp-wit-optimise".into()).spawn(at_low_priority) {
        Ok(handle) => under_way.push(handle),
        Err(e) => tracing::warn!("cannot start compiling the optimised code ({e}): the baseline code serves"),
    }
}

/// The threads wasmtime compiles on for the optimising compiles (rayon's
/// `install` runs its parallel work there), as many as the CPUs, each at
/// a low priority; `None` if they cannot be started (then rayon's global
/// pool, at the usual priority).
fn low_priority_pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("mcp-wit-optimise-{i}"))
            .start_handler(|_| lower_this_threads_priority())
            .build()
            .ok()
    })
    .as_ref()
}

/// Nice 10 for the calling thread (Linux keeps a nice value per thread,
/// and a thread starts with its parent's, so threads it starts later share
/// it): for compiles that must leave the CPU to serving, such as `mcp-wit
/// build`'s compile into the cache while a `serve --watch` serves the new
/// build with baseline code.
pub fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: `gettid` and `setpriority` take and return plain integers; a
    // failure leaves the priority as it was.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 10);
    }
}

/// Waits for the optimising compiles under way (they store what they
/// compile in the cache, for the next start). For a server that ends of
/// itself, e.g. when its stdio client closes the connection: one stopped by
/// a signal need not wait.
pub fn finish_optimising() {
    let under_way = std::mem::take(&mut *lock(&UNDER_WAY));
    let unfinished = under_way.iter().filter(|handle| !handle.is_finished()).count();
    if unfinished > 0 {
        tracing::info!("finishing the optimised code for the next start ({unfinished} component(s))");
    }
    for handle in under_way {
        // A panicking compile has said so on its thread.
        let _ = handle.join();
    }
}
