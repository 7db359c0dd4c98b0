//! Locking that survives a panic under the lock.

use std::sync::{Mutex, MutexGuard};

/// Takes `mutex`'s lock, ignoring poisoning: the queue's and the cores' invariants are
/// restored by every method before it can panic, and refusing all further calls would
/// lose more.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
