//! Sets of game indices stored as runs of consecutive indices.
//!
//! A sweep plays games 0, 1, 2, ... of each (configuration, size), so the game indices of
//! one group are a handful of runs however many rows there are. Deduplication and the
//! completeness check both need "which indices does this group have"; as runs, that
//! costs memory per hole, not per row.

use std::collections::BTreeMap;

/// A set of `i64` as disjoint, non-adjacent inclusive runs `start -> end`.
///
/// The highest run is kept apart (`tail`): indices mostly arrive in increasing order, and
/// extending the tail costs no map operation.
#[derive(Debug, Default, Clone)]
pub struct IndexRuns {
    /// Every run below the tail, none adjacent to another or to the tail.
    runs: BTreeMap<i64, i64>,
    tail: Option<(i64, i64)>,
    len: u64,
}

impl IndexRuns {
    /// Adds `x`; false when it was already there.
    pub fn insert(&mut self, x: i64) -> bool {
        let added = match self.tail {
            None => {
                self.tail = Some((x, x));
                true
            }
            Some((start, end)) if x >= start => self.insert_at_tail(x, start, end),
            Some((start, end)) if x.checked_add(1) == Some(start) => {
                // Extends the tail down, perhaps onto the highest run of the map.
                let below = self.runs.last_key_value().map(|(&s, &e)| (s, e));
                match below {
                    Some((s, e)) if e.checked_add(1) == Some(x) => {
                        self.runs.remove(&s);
                        self.tail = Some((s, end));
                    }
                    _ => self.tail = Some((x, end)),
                }
                true
            }
            Some(_) => self.insert_in_map(x),
        };
        if added {
            self.len += 1;
        }
        added
    }

    fn insert_at_tail(&mut self, x: i64, start: i64, end: i64) -> bool {
        if x <= end {
            return false;
        }
        if end.checked_add(1) == Some(x) {
            self.tail = Some((start, x));
        } else {
            self.runs.insert(start, end);
            self.tail = Some((x, x));
        }
        true
    }

    /// Adds `x`, below the tail and not adjacent to it, to the map's runs.
    fn insert_in_map(&mut self, x: i64) -> bool {
        let before = self.runs.range(..=x).next_back().map(|(&s, &e)| (s, e));
        if let Some((_, end)) = before
            && x <= end
        {
            return false;
        }
        let after = x
            .checked_add(1)
            .and_then(|y| self.runs.get(&y).map(|&e| (y, e)));
        let joins_before = before.filter(|&(_, end)| end.checked_add(1) == Some(x));
        match (joins_before, after) {
            (Some((start, _)), Some((next, end))) => {
                self.runs.remove(&next);
                self.runs.insert(start, end);
            }
            (Some((start, _)), None) => {
                self.runs.insert(start, x);
            }
            (None, Some((next, end))) => {
                self.runs.remove(&next);
                self.runs.insert(x, end);
            }
            (None, None) => {
                self.runs.insert(x, x);
            }
        }
        true
    }

    /// How many indices the set holds.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn first(&self) -> Option<i64> {
        self.runs
            .keys()
            .next()
            .copied()
            .or(self.tail.map(|(s, _)| s))
    }

    pub fn last(&self) -> Option<i64> {
        self.tail.map(|(_, e)| e)
    }

    /// The smallest index missing between the first and the last, if any.
    pub fn first_hole(&self) -> Option<i64> {
        self.runs.values().next().map(|&end| end + 1)
    }

    /// Whether the set holds `x`.
    pub fn contains(&self, x: i64) -> bool {
        match self.tail {
            Some((start, end)) if x >= start => x <= end,
            _ => self
                .runs
                .range(..=x)
                .next_back()
                .is_some_and(|(_, &end)| x <= end),
        }
    }

    /// The indices, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = i64> + '_ {
        let runs = self.runs.iter().map(|(&s, &e)| (s, e));
        runs.chain(self.tail).flat_map(|(s, e)| s..=e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The runs agree with a plain set on a scrambled sequence with repeats and holes.
    #[test]
    fn runs_behave_as_a_set() {
        let mut runs = IndexRuns::default();
        let mut set = BTreeSet::new();
        let mut x: u64 = 12345;
        for _ in 0..5000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let v = ((x >> 33) % 700) as i64 - 20;
            assert_eq!(runs.insert(v), set.insert(v), "insert {v}");
            assert_eq!(runs.len(), set.len() as u64);
        }
        assert_eq!(runs.first(), set.first().copied());
        assert_eq!(runs.last(), set.last().copied());
        let hole = set
            .iter()
            .zip(set.iter().skip(1))
            .find(|(a, b)| **b - **a > 1)
            .map(|(a, _)| a + 1);
        assert_eq!(runs.first_hole(), hole);
        assert!(runs.iter().eq(set.iter().copied()));
        assert!((-30..720).all(|v| runs.contains(v) == set.contains(&v)));
        let mut all: Vec<(i64, i64)> = runs.runs.iter().map(|(&s, &e)| (s, e)).collect();
        all.extend(runs.tail);
        assert!(all.windows(2).all(|w| w[0].1 + 1 < w[1].0), "{all:?}");
    }

    #[test]
    fn extremes_do_not_overflow() {
        let mut runs = IndexRuns::default();
        assert!(runs.insert(i64::MAX));
        assert!(runs.insert(i64::MIN));
        assert!(runs.insert(i64::MAX - 1));
        assert!(!runs.insert(i64::MAX));
        assert_eq!(runs.len(), 3);
        assert_eq!(runs.first(), Some(i64::MIN));
        assert_eq!(runs.last(), Some(i64::MAX));
    }
}
