//! The threads CPU-bound request work goes to (a tool's arguments checked
//! against its input schema), so that it never holds the async workers that
//! answer every other request (`/healthz`, a new session's `initialize`):
//! one per core the process may use, with a queue as deep as the server
//! has requests in flight.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_wit_protocol::{Job, Offload, Unavailable};

/// A fixed set of threads that run [`Job`]s, refusing new ones
/// ([`Unavailable::Busy`]) when `capacity` are admitted already (running
/// or waiting). A job that waits past its caller's deadline ends at once.
pub struct OffloadPool {
    pool: rayon::ThreadPool,
    /// Jobs accepted and not finished.
    admitted: Arc<AtomicUsize>,
    /// The most that may be admitted at once.
    capacity: usize,
}

impl std::fmt::Debug for OffloadPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OffloadPool")
            .field("threads", &self.pool.current_num_threads())
            .field("capacity", &self.capacity)
            .finish()
    }
}

impl OffloadPool {
    /// A pool of `threads` threads (at least one) admitting at most
    /// `capacity` jobs at once (at least one per thread): the requests the
    /// server may have in flight, so that none is refused under its own
    /// limits.
    pub fn new(threads: usize, capacity: usize) -> io::Result<Self> {
        let threads = threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("mcp-wit-check-{i}"))
            // The job's caller hears of it (its answer never comes); the
            // pool and the process go on.
            .panic_handler(|_| tracing::error!("a check panicked on its thread; its call was refused"))
            .build()
            .map_err(io::Error::other)?;
        Ok(OffloadPool { pool, admitted: Arc::default(), capacity: capacity.max(threads) })
    }

    /// A pool with one thread per core this process may use, admitting
    /// `capacity` jobs at once.
    pub fn for_this_machine(capacity: usize) -> io::Result<Self> {
        Self::new(std::thread::available_parallelism().map_or(1, usize::from), capacity)
    }
}

/// Gives back one admission when the job ends, panicked or not.
struct Admission(Arc<AtomicUsize>);

impl Drop for Admission {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Offload for OffloadPool {
    fn run(&self, job: Job) -> Pin<Box<dyn Future<Output = Result<(), Unavailable>> + Send>> {
        if self.admitted.fetch_add(1, Ordering::AcqRel) >= self.capacity {
            self.admitted.fetch_sub(1, Ordering::AcqRel);
            return Box::pin(std::future::ready(Err(Unavailable::Busy)));
        }
        let admission = Admission(self.admitted.clone());
        let (done, finished) = tokio::sync::oneshot::channel();
        self.pool.spawn(move || {
            job();
            // Given back before the caller hears: its next job may be admitted.
            drop(admission);
            let _ = done.send(());
        });
        Box::pin(async move { finished.await.map_err(|_| Unavailable::Lost) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_run_on_the_pool_and_a_full_pool_refuses_more() {
        let pool = OffloadPool::new(1, 4).unwrap();
        let caller = std::thread::current().id();
        let ran_on = mcp_wit_protocol::block_on(mcp_wit_protocol::offloaded(Some(&pool as &dyn Offload), || {
            std::thread::current().id()
        }));
        assert_ne!(ran_on.unwrap(), caller);

        // One running, the queue filled behind it: the next is refused.
        let (release, held) = std::sync::mpsc::channel::<()>();
        let held = Arc::new(std::sync::Mutex::new(held));
        let waiting: Vec<_> = (0..pool.capacity)
            .map(|_| {
                let held = held.clone();
                pool.run(Box::new(move || {
                    let _ = held.lock().unwrap().recv();
                }))
            })
            .collect();
        let refused = mcp_wit_protocol::block_on(pool.run(Box::new(|| {})));
        assert_eq!(refused, Err(Unavailable::Busy));
        for _ in 0..pool.capacity {
            release.send(()).unwrap();
        }
        for job in waiting {
            assert_eq!(mcp_wit_protocol::block_on(job), Ok(()));
        }
        // Admissions were given back.
        assert_eq!(mcp_wit_protocol::block_on(pool.run(Box::new(|| {}))), Ok(()));
    }

    #[test]
    fn a_job_that_panics_is_lost_not_the_pool() {
        let pool = OffloadPool::new(1, 1).unwrap();
        let lost = mcp_wit_protocol::block_on(mcp_wit_protocol::offloaded(Some(&pool as &dyn Offload), || -> u8 {
            panic!("boom")
        }));
        assert_eq!(lost, Err(Unavailable::Lost));
        assert_eq!(mcp_wit_protocol::block_on(mcp_wit_protocol::offloaded(Some(&pool as &dyn Offload), || 7)), Ok(7));
    }
}
