//! Figures 5 and 8: the solvable ratio by board size, and the unsolvable games by the
//! stones they leave.

use std::collections::{BTreeMap, BTreeSet};

use crate::paper;
use crate::prepare::Prepared;
use crate::report::{Cell, Figure, Point, Scale, SeriesKind, Table};
use hammer_stats::wilson;

use super::*;

fn solvability_missing(fig: Figure) -> Figure {
    fig.missing(
        "the dataset has no exact results of unmodified games: rows with prefix 0, budget 0 \
         and a schedule that ends exact (exact, paper, luby, ...)",
    )
}

/// Figure 8: solvable ratio by board size.
pub fn fig08(p: &Prepared) -> Figure {
    let mut fig = Figure::new(
        "fig08",
        "Figure 8: solvable ratio by board size",
        "One exact result per game: rows with prefix 0, budget 0, exhaustive, and a schedule \
         that always ends exact; a game solved by several configurations counts once.",
        EXAMPLE_SOLVABILITY,
    );
    if p.facts.is_empty() {
        return solvability_missing(fig);
    }
    let mut per_n: BTreeMap<i32, (u64, u64)> = BTreeMap::new();
    for (key, fact) in p.facts.iter() {
        let e = per_n.entry(key.n).or_default();
        e.0 += 1;
        e.1 += u64::from(fact.solvable());
    }
    let mut t = Table::new(
        "fig08_solvable_ratio",
        "Solvable ratio by n (95% Wilson interval) beside the report's Figure 8",
        &[
            "n",
            "games",
            "solvable",
            "ratio",
            "ci_low",
            "ci_high",
            "report_ratio",
            "report_within_ci",
        ],
    );
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for (&n, &(games, solvable)) in &per_n {
        let prop = wilson(solvable, games);
        let report = paper::FIG8_SOLVABLE
            .iter()
            .find(|(m, _)| *m == n)
            .map(|(_, v)| *v);
        let [v, lo, hi] = prop_cells(&prop);
        t.push(vec![
            Cell::Int(i64::from(n)),
            Cell::Int(games as i64),
            Cell::Int(solvable as i64),
            v,
            lo,
            hi,
            Cell::opt(report, 5),
            verdict(report, prop.low, prop.high),
        ]);
        ours.push(Point::new(f64::from(n), prop.value, prop.low, prop.high));
        if let Some(r) = report {
            theirs.push(Point::new(f64::from(n), r, f64::NAN, f64::NAN));
            fig.notes.push(format!(
                "n={n}: {:.5} (95% CI {:.5} to {:.5}, {} games) vs the report's {r:.5}: {}.",
                prop.value,
                prop.low,
                prop.high,
                count_text(games),
                verdict_word(r, prop.low, prop.high)
            ));
        }
    }
    if !theirs.is_empty() {
        fig.notes.push(
            "The report gives no sample size per board size (only its 2,918,608 6x6 games), so \
             its values carry sampling error of their own: with a large sample here, a report \
             value just outside our interval need not be a real disagreement."
                .to_owned(),
        );
    }
    let mut c = chart(
        "fig08_solvable_ratio",
        "Solvable ratio by board size",
        "board size n",
        "share of games solvable",
        Scale::Linear,
        Scale::Linear,
    );
    c.series
        .push(series("hammer (95% Wilson)", SeriesKind::Line, ours));
    c.series
        .push(series("report 2013", SeriesKind::Report, theirs));
    fig.tables.push(t);
    fig.charts.push(c);
    if !p.unknowns.is_empty() {
        unknowns_table(&mut fig, &per_n, &p.unknowns);
    }
    fig
}

/// The games a per-game limit left unknown, and how they could move Figure 8: the ratio
/// and its interval if every open game were unsolvable, and if every one were solvable
/// (a capped game whose proved bound is above one stone counts as unsolvable in both).
fn unknowns_table(
    fig: &mut Figure,
    per_n: &BTreeMap<i32, (u64, u64)>,
    unknowns: &BTreeMap<i32, crate::prepare::Unknowns>,
) {
    let mut t = Table::new(
        "fig08_unknown",
        "Games a per-game limit left unknown, and Figure 8's ratio with them (95% Wilson)",
        &[
            "n",
            "exact_games",
            "unknown_games",
            "proved_unsolvable",
            "open",
            "ratio_if_open_unsolvable",
            "ci_low",
            "ratio_if_open_solvable",
            "ci_high",
        ],
    );
    for (&n, u) in unknowns {
        let (games, solvable) = per_n.get(&n).copied().unwrap_or((0, 0));
        let total = games + u.total();
        let low = wilson(solvable, total);
        let high = wilson(solvable + u.open, total);
        t.push(vec![
            Cell::Int(i64::from(n)),
            Cell::Int(games as i64),
            Cell::Int(u.total() as i64),
            Cell::Int(u.unsolvable as i64),
            Cell::Int(u.open as i64),
            Cell::Num(low.value, 5),
            Cell::Num(low.low, 5),
            Cell::Num(high.value, 5),
            Cell::Num(high.high, 5),
        ]);
        fig.notes.push(format!(
            "n={n}: {} game(s) a per-game limit stopped are unknown ({} of them proved \
             unsolvable by their lower bound, {} open); counted in, the solvable ratio lies \
             between {:.5} (open ones unsolvable; 95% CI from {:.5}) and {:.5} (open ones \
             solvable; 95% CI to {:.5}). Continue them with a larger cap (unknown_games) to \
             narrow this.",
            u.total(),
            u.unsolvable,
            u.open,
            low.value,
            low.low,
            high.value,
            high.high
        ));
    }
    fig.tables.push(t);
}

/// Figure 5: distribution of the minimum stone count among unsolvable games.
pub fn fig05(p: &Prepared) -> Figure {
    let mut fig = Figure::new(
        "fig05",
        "Figure 5: minimum stone count of unsolvable games",
        "The exact results of Figure 8 whose minimum stone count is above 1.",
        EXAMPLE_SOLVABILITY,
    );
    if p.facts.is_empty() {
        return solvability_missing(fig);
    }
    let mut games: BTreeMap<i32, u64> = BTreeMap::new();
    let mut counts: BTreeMap<(i32, i32), u64> = BTreeMap::new();
    for (key, fact) in p.facts.iter() {
        *games.entry(key.n).or_default() += 1;
        if !fact.solvable() {
            *counts.entry((key.n, fact.min_stones)).or_default() += 1;
        }
    }
    let unsolvable = |n: i32| -> u64 {
        counts
            .iter()
            .filter(|((m, _), _)| *m == n)
            .map(|(_, c)| *c)
            .sum()
    };
    if counts.is_empty() {
        return fig.missing(format!(
            "none of the {} exactly solved games is unsolvable; a larger sample is needed \
             (at n=6 about 1.65% are)",
            count_text(p.facts.len())
        ));
    }
    for (n, u) in p.unknowns.iter().filter(|(_, u)| u.total() > 0) {
        fig.notes.push(format!(
            "n={n}: {} game(s) a per-game limit stopped are left out ({} of them proved \
             unsolvable, minimum stone count unknown); see Figure 8's unknown games.",
            u.total(),
            u.unsolvable
        ));
    }
    let mut t = Table::new(
        "fig05_min_stones",
        "Minimum stone count among unsolvable games (share of unsolvable and of all games, \
         95% Wilson intervals)",
        &[
            "n",
            "min_stones",
            "games",
            "share_of_unsolvable",
            "ci_low",
            "ci_high",
            "share_of_all",
            "all_ci_low",
            "all_ci_high",
            "report_share_of_all",
            "report_within_ci",
        ],
    );
    let mut c = chart(
        "fig05_min_stones",
        "Minimum stone count of unsolvable games",
        "minimum stone count",
        "share of unsolvable games",
        Scale::Linear,
        Scale::Linear,
    );
    for (&n, &all) in &games {
        let unsolv = unsolvable(n);
        if unsolv == 0 {
            fig.notes.push(format!(
                "n={n}: none of {} games is unsolvable.",
                count_text(all)
            ));
            continue;
        }
        let pts = fig05_size(n, all, unsolv, &counts, &mut t);
        fig.notes.push(format!(
            "n={n}: {} of {} games unsolvable ({:.3}%).",
            count_text(unsolv),
            count_text(all),
            100.0 * unsolv as f64 / all as f64
        ));
        c.series
            .push(series(format!("n={n}"), SeriesKind::Line, pts));
    }
    if games.contains_key(&6) {
        fig.notes.push(
            "The report found 2 of 2,918,608 6x6 games stuck from the start (36 stones), a \
             share of 6.9e-7; the row n=6, min_stones=36 compares ours with it."
                .to_owned(),
        );
    }
    fig.tables.push(t);
    fig.charts.push(c);
    fig
}

/// Figure 5's rows of board size `n` (`all` games, `unsolv` of them unsolvable) and its
/// chart's points.
fn fig05_size(
    n: i32,
    all: u64,
    unsolv: u64,
    counts: &BTreeMap<(i32, i32), u64>,
    t: &mut Table,
) -> Vec<Point> {
    // Every count from 2 to n*n, zeros included, for real board sizes (n comes from a
    // directory name, so anything else gets only the counts seen), plus any value seen
    // outside that range.
    let mut values: BTreeSet<i32> = counts
        .keys()
        .filter(|(m, _)| *m == n)
        .map(|(_, s)| *s)
        .collect();
    if (1..=8).contains(&n) {
        values.extend(2..=n * n);
    }
    let mut pts = Vec::new();
    for m in values {
        let k = counts.get(&(n, m)).copied().unwrap_or(0);
        let share = wilson(k, unsolv);
        let of_all = wilson(k, all);
        let report =
            (n == 6 && m == 36).then(|| paper::FIG5_STUCK.0 as f64 / paper::FIG5_STUCK.1 as f64);
        let [v, lo, hi] = prop_cells(&share);
        t.push(vec![
            Cell::Int(i64::from(n)),
            Cell::Int(i64::from(m)),
            Cell::Int(k as i64),
            v,
            lo,
            hi,
            Cell::num(of_all.value, 7),
            Cell::num(of_all.low, 7),
            Cell::num(of_all.high, 7),
            Cell::opt(report, 7),
            verdict(report, of_all.low, of_all.high),
        ]);
        pts.push(Point::new(f64::from(m), share.value, share.low, share.high));
    }
    pts
}
