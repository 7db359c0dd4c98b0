//! The figures that pair rows of the same game across configurations (Figure 7's random
//! prefixes, Figure 13's move orders, Figures 14 to 16's budgets, the meta-solver), fed
//! window by window of games in game order, so that no row outlives its window.
//!
//! A window is a range of games `[lo, hi)` in [`GameKey`] order. The second pass reads
//! the parts whose rows of these figures (their `span`, found by the first pass) meet
//! the window, keeps the rows of games inside it, in part order (the reading order that
//! decides which of two rows of a key wins), and hands them to the accumulators, which
//! keep what they need per game (a few numbers) and drop the rows. Every row of a game
//! lands in the one window that holds the game, and windows come in game order, so each
//! figure sees its games in the order and with the rows it saw when every row was held:
//! the numbers are identical (`tests/golden.rs`).
//!
//! Windows are cut at the start of a part's span once the parts begun since the last cut
//! hold `max_rows` rows; a part whose span crosses a cut is read once per window it
//! meets, and keeps only that window's rows. So the rows held at once are bounded by
//! `max_rows` plus the rows of the parts that cross into the window, whatever the sweep's
//! unit sizes, at the cost of re-reading parts that span many windows.

use std::collections::BTreeMap;

use crate::figures::{BudgetAcc, Fig07Acc, Fig13Acc, MetaAcc};
use crate::load::Row;
use crate::prepare::{GameKey, Prepared};
use crate::stream::PartNeed;

/// Rows a window holds before it is cut, by default: about 80 MB of rows.
pub const WINDOW_ROWS: u64 = 1 << 20;

/// The per-game values of every paired figure.
#[derive(Debug, Default)]
pub struct Paired {
    pub fig07: Fig07Acc,
    pub fig13: Fig13Acc,
    pub meta: MetaAcc,
    pub budgets: BudgetAcc,
    /// Rows fed, over all windows.
    pub rows: u64,
    pub windows: u64,
    /// The most rows one window held.
    pub largest_window: u64,
}

impl Paired {
    /// `fig13_orders`: n -> the orders of Figure 13's rows (from the first pass).
    pub fn new(
        p: &Prepared,
        fig13_orders: &BTreeMap<i32, std::collections::BTreeSet<u32>>,
    ) -> Paired {
        Paired {
            fig13: Fig13Acc::new(p, fig13_orders),
            ..Paired::default()
        }
    }

    /// The rows of one window of games, in reading order.
    pub fn add(&mut self, p: &Prepared, rows: &[Row]) {
        self.fig07.add(p, rows);
        self.fig13.add(p, rows);
        self.meta.add(p, rows);
        self.budgets.add(p, rows);
        self.rows += rows.len() as u64;
        self.windows += 1;
        self.largest_window = self.largest_window.max(rows.len() as u64);
    }
}

/// A range of games and the parts (positions in the list given to [`windows`]) whose
/// rows may fall in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    pub lo: GameKey,
    /// Exclusive; `None` for the last window.
    pub hi: Option<GameKey>,
    pub parts: Vec<usize>,
}

impl Window {
    pub fn holds(&self, key: &GameKey) -> bool {
        *key >= self.lo && self.hi.is_none_or(|hi| *key < hi)
    }
}

/// Cuts the games of `needs` into windows of about `max_rows` rows (see the module's
/// comment); parts without a span are left out.
pub fn windows(needs: &[&PartNeed], max_rows: u64) -> Vec<Window> {
    let mut by_start: Vec<(usize, GameKey, GameKey, u64)> = needs
        .iter()
        .enumerate()
        .filter_map(|(i, n)| n.span.map(|(lo, hi)| (i, lo, hi, n.rows())))
        .collect();
    by_start.sort_by_key(|&(i, lo, _, _)| (lo, i));
    let Some(&(_, first, _, _)) = by_start.first() else {
        return Vec::new();
    };
    let mut cuts = vec![first];
    let mut held = 0u64;
    for &(_, lo, _, rows) in &by_start {
        if held >= max_rows.max(1) && lo > *cuts.last().unwrap_or(&first) {
            cuts.push(lo);
            held = 0;
        }
        held += rows;
    }
    let mut out = Vec::with_capacity(cuts.len());
    for (k, &lo) in cuts.iter().enumerate() {
        let hi = cuts.get(k + 1).copied();
        let mut parts: Vec<usize> = by_start
            .iter()
            .filter(|&&(_, plo, phi, _)| phi >= lo && hi.is_none_or(|hi| plo < hi))
            .map(|&(i, _, _, _)| i)
            .collect();
        parts.sort_unstable();
        out.push(Window { lo, hi, parts });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn need(lo: i64, hi: i64, rows: u64) -> PartNeed {
        let key = |g| GameKey {
            n: 6,
            seed: 1,
            game_index: g,
        };
        PartNeed {
            paired: rows,
            span: Some((key(lo), key(hi))),
            ..PartNeed::default()
        }
    }

    fn ranges(ws: &[Window]) -> Vec<(i64, Option<i64>, Vec<usize>)> {
        ws.iter()
            .map(|w| (w.lo.game_index, w.hi.map(|h| h.game_index), w.parts.clone()))
            .collect()
    }

    #[test]
    fn one_window_when_everything_fits() {
        let needs = [need(0, 9, 10), need(10, 19, 10), need(0, 19, 20)];
        let refs: Vec<&PartNeed> = needs.iter().collect();
        assert_eq!(ranges(&windows(&refs, 100)), vec![(0, None, vec![0, 1, 2])]);
    }

    #[test]
    fn cuts_at_part_starts_and_rereads_the_parts_that_cross() {
        // Two configurations with units of 10 games, a third with one unit of 30.
        let needs = [
            need(0, 9, 10),
            need(10, 19, 10),
            need(20, 29, 10),
            need(0, 29, 30),
            need(0, 9, 10),
            need(10, 19, 10),
            need(20, 29, 10),
        ];
        let refs: Vec<&PartNeed> = needs.iter().collect();
        assert_eq!(
            ranges(&windows(&refs, 20)),
            vec![
                (0, Some(10), vec![0, 3, 4]),
                (10, Some(20), vec![1, 3, 5]),
                (20, None, vec![2, 3, 6]),
            ]
        );
        // Every game lies in exactly one window.
        let ws = windows(&refs, 20);
        for g in 0..30 {
            let key = GameKey {
                n: 6,
                seed: 1,
                game_index: g,
            };
            assert_eq!(ws.iter().filter(|w| w.holds(&key)).count(), 1, "game {g}");
        }
    }

    #[test]
    fn no_parts_no_windows() {
        assert!(windows(&[], 10).is_empty());
        let spanless = PartNeed::default();
        assert!(windows(&[&spanless], 10).is_empty());
    }
}
