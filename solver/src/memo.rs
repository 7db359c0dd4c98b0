//! The memo of fully explored states: a set of 128-bit fingerprints.
//!
//! Hard 6x6 boards memoize tens of millions of states, so the table is built for
//! memory first: 16 bytes a slot, no per-entry metadata, no deletion (states still on
//! the search stack are simply never inserted). Slots are grouped four to a 64-byte
//! bucket, one cache line, probed bucket by bucket. The table grows by 1.5x at 80 %
//! load, so it holds between 20 and 30 bytes per state, and a bucket index comes from
//! a multiply-shift of the fingerprint's high half, which works for any bucket count.

const SLOTS: usize = 4;
const MIN_BUCKETS: usize = 1 << 12;

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([u128; SLOTS]);

pub struct Memo {
    buckets: Vec<Bucket>,
    len: usize,
}

impl Default for Memo {
    fn default() -> Self {
        Memo::new()
    }
}

impl Memo {
    pub fn new() -> Memo {
        Memo {
            buckets: vec![Bucket::default(); MIN_BUCKETS],
            len: 0,
        }
    }

    /// Empties the memo for the next game. A table grown for one hard game is shrunk
    /// back when it was mostly empty, so that thousands of easy games after it do not
    /// each pay for clearing a gigabyte.
    pub fn clear(&mut self) {
        let used = self.len;
        let wanted = ((used * 2) / SLOTS).max(MIN_BUCKETS);
        if self.buckets.len() > 2 * wanted {
            self.buckets = vec![Bucket::default(); wanted];
        } else {
            self.buckets.fill(Bucket::default());
        }
        self.len = 0;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held by the table itself.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// 0 marks an empty slot, so the one fingerprint 0 is stored as `u128::MAX`.
    #[inline(always)]
    fn key(fp: u128) -> u128 {
        if fp == 0 { u128::MAX } else { fp }
    }

    #[inline]
    fn home(&self, fp: u128) -> usize {
        (((fp >> 64) as u64 as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Hints the CPU to load `fp`'s bucket: the search computes all successors'
    /// fingerprints first and prefetches them, so their cache misses overlap.
    #[inline]
    pub fn prefetch(&self, fp: u128) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = &self.buckets[self.home(Self::key(fp))] as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint with no effect on memory; `ptr` points
            // into `self.buckets`.
            #[allow(unused_unsafe)]
            unsafe {
                std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = fp;
    }

    #[inline]
    pub fn contains(&self, fp: u128) -> bool {
        let fp = Self::key(fp);
        let mut b = self.home(fp);
        loop {
            let bucket = &self.buckets[b].0;
            for &slot in bucket {
                if slot == fp {
                    return true;
                }
                if slot == 0 {
                    return false;
                }
            }
            b += 1;
            if b == self.buckets.len() {
                b = 0;
            }
        }
    }

    /// Inserts `fp`; returns whether it was new.
    #[inline]
    pub fn insert(&mut self, fp: u128) -> bool {
        let fp = Self::key(fp);
        if (self.len + 1) * 5 > self.buckets.len() * SLOTS * 4 {
            self.grow();
        }
        let inserted = Self::place(&mut self.buckets, fp);
        self.len += inserted as usize;
        inserted
    }

    fn place(buckets: &mut [Bucket], fp: u128) -> bool {
        let count = buckets.len();
        let mut b = (((fp >> 64) as u64 as u128 * count as u128) >> 64) as usize;
        loop {
            for slot in buckets[b].0.iter_mut() {
                if *slot == fp {
                    return false;
                }
                if *slot == 0 {
                    *slot = fp;
                    return true;
                }
            }
            b += 1;
            if b == count {
                b = 0;
            }
        }
    }

    fn grow(&mut self) {
        let count = self.buckets.len() + self.buckets.len() / 2;
        let mut bigger = vec![Bucket::default(); count];
        for bucket in &self.buckets {
            for &slot in &bucket.0 {
                if slot != 0 {
                    Self::place(&mut bigger, slot);
                }
            }
        }
        self.buckets = bigger;
    }
}

#[cfg(test)]
mod tests {
    use super::Memo;
    use std::collections::HashSet;

    #[test]
    fn behaves_like_a_set_through_growth_and_clear() {
        let mut memo = Memo::new();
        let mut reference = HashSet::new();
        let mut x: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;
        for i in 0..200_000u32 {
            x = x
                .wrapping_mul(0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645)
                .wrapping_add(1);
            // Repeat some keys and force some into the same bucket (equal high halves).
            let fp = if i % 7 == 0 {
                (x >> 64 << 64) | 1
            } else {
                x | 1
            };
            assert_eq!(memo.insert(fp), reference.insert(fp));
        }
        assert_eq!(memo.len(), reference.len());
        for &fp in &reference {
            assert!(memo.contains(fp));
        }
        assert!(!memo.contains(12345));
        let per_state = memo.bytes() as f64 / memo.len() as f64;
        assert!(per_state <= 32.0, "{per_state} bytes per state");
        memo.clear();
        assert!(memo.is_empty());
        assert!(!memo.contains(reference.iter().next().copied().unwrap()));
    }
}
