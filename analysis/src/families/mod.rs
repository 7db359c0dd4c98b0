//! A section per puzzle family other than Martello: the solved ratio with its 95%
//! interval per (experiment, parameter point, configuration), the search cost, a chart of
//! the solved ratio against the family's size where an experiment has several sizes
//! (Martello's figure 8 for any family), and, for experiments with few instances, every
//! instance with the family's own columns (peg's one-peg finishes, Mancala's proved
//! maximum and upper bound).
//!
//! It reads whole rows with `hammer_dataset::read_part`, since the family columns vary by
//! family; such experiments are small next to Martello's millions of games.
//!
//! A family whose questions need more than this generic section adds its own module
//! here and one line to [`EXTRAS`] (slide tours: `tours.rs`).

mod tours;

use std::collections::BTreeMap;
use std::path::PathBuf;

use hammer_dataset::{Cell as DataCell, ResultRow};

use crate::error::Result;
use crate::report::{Cell, Chart, Figure, Point, Scale, Series, SeriesKind, Table};
use crate::stats::{quantile, wilson};

/// Experiments with at most this many rows get a table of every instance.
pub const INSTANCE_TABLE_ROWS: usize = 500;

/// The rows of the non-Martello parts, grouped by family.
pub fn load(parts: &[PathBuf]) -> Result<BTreeMap<String, Vec<ResultRow>>> {
    let mut by_family: BTreeMap<String, Vec<ResultRow>> = BTreeMap::new();
    for part in parts {
        for row in hammer_dataset::read_part(part)? {
            by_family.entry(row.puzzle.clone()).or_default().push(row);
        }
    }
    for rows in by_family.values_mut() {
        rows.sort_by_key(ResultRow::key);
        rows.dedup_by(|a, b| a.key() == b.key());
    }
    Ok(by_family)
}

/// One figure per family present.
pub fn figures(by_family: &BTreeMap<String, Vec<ResultRow>>) -> Vec<Figure> {
    by_family
        .iter()
        .map(|(family, rows)| figure(family, rows))
        .collect()
}

type Group<'a> = (&'a str, &'a str, &'a str);

/// A family's own analysis: adds tables, charts and notes to the family's figure.
type Extra = fn(&[ResultRow], &mut Figure);

/// The families with analysis of their own, beyond the generic section.
const EXTRAS: &[(&str, Extra)] = &[("tours", tours::extend)];

/// The index of a family's column `name` in a row's `extra` cells.
pub(crate) fn column(family: &str, name: &str) -> Option<usize> {
    hammer_family::by_name(family)
        .ok()?
        .columns()
        .iter()
        .position(|c| c.name == name)
}

fn figure(family: &str, rows: &[ResultRow]) -> Figure {
    let mut fig = Figure::new(
        &format!("family-{family}"),
        &format!("Puzzle family: {family}"),
        &format!(
            "Every {family} row, grouped by experiment, parameter point and configuration. \
             `solved` counts rows whose score reached the family's goal (docs/{family}.md); \
             intervals are Wilson 95% intervals over the games of the group. `exact` counts \
             rows whose score is proven (`exhaustive`)."
        ),
        "",
    );
    let mut groups: BTreeMap<Group<'_>, Vec<&ResultRow>> = BTreeMap::new();
    for row in rows {
        groups
            .entry((&row.experiment, &row.params, &row.config))
            .or_default()
            .push(row);
    }
    fig.tables.push(summary(family, &groups));
    if let Some(chart) = solved_by_size(family, rows) {
        fig.charts.push(chart);
    }
    if let Some(table) = instances(family, rows) {
        fig.tables.push(table);
    }
    for (name, extra) in EXTRAS {
        if *name == family {
            extra(rows, &mut fig);
        }
    }
    fig
}

fn summary(family: &str, groups: &BTreeMap<Group<'_>, Vec<&ResultRow>>) -> Table {
    let mut t = Table::new(
        &format!("{family}_summary"),
        &format!("{family}: solved ratio and search cost"),
        &[
            "experiment",
            "params",
            "config",
            "games",
            "solved",
            "solved_ratio",
            "ci_low",
            "ci_high",
            "exact",
            "min_score",
            "max_score",
            "mean_expansions",
            "median_expansions",
        ],
    );
    // Points in the order of their other parameters, then by size (pegs=4 before
    // pegs=10), not as text.
    let mut ordered: Vec<_> = groups.iter().collect();
    ordered.sort_by_cached_key(|((experiment, params, config), rows)| {
        let n = rows.first().map_or(0, |r| r.n);
        (
            *experiment,
            without_size(family, params),
            n,
            *params,
            *config,
        )
    });
    for ((experiment, params, config), rows) in ordered {
        let games = rows.len() as u64;
        let solved = rows.iter().filter(|r| r.solvable).count() as u64;
        let exact = rows.iter().filter(|r| r.exhaustive).count() as i64;
        let p = wilson(solved, games);
        let mut cost: Vec<f64> = rows.iter().map(|r| r.expansions as f64).collect();
        cost.sort_by(f64::total_cmp);
        let mean = cost.iter().sum::<f64>() / cost.len().max(1) as f64;
        t.push(vec![
            Cell::text(*experiment),
            Cell::text(*params),
            Cell::text(*config),
            Cell::Int(games as i64),
            Cell::Int(solved as i64),
            Cell::num(p.value, 4),
            Cell::num(p.low, 4),
            Cell::num(p.high, 4),
            Cell::Int(exact),
            Cell::opt(rows.iter().map(|r| f64::from(r.score)).reduce(f64::min), 0),
            Cell::opt(rows.iter().map(|r| f64::from(r.score)).reduce(f64::max), 0),
            Cell::num(mean, 1),
            Cell::num(quantile(&cost, 0.5), 1),
        ]);
    }
    t
}

/// A parameter point's text without the family's size parameter
/// ([`hammer_family::Family::size_param`]): `board=english` for `board=english;pegs=20`.
fn without_size(family: &str, params: &str) -> String {
    let size = hammer_family::by_name(family)
        .ok()
        .and_then(|f| f.size_param());
    params
        .split(';')
        .filter(|pair| size.is_none_or(|key| pair.split('=').next() != Some(key)))
        .collect::<Vec<_>>()
        .join(";")
}

/// The solved ratio against the family's size (the `n` column), one series per
/// (experiment, configuration, other parameters) that has at least two sizes.
fn solved_by_size(family: &str, rows: &[ResultRow]) -> Option<Chart> {
    /// (solved, games) per size.
    type Sizes = BTreeMap<i32, (u64, u64)>;
    let mut by_series: BTreeMap<(&str, String, &str), Sizes> = BTreeMap::new();
    for row in rows {
        let at = by_series
            .entry((
                &row.experiment,
                without_size(family, &row.params),
                &row.config,
            ))
            .or_default()
            .entry(row.n)
            .or_default();
        at.0 += u64::from(row.solvable);
        at.1 += 1;
    }
    let configs: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r.config.as_str()).collect();
    let series: Vec<Series> = by_series
        .into_iter()
        .filter(|(_, sizes)| sizes.len() >= 2)
        .map(|((experiment, others, config), sizes)| Series {
            name: [
                experiment,
                others.as_str(),
                if configs.len() > 1 { config } else { "" },
            ]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" "),
            kind: SeriesKind::Line,
            points: sizes
                .into_iter()
                .map(|(n, (solved, games))| {
                    let p = wilson(solved, games);
                    Point::new(f64::from(n), p.value, p.low, p.high)
                })
                .collect(),
        })
        .collect();
    (!series.is_empty()).then(|| Chart {
        name: format!("{family}_solved_by_size"),
        title: format!("{family}: solved ratio by size, 95% intervals"),
        x_label: "size (the n column)".to_owned(),
        y_label: "solved ratio".to_owned(),
        x_scale: Scale::Linear,
        y_scale: Scale::Linear,
        categories: None,
        series,
    })
}

/// Every instance with the family's own columns, when there are few enough to read.
fn instances(family: &str, rows: &[ResultRow]) -> Option<Table> {
    if rows.is_empty() || rows.len() > INSTANCE_TABLE_ROWS {
        return None;
    }
    let extra_names: Vec<&str> = hammer_family::by_name(family)
        .map(|f| f.columns().iter().map(|c| c.name).collect())
        .unwrap_or_default();
    let mut columns = vec![
        "experiment",
        "params",
        "config",
        "game_index",
        "board",
        "score",
        "lower_bound",
        "exhaustive",
        "expansions",
    ];
    columns.extend(&extra_names);
    let mut t = Table::new(
        &format!("{family}_instances"),
        &format!("{family}: every instance"),
        &columns,
    );
    for row in rows {
        let mut cells = vec![
            Cell::text(&row.experiment),
            Cell::text(&row.params),
            Cell::text(&row.config),
            Cell::Int(row.game_index),
            Cell::text(&row.board),
            Cell::Int(i64::from(row.score)),
            Cell::Int(i64::from(row.lower_bound)),
            Cell::text(if row.exhaustive { "yes" } else { "no" }),
            Cell::Int(row.expansions),
        ];
        for i in 0..extra_names.len() {
            cells.push(match row.extra.get(i) {
                Some(DataCell::Int(v)) => Cell::Int(*v),
                Some(DataCell::Text(v)) => Cell::text(v),
                Some(DataCell::Bool(v)) => Cell::text(v.to_string()),
                Some(DataCell::Null) | None => Cell::Empty,
            });
        }
        t.push(cells);
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::without_size;

    #[test]
    fn a_point_without_its_size_names_the_line() {
        assert_eq!(
            without_size("peg", "board=english;pegs=20"),
            "board=english"
        );
        assert_eq!(
            without_size("mancala", "h=4;s=4;picks=all"),
            "s=4;picks=all"
        );
        assert_eq!(without_size("martello", "n=6"), "");
        // An unknown family keeps the whole point.
        assert_eq!(without_size("nope", "a=1;b=2"), "a=1;b=2");
    }
}
