//! A map from game to a small value, stored as one vector sorted by game.
//!
//! The per-game facts of a large solvability sample hold one entry per game; a
//! `BTreeMap` spends about twice the entry's size again on its nodes, and grows by
//! allocating node after node. A sorted vector is built once from the rows, looked up by
//! binary search and iterated in the same key order as the map it replaces, so the
//! figures that read it see the same games in the same order.

use crate::prepare::GameKey;

/// Games mapped to `V`, sorted by game.
#[derive(Debug, Default)]
pub struct GameMap<V> {
    /// (game, position of the row it came from, value); the position only breaks ties
    /// while building, so that the first row read wins.
    entries: Vec<(GameKey, u32, V)>,
}

/// Where a later row of a game disagreed with the first one: how many such rows, and the
/// position of the first of them in reading order.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Disagreements {
    pub count: u64,
    pub first: Option<u32>,
}

impl<V: Copy> GameMap<V> {
    /// The map from `(game, row position, value)` triples in any order, keeping for each
    /// game the value of the row read first; `differs` says which later values count as a
    /// disagreement with it.
    pub fn first_read(
        mut entries: Vec<(GameKey, u32, V)>,
        differs: impl Fn(&V, &V) -> bool,
    ) -> (GameMap<V>, Disagreements) {
        entries.sort_unstable_by_key(|e| (e.0, e.1));
        let mut seen = Disagreements::default();
        let mut first: Option<(GameKey, V)> = None;
        for &(key, at, value) in &entries {
            match first {
                Some((k, v)) if k == key => {
                    if differs(&v, &value) {
                        seen.count += 1;
                        seen.first = Some(seen.first.map_or(at, |f| f.min(at)));
                    }
                }
                _ => first = Some((key, value)),
            }
        }
        entries.dedup_by_key(|e| e.0);
        (GameMap { entries }, seen)
    }

    pub fn get(&self, key: &GameKey) -> Option<&V> {
        let i = self.entries.binary_search_by_key(key, |e| e.0).ok()?;
        self.entries.get(i).map(|e| &e.2)
    }

    pub fn contains_key(&self, key: &GameKey) -> bool {
        self.get(key).is_some()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The games and their values, in game order.
    pub fn iter(&self) -> impl Iterator<Item = (&GameKey, &V)> {
        self.entries.iter().map(|(k, _, v)| (k, v))
    }
}

impl<'a, V: Copy> IntoIterator for &'a GameMap<V> {
    type Item = (&'a GameKey, &'a V);
    type IntoIter = Box<dyn Iterator<Item = (&'a GameKey, &'a V)> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn key(n: i32, game_index: i64) -> GameKey {
        GameKey {
            n,
            seed: 1,
            game_index,
        }
    }

    /// The same answers as a BTreeMap filled with `entry().or_insert()` in reading order.
    #[test]
    fn the_first_row_read_wins_as_in_a_map() {
        let rows = [
            (5, 3, 10),
            (4, 7, 1),
            (5, 3, 11),
            (4, 7, 1),
            (5, 1, 2),
            (5, 3, 12),
        ];
        let mut map = BTreeMap::new();
        let mut entries = Vec::new();
        for (at, &(n, g, v)) in rows.iter().enumerate() {
            map.entry(key(n, g)).or_insert(v);
            entries.push((key(n, g), at as u32, v));
        }
        let (games, seen) = GameMap::first_read(entries, |a, b| a != b);
        let ours: Vec<(GameKey, i32)> = games.iter().map(|(k, v)| (*k, *v)).collect();
        let want: Vec<(GameKey, i32)> = map.iter().map(|(k, v)| (*k, *v)).collect();
        assert_eq!(ours, want);
        assert_eq!(
            seen,
            Disagreements {
                count: 2,
                first: Some(2)
            }
        );
        assert_eq!(games.get(&key(5, 3)), Some(&10));
        assert!(!games.contains_key(&key(6, 3)));
        assert_eq!(games.len(), 3);
    }
}
