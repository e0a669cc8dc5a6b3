//! Boxed futures whose memory the thread keeps for the next request's.
//!
//! Why: a request boxes two futures, the front door's (about 5.5 KB) and its
//! answering one (about 4.5 KB, boxed so that it can move to a task of its
//! own when the answer is not ready at once). Both are above the size glibc
//! serves from its per-thread cache (1 KB), so each came from the shared
//! heap, with a consolidation of its small free chunks, and went back to it:
//! about 1,400 instructions a request (bench/results/2026-12-02-kept-futures).
//! Here the blocks are kept by the thread that dropped them, a few at most,
//! and the next future of the same layout is built in one, in place (no copy
//! from the stack). tokio-util's `ReusableBoxFuture` reuses one owner's box;
//! these futures are owned by hyper and by tasks, so the thread keeps them.

use std::alloc::{self, Layout};
use std::cell::RefCell;
use std::future::Future;
use std::mem::ManuallyDrop;
use std::pin::Pin;
use std::ptr::{self, NonNull};
use std::task::{Context, Poll};

/// Blocks a thread keeps at most: a request boxes two, a worker thread runs
/// a few requests at a time.
const KEPT_PER_THREAD: usize = 4;

/// The blocks a thread keeps, each with the layout it was allocated with;
/// freed when the thread ends.
struct Blocks(Vec<(Layout, NonNull<u8>)>);

impl Drop for Blocks {
    fn drop(&mut self) {
        for (layout, block) in self.0.drain(..) {
            // SAFETY: allocated by `alloc` with `layout` (see `block_for`).
            unsafe { alloc::dealloc(block.as_ptr(), layout) };
        }
    }
}

thread_local! {
    static KEPT: RefCell<Blocks> = const { RefCell::new(Blocks(Vec::new())) };
}

/// A block for `layout` (of a non-zero size): one the thread kept, else a new one.
fn block_for(layout: Layout) -> NonNull<u8> {
    let kept = KEPT
        .try_with(|kept| {
            let mut kept = kept.borrow_mut();
            let at = kept.0.iter().position(|(of, _)| *of == layout)?;
            Some(kept.0.remove(at).1)
        })
        .ok()
        .flatten();
    kept.unwrap_or_else(|| {
        // SAFETY: `layout` has a non-zero size (checked by the caller).
        let block = unsafe { alloc::alloc(layout) };
        NonNull::new(block).unwrap_or_else(|| alloc::handle_alloc_error(layout))
    })
}

/// Keeps `block` (allocated with `layout`) for a later future, in place of
/// the block kept longest when the thread keeps enough: the layouts of the
/// requests served last are the ones kept. Freed when the thread is ending.
fn give_back(layout: Layout, block: NonNull<u8>) {
    let freed = KEPT
        .try_with(|kept| {
            let mut kept = kept.borrow_mut();
            let oldest = (kept.0.len() == KEPT_PER_THREAD).then(|| kept.0.remove(0));
            kept.0.push((layout, block));
            oldest
        })
        .unwrap_or(Some((layout, block)));
    if let Some((layout, block)) = freed {
        // SAFETY: allocated by `alloc` with `layout` (see `block_for`).
        unsafe { alloc::dealloc(block.as_ptr(), layout) };
    }
}

/// A future in a block of its own, as `Pin<Box<F>>` is, whose block goes back
/// to the thread that drops it (see the module's documentation).
pub(super) struct KeptFuture<F: ?Sized> {
    /// Never moved while the future lives: the future is pinned.
    future: NonNull<F>,
}

// SAFETY: it owns the future as a box does.
unsafe impl<F: ?Sized + Send> Send for KeptFuture<F> {}

// The future is pinned in its block; moving the pointer moves nothing.
impl<F: ?Sized> Unpin for KeptFuture<F> {}

/// The front door's future: any of its kinds behind one type.
pub(super) type DynKeptFuture<T> = KeptFuture<dyn Future<Output = T> + Send>;

impl<F: Future> KeptFuture<F> {
    /// The future `make` makes, built in place in its block.
    pub(super) fn new(make: impl FnOnce() -> F) -> Self {
        let layout = Layout::new::<F>();
        if layout.size() == 0 {
            // Nothing to allocate, nor to give back (see `Drop`).
            let future = NonNull::<F>::dangling();
            // SAFETY: a dangling pointer is valid for a zero-sized write.
            unsafe { future.as_ptr().write(make()) };
            return KeptFuture { future };
        }
        let block = block_for(layout);
        // Should `make` panic, the block goes back rather than leak.
        let unused = BlockGuard { layout, block };
        let future = block.cast::<F>();
        // SAFETY: the block is allocated for `F`'s layout and not in use.
        unsafe { future.as_ptr().write(make()) };
        std::mem::forget(unused);
        KeptFuture { future }
    }

    /// The same, behind `dyn Future`.
    pub(super) fn into_dyn(self) -> DynKeptFuture<F::Output>
    where
        F: Send + 'static,
    {
        let this = ManuallyDrop::new(self);
        KeptFuture { future: this.future }
    }
}

impl<F: ?Sized + Future> Future for KeptFuture<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        // SAFETY: the future lives in its block until dropped and is never
        // moved out of it, so it may be pinned there.
        unsafe { Pin::new_unchecked(&mut *self.get_mut().future.as_ptr()) }.poll(cx)
    }
}

impl<F: ?Sized> Drop for KeptFuture<F> {
    fn drop(&mut self) {
        // SAFETY: the future is alive until dropped just below.
        let layout = Layout::for_value(unsafe { self.future.as_ref() });
        // Should the future's drop panic, the block still goes back.
        let _block = (layout.size() != 0).then(|| BlockGuard { layout, block: self.future.cast() });
        // SAFETY: dropped once, in place; never used again.
        unsafe { ptr::drop_in_place(self.future.as_ptr()) };
    }
}

/// Gives a block back when dropped.
struct BlockGuard {
    layout: Layout,
    block: NonNull<u8>,
}

impl Drop for BlockGuard {
    fn drop(&mut self) {
        give_back(self.layout, self.block);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts its drops.
    struct Dropped(Arc<AtomicUsize>);

    impl Drop for Dropped {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_block_serves_the_next_future_of_its_layout_and_each_future_is_dropped_once() {
        let drops = Arc::new(AtomicUsize::new(0));
        let make = |n: u64| {
            let dropped = Dropped(drops.clone());
            async move {
                let _dropped = dropped;
                [n; 64].iter().sum::<u64>()
            }
        };
        let first = KeptFuture::new(|| make(1));
        let block = first.future.cast::<u8>();
        assert_eq!(futures_util::FutureExt::now_or_never(first), Some(64));
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        // Kept by this thread, and handed to the next future of the layout.
        let second = KeptFuture::new(|| make(2)).into_dyn();
        assert_eq!(second.future.cast::<u8>(), block);
        // Dropped before it ran: what it holds is dropped all the same.
        drop(second);
        assert_eq!(drops.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_thread_keeps_a_few_blocks_and_frees_the_rest() {
        let futures: Vec<_> = (0..KEPT_PER_THREAD + 2).map(|n| KeptFuture::new(move || async move { n })).collect();
        drop(futures);
        let kept = KEPT.with(|kept| kept.borrow().0.len());
        assert_eq!(kept, KEPT_PER_THREAD);
    }
}
