//! Locks that outlive a panic: a thread that panicked while holding one
//! left plain data (counters, tables, queues) the others may still use.

use std::sync::{Mutex, MutexGuard};

/// `mutex`'s guard, poisoned or not.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
