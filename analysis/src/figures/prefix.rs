//! Figure 7: the solvable ratio after a random prefix of moves.

use std::collections::{BTreeMap, BTreeSet};

use crate::load::Row;
use crate::paper;
use crate::prepare::{GameKey, Prepared};
use crate::report::{Cell, Figure, Point, Scale, SeriesKind, Table};
use hammer_stats::wilson;

use super::*;

/// Figure 7's counts, fed window by window of games (`crate::paired`): every row of a
/// game arrives in one window, in reading order, so a start's first row wins as when
/// every row was held.
#[derive(Debug, Default)]
pub struct Fig07Acc {
    /// Rows with a random prefix were seen at all.
    any: bool,
    /// (n, I) -> (starts, still solvable).
    per: BTreeMap<(i32, i32), (u64, u64)>,
    /// n -> solvable games with a start counted.
    solvable_games: BTreeMap<i32, u64>,
    no_fact: u64,
    unknown: u64,
    conflicts: u64,
}

impl Fig07Acc {
    /// The rows of one window of games.
    pub fn add(&mut self, p: &Prepared, rows: &[Row]) {
        // (game, I, trial) -> still solvable?; only starts whose solvability is known.
        let mut starts: BTreeMap<(GameKey, i32, i32), bool> = BTreeMap::new();
        let mut games: BTreeSet<GameKey> = BTreeSet::new();
        let prefix_rows = rows
            .iter()
            .filter(|r| r.prefix >= 1 && r.budget == 0 && p.is_complete(r.schedule));
        for r in prefix_rows {
            self.any = true;
            let key = GameKey::of(r);
            match p.facts.get(&key) {
                None => self.no_fact += 1,
                Some(f) if !f.solvable() => {}
                Some(_) => {
                    if !(r.exhaustive || r.solvable) {
                        self.unknown += 1;
                        continue;
                    }
                    games.insert(key);
                    match starts.get(&(key, r.prefix, r.trial)) {
                        Some(&s) if s != r.solvable => self.conflicts += 1,
                        Some(_) => {}
                        None => {
                            starts.insert((key, r.prefix, r.trial), r.solvable);
                        }
                    }
                }
            }
        }
        for ((key, prefix, _), solv) in starts {
            let e = self.per.entry((key.n, prefix)).or_default();
            e.0 += 1;
            e.1 += u64::from(solv);
        }
        for key in games {
            *self.solvable_games.entry(key.n).or_default() += 1;
        }
    }
}

/// Figure 7: share of solvable games still solvable after I random moves.
pub fn fig07(acc: &Fig07Acc) -> Figure {
    let mut fig = Figure::new(
        "fig07",
        "Figure 7: solvable games still solvable after I random moves",
        "Rows with prefix I >= 1, no budget and a schedule that ends exact, on games whose \
         exact prefix-0 result (Figure 8's sample) is solvable. Configurations with the same \
         trial share the random prefix, so one start per (game, I, trial) is counted.",
        EXAMPLE_PREFIX,
    );
    if !acc.any {
        return fig.missing(
            "the dataset has no rows with a random prefix (prefix >= 1, no budget, a schedule \
             that ends exact)",
        );
    }
    let Fig07Acc {
        per,
        solvable_games,
        no_fact,
        unknown,
        conflicts,
        ..
    } = acc;
    let (no_fact, unknown, conflicts) = (*no_fact, *unknown, *conflicts);
    if per.is_empty() {
        return fig.missing(format!(
            "the {} random-prefix rows have no exact prefix-0 result of the same game that is \
             solvable; the example sweep solves every game with and without a prefix",
            count_text(no_fact)
        ));
    }
    left_out_notes(&mut fig.notes, no_fact, unknown, conflicts);
    let mut t = Table::new(
        "fig07_random_prefix",
        "Share of solvable games still solvable after I random moves (95% Wilson interval)",
        &[
            "n",
            "moves",
            "starts",
            "still_solvable",
            "share",
            "ci_low",
            "ci_high",
            "report_share",
            "report_within_ci",
        ],
    );
    fig.notes.push(
        "The report used \"several thousand solvable games\", so its own values carry about \
         one percentage point of sampling error (95%) at five moves: a report value just \
         outside our interval need not be a real disagreement."
            .to_owned(),
    );
    let mut c = chart(
        "fig07_random_prefix",
        "Solvable games still solvable after I random moves",
        "random moves played first (I)",
        "share still solvable",
        Scale::Linear,
        Scale::Linear,
    );
    let sizes: BTreeSet<i32> = per.keys().map(|(n, _)| *n).collect();
    for &n in &sizes {
        let base = solvable_games.get(&n).copied().unwrap_or(0) as i64;
        size_rows(n, base, per, &mut t, &mut c, &mut fig.notes);
    }
    fig.notes.push(
        "Starts of the same game are not independent (they share the board), so the Wilson \
         intervals, which assume independent starts, are somewhat too narrow when a game \
         has several trials."
            .to_owned(),
    );
    fig.tables.push(t);
    fig.charts.push(c);
    fig
}

/// The notes on the rows Figure 7 leaves out.
fn left_out_notes(notes: &mut Vec<String>, no_fact: u64, unknown: u64, conflicts: u64) {
    if no_fact > 0 {
        notes.push(format!(
            "{} random-prefix row(s) left out: their game has no exact prefix-0 result.",
            count_text(no_fact)
        ));
    }
    if unknown > 0 {
        notes.push(format!(
            "{} row(s) left out: not exhaustive and not solved, so their solvability is unknown.",
            count_text(unknown)
        ));
    }
    if conflicts > 0 {
        notes.push(format!(
            "{conflicts} row(s) disagree with another row of the same start; the first is used."
        ));
    }
}

/// Figure 7's rows and chart line of size `n` (`base` solvable games at I = 0), with the
/// report's values for 6x6.
fn size_rows(
    n: i32,
    base: i64,
    per: &BTreeMap<(i32, i32), (u64, u64)>,
    t: &mut Table,
    c: &mut Chart,
    notes: &mut Vec<String>,
) {
    t.push(vec![
        Cell::Int(i64::from(n)),
        Cell::Int(0),
        Cell::Int(base),
        Cell::Int(base),
        Cell::num(1.0, 5),
        Cell::Empty,
        Cell::Empty,
        Cell::Empty,
        Cell::Empty,
    ]);
    let mut pts = vec![Point::new(0.0, 1.0, f64::NAN, f64::NAN)];
    let mut rep = Vec::new();
    for (&(_, prefix), &(total, solv)) in per.range((n, i32::MIN)..=(n, i32::MAX)) {
        let prop = wilson(solv, total);
        let report = (n == 6)
            .then(|| {
                paper::FIG7_STILL_SOLVABLE
                    .iter()
                    .find(|(i, _)| *i == prefix)
                    .map(|(_, v)| *v)
            })
            .flatten();
        let [v, lo, hi] = prop_cells(&prop);
        t.push(vec![
            Cell::Int(i64::from(n)),
            Cell::Int(i64::from(prefix)),
            Cell::Int(total as i64),
            Cell::Int(solv as i64),
            v,
            lo,
            hi,
            Cell::opt(report, 5),
            verdict(report, prop.low, prop.high),
        ]);
        pts.push(Point::new(
            f64::from(prefix),
            prop.value,
            prop.low,
            prop.high,
        ));
        if let Some(r) = report {
            rep.push(Point::new(f64::from(prefix), r, f64::NAN, f64::NAN));
            notes.push(format!(
                "n=6, I={prefix}: {:.4} (95% CI {:.4} to {:.4}, {} starts) vs the \
                 report's {r:.3}: {}.",
                prop.value,
                prop.low,
                prop.high,
                count_text(total),
                verdict_word(r, prop.low, prop.high)
            ));
        }
    }
    c.series
        .push(series(format!("n={n}"), SeriesKind::Line, pts));
    if !rep.is_empty() {
        c.series
            .push(series("report 2013 (n=6)", SeriesKind::Report, rep));
    }
}
