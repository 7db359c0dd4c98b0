//! Which sweep a free worker serves: priority first, then weighted fair share.
//!
//! The rule, as `docs/distributed.md` states it for users:
//!
//! - A unit goes to a leasable sweep of the highest priority. A sweep of lower priority
//!   gets a unit only when no sweep above it has one to lease (backfill), so priority is
//!   strict, as in Slurm's and HTCondor's queues.
//! - Among sweeps of equal priority, it goes to the sweep with the least usage per
//!   weight. Usage is the thread-seconds of leases the sweep held (a lease counts the
//!   threads its worker solves on), decayed with a half-life, plus, for each lease it
//!   holds now, its threads times the median time the sweep's units took (one second
//!   before any finished): a lease counts as soon as it is granted, so a burst of
//!   requests is shared too.
//! - Ties go to the earlier submission.
//!
//! No sweep of the top priority starves: each lease raises its receiver's usage by at
//! least one unit's median time, so a sweep passed over sees the others' usage per weight
//! grow past its own, and it gets the next lease that its own usage allows.

use std::cmp::Ordering;
use std::time::{Duration, Instant};

use super::Queue;
use crate::sync::lock;

impl Queue {
    /// The leasable sweeps, the one to serve first first.
    pub(super) fn order(&self) -> Vec<usize> {
        let mut keyed: Vec<(usize, i32, f64)> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.leasable())
            .map(|(i, e)| (i, e.place.priority, self.share_key(i)))
            .collect();
        keyed.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then(a.2.partial_cmp(&b.2).unwrap_or(Ordering::Equal))
                .then(a.0.cmp(&b.0))
        });
        keyed.into_iter().map(|(i, _, _)| i).collect()
    }

    /// The threads worker `id` solves on (1 for a worker no longer known).
    fn threads(&self, id: &str) -> u32 {
        self.workers.threads(id)
    }

    /// Usage per weight, counting each lease held now as its threads times one median
    /// unit time.
    pub(super) fn share_key(&self, index: usize) -> f64 {
        let entry = &self.entries[index];
        let core = lock(&entry.core);
        let unit = core.median_unit_seconds().unwrap_or(1.0).max(0.001);
        let threads = core.active_threads(|worker| self.threads(worker));
        (entry.usage + threads as f64 * unit) / entry.place.weight
    }

    /// Charges every sweep the thread-seconds of the leases it held since the last tick,
    /// after decaying its usage, and lapses leases not renewed in time.
    pub(crate) fn tick(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last_tick).as_secs_f64();
        self.last_tick = now;
        let decay = decay(elapsed, self.half_life);
        let workers = &self.workers;
        for entry in &mut self.entries {
            let mut core = lock(&entry.core);
            core.expire(now);
            let held = core.active_threads(|w| workers.threads(w)) as f64;
            entry.usage = entry.usage * decay + held * elapsed;
        }
    }
}

/// The factor that `seconds` of time leave of a usage with half-life `half_life`.
fn decay(seconds: f64, half_life: Duration) -> f64 {
    let half = half_life.as_secs_f64();
    if half <= 0.0 {
        return 0.0;
    }
    0.5f64.powf(seconds / half)
}

#[cfg(test)]
mod tests {
    use super::decay;
    use std::time::Duration;

    #[test]
    fn usage_halves_in_a_half_life() {
        let hour = Duration::from_secs(3600);
        assert!((decay(3600.0, hour) - 0.5).abs() < 1e-12);
        assert!((decay(7200.0, hour) - 0.25).abs() < 1e-12);
        assert_eq!(decay(0.0, hour), 1.0);
    }
}
