//! The columns a unit's rows share, worked out once per unit, and the row of one game.
//!
//! A game's own values travel as the wire's [`GameResult`], from the worker that solved
//! it to the coordinator's writer; the worker's direct path (tests, benchmarks) and the
//! writer both join them to the unit's columns through [`UnitRows`], so a row is
//! assembled in exactly one place.

use hammer_dataset::{Cell, ResultRow, RowRef};
use hammer_family::Point;
use hammer_proto::v1::GameResult;
use hammer_solver::Cap;

use crate::{Experiment, RunConfig, Sweep, Unit, cells_from_wire};

/// A unit's shared columns, with their strings made once.
#[derive(Debug)]
pub struct UnitRows<'s> {
    /// The sweep the unit belongs to.
    pub sweep: &'s Sweep,
    /// The unit's experiment.
    pub experiment: &'s Experiment,
    /// The unit's configuration.
    pub config: &'s RunConfig,
    /// The unit's parameter point.
    pub point: &'s Point,
    /// The point's size: the `n` partition.
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

    /// The row of one game, borrowing every string: `game` as it came from the worker,
    /// with its family cells (`extra`) already taken out of the wire's form
    /// ([`cells_from_wire`]), and the worker's id and version.
    pub fn row<'a>(
        &'a self,
        game: &'a GameResult,
        extra: &'a [Cell],
        worker: &'a str,
        version: &'a str,
    ) -> RowRef<'a> {
        let unit = RowRef {
            sweep: &self.sweep.name,
            experiment: &self.experiment.name,
            config: &self.config.id,
            n: self.n,
            seed: clamp64(self.sweep.seed),
            prefix: clamp32(self.config.prefix),
            order: &self.order,
            schedule: &self.schedule,
            budget: clamp64(self.config.budget),
            trial: clamp32(self.config.trial),
            worker,
            hammer_version: version,
            puzzle: self.experiment.family.name(),
            params: &self.params,
            schedule_complete: self.schedule_complete,
            ..RowRef::default()
        };
        game_row(unit, self.goal, game, extra)
    }

    /// The owned row of one game.
    pub fn owned_row(&self, game: &GameResult, worker: &str, version: &str) -> ResultRow {
        let extra = cells_from_wire(game.extra.iter().cloned());
        self.row(game, &extra, worker, version).to_owned_row()
    }
}

/// The row of one game: `unit`'s columns, those every row of a unit shares (as
/// [`UnitRows::row`] or a game solved alone sets them), with the game's own values from `game` and its family cells
/// `extra`. A game is solvable when its score is at most the family's `goal`.
pub fn game_row<'a>(
    unit: RowRef<'a>,
    goal: u32,
    game: &'a GameResult,
    extra: &'a [Cell],
) -> RowRef<'a> {
    // Every field of the message by name, so that a field added to it does not compile
    // until it has its column.
    let GameResult {
        game_index,
        board,
        prefix_moves,
        start,
        score,
        exhaustive,
        expansions,
        attempts,
        solution,
        wall_ns,
        lower_bound,
        extra: _,
        capped_by,
        memo_bytes,
        gang_expansions,
        gang_memo_bytes,
        states_sent,
    } = game;
    // A gang's game names its members' expansions; any other game none.
    let gang = !gang_expansions.is_empty();
    RowRef {
        game_index: clamp64(*game_index),
        board,
        prefix_moves,
        start,
        solvable: *score <= goal,
        exhaustive: *exhaustive,
        expansions: clamp64(*expansions),
        attempts: clamp32(*attempts),
        solution,
        wall_ns: clamp64(*wall_ns),
        score: clamp32(*score),
        lower_bound: clamp32(*lower_bound),
        // The coordinator refused any other value when the result arrived.
        capped_by: Cap::from_name(capped_by).map(Cap::name),
        // 0 means "none": a worker older than the memo field.
        memo_bytes: (*memo_bytes > 0).then(|| clamp64(*memo_bytes)),
        // Filled only by earlier versions, which split games into parts.
        split_parts: None,
        split_nodes: None,
        gang_size: gang.then(|| clamp32(gang_expansions.split(' ').count() as u32)),
        gang_expansions: gang.then_some(gang_expansions.as_str()),
        gang_memo_bytes: gang.then_some(gang_memo_bytes.as_str()),
        states_sent: gang.then(|| clamp64(*states_sent)),
        extra,
        ..unit
    }
}

fn clamp32(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

fn clamp64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use hammer_dataset::{Source, TABLE};
    use prost::Message;
    use prost_types::FileDescriptorSet;

    /// The wire's per-game record carries exactly the columns a worker computes per game,
    /// under their names, and the family's cells as `extra`.
    #[test]
    fn the_wire_carries_the_per_game_columns() {
        let set = FileDescriptorSet::decode(hammer_proto::FILE_DESCRIPTOR_SET)
            .expect("the compiled descriptor set decodes");
        let message = set
            .file
            .iter()
            .flat_map(|f| &f.message_type)
            .find(|m| m.name() == "GameResult")
            .expect("GameResult is in the descriptor set");
        let mut wire: Vec<&str> = message.field.iter().map(|f| f.name()).collect();
        wire.sort_unstable();
        let mut columns: Vec<&str> = TABLE
            .iter()
            .filter(|c| c.source == Source::Game)
            .map(|c| c.name)
            .chain(["extra"])
            .collect();
        columns.sort_unstable();
        assert_eq!(wire, columns);
    }
}
