//! Slide tours (`docs/tours.md`): what the science asks of a tours dataset.
//!
//! - Every single-obstacle board of one size (the seed's 5x5 table): solvable or not per
//!   obstacle cell, as a map, with the pattern by chessboard colour and how many of the
//!   unsolvable boards the bound proved before any search.
//! - Empty boards by size (the seed's figures 8 and 9): solvable, cost, and the number
//!   of tours and start cells where the sweep counted them.
//! - The solved ratio against the board side, one line per obstacle count, with Wilson
//!   95% intervals (like Martello's figure 8).
//! - Search cost against the board side, beside the seed's solver nodes.
//!
//! Rows are told apart by their columns (the obstacle count, `n`), never by experiment
//! names. The family says where a row keeps them and reads its own board notation
//! ([`TourRows`]).

use std::collections::BTreeMap;

use hammer_dataset::{Cell as DataCell, ResultRow};
use hammer_family::TourRows;

use crate::report::{Cell, Chart, Figure, Point, Scale, Series, SeriesKind, Table};
use hammer_stats::{quantile, wilson};

/// The seed's table of section 5 (Savile Row with Minion, one board per row): board
/// side, the board's name, solver nodes, solvable. Its boards are not all given in the
/// text, so the comparison is by side, mean against mean.
pub const SEED_NODES: &[(i32, &str, f64, bool)] = &[
    (2, "2x2 a", 3.0, true),
    (2, "2x2 b", 2.0, true),
    (2, "2x2 c", 0.0, false),
    (3, "3x3 a", 7.0, true),
    (3, "3x3 b", 4.0, true),
    (3, "3x3 c", 0.0, false),
    (4, "4x4 a", 181.0, true),
    (4, "4x4 b", 110.0, true),
    (4, "4x4 c", 754.0, false),
    (5, "5x5 a", 7416.0, true),
    (5, "5x5 b", 7600.0, false),
    (6, "6x6 a", 1952.0, true),
    (6, "6x6 b", 3606.0, true),
    (6, "6x6 c", 8873.0, true),
    (6, "6x6 d", 6623.0, true),
    (7, "7x7 a", 2081.0, true),
    (7, "7x7 b", 2047.0, true),
    (7, "7x7 c", 65564.0, true),
    (7, "7x7 d", 85078.0, true),
    (7, "7x7 e", 94249.0, true),
    (7, "7x7 f", 82855.0, true),
    (8, "8x8 a", 124082.0, true),
    (8, "8x8 b", 110716.0, true),
    (8, "8x8 c", 94065.0, true),
];

/// The seed's mean solver nodes per board side.
fn seed_mean(n: i32) -> Option<f64> {
    let nodes: Vec<f64> = SEED_NODES
        .iter()
        .filter(|s| s.0 == n)
        .map(|s| s.2)
        .collect();
    (!nodes.is_empty()).then(|| nodes.iter().sum::<f64>() / nodes.len() as f64)
}

fn int(row: &ResultRow, at: usize) -> Option<i64> {
    match row.extra.get(at) {
        Some(DataCell::Int(v)) => Some(*v),
        _ => None,
    }
}

fn text(row: &ResultRow, at: usize) -> Option<&str> {
    match row.extra.get(at) {
        Some(DataCell::Text(v)) => Some(v),
        _ => None,
    }
}

/// Adds the section's tables, charts and notes to the tours figure; `cols` says where
/// the rows keep what it reads.
pub fn extend(rows: &[ResultRow], cols: &TourRows, fig: &mut Figure) {
    single_obstacle(rows, cols, fig);
    empty_boards(rows, cols, fig);
    solved_by_obstacles(rows, cols, fig);
    cost_by_size(rows, fig);
}

/// Every single-obstacle board of a size, when a (experiment, config, n) group holds
/// all `n * n` of them.
fn single_obstacle(rows: &[ResultRow], cols: &TourRows, fig: &mut Figure) {
    let mut groups: BTreeMap<(&str, &str, i32), Vec<&ResultRow>> = BTreeMap::new();
    for row in rows {
        groups
            .entry((&row.experiment, &row.config, row.n))
            .or_default()
            .push(row);
    }
    let mut table = Table::new(
        "tours_single_obstacle",
        "tours: every position of one obstacle (the seed's section 6.2)",
        &[
            "experiment",
            "n",
            "obstacle",
            "row",
            "column",
            "colour",
            "solvable",
            "proved_by_bound",
            "expansions",
            "wall_ms",
            "tours",
        ],
    );
    for ((experiment, _config, n), group) in groups {
        let side = n as usize;
        let singles: Vec<(&ResultRow, (usize, usize))> = group
            .iter()
            .filter(|r| int(r, cols.obstacles) == Some(1))
            .filter_map(|r| {
                let cells = (cols.obstacle_cells)(text(r, cols.board)?)?;
                (cells.len() == 1).then(|| (*r, cells[0]))
            })
            .collect();
        let mut distinct: Vec<(usize, usize)> = singles.iter().map(|s| s.1).collect();
        distinct.sort_unstable();
        distinct.dedup();
        if side < 2 || singles.len() != group.len() || distinct.len() != side * side {
            continue;
        }
        // Colour 0: (r + c) even, the colour of the corners (the majority on odd n).
        let mut by_colour = [(0u32, 0u32, 0u32); 2];
        let mut map = vec![vec![String::new(); side]; side];
        for (row, (r, c)) in &singles {
            let colour = (r + c) % 2;
            let proved = !row.solvable && row.lower_bound > 0;
            by_colour[colour].0 += 1;
            by_colour[colour].1 += u32::from(row.solvable);
            by_colour[colour].2 += u32::from(proved);
            map[*r][*c] = if row.solvable { "Y" } else { "n" }.to_string();
            table.push(vec![
                Cell::text(experiment),
                Cell::Int(i64::from(n)),
                Cell::Int((r * side + c + 1) as i64),
                Cell::Int(*r as i64),
                Cell::Int(*c as i64),
                Cell::text(if colour == 0 { "corner" } else { "other" }),
                Cell::text(if row.solvable { "yes" } else { "no" }),
                Cell::text(if proved { "yes" } else { "no" }),
                Cell::Int(row.expansions),
                Cell::num(row.wall_ns as f64 / 1e6, 3),
                int(row, cols.count).map_or(Cell::Empty, Cell::Int),
            ]);
        }
        let mut grid = Table::new(
            &format!("tours_single_obstacle_map_{experiment}_n{n}"),
            &format!("tours: {n}x{n}, solvable (Y) or not (n) by obstacle cell, {experiment}"),
            &std::iter::once("row".to_string())
                .chain((0..side).map(|c| format!("c{c}")))
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        );
        for (r, cells) in map.into_iter().enumerate() {
            let mut line = vec![Cell::Int(r as i64)];
            line.extend(cells.into_iter().map(Cell::Text));
            grid.push(line);
        }
        fig.tables.push(grid);
        fig.notes.push(colour_note(experiment, n, by_colour));
    }
    if !table.rows.is_empty() {
        fig.tables.push(table);
    }
}

/// What the single-obstacle boards show by the obstacle's colour, from the rows.
fn colour_note(experiment: &str, n: i32, by_colour: [(u32, u32, u32); 2]) -> String {
    let [(c0, s0, p0), (c1, s1, p1)] = by_colour;
    let side = n as u32;
    let cells = side * side;
    let (corner, other) = (cells.div_ceil(2), cells / 2);
    let mut note = format!(
        "{experiment}, {n}x{n}: with the obstacle on the corners' colour (r + c even; the \
         board has {corner} such cells and {other} of the other colour) the board is \
         solvable {s0} of {c0} times; on the other colour {s1} of {c1} times. Of the \
         unsolvable boards, the bound proved {p0} of {} (corners' colour) and {p1} of {} \
         (other colour) before any search; the search proved the rest.",
        c0 - s0,
        c1 - s1
    );
    if side % 2 == 1 {
        // Odd side: the free cells' colours differ by 0 (obstacle on the corners'
        // colour) or 2 (on the other), and a path alternates colours.
        note.push_str(&format!(
            " On an odd board an obstacle on the other colour leaves {} cells of the \
             corners' colour against {} of the other; a tour alternates colours, so it \
             covers at most {} cells of {}: one must stay unvisited, which is what the \
             parity bound proves.",
            corner,
            other - 1,
            2 * (other - 1) + 1,
            corner + other - 1
        ));
    } else {
        note.push_str(
            " On an even board either obstacle colour leaves the free cells' colours one \
             apart, so parity cannot rule any of these boards out.",
        );
    }
    note
}

/// Rows of boards without obstacles, by size.
fn empty_boards(rows: &[ResultRow], cols: &TourRows, fig: &mut Figure) {
    let mut table = Table::new(
        "tours_empty_boards",
        "tours: empty boards by size (the seed's figures 8 and 9)",
        &[
            "experiment",
            "config",
            "n",
            "solvable",
            "exact",
            "expansions",
            "wall_ms",
            "first_tour_start",
            "tours",
            "start_cells",
            "count_nodes",
        ],
    );
    let mut empty: Vec<&ResultRow> = rows
        .iter()
        .filter(|r| int(r, cols.obstacles) == Some(0) && r.prefix == 0)
        .collect();
    empty.sort_by_key(|r| (&r.experiment, &r.config, r.n, r.game_index));
    for row in empty {
        let starts = text(row, cols.starts).map(|s| s.split_whitespace().count() as i64);
        let first = row.solution.split_whitespace().next().unwrap_or("");
        table.push(vec![
            Cell::text(&row.experiment),
            Cell::text(&row.config),
            Cell::Int(i64::from(row.n)),
            Cell::text(if row.solvable { "yes" } else { "no" }),
            Cell::text(if row.exhaustive { "yes" } else { "no" }),
            Cell::Int(row.expansions),
            Cell::num(row.wall_ns as f64 / 1e6, 3),
            Cell::text(first),
            int(row, cols.count).map_or(Cell::Empty, Cell::Int),
            starts.map_or(Cell::Empty, Cell::Int),
            int(row, cols.count_nodes).map_or(Cell::Empty, Cell::Int),
        ]);
    }
    if !table.rows.is_empty() {
        fig.tables.push(table);
    }
}

/// The solved ratio by board side, one line per (experiment, obstacle count) with at
/// least two sides.
fn solved_by_obstacles(rows: &[ResultRow], cols: &TourRows, fig: &mut Figure) {
    type Tally = (u64, u64, u64, Vec<f64>);
    let mut by: BTreeMap<(&str, i64), BTreeMap<i32, Tally>> = BTreeMap::new();
    for row in rows {
        let Some(k) = int(row, cols.obstacles) else {
            continue;
        };
        let at = by
            .entry((&row.experiment, k))
            .or_default()
            .entry(row.n)
            .or_default();
        at.0 += u64::from(row.solvable);
        at.1 += 1;
        at.2 += u64::from(!row.solvable && row.lower_bound > 0);
        at.3.push(row.expansions as f64);
    }
    let mut table = Table::new(
        "tours_solved_ratio",
        "tours: solved ratio by board side and obstacle count, Wilson 95% intervals",
        &[
            "experiment",
            "obstacles",
            "n",
            "games",
            "solved",
            "solved_ratio",
            "ci_low",
            "ci_high",
            "proved_by_bound",
            "mean_expansions",
        ],
    );
    let mut series = Vec::new();
    for ((experiment, k), sizes) in &by {
        let mut points = Vec::new();
        for (n, (solved, games, proved, cost)) in sizes {
            let p = wilson(*solved, *games);
            let mean = cost.iter().sum::<f64>() / cost.len().max(1) as f64;
            table.push(vec![
                Cell::text(*experiment),
                Cell::Int(*k),
                Cell::Int(i64::from(*n)),
                Cell::Int(*games as i64),
                Cell::Int(*solved as i64),
                Cell::num(p.value, 4),
                Cell::num(p.low, 4),
                Cell::num(p.high, 4),
                Cell::Int(*proved as i64),
                Cell::num(mean, 1),
            ]);
            points.push(Point::new(f64::from(*n), p.value, p.low, p.high));
        }
        if sizes.len() >= 2 && sizes.values().any(|t| t.1 >= 2) {
            series.push(Series {
                name: format!("{experiment} k={k}"),
                kind: SeriesKind::Line,
                points,
            });
        }
    }
    fig.tables.push(table);
    if !series.is_empty() {
        fig.charts.push(Chart {
            name: "tours_solved_by_obstacles".to_owned(),
            title:
                "tours: solvable ratio by board side, one line per obstacle count, 95% intervals"
                    .to_owned(),
            x_label: "board side n".to_owned(),
            y_label: "solvable ratio".to_owned(),
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            categories: None,
            series,
        });
    }
}

/// Mean and median search expansions by board side per experiment, beside the seed's
/// mean solver nodes.
fn cost_by_size(rows: &[ResultRow], fig: &mut Figure) {
    /// Expansions and wall milliseconds per board side.
    type Costs = BTreeMap<i32, (Vec<f64>, Vec<f64>)>;
    let mut by: BTreeMap<(&str, &str), Costs> = BTreeMap::new();
    for row in rows {
        let at = by
            .entry((&row.experiment, &row.config))
            .or_default()
            .entry(row.n)
            .or_default();
        at.0.push(row.expansions as f64);
        at.1.push(row.wall_ns as f64 / 1e6);
    }
    let mut table = Table::new(
        "tours_cost_by_size",
        "tours: search cost by board side, beside the seed's solver nodes",
        &[
            "experiment",
            "config",
            "n",
            "games",
            "mean_expansions",
            "median_expansions",
            "max_expansions",
            "mean_wall_ms",
            "seed_mean_nodes",
        ],
    );
    let mut series = Vec::new();
    for ((experiment, config), sizes) in &mut by {
        let mut points = Vec::new();
        for (n, (cost, wall)) in sizes.iter_mut() {
            cost.sort_by(f64::total_cmp);
            let mean = cost.iter().sum::<f64>() / cost.len() as f64;
            let wall_mean = wall.iter().sum::<f64>() / wall.len() as f64;
            table.push(vec![
                Cell::text(*experiment),
                Cell::text(*config),
                Cell::Int(i64::from(*n)),
                Cell::Int(cost.len() as i64),
                Cell::num(mean, 1),
                Cell::num(quantile(cost, 0.5), 1),
                Cell::opt(cost.last().copied(), 0),
                Cell::num(wall_mean, 3),
                Cell::opt(seed_mean(*n), 1),
            ]);
            points.push(Point::new(f64::from(*n), mean.max(1.0), f64::NAN, f64::NAN));
        }
        if sizes.len() >= 2 {
            series.push(Series {
                name: format!("{experiment} {config}"),
                kind: SeriesKind::Line,
                points,
            });
        }
    }
    fig.tables.push(table);
    if !series.is_empty() {
        let seed: Vec<Point> = (2..=8)
            .filter_map(|n| {
                seed_mean(n).map(|m| Point::new(f64::from(n), m.max(1.0), f64::NAN, f64::NAN))
            })
            .collect();
        series.push(Series {
            name: "seed: mean solver nodes (Savile Row + Minion)".to_owned(),
            kind: SeriesKind::Report,
            points: seed,
        });
        fig.charts.push(Chart {
            name: "tours_cost_by_size".to_owned(),
            title: "tours: mean search expansions by board side".to_owned(),
            x_label: "board side n".to_owned(),
            y_label: "mean expansions (log)".to_owned(),
            x_scale: Scale::Linear,
            y_scale: Scale::Log,
            categories: None,
            series,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hammer_family::{Instance, ParamValue, ReportExtras, point_from_pairs};

    /// The rows of every single-obstacle board of side `n`, solved and counted by the
    /// family itself, as a sweep would write them.
    fn single_obstacle_rows(n: i64) -> Vec<ResultRow> {
        let family = hammer_family::by_name("tours").unwrap();
        let pairs = [
            ("n".to_string(), ParamValue::Int(n)),
            ("k".to_string(), ParamValue::Int(1)),
            ("place".to_string(), ParamValue::Text("every".into())),
            ("count".to_string(), ParamValue::Bool(true)),
        ];
        let point = point_from_pairs(family, &pairs).unwrap();
        let mut solver = family.solver();
        let config = hammer_solver::Config::default();
        (0..family.instance_count(&point).unwrap())
            .map(|index| {
                let instance = Instance::Seeded {
                    sweep_seed: 3,
                    index,
                };
                let job = hammer_family::Job {
                    point: &point,
                    instance,
                    config: &config,
                    run_seed: 0,
                    program: None,
                };
                let s = solver.solve(job).unwrap().game;
                ResultRow {
                    sweep: "t".into(),
                    experiment: "single".into(),
                    config: "c".into(),
                    n: n as i32,
                    game_index: index as i64,
                    seed: 3,
                    board: s.board,
                    prefix: 0,
                    prefix_moves: s.prefix_moves,
                    start: s.start,
                    order: "standard".into(),
                    schedule: "exact".into(),
                    budget: 0,
                    trial: 0,
                    solvable: s.score == 0,
                    exhaustive: s.exhaustive,
                    expansions: s.expansions as i64,
                    attempts: s.attempts as i32,
                    solution: s.solution,
                    wall_ns: 1_000,
                    worker: "test".into(),
                    hammer_version: "test".into(),
                    puzzle: "tours".into(),
                    params: point.to_string(),
                    score: s.score as i32,
                    lower_bound: s.lower_bound as i32,
                    schedule_complete: true,
                    capped_by: (!s.capped_by.is_empty()).then_some(s.capped_by),
                    memo_bytes: Some(s.memo_bytes as i64),
                    extra: hammer_family::cells_from_wire(s.extra),
                    split_nodes: None,
                    gang_size: None,
                    gang_expansions: None,
                    gang_memo_bytes: None,
                    states_sent: None,
                    split_parts: None,
                }
            })
            .collect()
    }

    #[test]
    fn the_five_by_five_map_is_the_seeds_table_and_the_note_counts_colours() {
        let mut rows = single_obstacle_rows(5);
        rows.extend(single_obstacle_rows(4));
        let mut fig = Figure::new("family-tours", "t", "", "");
        let Some(ReportExtras::Tours(cols)) =
            hammer_family::by_name("tours").unwrap().report_extras()
        else {
            panic!("the tours family has a section of its own");
        };
        extend(&rows, &cols, &mut fig);
        let map = fig.table("tours_single_obstacle_map_single_n5").unwrap();
        for (r, line) in map.rows.iter().enumerate() {
            for c in 0..5 {
                // The seed: solvable exactly when the obstacle's cell number is odd.
                let want = if (r * 5 + c + 1) % 2 == 1 { "Y" } else { "n" };
                assert_eq!(line[c + 1].display(), want, "row {r} column {c}");
            }
        }
        let note = fig.notes.iter().find(|n| n.contains("5x5")).unwrap();
        assert!(note.contains("solvable 13 of 13 times"), "{note}");
        assert!(note.contains("on the other colour 0 of 12 times"), "{note}");
        assert!(note.contains("12 of 12 (other colour)"), "{note}");
        let note = fig.notes.iter().find(|n| n.contains("4x4")).unwrap();
        assert!(note.contains("parity cannot rule"), "{note}");
        // One line per (experiment, obstacle count) with two sizes; the cost table has
        // the seed's mean nodes for 4x4: (181 + 110 + 754) / 3.
        let ratio = fig.table("tours_solved_ratio").unwrap();
        assert_eq!(ratio.rows.len(), 2);
        assert_eq!(fig.charts.len(), 2);
        let cost = fig.table("tours_cost_by_size").unwrap();
        let seed = cost.get(&[("n", "4")], "seed_mean_nodes").unwrap();
        assert!((seed.as_f64().unwrap() - 348.333).abs() < 0.01);
        // Every single-obstacle row is listed, with its tour count.
        let all = fig.table("tours_single_obstacle").unwrap();
        assert_eq!(all.rows.len(), 41);
    }
}
