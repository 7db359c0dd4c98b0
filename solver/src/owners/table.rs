//! An owner's table: every state it admitted, by fingerprint, with the link it first
//! arrived by.
//!
//! Built as the memo is (`crate::memo`), for memory and for cache misses: fingerprints
//! four to a 64-byte bucket, probed bucket by bucket, so that a worker can prefetch the
//! buckets of a state's successors before it looks them up and their misses overlap. The
//! links sit in a second array, slot for slot, touched only when a state is admitted and
//! when the best state's path is traced, so a lookup of a state the table holds already
//! (most lookups: Martello's states transpose) loads one cache line. A slot is 16 + 24
//! bytes for Martello; the table grows by 1.5x at 80% load, so it holds 50 to 75 bytes a
//! state.

use crate::memo::prefetch;

const SLOTS: usize = 4;
const MIN_BUCKETS: usize = 1 << 8;

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([u128; SLOTS]);

/// How a state was first reached: its parent's fingerprint (as two words, so that a link
/// is aligned to 8 bytes and not 16) and the move from it; no move for the start.
#[derive(Clone, Copy)]
struct Link<M> {
    parent: [u64; 2],
    mv: Option<M>,
}

pub(crate) struct Table<M> {
    buckets: Vec<Bucket>,
    /// `links[SLOTS * b + i]` is the link of the state in slot `i` of bucket `b`.
    links: Vec<Link<M>>,
    len: usize,
}

/// A fingerprint as stored: 0 is the empty slot, so a state whose fingerprint is 0 is
/// stored as `u128::MAX` (as the memo does; a clash of the two is as likely as any
/// other 128-bit collision).
#[inline]
fn key(fp: u128) -> u128 {
    if fp == 0 { u128::MAX } else { fp }
}

/// The first bucket to look at for `fp` among `count`: a multiply-shift of the low half.
/// Where the fingerprint picks the owner, it does so by the high half, which is then
/// alike for every state of one table.
#[inline]
fn home(fp: u128, count: usize) -> usize {
    ((fp as u64 as u128 * count as u128) >> 64) as usize
}

impl<M: Copy> Table<M> {
    pub(crate) fn new() -> Self {
        Table {
            buckets: vec![Bucket::default(); MIN_BUCKETS],
            links: Self::no_links(MIN_BUCKETS),
            len: 0,
        }
    }

    fn no_links(buckets: usize) -> Vec<Link<M>> {
        let none = Link {
            parent: [0; 2],
            mv: None,
        };
        vec![none; buckets * SLOTS]
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The bytes of the table: its size at its largest, since it only grows.
    pub(crate) fn bytes(&self) -> u64 {
        let buckets = self.buckets.len() * std::mem::size_of::<Bucket>();
        let links = self.links.len() * std::mem::size_of::<Link<M>>();
        (buckets + links) as u64
    }

    /// Hints the CPU to load `fp`'s bucket.
    #[inline]
    pub(crate) fn prefetch(&self, fp: u128) {
        prefetch(&self.buckets[home(key(fp), self.buckets.len())]);
    }

    /// The slot (`SLOTS * bucket + i`) holding `fp`, or the empty slot where it would go.
    #[inline]
    fn find(buckets: &[Bucket], fp: u128) -> usize {
        let count = buckets.len();
        let mut b = home(fp, count);
        loop {
            for (i, &slot) in buckets[b].0.iter().enumerate() {
                if slot == fp || slot == 0 {
                    return SLOTS * b + i;
                }
            }
            b += 1;
            if b == count {
                b = 0;
            }
        }
    }

    #[inline]
    fn slot(&self, i: usize) -> u128 {
        self.buckets[i / SLOTS].0[i % SLOTS]
    }

    /// The link `fp` was admitted with, if it was admitted.
    pub(crate) fn get(&self, fp: u128) -> Option<Option<(u128, M)>> {
        let fp = key(fp);
        let i = Self::find(&self.buckets, fp);
        (self.slot(i) == fp).then(|| {
            let Link { parent, mv } = self.links[i];
            mv.map(|mv| ((u128::from(parent[1]) << 64) | u128::from(parent[0]), mv))
        })
    }

    /// Admits `fp` with `link`; false (and nothing changes) when it is there already.
    pub(crate) fn insert(&mut self, fp: u128, link: Option<(u128, M)>) -> bool {
        let fp = key(fp);
        let i = Self::find(&self.buckets, fp);
        if self.slot(i) == fp {
            return false;
        }
        let link = match link {
            Some((parent, mv)) => Link {
                parent: [parent as u64, (parent >> 64) as u64],
                mv: Some(mv),
            },
            None => Link {
                parent: [0; 2],
                mv: None,
            },
        };
        self.buckets[i / SLOTS].0[i % SLOTS] = fp;
        self.links[i] = link;
        self.len += 1;
        if self.len * 5 > self.buckets.len() * SLOTS * 4 {
            self.grow();
        }
        true
    }

    fn grow(&mut self) {
        let count = self.buckets.len() + self.buckets.len() / 2;
        let mut buckets = vec![Bucket::default(); count];
        let mut links = Self::no_links(count);
        for (b, bucket) in self.buckets.iter().enumerate() {
            for (i, &fp) in bucket.0.iter().enumerate() {
                if fp != 0 {
                    let j = Self::find(&buckets, fp);
                    buckets[j / SLOTS].0[j % SLOTS] = fp;
                    links[j] = self.links[SLOTS * b + i];
                }
            }
        }
        self.buckets = buckets;
        self.links = links;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_admitted_once_and_keep_their_links() {
        let mut table = Table::<u8>::new();
        let fp = |i: u128| i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
        // fp(0) is 0, stored as u128::MAX: the one fingerprint that needs care.
        for i in 1..=100_000u128 {
            assert!(table.insert(fp(i), Some((fp(i + 1), i as u8))));
        }
        assert!(table.insert(0, None));
        assert!(!table.insert(0, Some((1, 1))));
        assert_eq!(table.len(), 100_001);
        for i in 1..=100_000u128 {
            assert!(table.get(fp(i)).is_some());
            assert!(!table.insert(fp(i), None));
            assert_eq!(table.get(fp(i)), Some(Some((fp(i + 1), i as u8))));
        }
        assert_eq!(table.get(0), Some(None));
        assert_eq!(table.get(fp(100_002)), None);
        assert!(table.get(fp(200_000)).is_none());
        // Slots of 16 + 24 bytes (u8 moves), at most 80% full.
        assert!(table.bytes() >= 100_001 * 40 * 5 / 4);
    }
}
