//! An owner's table: every state it admitted, by fingerprint, with the way back to its
//! parent.
//!
//! Built as the memo is (`crate::memo`), for memory and for cache misses: slots four to a
//! 64-byte bucket, probed bucket by bucket, so that a worker can prefetch the buckets of
//! a state's successors before it looks them up and their misses overlap. The table grows
//! by 1.5x at 85% load (the memo's 80% would leave an evenly split game's tables one
//! step larger, docs/frontier.md) (a table of undo codes within its own pages, as the memo). The way
//! back takes one of two forms:
//! - **An undo code**, for a puzzle that can undo its moves ([`Puzzle::UNDOES`]): the
//!   slot holds the fingerprint's high 104 bits and the code in the low 24, so a slot is
//!   16 bytes, as the memo's, and the table holds 20 to 30 bytes a state. Two states
//!   whose fingerprints agree on 104 bits are taken for one, as likely as a collision of
//!   the memo's 128 bits is for a few million times fewer states.
//! - **A link** otherwise: the parent's fingerprint and the move, in a second array, slot
//!   for slot, touched only when a state is admitted and when the best path is traced;
//!   16 + 24 bytes a slot for a move of 6 bytes, 50 to 75 bytes a state.
//!
//! [`Puzzle::UNDOES`]: hammer_puzzle::Puzzle::UNDOES

use crate::memo::{Bucket, SLOTS, grow_in_place, prefetch};
use crate::pages::Pages;

const MIN_BUCKETS: usize = 1 << 8;
/// The table grows when more than `LOAD.0 / LOAD.1` of its slots are full.
const LOAD: (usize, usize) = (17, 20);

/// The low bits of a slot that hold the undo code in a table of undo codes.
const CODE: u128 = (1 << 24) - 1;
/// The code of the start, which has no parent.
const START: u32 = CODE as u32;

/// How a state was first reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Back<M> {
    /// It is the start.
    Start,
    /// From the state of this fingerprint by this move.
    Link(u128, M),
    /// By the move of this undo code ([`hammer_puzzle::Puzzle::undo_code`]).
    Undo(u32),
}

/// A link as the second array keeps it: the parent's fingerprint (as two words, so that
/// a link is aligned to 8 bytes and not 16) and the move from it; no move for the start.
#[derive(Clone, Copy)]
struct Link<M> {
    parent: [u64; 2],
    mv: Option<M>,
}

pub(crate) struct Table<M> {
    buckets: Pages<Bucket>,
    /// `links[SLOTS * b + i]` is the link of the state in slot `i` of bucket `b`; empty
    /// in a table of undo codes.
    links: Vec<Link<M>>,
    /// The bits of a slot that are the fingerprint's: all of them in a table of links.
    mask: u128,
    len: usize,
}

/// The first bucket to look at for `fp` among `count`: a multiply-shift of bits 24 to 87
/// (above an undo code). Where the fingerprint picks the owner, it does so by the high
/// half, which is then alike for every state of one table.
#[inline]
fn home(fp: u128, count: usize) -> usize {
    (((fp >> 24) as u64 as u128 * count as u128) >> 64) as usize
}

impl<M: Copy> Table<M> {
    /// An empty table, of undo codes or of links.
    pub(crate) fn new(undo_codes: bool) -> Self {
        Table {
            buckets: Pages::zeroed(MIN_BUCKETS),
            links: if undo_codes {
                Vec::new()
            } else {
                Self::no_links(MIN_BUCKETS)
            },
            mask: if undo_codes { !CODE } else { u128::MAX },
            len: 0,
        }
    }

    fn undo_codes(&self) -> bool {
        self.mask != u128::MAX
    }

    fn no_links(buckets: usize) -> Vec<Link<M>> {
        let none = Link {
            parent: [0; 2],
            mv: None,
        };
        vec![none; buckets * SLOTS]
    }

    /// `fp` as a slot compares it: its bits that the table keeps, never 0 (the empty
    /// slot), so a fingerprint whose kept bits are all 0 is kept as all ones.
    #[inline]
    fn key(&self, fp: u128) -> u128 {
        match fp & self.mask {
            0 => self.mask,
            key => key,
        }
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
        prefetch(&self.buckets[home(self.key(fp), self.buckets.len())]);
    }

    /// The slot (`SLOTS * bucket + i`) holding `key`, or the empty slot where it would go.
    #[inline]
    fn find(buckets: &[Bucket], key: u128, mask: u128) -> usize {
        let count = buckets.len();
        let mut b = home(key, count);
        loop {
            for (i, &slot) in buckets[b].0.iter().enumerate() {
                if slot & mask == key || slot == 0 {
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

    /// How `fp` was first reached, if it was admitted.
    pub(crate) fn get(&self, fp: u128) -> Option<Back<M>> {
        let key = self.key(fp);
        let i = Self::find(&self.buckets, key, self.mask);
        let slot = self.slot(i);
        if slot & self.mask != key || slot == 0 {
            return None;
        }
        if self.undo_codes() {
            let code = (slot & CODE) as u32;
            return Some(if code == START {
                Back::Start
            } else {
                Back::Undo(code)
            });
        }
        let Link { parent, mv } = self.links[i];
        let parent = (u128::from(parent[1]) << 64) | u128::from(parent[0]);
        Some(mv.map_or(Back::Start, |mv| Back::Link(parent, mv)))
    }

    /// Admits `fp`, reached by `back`; false (and nothing changes) when it is there
    /// already. A table of undo codes takes `Start` and `Undo`, one of links `Start` and
    /// `Link`.
    pub(crate) fn insert(&mut self, fp: u128, back: Back<M>) -> bool {
        let key = self.key(fp);
        let i = Self::find(&self.buckets, key, self.mask);
        if self.slot(i) != 0 {
            return false;
        }
        let slot = match back {
            Back::Start if self.undo_codes() => key | u128::from(START),
            Back::Undo(code) => key | (u128::from(code) & CODE),
            Back::Start | Back::Link(..) => key,
        };
        self.buckets[i / SLOTS].0[i % SLOTS] = slot;
        if !self.undo_codes() {
            self.links[i] = match back {
                Back::Link(parent, mv) => Link {
                    parent: [parent as u64, (parent >> 64) as u64],
                    mv: Some(mv),
                },
                _ => Link {
                    parent: [0; 2],
                    mv: None,
                },
            };
        }
        self.len += 1;
        if self.len * LOAD.1 > self.buckets.len() * SLOTS * LOAD.0 {
            self.grow();
        }
        true
    }

    fn grow(&mut self) {
        let count = self.buckets.len() + self.buckets.len() / 2;
        if self.undo_codes() {
            // No second array: the slots alone move, within the table's own pages.
            let mask = self.mask;
            return grow_in_place(&mut self.buckets, count, |slot| home(slot & mask, count));
        }
        let mut buckets = Pages::zeroed(count);
        let mut links = Self::no_links(count);
        for (b, bucket) in self.buckets.iter().enumerate() {
            for (i, &slot) in bucket.0.iter().enumerate() {
                if slot != 0 {
                    let j = Self::find(&buckets, slot & self.mask, self.mask);
                    buckets[j / SLOTS].0[j % SLOTS] = slot;
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

    fn fp(i: u128) -> u128 {
        i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)
    }

    #[test]
    fn states_are_admitted_once_and_keep_their_links() {
        let mut table = Table::<u8>::new(false);
        // fp(0) is 0, stored as u128::MAX: the one fingerprint that needs care.
        for i in 1..=100_000u128 {
            assert!(table.insert(fp(i), Back::Link(fp(i + 1), i as u8)));
        }
        assert!(table.insert(0, Back::Start));
        assert!(!table.insert(0, Back::Link(1, 1)));
        assert_eq!(table.len(), 100_001);
        for i in 1..=100_000u128 {
            assert!(!table.insert(fp(i), Back::Start));
            assert_eq!(table.get(fp(i)), Some(Back::Link(fp(i + 1), i as u8)));
        }
        assert_eq!(table.get(0), Some(Back::Start));
        assert_eq!(table.get(fp(100_002)), None);
        assert!(table.get(fp(200_000)).is_none());
        // Slots of 16 + 24 bytes (u8 moves), at most 85% full.
        assert!(table.bytes() >= (100_001 * 40 * LOAD.1 / LOAD.0) as u64);
    }

    #[test]
    fn states_are_admitted_once_and_keep_their_undo_codes() {
        let mut table = Table::<u8>::new(true);
        let code = |i: u128| (i * 7919 % (1 << 21)) as u32;
        for i in 1..=100_000u128 {
            assert!(table.insert(fp(i), Back::Undo(code(i))));
        }
        // A fingerprint whose high 104 bits are 0 is kept as all ones; the low bits
        // are the code's and do not tell states apart.
        assert!(table.insert(5, Back::Start));
        assert!(!table.insert(0, Back::Undo(1)));
        assert_eq!(table.len(), 100_001);
        for i in 1..=100_000u128 {
            assert!(!table.insert(fp(i), Back::Start));
            assert_eq!(table.get(fp(i)), Some(Back::Undo(code(i))));
            assert_eq!(table.get(fp(i) ^ 0xff_ffff), Some(Back::Undo(code(i))));
        }
        assert_eq!(table.get(0), Some(Back::Start));
        assert_eq!(table.get(fp(100_002)), None);
        // Slots of 16 bytes, at most 85% full, and no second array.
        let (bytes, least) = (table.bytes(), (100_001 * 16 * LOAD.1 / LOAD.0) as u64);
        assert!((least..=least * 3 / 2 + 4096).contains(&bytes));
    }

    #[test]
    fn undo_codes_grow_in_place_with_homes_crowded_at_both_ends() {
        // Some homes (bits 24 to 87) crowd the first and the last 64th of the range, so
        // that probes wrap round and entries sit far from small homes as the table grows.
        let mut table = Table::<u8>::new(true);
        let state = |i: u128| {
            let x = fp(i);
            let home = (x >> 24) as u64;
            let home = match i % 10 {
                0 => home >> 6,
                1 => u64::MAX - (home >> 6),
                _ => home,
            };
            (x & !(u128::from(u64::MAX) << 24)) | (u128::from(home) << 24) | 1 << 24
        };
        let code = |i: u128| (i % (1 << 21)) as u32;
        for i in 1..=100_000u128 {
            assert!(table.insert(state(i), Back::Undo(code(i))));
        }
        assert_eq!(table.len(), 100_000);
        for i in 1..=100_000u128 {
            assert_eq!(table.get(state(i)), Some(Back::Undo(code(i))));
        }
    }
}
