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
//! A family whose questions need more than this generic section says so through
//! [`hammer_family::Family::report_extras`], which also tells where its rows keep what the
//! section reads, and the section is a module here (slide tours: `tours.rs`).

mod tours;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

use hammer_dataset::{Cell as DataCell, ResultRow};
use hammer_family::ReportExtras;

use crate::error::Result;
use crate::report::{Cell, Chart, Figure, Point, Scale, Series, SeriesKind, Table};
use crate::runs::IndexRuns;
use hammer_stats::{quantile_of_counts, wilson};

/// Experiments with at most this many rows get a table of every instance.
pub const INSTANCE_TABLE_ROWS: usize = 500;

/// The rows of one (experiment, parameter point, configuration): what the summary table
/// says of them.
#[derive(Debug, Default)]
struct GroupAcc {
    /// The size of the group's first row (every row of a point has the same).
    n: i32,
    games: u64,
    solved: u64,
    exact: u64,
    min_score: Option<f64>,
    max_score: Option<f64>,
    /// Expansions -> rows, for the exact mean (summed in sorted order, as over a sorted
    /// vector) and median.
    cost: BTreeMap<i64, u64>,
}

/// Size -> (solved, games) of one line of the solved-by-size chart.
type Sizes = BTreeMap<i32, (u64, u64)>;

/// A family's section, fed part by part: a few numbers per group, the rows of the
/// instance table while there are few enough, and the rows of a family with its own
/// analysis ([`EXTRAS`]), which reads whole rows.
#[derive(Debug, Default)]
pub struct FamilyAcc {
    /// Game indices seen per (sweep, experiment, config, params): a repeated key is a
    /// copied part, and only its first row counts.
    seen: HashMap<(String, String, String, String), IndexRuns>,
    groups: BTreeMap<(String, String, String), GroupAcc>,
    /// The rows while there are at most [`INSTANCE_TABLE_ROWS`] (one more marks "too many").
    instances: Vec<ResultRow>,
    /// Every row, for a family in [`EXTRAS`].
    rows: Vec<ResultRow>,
    /// Rows after deduplication.
    pub count: u64,
    /// Game indices per (sweep, experiment, params), for the report's header.
    games: HashMap<(String, String, String), IndexRuns>,
    pub sweeps: BTreeSet<String>,
    pub experiments: BTreeSet<String>,
}

impl FamilyAcc {
    /// Distinct (sweep, experiment, params, game index).
    pub fn games(&self) -> u64 {
        self.games.values().map(IndexRuns::len).sum()
    }

    fn add(&mut self, family: &str, row: ResultRow) {
        let key = (
            row.sweep.clone(),
            row.experiment.clone(),
            row.config.clone(),
            row.params.clone(),
        );
        if !self.seen.entry(key).or_default().insert(row.game_index) {
            return;
        }
        self.count += 1;
        let group = self
            .groups
            .entry((
                row.experiment.clone(),
                row.params.clone(),
                row.config.clone(),
            ))
            .or_insert_with(|| GroupAcc {
                n: row.n,
                ..GroupAcc::default()
            });
        group.games += 1;
        group.solved += u64::from(row.solvable);
        group.exact += u64::from(row.exhaustive);
        let score = f64::from(row.score);
        group.min_score = Some(group.min_score.map_or(score, |m| m.min(score)));
        group.max_score = Some(group.max_score.map_or(score, |m| m.max(score)));
        *group.cost.entry(row.expansions).or_default() += 1;
        self.games
            .entry((
                row.sweep.clone(),
                row.experiment.clone(),
                row.params.clone(),
            ))
            .or_default()
            .insert(row.game_index);
        self.sweeps.insert(row.sweep.clone());
        self.experiments.insert(row.experiment.clone());
        if self.instances.len() <= INSTANCE_TABLE_ROWS {
            self.instances.push(row.clone());
        }
        if keeps_rows(family) {
            self.rows.push(row);
        }
    }
}

/// Whether a family's section holds its whole rows (it has its own analysis).
pub fn keeps_rows(family: &str) -> bool {
    extras(family).is_some()
}

/// The family's own section, if it has one.
fn extras(family: &str) -> Option<ReportExtras> {
    hammer_family::by_name(family).ok()?.report_extras()
}

/// The non-Martello parts, read one at a time into an accumulator per family: no row is
/// kept past its part except those [`FamilyAcc`] says.
pub fn read(parts: &[PathBuf]) -> Result<BTreeMap<String, FamilyAcc>> {
    let mut by_family: BTreeMap<String, FamilyAcc> = BTreeMap::new();
    for part in parts {
        for row in hammer_dataset::read_part(part)? {
            let family = row.puzzle.clone();
            by_family
                .entry(family.clone())
                .or_default()
                .add(&family, row);
        }
    }
    for acc in by_family.values_mut() {
        // The instance table and the families' own analyses list rows in key order.
        acc.instances.sort_by_key(ResultRow::key);
        acc.rows.sort_by_key(ResultRow::key);
    }
    Ok(by_family)
}

/// One figure per family present.
pub fn figures(by_family: &BTreeMap<String, FamilyAcc>) -> Vec<Figure> {
    by_family
        .iter()
        .map(|(family, acc)| figure(family, acc))
        .collect()
}

fn figure(family: &str, acc: &FamilyAcc) -> Figure {
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
    fig.tables.push(summary(family, &acc.groups));
    if let Some(chart) = solved_by_size(family, acc) {
        fig.charts.push(chart);
    }
    if let Some(table) = instances(family, &acc.instances) {
        fig.tables.push(table);
    }
    if let Some(ReportExtras::Tours(cols)) = extras(family) {
        tours::extend(&acc.rows, &cols, &mut fig);
    }
    fig
}

fn summary(family: &str, groups: &BTreeMap<(String, String, String), GroupAcc>) -> Table {
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
    ordered.sort_by_cached_key(|((experiment, params, config), g)| {
        (
            experiment.clone(),
            without_size(family, params),
            g.n,
            params.clone(),
            config.clone(),
        )
    });
    for ((experiment, params, config), g) in ordered {
        let p = wilson(g.solved, g.games);
        let mut sum = 0.0;
        for (&value, &count) in &g.cost {
            for _ in 0..count {
                sum += value as f64;
            }
        }
        let mean = sum / g.games.max(1) as f64;
        let counts: Vec<(i64, u64)> = g.cost.iter().map(|(&v, &c)| (v, c)).collect();
        t.push(vec![
            Cell::text(experiment),
            Cell::text(params),
            Cell::text(config),
            Cell::Int(g.games as i64),
            Cell::Int(g.solved as i64),
            Cell::num(p.value, 4),
            Cell::num(p.low, 4),
            Cell::num(p.high, 4),
            Cell::Int(g.exact as i64),
            Cell::opt(g.min_score, 0),
            Cell::opt(g.max_score, 0),
            Cell::num(mean, 1),
            Cell::num(quantile_of_counts(&counts, 0.5), 1),
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
/// (experiment, configuration, other parameters) that has at least two sizes. Summed
/// from the groups: every row of a parameter point has the point's size.
fn solved_by_size(family: &str, acc: &FamilyAcc) -> Option<Chart> {
    // (experiment, point without its size, config) -> size -> (solved, games).
    let mut by_size: BTreeMap<(&str, String, &str), Sizes> = BTreeMap::new();
    for ((experiment, params, config), g) in &acc.groups {
        let at = by_size
            .entry((experiment, without_size(family, params), config))
            .or_default()
            .entry(g.n)
            .or_default();
        at.0 += g.solved;
        at.1 += g.games;
    }
    let configs: BTreeSet<&str> = acc.groups.keys().map(|(_, _, c)| c.as_str()).collect();
    let series: Vec<Series> = by_size
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
