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
//! Windows are cut where the rows of the games passed reach `max_rows`, estimated from
//! each part's rows spread evenly over its span, so a cut may fall inside a part's span:
//! such a part is read once per window it meets, and only that window's rows are kept
//! from each read. So the rows held at once are about `max_rows` (twice that while the
//! next window is read during the feeding of this one), whatever the sweep's unit sizes,
//! at the cost of re-reading the parts that span several windows (a budget experiment's
//! parts each hold every game of one configuration).

use std::collections::{BTreeMap, BTreeSet};

use crate::figures::{BudgetAcc, Fig07Acc, Fig13Acc, MetaAcc};
use crate::load::Row;
use crate::prepare::{GameKey, Prepared};
use crate::stream::PartNeed;

/// Rows a window holds at most: 40 MB of rows, as much again for the next window read
/// meanwhile, and the window's per-game maps (docs/benchmarks.md has the peak memory of
/// `analysis/bench/paired_3m.toml` with it). `--memory-limit` may make windows smaller
/// (docs/analysis.md).
pub const WINDOW_ROWS: u64 = 1 << 19;

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
    pub fn new(p: &Prepared, fig13_orders: &BTreeMap<i32, BTreeSet<u32>>) -> Paired {
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

/// A part's span, its position in the list, and its rows per game (spread evenly over
/// the span's games: an estimate).
struct Span {
    at: usize,
    lo: GameKey,
    hi: GameKey,
    density: f64,
}

/// The game after `key` in the same (n, seed).
fn next_game(key: GameKey) -> GameKey {
    GameKey {
        game_index: key.game_index.saturating_add(1),
        ..key
    }
}

/// Games from `a` to `b` (exclusive) when both lie in the same (n, seed).
fn games_between(a: GameKey, b: GameKey) -> Option<i64> {
    (a.n == b.n && a.seed == b.seed).then(|| b.game_index - a.game_index)
}

/// Cuts the games of `needs` into windows of about `max_rows` rows each (see the module's
/// comment), by the parts' rows spread evenly over their spans: a window may end inside
/// a part's span, and the part is then read for each window it meets. Parts without a
/// span are left out.
pub fn windows(needs: &[&PartNeed], max_rows: u64) -> Vec<Window> {
    let spans: Vec<Span> = needs
        .iter()
        .enumerate()
        .filter_map(|(at, need)| {
            let (lo, hi) = need.span?;
            let games = games_between(lo, next_game(hi)).unwrap_or(1).max(1);
            Some(Span {
                at,
                lo,
                hi,
                density: need.rows() as f64 / games as f64,
            })
        })
        .collect();
    let cuts = cut_points(&spans, max_rows.max(1) as f64);
    let mut out = Vec::with_capacity(cuts.len());
    for (k, &lo) in cuts.iter().enumerate() {
        let hi = cuts.get(k + 1).copied();
        let parts: Vec<usize> = spans
            .iter()
            .filter(|s| s.hi >= lo && hi.is_none_or(|hi| s.lo < hi))
            .map(|s| s.at)
            .collect();
        out.push(Window { lo, hi, parts });
    }
    out
}

/// The first game of every window: a sweep over the spans' edges, in game order, adding
/// the estimated rows of the games passed and cutting once `max_rows` are held.
fn cut_points(spans: &[Span], max_rows: f64) -> Vec<GameKey> {
    // (game, change of density) at each span's first game and after its last.
    let mut edges: Vec<(GameKey, f64)> = spans
        .iter()
        .flat_map(|s| [(s.lo, s.density), (next_game(s.hi), -s.density)])
        .collect();
    edges.sort_by_key(|e| e.0);
    let Some(&(first, _)) = edges.first() else {
        return Vec::new();
    };
    let mut cuts = vec![first];
    let (mut density, mut held) = (0.0f64, 0.0f64);
    for (k, &(at, change)) in edges.iter().enumerate() {
        density = (density + change).max(0.0);
        let Some(&(end, _)) = edges.get(k + 1) else {
            break;
        };
        if end == at || density <= 0.0 {
            continue;
        }
        let Some(len) = games_between(at, end) else {
            // Across sizes or seeds: no game count, so no cut inside.
            if held >= max_rows && cuts.last().is_some_and(|&c| at > c) {
                cuts.push(at);
                held = 0.0;
            }
            held += density;
            continue;
        };
        let mut start = at.game_index;
        while start < at.game_index + len {
            let here = GameKey {
                game_index: start,
                ..at
            };
            if held >= max_rows && cuts.last().is_some_and(|&c| here > c) {
                cuts.push(here);
                held = 0.0;
            }
            let fit = (((max_rows - held).max(0.0) / density).ceil() as i64).max(1);
            let take = fit.min(at.game_index + len - start);
            held += density * take as f64;
            start += take;
        }
    }
    cuts
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

    /// Every game of the spans lies in exactly one window, and a window is given every
    /// part whose span meets it.
    fn check_cover(needs: &[PartNeed], ws: &[Window], games: std::ops::Range<i64>) {
        for g in games {
            let key = GameKey {
                n: 6,
                seed: 1,
                game_index: g,
            };
            let holding: Vec<&Window> = ws.iter().filter(|w| w.holds(&key)).collect();
            assert_eq!(holding.len(), 1, "game {g}: {ws:?}");
            for (i, need) in needs.iter().enumerate() {
                let (lo, hi) = need.span.expect("span");
                if lo <= key && key <= hi {
                    assert!(holding[0].parts.contains(&i), "game {g}, part {i}");
                }
            }
        }
    }

    #[test]
    fn cuts_between_part_starts_and_rereads_the_parts_that_cross() {
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
        // 3 rows a game: 20 rows a window is 7 games (6.67 rounded up).
        let ws = windows(&refs, 20);
        assert_eq!(
            ranges(&ws)[..2],
            [
                (0, Some(7), vec![0, 3, 4]),
                (7, Some(14), vec![0, 1, 3, 4, 5])
            ]
        );
        assert_eq!(ws.len(), 5);
        check_cover(&needs, &ws, 0..30);
    }

    #[test]
    fn parts_that_all_span_every_game_are_cut_inside() {
        // The shape of a budget experiment: a part per configuration, every part holding
        // every game.
        let needs: Vec<PartNeed> = (0..50).map(|_| need(0, 399, 400)).collect();
        let refs: Vec<&PartNeed> = needs.iter().collect();
        let ws = windows(&refs, 5_000);
        assert_eq!(ws.len(), 4, "{:?}", ranges(&ws));
        assert!(ws.iter().all(|w| w.parts.len() == 50));
        check_cover(&needs, &ws, 0..400);
    }

    #[test]
    fn spans_with_a_gap_between_them() {
        let needs = [need(0, 9, 1000), need(100, 109, 1000)];
        let refs: Vec<&PartNeed> = needs.iter().collect();
        let ws = windows(&refs, 300);
        check_cover(&needs, &ws, 0..10);
        check_cover(&needs, &ws, 100..110);
        // 100 rows a game: 3 games a window, the window across the gap given both parts.
        assert_eq!(ws.len(), 7, "{:?}", ranges(&ws));
        assert_eq!(ranges(&ws)[3], (9, Some(102), vec![0, 1]));
    }

    #[test]
    fn no_parts_no_windows() {
        assert!(windows(&[], 10).is_empty());
        let spanless = PartNeed::default();
        assert!(windows(&[&spanless], 10).is_empty());
    }
}
