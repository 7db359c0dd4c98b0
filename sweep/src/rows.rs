//! The columns a unit's rows share, worked out once per unit.
//!
//! The worker's direct path (tests, benchmarks) and the coordinator's writer both build
//! rows through [`UnitRows`], so a row is assembled in exactly one place from the sweep
//! and the per-game values ([`GameValues`]) of a solve.

use hammer_dataset::{Cell, ResultRow, RowRef};
use hammer_family::Point;
use hammer_solver::Cap;

use crate::{Experiment, RunConfig, Sweep, Unit};

/// The values of one solved game: what a worker computes and sends, and what the rest of
/// the row is joined to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameValues {
    pub game_index: u64,
    pub board: String,
    pub prefix_moves: String,
    pub start: String,
    pub score: u32,
    pub lower_bound: u32,
    pub exhaustive: bool,
    pub expansions: u64,
    pub attempts: u32,
    pub solution: String,
    pub wall_ns: u64,
    /// The per-game limit that stopped the game before its answer was proven.
    pub capped_by: Option<Cap>,
    /// The memo's peak size for the game in bytes (`None`: not reported).
    pub memo_bytes: Option<u64>,
    /// For a game searched in parts: the frontier subtrees dealt among them (the parts
    /// are the experiment's `split`).
    pub split_nodes: Option<u32>,
    /// The family's own columns, in the order of its `Family::columns`.
    pub extra: Vec<Cell>,
}

/// A unit's shared columns, with their strings made once.
#[derive(Debug)]
pub struct UnitRows<'s> {
    pub sweep: &'s Sweep,
    pub experiment: &'s Experiment,
    pub config: &'s RunConfig,
    pub point: &'s Point,
    pub n: i32,
    order: String,
    schedule: String,
    params: String,
    goal: u32,
    schedule_complete: bool,
}

impl<'s> UnitRows<'s> {
    /// The shared columns of `unit`'s rows; `None` when the unit is not of this sweep.
    pub fn new(sweep: &'s Sweep, unit: &Unit) -> Option<UnitRows<'s>> {
        let (experiment, config, point) = sweep.context_of(unit)?;
        Some(UnitRows {
            sweep,
            experiment,
            config,
            point,
            n: i32::try_from(unit.n).unwrap_or(i32::MAX),
            order: config.order.to_string(),
            schedule: config.schedule.to_string(),
            params: point.to_string(),
            goal: experiment.family.goal(point),
            schedule_complete: config.schedule.always_exact(),
        })
    }

    /// Whether a game with this score is solved (the dataset's `solvable`).
    pub fn solvable(&self, score: u32) -> bool {
        score <= self.goal
    }

    /// The row of one game, borrowing every string.
    pub fn row<'a>(
        &'a self,
        game: &'a GameValues,
        worker: &'a str,
        version: &'a str,
    ) -> RowRef<'a> {
        let clamp32 = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
        let clamp64 = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        RowRef {
            sweep: &self.sweep.name,
            experiment: &self.experiment.name,
            config: &self.config.id,
            n: self.n,
            game_index: clamp64(game.game_index),
            seed: clamp64(self.sweep.seed),
            board: &game.board,
            prefix: clamp32(self.config.prefix),
            prefix_moves: &game.prefix_moves,
            start: &game.start,
            order: &self.order,
            schedule: &self.schedule,
            budget: clamp64(self.config.budget),
            trial: clamp32(self.config.trial),
            solvable: self.solvable(game.score),
            exhaustive: game.exhaustive,
            expansions: clamp64(game.expansions),
            attempts: clamp32(game.attempts),
            solution: &game.solution,
            wall_ns: clamp64(game.wall_ns),
            worker,
            hammer_version: version,
            puzzle: self.experiment.family.name(),
            params: &self.params,
            score: clamp32(game.score),
            lower_bound: clamp32(game.lower_bound),
            schedule_complete: self.schedule_complete,
            capped_by: game.capped_by.map(Cap::name),
            memo_bytes: game.memo_bytes.map(clamp64),
            split_parts: game.split_nodes.and(self.experiment.split).map(clamp32),
            split_nodes: game.split_nodes.map(clamp32),
            extra: &game.extra,
        }
    }

    /// The owned row of one game.
    pub fn owned_row(&self, game: &GameValues, worker: &str, version: &str) -> ResultRow {
        self.row(game, worker, version).to_owned_row()
    }
}
