//! A minimal executor for blocking callers of async code, and where
//! CPU-bound work goes to leave the async workers free ([`Offload`]).

use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};

/// Runs `future` to its end on this thread. Blocking guest calls finish at
/// the first poll; only waiting for a lock (e.g. a shared instance's)
/// suspends it, and the lock's release wakes this thread.
pub fn block_on<F: Future>(mut future: F) -> F::Output {
    // Pinned where it was handed over: `pin!` would move it once more, a
    // copy of the whole future (kilobytes for a session's message) per call.
    // SAFETY: `future` is this frame's own and is never moved again; it is
    // dropped in place when the function returns.
    let mut future = unsafe { Pin::new_unchecked(&mut future) };
    if let Poll::Ready(output) = future.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        return output;
    }
    let waker = Waker::from(Arc::new(ThreadWaker(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        match future.as_mut().poll(&mut cx) {
            Poll::Ready(output) => return output,
            Poll::Pending => std::thread::park(),
        }
    }
}

/// Wakes a thread parked in [`block_on`].
struct ThreadWaker(std::thread::Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Work a request hands away from the thread that serves it: CPU-bound
/// checks (a tool's arguments against its schema) that would otherwise hold
/// an async worker, and with it every other request that worker serves.
/// The host gives a bounded thread pool; without one (a single-threaded
/// embedding, wasm32), the work runs where it is asked.
pub trait Offload: Send + Sync + 'static {
    /// Runs `job` elsewhere; the future ends once it has run. `Err` when it
    /// could not run (the pool is full, or it stopped).
    fn run(&self, job: Job) -> Pin<Box<dyn Future<Output = Result<(), Unavailable>> + Send>>;
}

/// A piece of work for an [`Offload`].
pub type Job = Box<dyn FnOnce() + Send>;

/// Why offloaded work did not run to its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unavailable {
    /// Every thread is busy and the queue is full.
    Busy,
    /// The job did not finish (it panicked, or the pool is gone).
    Lost,
}

/// Runs `job` through `offload` when there is one, here otherwise, and
/// returns what it returned.
pub async fn offloaded<T: Send + 'static>(
    offload: Option<&dyn Offload>,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Unavailable> {
    let Some(offload) = offload else { return Ok(job()) };
    let slot = Arc::new(Mutex::new(None));
    let filled = slot.clone();
    offload.run(Box::new(move || *filled.lock().unwrap_or_else(PoisonError::into_inner) = Some(job()))).await?;
    slot.lock().unwrap_or_else(PoisonError::into_inner).take().ok_or(Unavailable::Lost)
}
