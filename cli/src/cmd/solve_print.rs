//! What `hammer solve` prints of a solved game: the dataset row the game would be, as
//! JSON or as text, and what only a game solved alone tells (its profile, its memo).

use hammer_dataset::{Cell, Column, RowRef, Source, TABLE, col};
use hammer_family::{FamilyRef, Point, Solved, cells_from_wire};
use hammer_solver::{Config, Profile};
use hammer_sweep::game_row;
use serde_json::{Map, Value, json};

/// A game solved alone: the family's record of it and the columns of a sweep's unit that
/// such a game has too, so that it prints as the row a sweep would write.
pub(crate) struct Lone {
    pub family: FamilyRef,
    params: String,
    n: u32,
    /// The `--seed` given: the sweep seed of a seeded instance, else the run seed.
    seed: u64,
    pub order: String,
    schedule: String,
    prefix: u32,
    trial: u32,
    schedule_complete: bool,
    goal: u32,
    /// The game, with its `game_index` (the seeded instance's, else 0) and `wall_ns`.
    pub solved: Solved,
    /// The family's cells of `solved`.
    extra: Vec<Cell>,
}

impl Lone {
    pub fn new(
        family: FamilyRef,
        point: &Point,
        config: &Config,
        (seed, trial): (u64, u32),
        solved: Solved,
    ) -> Lone {
        Lone {
            family,
            params: point.to_string(),
            n: family.size(point),
            seed,
            order: config.order.to_string(),
            schedule: config.schedule.to_string(),
            prefix: config.prefix,
            trial,
            schedule_complete: config.schedule.always_exact(),
            goal: family.goal(point),
            extra: cells_from_wire(solved.game.extra.iter().cloned()),
            solved,
        }
    }

    /// The game's dataset row; the columns that name a sweep's row and its worker are
    /// left empty.
    pub fn row(&self) -> RowRef<'_> {
        let clamp = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
        let unit = RowRef {
            n: clamp(self.n),
            seed: i64::try_from(self.seed).unwrap_or(i64::MAX),
            prefix: clamp(self.prefix),
            order: &self.order,
            schedule: &self.schedule,
            trial: clamp(self.trial),
            puzzle: self.family.name(),
            params: &self.params,
            schedule_complete: self.schedule_complete,
            ..RowRef::default()
        };
        game_row(unit, self.goal, &self.solved.game, &self.extra)
    }

    /// `hammer solve --json`: the row's columns by their names ([`TABLE`]), the family's
    /// own columns under `columns`, the memo's states, the steps spent ordering moves, and
    /// the profile when one was asked for.
    pub fn json(&self) -> Value {
        let row = self.row();
        let mut map: Map<String, Value> = (TABLE.iter().zip(row.cells()))
            .filter(|(column, _)| shown(column))
            .map(|(_, (name, cell))| (name.to_owned(), cell_json(cell)))
            .collect();
        let columns: Map<String, Value> = (self.family.columns().iter().zip(&self.extra))
            .map(|(spec, cell)| (spec.name.to_owned(), cell_json(cell.clone())))
            .collect();
        map.insert("columns".into(), Value::Object(columns));
        map.insert("heuristic_steps".into(), json!(self.solved.heuristic_steps));
        map.insert("memo_states".into(), json!(self.solved.memo_states));
        if let Some(profile) = self.solved.profile.as_deref() {
            map.insert("profile".into(), profile_json(profile));
        }
        Value::Object(map)
    }

    /// `hammer solve` without `--json`: the position, the answer and how it was found.
    pub fn print(&self) {
        let row = self.row();
        let moves = |text: &str| match text.split_whitespace().collect::<Vec<_>>() {
            moves if moves.is_empty() => "(none)".to_owned(),
            moves => moves.join(" "),
        };
        println!("puzzle      {} ({})", row.puzzle, row.params);
        println!("board       {}", row.board);
        if row.prefix > 0 {
            println!("prefix      {}", moves(row.prefix_moves));
            println!("start       {}", row.start);
        }
        let exact = match row.capped_by {
            _ if row.exhaustive => "exact".to_owned(),
            Some(cap) => format!(
                "not proven: the {cap} limit stopped it; the answer is at least {}",
                row.lower_bound
            ),
            None => "upper bound: the budget ran out".to_owned(),
        };
        let label = match self.family.score_unit() {
            Some(unit) => format!("min {unit}s"),
            None => "score".to_owned(),
        };
        println!("{label:<10}  {} ({exact})", row.score);
        println!("solution    {}", moves(row.solution));
        println!(
            "expansions  {} in {} attempt(s)",
            row.expansions, row.attempts
        );
        println!("time        {:.3} ms", row.wall_ns as f64 / 1e6);
        // The family's own columns, by name.
        let mut columns: Vec<_> = self.family.columns().iter().zip(row.extra).collect();
        columns.sort_by_key(|(spec, _)| spec.name);
        for (spec, cell) in columns {
            let name = spec.name;
            match cell {
                Cell::Int(v) => println!("{name:<11} {v}"),
                Cell::Text(v) => println!("{name:<11} {v}"),
                Cell::Bool(v) => println!("{name:<11} {v}"),
                Cell::Null => {}
            }
        }
        if let Some(profile) = self.solved.profile.as_deref() {
            print_profile(profile);
        }
    }
}

/// Whether `hammer solve --json` shows `column`: not those that name a sweep's row (its
/// sweep, experiment and configuration) or the worker that solved it.
fn shown(column: &Column) -> bool {
    column.source != Source::Worker
        && ![col::SWEEP, col::EXPERIMENT, col::CONFIG].contains(&column.name)
}

fn cell_json(cell: Cell) -> Value {
    match cell {
        Cell::Int(v) => json!(v),
        Cell::Text(v) => json!(v),
        Cell::Bool(v) => json!(v),
        Cell::Null => Value::Null,
    }
}

/// A profile as JSON: the start's bound, memo evictions, and one object per score with
/// any expansion, lowest score first.
fn profile_json(profile: &Profile) -> Value {
    let levels: Vec<Value> = (profile.levels.iter().enumerate())
        .filter(|(_, l)| l.expanded > 0)
        .map(|(score, l)| {
            json!({
                "score": score,
                "expanded": l.expanded,
                "bound_sum": l.bound_sum,
                "children": l.children,
                "pruned": l.pruned,
                "pruned_base": l.pruned_base,
                "memo_hits": l.memo_hits,
            })
        })
        .collect();
    json!({
        "start_bound": profile.start_bound,
        "memo_evictions": profile.memo_evictions,
        "levels": levels,
    })
}

/// The profile of `solve --profile` as a table, highest score (the start) first.
fn print_profile(profile: &Profile) {
    println!(
        "profile     start bound {}, memo evictions {}",
        profile.start_bound, profile.memo_evictions
    );
    println!(
        "{:>8} {:>12} {:>10} {:>12} {:>12} {:>12} {:>12}",
        "score", "expanded", "mean bound", "successors", "pruned", "base alone", "memo hits"
    );
    let levels = profile.levels.iter().enumerate().rev();
    for (score, l) in levels.filter(|(_, l)| l.expanded > 0) {
        let mean = l.bound_sum as f64 / l.expanded.max(1) as f64;
        println!(
            "{:>8} {:>12} {:>10.2} {:>12} {:>12} {:>12} {:>12}",
            score, l.expanded, mean, l.children, l.pruned, l.pruned_base, l.memo_hits
        );
    }
}
