//! The counters a coordinator keeps for its metrics beyond what the cores' status shows:
//! results accepted and dropped as duplicates (by the service), lapsed leases (by the
//! cores) and the time each unit took to write and journal (by the writer threads).
//!
//! Atomics only, so that the hot paths never wait for a scrape; `scrape.rs` renders them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds (seconds) of the write-latency histogram: a unit's part file (Arrow
/// conversion, zstd, three fsyncs) and its journal line take milliseconds on local disks
/// and up to seconds on network storage.
pub(crate) const WRITE_BUCKETS: [f64; 13] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Counters that the cores' status does not provide.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    /// Results accepted (first copy of their key), since this process started.
    pub(crate) results: AtomicU64,
    /// Results dropped because their key had already arrived.
    pub(crate) duplicates: AtomicU64,
    /// Leases that lapsed without renewal.
    pub(crate) lease_expiries: AtomicU64,
    pub(crate) write: Histogram,
}

impl Counters {
    pub fn results_received(&self, accepted: u32, duplicates: u32) {
        self.results
            .fetch_add(u64::from(accepted), Ordering::Relaxed);
        self.duplicates
            .fetch_add(u64::from(duplicates), Ordering::Relaxed);
    }

    pub fn lease_expired(&self) {
        self.lease_expiries.fetch_add(1, Ordering::Relaxed);
    }

    /// Time from a complete unit leaving the queue to its journal line being durable.
    pub fn unit_written(&self, took: Duration) {
        self.write.observe(took);
    }
}

/// A cumulative histogram with fixed buckets, lock-free so that writer threads never
/// wait for a scrape.
#[derive(Debug, Default)]
pub(crate) struct Histogram {
    /// Per bucket of `WRITE_BUCKETS`, observations at most that bound (not cumulative;
    /// summed when rendered).
    pub(crate) buckets: [AtomicU64; WRITE_BUCKETS.len()],
    pub(crate) count: AtomicU64,
    pub(crate) sum_nanos: AtomicU64,
}

impl Histogram {
    fn observe(&self, took: Duration) {
        let secs = took.as_secs_f64();
        if let Some(i) = WRITE_BUCKETS.iter().position(|&b| secs <= b) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.sum_nanos.fetch_add(
            u64::try_from(took.as_nanos()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
        self.count.fetch_add(1, Ordering::Relaxed);
    }
}
