//! An owner's table: every state it admitted, by fingerprint, with the link it first
//! arrived by.
//!
//! Open addressing with linear probing in one flat array, rather than a general hash map,
//! so that a worker can prefetch the slots of a state's successors before it looks them
//! up and their cache misses overlap, as the usual search does with its memo. Most of an
//! owner's time went into those misses.

use crate::memo::prefetch;

/// Slots per state admitted, at most: the table doubles beyond a load of 7/10.
const LOAD_NUM: usize = 7;
const LOAD_DEN: usize = 10;

/// One cache line, aligned to it, so that prefetching a slot loads all of it.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Slot<M> {
    /// The state's fingerprint; 0 marks an empty slot (see [`key`]).
    fp: u128,
    /// The parent's fingerprint and the move from it; `None` for the start.
    link: Option<(u128, M)>,
}

pub(crate) struct Table<M> {
    slots: Vec<Slot<M>>,
    len: usize,
}

/// A fingerprint as stored: 0 is the empty slot, so a state whose fingerprint is 0 is
/// stored as `u128::MAX` (as the memo does; a clash of the two is as likely as any
/// other 128-bit collision).
#[inline]
fn key(fp: u128) -> u128 {
    if fp == 0 { u128::MAX } else { fp }
}

impl<M: Copy> Table<M> {
    pub(crate) fn new() -> Self {
        Table {
            slots: Self::empty(1 << 10),
            len: 0,
        }
    }

    fn empty(size: usize) -> Vec<Slot<M>> {
        vec![Slot { fp: 0, link: None }; size]
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The bytes of the slots: the table's size at its largest, since it only grows.
    pub(crate) fn bytes(&self) -> u64 {
        (self.slots.len() * std::mem::size_of::<Slot<M>>()) as u64
    }

    /// The first slot to look at for `fp`. The low bits pick it: an owner is picked by
    /// the high half, which is the same for every state of this table.
    #[inline]
    fn home(&self, fp: u128) -> usize {
        fp as usize & (self.slots.len() - 1)
    }

    /// Hints the CPU to load `fp`'s slot.
    #[inline]
    pub(crate) fn prefetch(&self, fp: u128) {
        prefetch(&self.slots[self.home(key(fp))]);
    }

    /// The slot holding `fp`, or the empty slot where it would go.
    #[inline]
    fn find(&self, fp: u128) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.home(fp);
        loop {
            let slot = self.slots[i].fp;
            if slot == fp || slot == 0 {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The link `fp` was admitted with, if it was admitted.
    pub(crate) fn get(&self, fp: u128) -> Option<Option<(u128, M)>> {
        let fp = key(fp);
        let slot = &self.slots[self.find(fp)];
        (slot.fp == fp).then_some(slot.link)
    }

    /// Admits `fp` with `link`; false (and nothing changes) when it is there already.
    pub(crate) fn insert(&mut self, fp: u128, link: Option<(u128, M)>) -> bool {
        let fp = key(fp);
        let i = self.find(fp);
        if self.slots[i].fp == fp {
            return false;
        }
        self.slots[i] = Slot { fp, link };
        self.len += 1;
        if self.len * LOAD_DEN >= self.slots.len() * LOAD_NUM {
            self.grow();
        }
        true
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, Self::empty(size));
        for slot in old.into_iter().filter(|s| s.fp != 0) {
            let i = self.find(slot.fp);
            self.slots[i] = slot;
        }
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
    }
}
