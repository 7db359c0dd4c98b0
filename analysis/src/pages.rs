//! A map from game to one integer, in pages of consecutive game indices.
//!
//! A sweep plays games 0, 1, 2, ... of each (n, seed), so the per-game facts of a large
//! solvability sample fill whole ranges of game indices. A page covers [`PAGE`] indices of
//! one (n, seed): a presence bitmap and the values in the narrowest width that holds every
//! value met so far (2 bytes a game for a minimum stone count, 2 or 4 for most expansion
//! counts, 8 only when a value needs it). A page with few games (scattered indices) stays
//! a short sorted list until it fills, so sparse indices cost bytes per game, not per page.
//!
//! Pages are ordered by (n, seed, page), and slots by index, so iterating gives the games
//! in the order of [`GameKey`], as the sorted vector and the `BTreeMap` it replaces did.

use std::collections::BTreeMap;

use crate::prepare::GameKey;

const PAGE_BITS: u32 = 12;
/// Game indices per page.
pub const PAGE: usize = 1 << PAGE_BITS;
/// Above this many games a sparse page turns dense (the sizes cross near it: 10 bytes a
/// game sparse against 2 bytes a slot plus the bitmap dense).
const SPARSE_MAX: usize = PAGE / 8;

/// (n, seed, page number): the order of the games a page holds.
pub type PageKey = (i32, i64, i64);

fn split(key: &GameKey) -> (PageKey, usize) {
    let page = key.game_index.div_euclid(PAGE as i64);
    let slot = key.game_index.rem_euclid(PAGE as i64) as usize;
    ((key.n, key.seed, page), slot)
}

#[inline]
fn game(key: PageKey, slot: usize) -> GameKey {
    GameKey {
        n: key.0,
        seed: key.1,
        game_index: key.2 * PAGE as i64 + slot as i64,
    }
}

/// The values of a dense page, in the narrowest width that holds them.
#[derive(Debug)]
enum Values {
    U16(Box<[u16]>),
    U32(Box<[u32]>),
    I64(Box<[i64]>),
}

impl Values {
    fn width(v: i64) -> u8 {
        if u16::try_from(v).is_ok() {
            2
        } else if u32::try_from(v).is_ok() {
            4
        } else {
            8
        }
    }

    fn with_width(width: u8) -> Values {
        match width {
            2 => Values::U16(vec![0; PAGE].into_boxed_slice()),
            4 => Values::U32(vec![0; PAGE].into_boxed_slice()),
            _ => Values::I64(vec![0; PAGE].into_boxed_slice()),
        }
    }

    fn current(&self) -> u8 {
        match self {
            Values::U16(_) => 2,
            Values::U32(_) => 4,
            Values::I64(_) => 8,
        }
    }

    #[inline]
    fn get(&self, slot: usize) -> i64 {
        match self {
            Values::U16(v) => v.get(slot).map_or(0, |&x| i64::from(x)),
            Values::U32(v) => v.get(slot).map_or(0, |&x| i64::from(x)),
            Values::I64(v) => v.get(slot).copied().unwrap_or(0),
        }
    }

    /// Stores `value`, first widening every slot if it does not fit.
    fn set(&mut self, slot: usize, value: i64) {
        if Values::width(value) > self.current() {
            let mut wide = Values::with_width(Values::width(value));
            for i in 0..PAGE {
                wide.set(i, self.get(i));
            }
            *self = wide;
        }
        // The width check above makes every conversion below exact.
        match self {
            Values::U16(v) => {
                if let Some(x) = v.get_mut(slot) {
                    *x = value as u16;
                }
            }
            Values::U32(v) => {
                if let Some(x) = v.get_mut(slot) {
                    *x = value as u32;
                }
            }
            Values::I64(v) => {
                if let Some(x) = v.get_mut(slot) {
                    *x = value;
                }
            }
        }
    }
}

/// One page's games.
#[derive(Debug)]
enum Page {
    /// (slot, value), sorted by slot.
    Sparse(Vec<(u16, i64)>),
    Dense {
        present: Box<[u64; PAGE / 64]>,
        values: Values,
    },
}

impl Page {
    #[inline]
    fn get(&self, slot: usize) -> Option<i64> {
        match self {
            Page::Sparse(entries) => entries
                .binary_search_by_key(&(slot as u16), |e| e.0)
                .ok()
                .and_then(|i| entries.get(i))
                .map(|e| e.1),
            Page::Dense { present, values } => {
                let word = present.get(slot / 64).copied().unwrap_or(0);
                (word >> (slot % 64) & 1 == 1).then(|| values.get(slot))
            }
        }
    }

    /// Stores `value` at `slot` unless the slot has a value: then that value is returned
    /// and the page is unchanged.
    fn first(&mut self, slot: usize, value: i64) -> Option<i64> {
        match self {
            Page::Sparse(entries) => {
                // Games mostly arrive in increasing order: try the end first.
                let at = match entries.last() {
                    Some(&(last, _)) if usize::from(last) < slot => entries.len(),
                    _ => match entries.binary_search_by_key(&(slot as u16), |e| e.0) {
                        Ok(i) => return entries.get(i).map(|e| e.1),
                        Err(i) => i,
                    },
                };
                entries.insert(at, (slot as u16, value));
                if entries.len() > SPARSE_MAX {
                    self.densify();
                }
                None
            }
            Page::Dense { present, values } => {
                let bit = 1u64 << (slot % 64);
                let word = present.get_mut(slot / 64)?;
                if *word & bit != 0 {
                    return Some(values.get(slot));
                }
                *word |= bit;
                values.set(slot, value);
                None
            }
        }
    }

    fn densify(&mut self) {
        let Page::Sparse(entries) = self else {
            return;
        };
        let width = entries
            .iter()
            .map(|e| Values::width(e.1))
            .max()
            .unwrap_or(2);
        let mut present = Box::new([0u64; PAGE / 64]);
        let mut values = Values::with_width(width);
        for &(slot, value) in entries.iter() {
            let slot = usize::from(slot);
            if let Some(word) = present.get_mut(slot / 64) {
                *word |= 1 << (slot % 64);
            }
            values.set(slot, value);
        }
        *self = Page::Dense { present, values };
    }

    /// The (slot, value) pairs, by slot.
    #[inline]
    fn entries(&self) -> impl Iterator<Item = (usize, i64)> + '_ {
        let sparse = match self {
            Page::Sparse(entries) => Some(entries.iter().map(|&(s, v)| (usize::from(s), v))),
            Page::Dense { .. } => None,
        };
        let dense = match self {
            Page::Dense { present, values } => Some(
                present
                    .iter()
                    .enumerate()
                    .flat_map(|(w, &word)| Bits(word).map(move |b| w * 64 + b))
                    .map(|slot| (slot, values.get(slot))),
            ),
            Page::Sparse(_) => None,
        };
        sparse
            .into_iter()
            .flatten()
            .chain(dense.into_iter().flatten())
    }
}

/// The positions of the set bits of a word, lowest first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(bit)
    }
}

/// Games mapped to an `i64`, the first value stored for a game staying.
#[derive(Debug, Default)]
pub struct GamePages {
    index: BTreeMap<PageKey, usize>,
    pages: Vec<Page>,
    /// The page of the last call to [`GamePages::first`]: consecutive rows are mostly
    /// consecutive games.
    last: Option<(PageKey, usize)>,
    len: u64,
}

impl GamePages {
    /// Stores `value` for `key` unless the game has a value: then that value is returned.
    pub fn first(&mut self, key: &GameKey, value: i64) -> Option<i64> {
        let (page_key, slot) = split(key);
        let at = match self.last {
            Some((k, at)) if k == page_key => at,
            _ => {
                let pages = &mut self.pages;
                let at = *self.index.entry(page_key).or_insert_with(|| {
                    pages.push(Page::Sparse(Vec::new()));
                    pages.len() - 1
                });
                self.last = Some((page_key, at));
                at
            }
        };
        let old = self.pages.get_mut(at)?.first(slot, value);
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    pub fn get(&self, key: &GameKey) -> Option<i64> {
        let (page_key, slot) = split(key);
        let at = *self.index.get(&page_key)?;
        self.pages.get(at)?.get(slot)
    }

    /// How many games have a value.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The games and their values, in game order, each with the value `other` has for the
    /// same game: a walk page by page, with no lookup per game.
    #[inline]
    pub fn zip<'a>(
        &'a self,
        other: &'a GamePages,
    ) -> impl Iterator<Item = (GameKey, i64, Option<i64>)> + 'a {
        self.index.iter().flat_map(move |(&key, &at)| {
            let theirs = other.index.get(&key).and_then(|&i| other.pages.get(i));
            self.pages.get(at).into_iter().flat_map(move |page| {
                page.entries()
                    .map(move |(slot, v)| (game(key, slot), v, theirs.and_then(|p| p.get(slot))))
            })
        })
    }

    /// The games and their values, in game order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (GameKey, i64)> + '_ {
        self.index.iter().flat_map(|(&key, &at)| {
            self.pages
                .get(at)
                .into_iter()
                .flat_map(move |page| page.entries().map(move |(slot, v)| (game(key, slot), v)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: i32, seed: i64, game_index: i64) -> GameKey {
        GameKey {
            n,
            seed,
            game_index,
        }
    }

    /// The same answers as a BTreeMap filled with `entry().or_insert()`, over dense runs,
    /// scattered and negative indices, and values of every width.
    #[test]
    fn pages_behave_as_a_first_value_map() {
        let mut pages = GamePages::default();
        let mut map = BTreeMap::new();
        let mut x: u64 = 99;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x >> 20
        };
        let mut keys: Vec<GameKey> = (0..3 * PAGE as i64 + 17).map(|g| key(6, 1, g)).collect();
        for _ in 0..3000 {
            let r = next();
            keys.push(key(
                5 + (r % 2) as i32,
                (r % 3) as i64,
                (next() % 40_000_000) as i64 - 20_000_000,
            ));
        }
        for (i, k) in keys.iter().enumerate() {
            let value = match i % 5 {
                0 => (next() % 60_000) as i64,
                1 => (next() % 4_000_000_000) as i64,
                2 => -(next() as i64),
                _ => (next() % 40) as i64,
            };
            for v in [value, value + 1] {
                let want = map.get(k).copied();
                map.entry(*k).or_insert(v);
                assert_eq!(pages.first(k, v), want, "{k:?}");
            }
        }
        assert_eq!(pages.len(), map.len() as u64);
        let ours: Vec<(GameKey, i64)> = pages.iter().collect();
        let want: Vec<(GameKey, i64)> = map.iter().map(|(k, v)| (*k, *v)).collect();
        assert_eq!(ours, want);
        for k in keys.iter().take(50) {
            assert_eq!(pages.get(k), map.get(k).copied());
        }
        assert_eq!(pages.get(&key(7, 0, 0)), None);
        assert_eq!(pages.get(&key(6, 1, 3 * PAGE as i64 + 17)), None);
    }

    #[test]
    fn extreme_indices_do_not_overflow() {
        let mut pages = GamePages::default();
        for g in [i64::MIN, i64::MAX, 0, -1] {
            assert_eq!(pages.first(&key(6, 0, g), g), None);
        }
        let games: Vec<i64> = pages.iter().map(|(k, _)| k.game_index).collect();
        assert_eq!(games, vec![i64::MIN, -1, 0, i64::MAX]);
        assert_eq!(pages.get(&key(6, 0, i64::MIN)), Some(i64::MIN));
    }
}
