//! One function per figure of the report, a file per group of figures. Each returns a
//! [`Figure`] with its tables and charts, or a figure marked missing that names the
//! example sweep producing its rows. The helpers here (verdicts, cells, charts) are shared
//! by every figure file, `budgets.rs` included.

mod budgets;
mod costs;
mod learned;
mod meta;
mod orders;
mod prefix;
mod solvability;

pub use budgets::{BudgetAcc, figures as fig14_16};
pub use costs::{fig11, fig12};
pub use learned::{learned_curve, learned_radius};
pub use meta::{MetaAcc, meta};
pub use orders::{Fig13Acc, fig13};
pub use prefix::{Fig07Acc, fig07};
pub use solvability::{fig05, fig08};

use std::collections::{BTreeMap, BTreeSet};

use crate::prepare::Prepared;
use crate::report::{Cell, Chart, Figure, Point, Scale, Series, SeriesKind, Table};
use crate::stream::OverviewGroup;
use hammer_stats::{Mean, Proportion, within};

pub const EXAMPLE_SOLVABILITY: &str = "examples/fig05_fig08_solvability.toml";
pub const EXAMPLE_PREFIX: &str = "examples/fig07_random_prefix.toml";
pub const EXAMPLE_ORDERS: &str = "examples/fig13_move_orders.toml";
pub const EXAMPLE_BUDGETS: &str = "examples/fig14_16_budgets.toml";
pub const EXAMPLE_META: &str = "examples/meta_solver.toml";

/// The verdict column: whether the published value lies in our 95% interval.
fn verdict(report: Option<f64>, low: f64, high: f64) -> Cell {
    match report {
        None => Cell::Empty,
        Some(v) => match within(v, low, high) {
            Some(true) => Cell::text("yes"),
            Some(false) => Cell::text("no"),
            None => Cell::text("no interval"),
        },
    }
}

fn verdict_word(report: f64, low: f64, high: f64) -> &'static str {
    match within(report, low, high) {
        Some(true) => "agrees (inside our 95% interval)",
        Some(false) => "differs (outside our 95% interval)",
        None => "cannot be compared (no interval)",
    }
}

fn prop_cells(p: &Proportion) -> [Cell; 3] {
    [
        Cell::num(p.value, 5),
        Cell::num(p.low, 5),
        Cell::num(p.high, 5),
    ]
}

fn mean_cells(m: &Mean) -> [Cell; 3] {
    [
        Cell::num(m.value, 1),
        Cell::num(m.low, 1),
        Cell::num(m.high, 1),
    ]
}

fn chart(name: &str, title: &str, x: &str, y: &str, xs: Scale, ys: Scale) -> Chart {
    Chart {
        name: name.to_owned(),
        title: title.to_owned(),
        x_label: x.to_owned(),
        y_label: y.to_owned(),
        x_scale: xs,
        y_scale: ys,
        categories: None,
        series: Vec::new(),
    }
}

fn series(name: impl Into<String>, kind: SeriesKind, points: Vec<Point>) -> Series {
    Series {
        name: name.into(),
        kind,
        points,
    }
}

fn count_text(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A table of the dataset's experiments, so the reader sees what the figures were made
/// from before looking at any figure.
pub fn overview(p: &Prepared) -> Figure {
    let mut fig = Figure::new(
        "dataset",
        "Dataset overview",
        "All rows, grouped by experiment and board size.",
        "",
    );
    // Sorted by experiment name, as the ids are in reading order.
    let groups: BTreeMap<(&str, i32), &OverviewGroup> = p
        .overview
        .iter()
        .map(|(&(experiment, n), acc)| ((p.name(experiment), n), acc))
        .collect();
    let join = |ids: &BTreeSet<u32>| {
        ids.iter()
            .map(|&i| p.name(i).to_owned())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let join_num = |v: Vec<String>| v.join(" ");
    let mut t = Table::new(
        "dataset_overview",
        "Rows per experiment and board size",
        &[
            "experiment",
            "n",
            "rows",
            "configs",
            "games",
            "exhaustive_rows",
            "orders",
            "schedules",
            "prefixes",
            "budgets",
            "trials",
        ],
    );
    for ((experiment, n), acc) in &groups {
        t.push(vec![
            Cell::text(*experiment),
            Cell::Int(i64::from(*n)),
            Cell::Int(acc.rows as i64),
            Cell::Int(acc.configs.set.len() as i64),
            Cell::Int(acc.games.len() as i64),
            Cell::Int(acc.exhaustive as i64),
            Cell::text(join(&acc.orders.set)),
            Cell::text(join(&acc.schedules.set)),
            Cell::text(join_num(
                acc.prefixes.set.iter().map(ToString::to_string).collect(),
            )),
            Cell::text(join_num(
                acc.budgets.set.iter().map(ToString::to_string).collect(),
            )),
            Cell::Int(acc.trials.set.len() as i64),
        ]);
    }
    fig.tables.push(t);
    fig
}
