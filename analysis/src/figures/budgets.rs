//! Figures 14 to 16: single budgeted attempts with random restarts.
//!
//! Every budget row is one try: a random prefix of `prefix` moves (drawn from the try's run
//! seed) followed by one search of at most `budget` expansions in the row's order. A try
//! succeeds when it finds a single stone (`solvable`). Per game and per (prefix, budget)
//! cell we count T tries and s successes; the formulas are documented in
//! `docs/analysis.md` and on each function below.

use std::collections::{BTreeMap, BTreeSet};

use super::EXAMPLE_BUDGETS;
use crate::load::Row;
use crate::paper;
use crate::prepare::{GameKey, Prepared};
use crate::report::{Cell, Chart, Figure, Point, Scale, Series, SeriesKind, Table};
use hammer_solver::OrderKind;
use hammer_stats::{Mean, mean_t, wilson, within};

/// One (n, order, depth, budget) cell.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct CellKey {
    n: i32,
    order: String,
    depth: i32,
    budget: i64,
}

/// The tries of one game in one cell.
#[derive(Debug, Default, Clone, Copy)]
struct Tries {
    tries: u64,
    successes: u64,
    expansions: f64,
}

impl Tries {
    /// A game's tries in one cell, from its trials.
    fn of(trials: &BTreeMap<i32, (bool, i64)>) -> Tries {
        Tries {
            tries: trials.len() as u64,
            successes: trials.values().filter(|(s, _)| *s).count() as u64,
            expansions: trials.values().map(|(_, e)| *e as f64).sum(),
        }
    }

    /// Expected expansions until the first success when tries are repeated until one
    /// succeeds: with p = s/T, (1-p)/p failed tries of mean cost F and one successful try
    /// of mean cost S, which simplifies to (all expansions of the T tries) / s.
    fn expected_to_success(&self) -> Option<f64> {
        (self.successes > 0).then(|| self.expansions / self.successes as f64)
    }
}

/// Game -> trial -> (solved, expansions) of one cell.
type GameTrials = BTreeMap<GameKey, BTreeMap<i32, (bool, i64)>>;

/// What a cell's games are conditioned on.
struct CellGames {
    games: Vec<(GameKey, Tries)>,
    /// No game of the cell has an exact prefix-0 result, so the rates are over all games.
    unconditioned: bool,
    unsolvable_left_out: usize,
    unknown_left_out: usize,
}

fn tries_text(games: &[(GameKey, Tries)]) -> (String, Option<u64>) {
    let min = games.iter().map(|(_, t)| t.tries).min().unwrap_or(0);
    let max = games.iter().map(|(_, t)| t.tries).max().unwrap_or(0);
    if min == max {
        (min.to_string(), Some(min))
    } else {
        (format!("{min}-{max}"), None)
    }
}

/// The published value, or why it cannot be compared: the report's cells are for 6x6,
/// the random order and 1,000 tries per game, and a rate "at least 1 of T" depends on T.
fn report_value(
    key: &CellKey,
    tries: Option<u64>,
    table: &[[f64; 7]; 5],
) -> (Option<f64>, Option<String>) {
    if key.n != 6 || OrderKind::of_name(&key.order) != Some(OrderKind::Random) {
        return (None, None);
    }
    let Some(v) = paper::grid(table, key.depth, key.budget) else {
        return (None, None);
    };
    match tries {
        Some(t) if t == paper::BUDGET_TRIES => (Some(v), None),
        Some(t) => (
            Some(v),
            Some(format!(
                "not comparable: {t} tries per game, the report 1000"
            )),
        ),
        None => (
            Some(v),
            Some("not comparable: unequal tries per game".to_owned()),
        ),
    }
}

fn verdict(report: Option<f64>, why_not: Option<String>, low: f64, high: f64) -> Cell {
    match (report, why_not) {
        (None, _) => Cell::Empty,
        (Some(_), Some(why)) => Cell::Text(why),
        (Some(v), None) => match within(v, low, high) {
            Some(true) => Cell::text("yes"),
            Some(false) => Cell::text("no"),
            None => Cell::text("no interval"),
        },
    }
}

fn report_grid(name: &str, title: &str, table: &[[f64; 7]; 5], digits: u8) -> Table {
    let mut columns = vec!["depth".to_owned()];
    columns.extend(paper::BUDGETS.iter().map(|b| format!("budget_{b}")));
    let mut t = Table {
        name: name.to_owned(),
        title: title.to_owned(),
        columns,
        rows: Vec::new(),
    };
    for (depth, row) in paper::BUDGET_DEPTHS.iter().zip(table) {
        let mut cells = vec![Cell::Int(i64::from(*depth))];
        cells.extend(row.iter().map(|v| Cell::num(*v, digits)));
        t.rows.push(cells);
    }
    t
}

/// Charts of one figure: one per (n, order), x = budget, one line per depth, with the
/// report's values as hollow markers for 6x6.
fn cell_charts(
    id: &str,
    title: &str,
    y_label: &str,
    y_scale: Scale,
    points: &BTreeMap<(i32, String), BTreeMap<i32, Vec<Point>>>,
    report: Option<&[[f64; 7]; 5]>,
) -> Vec<Chart> {
    let many_orders = points.keys().map(|(_, o)| o).collect::<BTreeSet<_>>().len() > 1;
    let mut charts = Vec::new();
    for ((n, order), depths) in points {
        let suffix = if many_orders {
            format!("n{n}_{}", order.replace([':', ','], "_"))
        } else {
            format!("n{n}")
        };
        let mut series = Vec::new();
        for (depth, pts) in depths {
            series.push(Series {
                name: format!("depth {depth}"),
                kind: SeriesKind::Line,
                points: pts.clone(),
            });
        }
        if *n == 6
            && OrderKind::of_name(order) == Some(OrderKind::Random)
            && let Some(table) = report
        {
            for depth in depths.keys() {
                let pts: Vec<Point> = paper::BUDGETS
                    .iter()
                    .filter_map(|&b| {
                        paper::grid(table, *depth, b)
                            .map(|v| Point::new(b as f64, v, f64::NAN, f64::NAN))
                    })
                    .collect();
                if !pts.is_empty() {
                    series.push(Series {
                        name: format!("report depth {depth}"),
                        kind: SeriesKind::Report,
                        points: pts,
                    });
                }
            }
        }
        charts.push(Chart {
            name: format!("{id}_{suffix}"),
            title: format!("{title}, n={n}, order {order}"),
            x_label: "expansion budget per try".to_owned(),
            y_label: y_label.to_owned(),
            x_scale: Scale::Log,
            y_scale,
            categories: None,
            series,
        });
    }
    charts
}

/// Figures 14, 15 and 16, in that order.
pub fn figures(p: &Prepared, acc: &BudgetAcc) -> [Figure; 3] {
    let f14 = Figure::new(
        "fig14",
        "Figure 14: success rate of at least 1 of T budgeted tries",
        "Rows with budget > 0 (one attempt of `budget` expansions after a random prefix of \
         `prefix` moves, one row per try), on games whose exact prefix-0 result is solvable.",
        EXAMPLE_BUDGETS,
    );
    let f15 = Figure::new(
        "fig15",
        "Figure 15: expected expansions until the first successful try",
        "The games of Figure 14 with at least one successful try.",
        EXAMPLE_BUDGETS,
    );
    let f16 = Figure::new(
        "fig16",
        "Figure 16: expected expansions overall, with an exact fallback",
        "The games of Figure 14; a game whose tries all failed costs an exact solve.",
        EXAMPLE_BUDGETS,
    );
    let cells = &acc.cells;
    if cells.is_empty() {
        let why = "the dataset has no budget rows (budget > 0)";
        return [f14.missing(why), f15.missing(why), f16.missing(why)];
    }
    let mut tables = Accumulator::new();
    for (key, games) in cells {
        tables.add_cell(p, key, games);
    }
    if tables.t14.rows.is_empty() {
        let why = "every game of the budget rows is unsolvable at prefix 0";
        return [f14.missing(why), f15.missing(why), f16.missing(why)];
    }
    tables.finish([f14, f15, f16])
}

/// Figures 14 to 16's tries, fed window by window of games (`crate::paired`): per cell,
/// each game's tries in game order. A game's rows all arrive in one window, so a trial is
/// counted once even if two experiments ran the same configuration.
#[derive(Debug, Default)]
pub struct BudgetAcc {
    cells: BTreeMap<CellKey, Vec<(GameKey, Tries)>>,
}

impl BudgetAcc {
    /// The rows of one window of games.
    pub fn add(&mut self, p: &Prepared, rows: &[Row]) {
        // cell -> game -> trial -> (solvable, expansions), the first row of a trial winning.
        let mut cells: BTreeMap<CellKey, GameTrials> = BTreeMap::new();
        for r in rows {
            if r.budget <= 0 {
                continue;
            }
            let key = CellKey {
                n: r.n,
                order: p.name(r.order).to_owned(),
                depth: r.prefix,
                budget: r.budget,
            };
            cells
                .entry(key)
                .or_default()
                .entry(GameKey::of(r))
                .or_default()
                .entry(r.trial)
                .or_insert((r.solvable, r.expansions));
        }
        for (key, games) in cells {
            let out = self.cells.entry(key).or_default();
            out.extend(games.into_iter().map(|(g, trials)| (g, Tries::of(&trials))));
        }
    }
}

/// Chart points per (n, order), then per depth.
type Pts = BTreeMap<(i32, String), BTreeMap<i32, Vec<Point>>>;

/// The three figures' tables and chart points, filled cell by cell, and what the notes
/// must say about the cells.
struct Accumulator {
    t14: Table,
    t15: Table,
    t16: Table,
    p14: Pts,
    p15: Pts,
    p16: Pts,
    unconditioned_cells: usize,
    /// (cell, game) pairs left out: unsolvable games, and games without an exact result.
    left_out: (usize, usize),
    fallback_notes: BTreeSet<String>,
}

impl Accumulator {
    fn new() -> Accumulator {
        Accumulator {
            t14: table14(),
            t15: table15(),
            t16: table16(),
            p14: Pts::new(),
            p15: Pts::new(),
            p16: Pts::new(),
            unconditioned_cells: 0,
            left_out: (0, 0),
            fallback_notes: BTreeSet::new(),
        }
    }

    /// One (n, order, depth, budget) cell: a row of each table and a point of each chart.
    fn add_cell(&mut self, p: &Prepared, key: &CellKey, games: &[(GameKey, Tries)]) {
        let cg = condition(p, games);
        if cg.games.is_empty() {
            self.left_out.0 += cg.unsolvable_left_out;
            return;
        }
        self.unconditioned_cells += usize::from(cg.unconditioned);
        self.left_out.0 += cg.unsolvable_left_out;
        self.left_out.1 += cg.unknown_left_out;
        let (tries_label, tries) = tries_text(&cg.games);
        self.fig14_row(key, &cg, tries_label, tries);
        self.fig15_row(key, &cg, tries);
        self.fig16_row(p, key, &cg, tries);
    }

    /// Figure 14: at least one success among the game's tries, and per try.
    fn fig14_row(
        &mut self,
        key: &CellKey,
        cg: &CellGames,
        tries_label: String,
        tries: Option<u64>,
    ) {
        let total = cg.games.len() as u64;
        let solved = cg.games.iter().filter(|(_, t)| t.successes > 0).count() as u64;
        let rate = wilson(solved, total);
        let all_tries: u64 = cg.games.iter().map(|(_, t)| t.tries).sum();
        let all_succ: u64 = cg.games.iter().map(|(_, t)| t.successes).sum();
        let per_try = wilson(all_succ, all_tries);
        let (r14, why14) = report_value(key, tries, &paper::FIG14);
        self.t14.push(vec![
            Cell::Int(i64::from(key.n)),
            Cell::text(key.order.clone()),
            Cell::Int(i64::from(key.depth)),
            Cell::Int(key.budget),
            Cell::Int(total as i64),
            Cell::text(tries_label),
            Cell::Int(solved as i64),
            Cell::num(rate.value, 5),
            Cell::num(rate.low, 5),
            Cell::num(rate.high, 5),
            Cell::num(per_try.value, 5),
            Cell::num(per_try.low, 5),
            Cell::num(per_try.high, 5),
            Cell::opt(r14, 5),
            verdict(r14, why14, rate.low, rate.high),
        ]);
        let group = (key.n, key.order.clone());
        self.p14
            .entry(group.clone())
            .or_default()
            .entry(key.depth)
            .or_default()
            .push(Point::new(
                key.budget as f64,
                rate.value,
                rate.low,
                rate.high,
            ));
    }

    /// Figure 15: expected expansions until the first success.
    fn fig15_row(&mut self, key: &CellKey, cg: &CellGames, tries: Option<u64>) {
        let group = (key.n, key.order.clone());
        // Figure 15.
        let to_success: Vec<f64> = cg
            .games
            .iter()
            .filter_map(|(_, t)| t.expected_to_success())
            .collect();
        let m15 = mean_t(&to_success);
        let (r15, why15) = report_value(key, tries, &paper::FIG15);
        self.t15.push(vec![
            Cell::Int(i64::from(key.n)),
            Cell::text(key.order.clone()),
            Cell::Int(i64::from(key.depth)),
            Cell::Int(key.budget),
            Cell::Int(m15.count as i64),
            Cell::num(m15.value, 1),
            Cell::num(m15.low, 1),
            Cell::num(m15.high, 1),
            Cell::opt(r15, 0),
            verdict(r15, why15, m15.low, m15.high),
        ]);
        if m15.count > 0 && m15.value > 0.0 {
            self.p15
                .entry(group)
                .or_default()
                .entry(key.depth)
                .or_default()
                .push(Point::new(key.budget as f64, m15.value, m15.low, m15.high));
        }
    }

    /// Figure 16: expected expansions overall, an exact solve standing in for a game whose
    /// tries all failed.
    fn fig16_row(&mut self, p: &Prepared, key: &CellKey, cg: &CellGames, tries: Option<u64>) {
        let group = (key.n, key.order.clone());
        // Figure 16.
        let failed: Vec<GameKey> = cg
            .games
            .iter()
            .filter(|(_, t)| t.successes == 0)
            .map(|(g, _)| *g)
            .collect();
        let measured: Vec<f64> = failed
            .iter()
            .filter_map(|g| p.exact(g).map(|(e, _)| e as f64))
            .collect();
        let (fallback_label, substitute) = if failed.is_empty() {
            ("none needed".to_owned(), paper::FIG16_FALLBACK)
        } else if measured.is_empty() {
            self.fallback_notes.insert(format!(
                "n={}: no exact standard-order run of the games whose tries all failed, so \
                 the report's 4,000,000 expansions stand in for each (chosen for 6x6).",
                key.n
            ));
            ("report's 4,000,000".to_owned(), paper::FIG16_FALLBACK)
        } else if measured.len() == failed.len() {
            ("measured".to_owned(), 0.0)
        } else {
            (
                format!("measured ({} of {})", measured.len(), failed.len()),
                measured.iter().sum::<f64>() / measured.len() as f64,
            )
        };
        let overall: Vec<f64> = cg
            .games
            .iter()
            .map(|(g, t)| {
                t.expected_to_success()
                    .unwrap_or_else(|| p.exact(g).map_or(substitute, |(e, _)| e as f64))
            })
            .collect();
        let fallback_mean = if failed.is_empty() {
            f64::NAN
        } else if measured.is_empty() {
            paper::FIG16_FALLBACK
        } else {
            measured.iter().sum::<f64>() / measured.len() as f64
        };
        let m16: Mean = mean_t(&overall);
        let (r16, why16) = report_value(key, tries, &paper::FIG16);
        self.t16.push(vec![
            Cell::Int(i64::from(key.n)),
            Cell::text(key.order.clone()),
            Cell::Int(i64::from(key.depth)),
            Cell::Int(key.budget),
            Cell::Int(m16.count as i64),
            Cell::Int(failed.len() as i64),
            Cell::text(fallback_label),
            Cell::num(fallback_mean, 1),
            Cell::num(m16.value, 1),
            Cell::num(m16.low, 1),
            Cell::num(m16.high, 1),
            Cell::opt(r16, 0),
            verdict(r16, why16, m16.low, m16.high),
        ]);
        if m16.value > 0.0 {
            self.p16
                .entry(group)
                .or_default()
                .entry(key.depth)
                .or_default()
                .push(Point::new(key.budget as f64, m16.value, m16.low, m16.high));
        }
    }

    /// The notes, the report's own grids and the charts.
    fn finish(self, [mut f14, mut f15, mut f16]: [Figure; 3]) -> [Figure; 3] {
        let Accumulator {
            t14,
            t15,
            t16,
            p14,
            p15,
            p16,
            unconditioned_cells,
            left_out,
            fallback_notes,
        } = self;
        if unconditioned_cells > 0 {
            f14.notes.push(format!(
                "{unconditioned_cells} cell(s) have no exact prefix-0 result for any of their games, \
                 so their rates are over all games, solvable or not (the report's are over \
                 solvable games only)."
            ));
        }
        if left_out.0 > 0 || left_out.1 > 0 {
            f14.notes.push(format!(
                "Left out: {} (cell, game) pairs whose game is unsolvable, and {} whose game has no \
                 exact prefix-0 result while others of the cell do.",
                left_out.0, left_out.1
            ));
        }
        f14.notes.push(
            "The report ran 1,000 tries per game on 6x6 with the random order; a rate of 'at least \
             1 of T tries' grows with T, so it is compared only where T is 1,000 too. The per-try \
             success share does not depend on T. Tries of one game are not independent, so the \
             per-try interval is somewhat too narrow."
                .to_owned(),
        );
        f15.notes.push(
            "Per game with T tries, s >= 1 of them successful: p = s/T, and repeating tries until \
             one succeeds costs (1-p)/p failed tries of mean cost F plus one successful try of mean \
             cost S. With F and S the game's measured means this equals (sum of the expansions of \
             all T tries) / s. The figure is the mean of that over the games with s >= 1 (the \
             report's 'under the condition that at least 1 of the 1000 attempts were successful'), \
             with a t interval over games. A failed try costs about the budget: slightly more when \
             the search finishes the state it is expanding, less when it proves its start \
             unsolvable early."
                .to_owned(),
        );
        f16.notes.push(
            "Per game: Figure 15's expected cost if any try succeeded, otherwise the cost of an exact \
             solve: the game's own exact standard-order expansions when the dataset has them, else \
             the mean of those measured in the same cell, else the report's 4,000,000. The failed \
             tries themselves are not added, as in the report (1 - r) x 4,000,000 + r x Figure 15 \
             reproduces its table within a few per cent. Mean over all games of the cell, t \
             interval over games."
                .to_owned(),
        );
        f16.notes.extend(fallback_notes);

        f14.tables.push(t14);
        f14.tables.push(report_grid(
            "fig14_report",
            "The report's Figure 14 (6x6, random order, 1,000 tries): success rate by depth and \
             budget",
            &paper::FIG14,
            5,
        ));
        f14.charts = cell_charts(
            "fig14_success_rate",
            "Success of at least 1 of T tries",
            "share of solvable games solved",
            Scale::Linear,
            &p14,
            Some(&paper::FIG14),
        );
        f15.tables.push(t15);
        f15.tables.push(report_grid(
            "fig15_report",
            "The report's Figure 15: expected expansions until the first success",
            &paper::FIG15,
            0,
        ));
        f15.charts = cell_charts(
            "fig15_expected_to_success",
            "Expected expansions until the first success",
            "expected expansions",
            Scale::Log,
            &p15,
            Some(&paper::FIG15),
        );
        f16.tables.push(t16);
        f16.tables.push(report_grid(
            "fig16_report",
            "The report's Figure 16: expected expansions overall (4,000,000 per failed game)",
            &paper::FIG16,
            0,
        ));
        f16.charts = cell_charts(
            "fig16_expected_overall",
            "Expected expansions overall",
            "expected expansions",
            Scale::Log,
            &p16,
            Some(&paper::FIG16),
        );
        [f14, f15, f16]
    }
}

/// Keeps the games known solvable from exact prefix-0 rows, or all games when none of the
/// cell's games has such a row.
fn condition(p: &Prepared, games: &[(GameKey, Tries)]) -> CellGames {
    let any_fact = games.iter().any(|(g, _)| p.facts.contains_key(g));
    let mut out = CellGames {
        games: Vec::new(),
        unconditioned: !any_fact,
        unsolvable_left_out: 0,
        unknown_left_out: 0,
    };
    for &(g, tries) in games {
        match (any_fact, p.facts.get(&g)) {
            (false, _) => out.games.push((g, tries)),
            (true, Some(f)) if f.solvable() => out.games.push((g, tries)),
            (true, Some(_)) => out.unsolvable_left_out += 1,
            (true, None) => out.unknown_left_out += 1,
        }
    }
    out
}

fn table14() -> Table {
    Table::new(
        "fig14_success_rate",
        "Share of solvable games solved by at least 1 of T tries (95% Wilson interval), and \
     the share of single tries that succeed",
        &[
            "n",
            "order",
            "depth",
            "budget",
            "games",
            "tries_per_game",
            "solved_games",
            "rate",
            "ci_low",
            "ci_high",
            "try_success",
            "try_ci_low",
            "try_ci_high",
            "report_rate",
            "report_within_ci",
        ],
    )
}

fn table15() -> Table {
    Table::new(
        "fig15_expected_to_success",
        "Expected expansions until the first success, mean over games with a success of \
     (all expansions of its T tries) / (its successes) (95% t interval)",
        &[
            "n",
            "order",
            "depth",
            "budget",
            "games",
            "mean",
            "ci_low",
            "ci_high",
            "report",
            "report_within_ci",
        ],
    )
}

fn table16() -> Table {
    Table::new(
        "fig16_expected_overall",
        "Expected expansions overall: Figure 15's cost for games with a success, an exact \
     solve for games without (95% t interval)",
        &[
            "n",
            "order",
            "depth",
            "budget",
            "games",
            "failed_games",
            "fallback",
            "fallback_mean",
            "mean",
            "ci_low",
            "ci_high",
            "report",
            "report_within_ci",
        ],
    )
}
