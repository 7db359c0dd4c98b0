//! The meta-solver (`paper` schedule) against plain exact search.

use std::collections::BTreeMap;

use crate::load::Row;
use crate::paper;
use crate::prepare::Prepared;
use crate::report::{Cell, Figure, Point, Scale, SeriesKind, Table};
use hammer_stats::{mean_t, paired_ratio};

use super::orders::runs_of;
use super::*;

/// The meta-solver's per-game values, fed window by window of games (`crate::paired`):
/// per (n, order), the mean of a game's paper-schedule trials and its exact standard-order
/// expansions, in game order (the bootstrap resamples games).
#[derive(Debug, Default)]
pub struct MetaAcc {
    runs: BTreeMap<(i32, String), (Vec<f64>, Vec<f64>)>,
    /// Games with paper rows but no exact standard-order row.
    unpaired: usize,
}

impl MetaAcc {
    /// The rows of one window of games.
    pub fn add(&mut self, p: &Prepared, rows: &[Row]) {
        let Some(paper_id) = p.ids.paper else {
            return;
        };
        let runs = runs_of(p, rows, |r| {
            r.schedule == paper_id && r.prefix == 0 && r.budget == 0
        });
        for (group, games) in runs {
            for (key, v) in games {
                match p.exact(&key) {
                    Some((exp, _)) => {
                        let (meta_v, exact_v) = self.runs.entry(group.clone()).or_default();
                        meta_v.push(v.iter().sum::<f64>() / v.len().max(1) as f64);
                        exact_v.push(exp as f64);
                    }
                    None => self.unpaired += 1,
                }
            }
        }
    }
}

/// The meta-solver (`paper` schedule) against the exact standard-order search.
pub fn meta(p: &Prepared, acc: &MetaAcc) -> Figure {
    let mut fig = Figure::new(
        "meta",
        "Meta-solver: the paper schedule against plain exact search",
        "Rows with schedule paper, prefix 0, budget 0 (averaged over trials per game), paired \
         game by game with the exact standard-order rows of Figure 11; all games, solvable or \
         not, as in the report.",
        EXAMPLE_META,
    );
    if p.ids.paper.is_none() {
        return fig.missing("the dataset has no rows with schedule paper");
    }
    let unpaired = acc.unpaired;
    let mut t = meta_table();
    let mut labels = Vec::new();
    let mut exact_pts = Vec::new();
    let mut paper_pts = Vec::new();
    for ((n, order), (meta_v, exact_v)) in &acc.runs {
        if meta_v.is_empty() {
            continue;
        }
        let mm = mean_t(meta_v);
        let me = mean_t(exact_v);
        let ratio = paired_ratio(meta_v, exact_v, &format!("meta n={n} {order}"));
        let (red, red_lo, red_hi) = (1.0 - ratio.value, 1.0 - ratio.high, 1.0 - ratio.low);
        let report = (*n == 6).then_some(paper::META_REDUCTION);
        let [a, b, c] = mean_cells(&mm);
        let [d, e, f] = mean_cells(&me);
        t.push(vec![
            Cell::Int(i64::from(*n)),
            Cell::text(order.clone()),
            Cell::Int(mm.count as i64),
            a,
            b,
            c,
            d,
            e,
            f,
            Cell::num(red, 4),
            Cell::num(red_lo, 4),
            Cell::num(red_hi, 4),
            Cell::opt(report, 2),
            verdict(report, red_lo, red_hi),
            Cell::opt((*n == 6).then_some(paper::META_MEAN), 0),
        ]);
        fig.notes.push(format!(
            "n={n}, order {order}: the paper schedule needs {:.1}% {} expansions than exact \
             standard search, {:.0} against {:.0} per game (reduction {:.1}%, 95% CI {:.1}% to \
             {:.1}%, {} games){}",
            100.0 * red.abs(),
            if red >= 0.0 { "fewer" } else { "more" },
            mm.value,
            me.value,
            100.0 * red,
            100.0 * red_lo,
            100.0 * red_hi,
            mm.count,
            match report {
                Some(r) => format!(
                    "; the report found a 29% reduction (144,000 per game): {}.",
                    verdict_word(r, red_lo, red_hi)
                ),
                None => ".".to_owned(),
            }
        ));
        let x = labels.len() as f64;
        labels.push(format!("n={n} {order}"));
        exact_pts.push(Point::new(x, me.value, me.low, me.high));
        paper_pts.push(Point::new(x, mm.value, mm.low, mm.high));
    }
    if t.rows.is_empty() {
        return fig.missing(
            "the paper-schedule rows have no exact standard-order result of the same games to \
             compare with; the example sweep runs both on every game",
        );
    }
    if unpaired > 0 {
        fig.notes.push(format!(
            "{unpaired} game(s) with paper rows but no exact standard-order row are left out."
        ));
    }
    let mut c = chart(
        "meta_solver",
        "Meta-solver (paper schedule) vs exact standard search",
        "board size and order of the budgeted attempts",
        "mean expansions per game",
        Scale::Linear,
        Scale::Linear,
    );
    c.categories = Some(labels);
    c.series.push(series(
        "exact, standard order",
        SeriesKind::Points,
        exact_pts,
    ));
    c.series
        .push(series("paper schedule", SeriesKind::Points, paper_pts));
    fig.tables.push(t);
    fig.charts.push(c);
    fig
}

/// The table's header: per size and order, both means with their intervals, the
/// reduction with its paired interval, and the report's figures beside them.
fn meta_table() -> Table {
    Table::new(
        "meta_solver",
        "Mean expansions per game: paper schedule vs exact standard order on the same games \
         (95% t intervals; reduction with a paired bootstrap interval)",
        &[
            "n",
            "order",
            "games",
            "mean_paper",
            "paper_ci_low",
            "paper_ci_high",
            "mean_exact",
            "exact_ci_low",
            "exact_ci_high",
            "reduction",
            "reduction_ci_low",
            "reduction_ci_high",
            "report_reduction",
            "report_within_ci",
            "report_mean_paper",
        ],
    )
}
