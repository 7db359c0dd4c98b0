//! The memo of fully explored states: a set of 128-bit fingerprints.
//!
//! Hard 6x6 boards memoize tens of millions of states, so the table is built for
//! memory first: 16 bytes a slot, no per-entry metadata, no deletion (states still on
//! the search stack are simply never inserted). Slots are grouped four to a 64-byte
//! bucket, one cache line, probed bucket by bucket. The table grows by 1.5x at 80 %
//! load, so it holds between 20 and 30 bytes per state, and a bucket index comes from
//! a multiply-shift of the fingerprint's high half, which works for any bucket count.
//!
//! A memo may be given a byte limit ([`Memo::set_limit`]). It then stops growing at the
//! limit and, once full, *replaces* an entry of the new state's home bucket instead of
//! filling an empty slot. A replaced entry only means that state is searched again, so
//! results stay exact. Replacing never empties a slot, so every probe chain stays intact
//! and at least a fifth of the slots stay empty, which ends every probe. Under a limit the
//! table restarts from its smallest size for every game, so that where entries sit, and
//! so which ones are replaced, depends on the game alone: expansions stay deterministic
//! whatever the thread solved before.

use crate::pages::{Pages, Zeroed};

pub(crate) const SLOTS: usize = 4;
const MIN_BUCKETS: usize = 1 << 12;

/// Asks the processor to bring the cache line of `item` in: a table lookup that will
/// miss the cache starts its miss now and overlaps it with others. A hint with no effect
/// on memory; nothing on other architectures.
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let ptr = item as *const T as *const i8;
        // SAFETY: prefetching is a hint with no effect on memory; `ptr` comes from a
        // reference.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// `count` copies of `value` in a fresh allocation, which the kernel is asked to back with
/// huge pages (2 MiB on x86-64) where it only does so when asked (Linux's
/// `transparent_hugepage` set to `madvise`, Debian's and Ubuntu's default). A memo or an
/// owner's table of gigabytes (those live in [`Pages`]), or the learned order's rate
/// table, is probed at random,
/// once or twice a successor, and with 4 KiB pages nearly every probe also misses the
/// TLB: a page walk before the cache miss, which a prefetch does not hide. Values are
/// written only after the advice, so the pages are huge from their first touch.
pub(crate) fn table<T: Copy>(count: usize, value: T) -> Vec<T> {
    let mut values: Vec<T> = Vec::with_capacity(count);
    advise_huge_pages(
        values.as_mut_ptr().cast::<u8>(),
        count * std::mem::size_of::<T>(),
    );
    values.resize(count, value);
    values
}

/// Asks for huge pages over the whole 2 MiB pages within `bytes` from `ptr`, unwritten
/// memory of an allocation the caller owns. Advice only: nothing changes if the kernel
/// declines.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, bytes: usize) {
    const HUGE: usize = 2 << 20;
    let start = (ptr as usize).next_multiple_of(HUGE);
    let end = (ptr as usize + bytes) / HUGE * HUGE;
    if end > start {
        // SAFETY: madvise with MADV_HUGEPAGE only tells the kernel how to back these
        // pages, which lie inside the caller's allocation; it neither reads nor
        // writes them, and an error leaves them as they were.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _bytes: usize) {}

/// Four 16-byte slots in one cache line: the memo's and an owner's table's (0 is an
/// empty slot).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub(crate) struct Bucket(pub(crate) [u128; SLOTS]);

// SAFETY: an array of integers: no padding, and zero is a value (an empty slot).
unsafe impl Zeroed for Bucket {}

/// The transposition table of a search: fingerprints of fully explored states, kept from one game to the next.
pub struct Memo {
    buckets: Pages<Bucket>,
    len: usize,
    /// The most buckets the table may have (`usize::MAX`: no limit).
    max_buckets: usize,
    /// Entries replaced because the table was full, this game.
    evictions: u64,
}

impl Default for Memo {
    fn default() -> Self {
        Memo::new()
    }
}

impl Memo {
    /// An empty memo.
    pub fn new() -> Memo {
        Memo {
            buckets: Pages::zeroed(MIN_BUCKETS),
            len: 0,
            max_buckets: usize::MAX,
            evictions: 0,
        }
    }

    /// Limits the table to `bytes` (at least its smallest size, 256 KiB); `None` lifts the
    /// limit. Takes effect from the next [`Memo::clear`].
    pub fn set_limit(&mut self, bytes: Option<u64>) {
        self.max_buckets = bytes.map_or(usize::MAX, Self::max_buckets_of);
    }

    /// The most buckets a table limited to `bytes` may have.
    fn max_buckets_of(bytes: u64) -> usize {
        let buckets = bytes / std::mem::size_of::<Bucket>() as u64;
        usize::try_from(buckets)
            .unwrap_or(usize::MAX)
            .max(MIN_BUCKETS)
    }

    /// The most bytes a memo limited to `limit` ([`Memo::set_limit`]) holds at once. While
    /// the table grows it also holds the one before, until every entry is placed in the
    /// new one (a limited table is built anew, see [`Memo::grow`]), so a game under a
    /// limit of `M` peaks at up to twice `M`: the last step goes from about two thirds of
    /// `M` to `M`. This, not the limit, is what a game's memo claims of a machine.
    pub fn peak_bytes(limit: u64) -> u64 {
        let sizes = Self::sizes(Self::max_buckets_of(limit));
        let peak = sizes
            .clone()
            .zip(sizes.skip(1))
            .map(|(before, after)| before + after)
            .max()
            .unwrap_or(MIN_BUCKETS);
        (peak * std::mem::size_of::<Bucket>()) as u64
    }

    /// Entries replaced because the table was full, since the last [`Memo::clear`].
    pub fn evictions(&self) -> u64 {
        self.evictions
    }

    /// The bytes a table that started empty at its smallest size would hold now: the
    /// memo's peak size for this game (entries are never deleted), the same whatever
    /// earlier games left the table at, so it can go in a dataset row.
    pub fn game_bytes(&self) -> u64 {
        let max = self.max_buckets;
        let count = Self::sizes(max)
            .find(|&count| self.len * 5 <= count * SLOTS * 4 || count >= max)
            .unwrap_or(max);
        (count * std::mem::size_of::<Bucket>()) as u64
    }

    fn next_count(count: usize, max: usize) -> usize {
        (count + count / 2).min(max)
    }

    /// The table's sizes in buckets as it grows from its smallest up to `max`: the steps
    /// both [`Memo::peak_bytes`] and [`Memo::game_bytes`] follow.
    fn sizes(max: usize) -> impl Iterator<Item = usize> + Clone {
        std::iter::successors(Some(MIN_BUCKETS), move |&count| {
            (count < max).then(|| Self::next_count(count, max))
        })
    }

    /// Empties the memo for the next game. A table grown for one hard game is shrunk
    /// back when it was mostly empty, so that thousands of easy games after it do not
    /// each pay for clearing a gigabyte.
    pub fn clear(&mut self) {
        let used = self.len;
        let wanted = ((used * 2) / SLOTS).max(MIN_BUCKETS);
        self.evictions = 0;
        if self.max_buckets != usize::MAX && self.buckets.len() != MIN_BUCKETS {
            // Under a limit every game starts from the same table (see the module doc).
            self.buckets = Pages::zeroed(MIN_BUCKETS);
        } else if self.buckets.len() > 2 * wanted {
            self.buckets = Pages::zeroed(wanted);
        } else {
            self.buckets.fill(Bucket::default());
        }
        self.len = 0;
    }

    /// Fingerprints stored.
    pub(crate) fn len(&self) -> usize {
        self.len
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
        Self::home_in(fp, self.buckets.len())
    }

    /// Hints the CPU to load `fp`'s bucket: the search computes all successors'
    /// fingerprints first and prefetches them, so their cache misses overlap.
    #[inline]
    pub fn prefetch(&self, fp: u128) {
        prefetch(&self.buckets[self.home(Self::key(fp))]);
    }

    /// Whether the state with fingerprint `fp` is stored.
    #[inline]
    pub(crate) fn contains(&self, fp: u128) -> bool {
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
            if self.buckets.len() >= self.max_buckets {
                return self.replace(fp);
            }
            self.grow();
        }
        let inserted = Self::place(&mut self.buckets, fp);
        self.len += inserted as usize;
        inserted
    }

    /// Inserts `fp` into a full table by replacing an entry of its home bucket, chosen by
    /// the fingerprint's low bits; a home bucket with no entry at all is left alone (the
    /// state is simply not remembered), so the number of entries never grows.
    fn replace(&mut self, fp: u128) -> bool {
        if self.contains(fp) {
            return false;
        }
        let home = self.home(fp);
        let bucket = &mut self.buckets[home].0;
        let used = bucket.iter().filter(|&&s| s != 0).count();
        if used == 0 {
            return false;
        }
        // Entries fill a bucket from its first slot and are never removed, so the used
        // slots are the first `used` ones.
        bucket[(fp as usize) % used] = fp;
        self.evictions += 1;
        true
    }

    fn home_in(fp: u128, count: usize) -> usize {
        (((fp >> 64) as u64 as u128 * count as u128) >> 64) as usize
    }

    fn place(buckets: &mut [Bucket], fp: u128) -> bool {
        let count = buckets.len();
        let mut b = Self::home_in(fp, count);
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
        let count = Self::next_count(self.buckets.len(), self.max_buckets);
        if self.max_buckets == usize::MAX {
            return grow_in_place(&mut self.buckets, count, |slot| Self::home_in(slot, count));
        }
        // Under a limit, where entries sit decides which are replaced once the table is
        // full: they are placed as they always were, bucket by bucket into a new table.
        let mut bigger = Pages::zeroed(count);
        for bucket in self.buckets.iter() {
            for &slot in &bucket.0 {
                if slot != 0 {
                    Self::place(&mut bigger, slot);
                }
            }
        }
        self.buckets = bigger;
    }
}

/// Grows `buckets` to `count` within their own pages, each entry placed again from its
/// new home (`home(slot)` among `count` buckets, a multiply-shift, so never below its
/// old one). Buckets are emptied from the last down and each entry placed from its new
/// home on: a probe then only crosses buckets already done or added, never an entry
/// still to move. The few entries whose new home lies below their bucket (pushed far
/// from a small home) or whose probe would wrap round to the start wait, and go in
/// last, into a table then whole. Where entries end up differs from a table built anew.
/// Entries are unique, so a slot is never compared, only found free.
pub(crate) fn grow_in_place(
    buckets: &mut Pages<Bucket>,
    count: usize,
    home: impl Fn(u128) -> usize,
) {
    let old = buckets.len();
    buckets.grow(count);
    let mut later = Vec::new();
    for b in (0..old).rev() {
        let taken = std::mem::take(&mut buckets[b]);
        for &slot in taken.0.iter().filter(|&&s| s != 0) {
            let from = home(slot);
            let free = (from >= b).then(|| first_free(&mut buckets[from..]));
            match free.flatten() {
                Some(free) => *free = slot,
                None => later.push(slot),
            }
        }
    }
    for slot in later {
        let from = home(slot);
        let (before, after) = buckets.split_at_mut(from);
        // A table at most 80% full has a free slot.
        if let Some(free) = first_free(after).or_else(|| first_free(before)) {
            *free = slot;
        }
    }
}

/// The first free slot of `buckets`, in order.
fn first_free(buckets: &mut [Bucket]) -> Option<&mut u128> {
    buckets
        .iter_mut()
        .find_map(|bucket| bucket.0.iter_mut().find(|s| **s == 0))
}

#[cfg(test)]
mod tests {
    use super::Memo;
    use std::collections::HashSet;

    /// The next value of the tests' 128-bit linear congruential stream.
    fn next(x: u128) -> u128 {
        x.wrapping_mul(0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645)
            .wrapping_add(1)
    }

    #[test]
    fn grows_in_place_with_entries_crowded_at_both_ends() {
        // Some high halves crowd the first and the last 64th of the range, so that probes
        // wrap round the end and entries sit far from small homes while the table grows.
        let mut memo = Memo::new();
        let mut reference = HashSet::new();
        let mut x: u128 = 0x2545_f491_4f6c_dd1d_9e37_79b9_7f4a_7c15;
        for i in 0..200_000u32 {
            x = next(x);
            let high = (x >> 64) as u64;
            let high = match i % 50 {
                0 => high >> 6,
                1 => u64::MAX - (high >> 6),
                _ => high,
            };
            let fp = (u128::from(high) << 64) | (x & u128::from(u64::MAX)) | 1;
            assert_eq!(memo.insert(fp), reference.insert(fp));
        }
        assert_eq!(memo.len(), reference.len());
        assert!(memo.bytes() > super::MIN_BUCKETS * 64, "the table grew");
        for &fp in &reference {
            assert!(memo.contains(fp));
        }
        assert!(!memo.contains(2));
    }

    #[test]
    fn behaves_like_a_set_through_growth_and_clear() {
        let mut memo = Memo::new();
        let mut reference = HashSet::new();
        let mut x: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;
        for i in 0..200_000u32 {
            x = next(x);
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
        assert_eq!(memo.len(), 0);
        assert!(!memo.contains(reference.iter().next().copied().unwrap()));
    }

    #[test]
    fn a_limited_memo_stops_growing_and_replaces_entries() {
        let limit = 64 * 8192u64;
        let mut memo = Memo::new();
        memo.set_limit(Some(limit));
        memo.clear();
        let mut x: u128 = 0x1234_5678_9abc_def0_0fed_cba9_8765_4321;
        let mut last = Vec::new();
        for _ in 0..200_000u32 {
            x = next(x);
            memo.insert(x | 1);
            last.push(x | 1);
            if last.len() > 16 {
                last.remove(0);
            }
        }
        assert_eq!(memo.bytes() as u64, limit);
        assert_eq!(memo.game_bytes(), limit);
        assert!(memo.len() * 5 <= 8192 * 4 * 4, "{} entries", memo.len());
        assert!(memo.evictions() > 100_000);
        // The newest entries are there (replacement hits their home bucket only when a
        // later state shares it), and a missing state is looked up to the end.
        assert!(last.iter().filter(|&&fp| memo.contains(fp)).count() >= 12);
        assert!(!memo.contains(7));
        // The next game starts from the smallest table again, and so does its size.
        memo.clear();
        assert_eq!(memo.evictions(), 0);
        assert_eq!(memo.game_bytes(), 64 * 4096);
        assert_eq!(memo.bytes(), 64 * 4096);
    }

    #[test]
    fn peak_bytes_is_the_largest_growth_step_of_a_limited_memo() {
        for limit in [1u64 << 20, 3 << 20, 5_000_000] {
            let mut memo = Memo::new();
            memo.set_limit(Some(limit));
            memo.clear();
            let (mut before, mut peak) = (memo.bytes() as u64, memo.bytes() as u64);
            let mut x = 1u128;
            while memo.evictions() == 0 {
                x = next(x);
                memo.insert(x);
                let now = memo.bytes() as u64;
                if now != before {
                    // Growing held the old table and the new one at once.
                    peak = peak.max(before + now);
                    before = now;
                }
            }
            assert!(before <= limit.max(1 << 18), "{limit}: table {before}");
            assert_eq!(Memo::peak_bytes(limit), peak, "{limit}");
            assert!(peak > limit && peak <= 2 * limit, "{limit}: peak {peak}");
        }
        // At the smallest size the table never grows.
        assert_eq!(Memo::peak_bytes(1), 64 * super::MIN_BUCKETS as u64);
    }

    #[test]
    fn game_bytes_do_not_depend_on_earlier_games() {
        let fill = |memo: &mut Memo, n: u128| {
            for i in 1..=n {
                memo.insert(i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835));
            }
        };
        let mut fresh = Memo::new();
        fill(&mut fresh, 5_000);
        let mut used = Memo::new();
        fill(&mut used, 300_000);
        used.clear();
        fill(&mut used, 5_000);
        assert!(used.bytes() > fresh.bytes());
        assert_eq!(used.game_bytes(), fresh.game_bytes());
        assert_eq!(fresh.game_bytes(), fresh.bytes() as u64);
    }
}
