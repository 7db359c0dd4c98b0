//! Figure 13: mean expansions by move order.

use std::collections::{BTreeMap, BTreeSet};

use crate::load::Row;
use crate::paper;
use crate::prepare::{GameKey, Prepared};
use crate::report::{Cell, Figure, Point, Scale, SeriesKind, Table};
use rayon::prelude::*;

use hammer_solver::OrderKind;
use hammer_stats::{Mean, Ratio, mean_t, paired_ratio};

use super::*;

/// (n, order) -> game -> the expansions of each of its runs, in trial order, over the
/// `rows` that `keep` wants. Runs are told apart by trial (it picks the run seed); the
/// same configuration in two experiments is one run, the first row read.
pub(super) fn runs_of(
    p: &Prepared,
    rows: &[Row],
    keep: impl Fn(&Row) -> bool,
) -> BTreeMap<(i32, String), BTreeMap<GameKey, Vec<f64>>> {
    let mut trials: BTreeMap<(i32, String), BTreeMap<GameKey, BTreeMap<i32, f64>>> =
        BTreeMap::new();
    for r in rows.iter().filter(|r| keep(r)) {
        trials
            .entry((r.n, p.name(r.order).to_owned()))
            .or_default()
            .entry(GameKey::of(r))
            .or_default()
            .entry(r.trial)
            .or_insert(r.expansions as f64);
    }
    trials
        .into_iter()
        .map(|(k, games)| {
            let games = games
                .into_iter()
                .map(|(g, t)| (g, t.into_values().collect()))
                .collect();
            (k, games)
        })
        .collect()
}

/// The exact, solvable, prefix-0 rows Figure 13 compares.
fn wanted(r: &Row, exact: u32) -> bool {
    r.schedule == exact && r.prefix == 0 && r.budget == 0 && r.exhaustive && r.solvable
}

/// One (n, order) of Figure 13, over the games every order of its n solved: a value per
/// game (the bootstrap resamples games, so it needs them), in game order.
#[derive(Debug, Clone)]
struct Line {
    /// Games this order solved, common or not.
    games: u64,
    /// Per common game: the mean and the minimum over its runs.
    means: Vec<f64>,
    mins: Vec<f64>,
    min_runs: usize,
    max_runs: usize,
}

impl Default for Line {
    fn default() -> Line {
        Line {
            games: 0,
            means: Vec::new(),
            mins: Vec::new(),
            min_runs: usize::MAX,
            max_runs: 0,
        }
    }
}

/// Figure 13's per-game values, fed window by window of games (`crate::paired`).
#[derive(Debug, Default)]
pub struct Fig13Acc {
    /// n -> the names of its orders, for the sizes with two orders or more.
    orders: BTreeMap<i32, Vec<String>>,
    lines: BTreeMap<(i32, String), Line>,
    /// n -> games every order solved.
    common: BTreeMap<i32, u64>,
}

impl Fig13Acc {
    /// `orders`: n -> the ids of the orders with rows Figure 13 wants (the first pass's
    /// finding); only sizes with two orders or more are compared.
    pub fn new(p: &Prepared, orders: &BTreeMap<i32, BTreeSet<u32>>) -> Fig13Acc {
        let orders = orders
            .iter()
            .filter(|(_, o)| o.len() >= 2)
            .map(|(&n, o)| {
                let names: BTreeSet<String> = o.iter().map(|&id| p.name(id).to_owned()).collect();
                (n, names.into_iter().collect())
            })
            .collect();
        Fig13Acc {
            orders,
            ..Fig13Acc::default()
        }
    }

    /// The rows of one window of games.
    pub fn add(&mut self, p: &Prepared, rows: &[Row]) {
        let Some(exact) = p.ids.exact else {
            return;
        };
        if self.orders.is_empty() {
            return;
        }
        let runs = runs_of(p, rows, |r| {
            wanted(r, exact) && self.orders.contains_key(&r.n)
        });
        for (&n, orders) in &self.orders {
            let of: Vec<Option<&BTreeMap<GameKey, Vec<f64>>>> =
                orders.iter().map(|o| runs.get(&(n, o.clone()))).collect();
            for (order, games) in orders.iter().zip(&of) {
                let line = self.lines.entry((n, order.clone())).or_default();
                line.games += games.map_or(0, |g| g.len() as u64);
            }
            let Some(Some(first)) = of.first() else {
                continue;
            };
            for key in first.keys() {
                let per_game: Option<Vec<&Vec<f64>>> =
                    of.iter().map(|g| g.and_then(|g| g.get(key))).collect();
                let Some(per_game) = per_game else {
                    continue;
                };
                *self.common.entry(n).or_default() += 1;
                for (order, v) in orders.iter().zip(per_game) {
                    let line = self.lines.entry((n, order.clone())).or_default();
                    line.means
                        .push(v.iter().sum::<f64>() / v.len().max(1) as f64);
                    line.mins
                        .push(v.iter().copied().fold(f64::INFINITY, f64::min));
                    line.min_runs = line.min_runs.min(v.len());
                    line.max_runs = line.max_runs.max(v.len());
                }
            }
        }
    }
}

/// Whether a line of Figure 13 is the standard order's: its label is the order's name
/// alone when the order ran once per game.
fn is_standard(label: &str) -> bool {
    OrderKind::of_name(label) == Some(OrderKind::Standard)
}

/// Figure 13: mean expansions by move order on solvable games.
pub fn fig13(p: &Prepared, acc: &Fig13Acc) -> Figure {
    let mut fig = Figure::new(
        "fig13",
        "Figure 13: mean expansions by move order (solvable games)",
        "Exhaustive rows with schedule exact, prefix 0, budget 0 and a solvable result, \
         compared on the games that every order present solved; random is summarised per \
         game by the mean and by the minimum over its trials.",
        EXAMPLE_ORDERS,
    );
    if p.ids.exact.is_none() {
        return fig.missing("the dataset has no rows with schedule exact");
    }
    let sizes: BTreeSet<i32> = acc.orders.keys().copied().collect();
    if sizes.is_empty() {
        return fig.missing(
            "the dataset has exact prefix-0 results of at most one move order per board size; \
             the figure compares standard, most-options, monte-carlo and random",
        );
    }
    let (mut t, mut spread) = fig13_tables();
    let mut labels: Vec<String> = Vec::new();
    let mut chart_points: BTreeMap<i32, Vec<(String, Mean)>> = BTreeMap::new();
    for &n in &sizes {
        let lines = order_lines(acc, n, &mut spread, &mut fig.notes);
        let standard = lines
            .iter()
            .find(|(l, _, _)| is_standard(l))
            .map(|(_, v, _)| v.clone());
        // Each ratio's bootstrap has its own seeded stream, so they run in parallel with
        // the same results.
        let ratios: Vec<Option<Ratio>> = lines
            .par_iter()
            .map(|(label, values, _)| {
                standard
                    .as_ref()
                    .map(|s| paired_ratio(values, s, &format!("fig13 n={n} {label}")))
            })
            .collect();
        for ((label, values, runs_text), ratio) in lines.iter().zip(ratios) {
            let m = mean_t(values);
            let report = (n == 6 && is_standard(label)).then_some(paper::FIG13_STANDARD_MEAN);
            let [v, lo, hi] = mean_cells(&m);
            t.push(vec![
                Cell::Int(i64::from(n)),
                Cell::text(label.clone()),
                Cell::Int(m.count as i64),
                Cell::text(runs_text.clone()),
                v,
                lo,
                hi,
                Cell::opt(ratio.map(|r| r.value), 3),
                Cell::opt(ratio.map(|r| r.low), 3),
                Cell::opt(ratio.map(|r| r.high), 3),
                Cell::opt(report, 0),
                verdict(report, m.low, m.high),
            ]);
            if !labels.contains(label) {
                labels.push(label.clone());
            }
            chart_points.entry(n).or_default().push((label.clone(), m));
        }
    }
    if t.rows.is_empty() {
        return fig.missing(
            "no game was solved exactly by two or more move orders; the orders must run on the \
             same games",
        );
    }
    fig.notes.push(
        "The report's standard order averaged about 219,000 expansions on 5,200 solvable 6x6 \
         games; our solver prunes with a lower bound, so its counts are not expected to match. \
         The report found no heuristic better than the standard order and most-options clearly \
         worse; compare the ratio column."
            .to_owned(),
    );
    fig.tables.push(t);
    if !spread.rows.is_empty() {
        fig.tables.push(spread);
    }
    fig.charts.push(fig13_chart(&chart_points, labels));
    fig
}

/// Figure 13's two tables, empty: the orders' means and the random order's spread.
fn fig13_tables() -> (Table, Table) {
    let t = Table::new(
        "fig13_move_orders",
        "Mean expansions by move order on the same solvable games (95% t interval; ratio to \
         standard with a paired bootstrap interval)",
        &[
            "n",
            "order",
            "games",
            "runs_per_game",
            "mean_expansions",
            "ci_low",
            "ci_high",
            "ratio_to_standard",
            "ratio_ci_low",
            "ratio_ci_high",
            "report_mean",
            "report_within_ci",
        ],
    );
    let spread = Table::new(
        "fig13_random_spread",
        "Random order: mean over its trials against the minimum over its trials, per game \
         (paired bootstrap interval of the ratio of the two means)",
        &[
            "n",
            "games",
            "runs_per_game",
            "mean_of_means",
            "mean_of_minimums",
            "ratio",
            "ci_low",
            "ci_high",
            "report_ratio",
            "report_within_ci",
        ],
    );
    (t, spread)
}

/// The lines of size `n`: each order's per-game values on the games every order solved
/// (an order with several runs a game as two lines, the mean and the minimum of its runs,
/// whose ratio goes to `spread`), with the runs per game as text. Empty when no game is
/// common to every order.
fn order_lines(
    acc: &Fig13Acc,
    n: i32,
    spread: &mut Table,
    notes: &mut Vec<String>,
) -> Vec<(String, Vec<f64>, String)> {
    let orders: Vec<(&String, &Line)> = acc
        .lines
        .range((n, String::new())..)
        .take_while(|((m, _), _)| *m == n)
        .map(|((_, o), line)| (o, line))
        .collect();
    let common = acc.common.get(&n).copied().unwrap_or(0);
    let most = orders.iter().map(|(_, l)| l.games).max().unwrap_or(0);
    if common < most {
        notes.push(format!(
            "n={n}: compared on the {common} games every order solved (the largest order set \
             has {most})."
        ));
    }
    let mut lines: Vec<(String, Vec<f64>, String)> = Vec::new();
    if common == 0 {
        return lines;
    }
    for (order, line) in &orders {
        let (min_runs, max_runs) = (line.min_runs, line.max_runs);
        let runs_text = if min_runs == max_runs {
            min_runs.to_string()
        } else {
            format!("{min_runs}-{max_runs}")
        };
        let means = line.means.clone();
        if max_runs == 1 {
            lines.push(((*order).clone(), means, runs_text));
            continue;
        }
        let mins = line.mins.clone();
        lines.push((
            format!("{order} (mean of runs)"),
            means.clone(),
            runs_text.clone(),
        ));
        lines.push((
            format!("{order} (min of runs)"),
            mins.clone(),
            runs_text.clone(),
        ));
        let ratio = paired_ratio(&means, &mins, &format!("fig13 spread n={n} {order}"));
        let report = (OrderKind::of_name(order) == Some(OrderKind::Random))
            .then_some(paper::FIG13_RANDOM_MEAN_OVER_MIN);
        spread.push(vec![
            Cell::Int(i64::from(n)),
            Cell::Int(common as i64),
            Cell::text(runs_text.clone()),
            Cell::num(mean_t(&means).value, 1),
            Cell::num(mean_t(&mins).value, 1),
            Cell::num(ratio.value, 3),
            Cell::num(ratio.low, 3),
            Cell::num(ratio.high, 3),
            Cell::opt(report, 1),
            verdict(report, ratio.low, ratio.high),
        ]);
        if let Some(r) = report {
            notes.push(format!(
                "n={n}: the random order's mean over {runs_text} runs is {:.2} times its \
                 minimum (95% CI {:.2} to {:.2}); the report found {r} with 10 runs on \
                 6x6: {}.",
                ratio.value,
                ratio.low,
                ratio.high,
                verdict_word(r, ratio.low, ratio.high)
            ));
        }
    }
    lines
}

/// Figure 13's chart: one series of points per size, one category per order line.
fn fig13_chart(points: &BTreeMap<i32, Vec<(String, Mean)>>, labels: Vec<String>) -> Chart {
    let mut c = chart(
        "fig13_move_orders",
        "Mean expansions by move order (solvable games)",
        "move order",
        "mean expansions",
        Scale::Linear,
        Scale::Log,
    );
    for (n, items) in points {
        let pts = items
            .iter()
            .filter(|(_, m)| m.value > 0.0)
            .filter_map(|(label, m)| {
                let x = labels.iter().position(|l| l == label)? as f64;
                Some(Point::new(x, m.value, m.low, m.high))
            })
            .collect();
        c.series
            .push(series(format!("n={n}"), SeriesKind::Points, pts));
    }
    c.categories = Some(labels);
    c
}
