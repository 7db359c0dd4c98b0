//! The radius-1 rates of a knowledge base, flat for the search's hot path.
//!
//! The learned order looks up one rate per successor of every expansion. A knowledge base
//! learned from 100,000 6x6 games holds about 200,000 radius-1 transitions, several
//! megabytes that do not fit a core's cache, so each lookup is a cache miss. This table
//! stores the smoothed rate itself (no division per lookup) in one open-addressed array
//! whose slot a key names directly, so that the order can prefetch the slots of all its
//! successors' keys before it reads any of them, and their misses overlap. `hashbrown`'s
//! map offers no prefetch, which is why this is not one.

use super::{Counts, PRIOR_WEIGHT};

/// Radius-1 transition keys and their smoothed rates.
pub(crate) struct Rates1 {
    /// `(key, rate)`; an empty slot has key 0 and rate NaN. The keys are mixer outputs,
    /// so their top bits name the home slot; collisions probe the next slots.
    slots: Vec<(u64, f64)>,
    /// 64 minus log2 of the slot count.
    shift: u32,
    /// The rate of key 0, the empty slots' key, if the knowledge base has it.
    zero: Option<f64>,
    /// The rate of a transition the knowledge base never saw: the prior.
    unseen: f64,
}

impl std::fmt::Debug for Rates1 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rates1")
            .field("slots", &self.slots.len())
            .field("unseen", &self.unseen)
            .finish_non_exhaustive()
    }
}

impl Rates1 {
    /// The table of `entries` (a radius-1 table's keys and counts), smoothed toward
    /// `prior`, the rate of all radius-1 transitions.
    pub(crate) fn new<'a>(
        entries: impl ExactSizeIterator<Item = (&'a u64, &'a Counts)>,
        prior: f64,
    ) -> Rates1 {
        // At most half full, so that a miss ends within a cache line or two.
        let size = (entries.len() * 2).next_power_of_two().max(16);
        let mut table = Rates1 {
            slots: crate::memo::table(size, (0, f64::NAN)),
            shift: 64 - size.trailing_zeros(),
            zero: None,
            unseen: prior,
        };
        for (&key, c) in entries {
            let seen = c.taken as f64 + c.untaken as f64;
            let rate = (c.taken as f64 + PRIOR_WEIGHT * prior) / (seen + PRIOR_WEIGHT);
            if key == 0 {
                table.zero = Some(rate);
                continue;
            }
            let mut i = table.home(key);
            while table.slots[i].0 != 0 {
                i = (i + 1) & (size - 1);
            }
            table.slots[i] = (key, rate);
        }
        table
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key >> self.shift) as usize
    }

    /// Asks the processor to bring `key`'s home slot into the cache.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        crate::memo::prefetch(&self.slots[self.home(key)]);
    }

    /// The smoothed rate of `key`, or the prior if it was never seen: what
    /// [`super::Loaded::rate`] gives for `[key]`.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> f64 {
        if key == 0 {
            return self.zero.unwrap_or(self.unseen);
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let (k, rate) = self.slots[i];
            if k == key {
                return rate;
            }
            if k == 0 {
                return self.unseen;
            }
            i = (i + 1) & mask;
        }
    }
}
