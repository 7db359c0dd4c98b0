//! The one list of the dataset's shared columns, in file order, and what the readers fill
//! in where a file predates a column.
//!
//! To add a column, add an entry at the end of [`TABLE`]'s list below (never in between:
//! external readers rely on the order), with a fill for the files written before it; the
//! row's field, the schema, the writer and the reader follow. A column a worker computes
//! per game must also be a field of the wire's `GameResult` under the same name (a test of
//! `hammer-sweep` checks it), and the row builder (`hammer_sweep::UnitRows::row`) gives it
//! its value. `docs/dataset.md` lists the columns too (a test checks the names and types).

use arrow::array::{ArrayRef, RecordBatch};
use arrow::datatypes::DataType;
use hammer_family::ColumnKind;

use crate::Cell;
use crate::error::ColumnError;
use crate::row::read_field;
use crate::schema::arrow_type;
use crate::value::Value;

/// One shared column, as the list below declares it.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    /// The column's name in the schema and the files.
    pub name: &'static str,
    /// Its Arrow type.
    pub kind: ColumnKind,
    /// Nullable columns are `Option`s in the row; the others refuse nulls.
    pub nullable: bool,
    /// Where the value is stored.
    pub place: Place,
    /// Who produces the value.
    pub source: Source,
    /// What a reader does when an older file lacks the column.
    pub fill: Fill,
    /// What the column means (the doc of its `col` constant and row field).
    pub doc: &'static str,
}

impl Column {
    /// The column's Arrow type.
    pub fn data_type(&self) -> DataType {
        arrow_type(self.kind)
    }

    /// Whether a file must have the column.
    pub fn required(&self) -> bool {
        matches!(self.fill, Fill::Required)
    }
}

/// Where a column's values are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In the part files.
    File,
    /// Only in the directory names (`experiment=NAME/n=N`); see
    /// [`crate::PARTITION_COLUMNS`].
    Partition,
}

/// Where a column's value comes from when a row is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The sweep and the work unit: the same in every row of a unit.
    Unit,
    /// The game: a worker computes it and sends it in the wire's `GameResult`, under the
    /// column's name.
    Game,
    /// The worker that solved the game (its registration).
    Worker,
    /// Worked out by the row builder from the others.
    Derived,
}

/// What the readers put in a column that a file lacks.
#[derive(Clone, Copy, Debug)]
pub enum Fill {
    /// Every file has the column: a file without it is refused.
    Required,
    /// Null: the file predates the column (a nullable one).
    Null,
    /// The values of another column, which held them before this one existed.
    Column(&'static str),
    /// A value that follows from the row's other columns, set once they are read.
    Row(fn(&mut ResultRow)),
}

/// How the values of the columns that came with puzzle families are filled in for a file
/// written before them (its rows are Martello rows). The row reader uses these through
/// [`TABLE`]; readers that project columns themselves (the analysis, the viewer) call
/// them directly.
pub mod fill {
    /// The `puzzle` of a row written before families.
    pub const PUZZLE: &str = hammer_family::DEFAULT_FAMILY;

    /// The `params` of a row written before families: Martello's one parameter.
    pub fn params(n: i32) -> String {
        format!("n={n}")
    }

    /// The column that held the `score` before families.
    pub const SCORE_FROM: &str = super::col::MIN_STONES;

    /// The `lower_bound` of a row written before families: 0, which is always sound.
    pub const LOWER_BOUND: i32 = 0;

    /// The `schedule_complete` of a row written before families, from the schedule's name.
    pub fn schedule_complete(schedule: &str) -> bool {
        schedule
            .parse::<hammer_solver::Schedule>()
            .is_ok_and(|s| s.always_exact())
    }
}

use Fill::{Null, Required};

row_table! {
    // The columns of the Martello dataset as it was before puzzle families.

    /// Name of the sweep that produced the row.
    SWEEP sweep: String, File, Unit, Required;
    /// Experiment within the sweep.
    EXPERIMENT experiment: String, Partition, Unit, Required;
    /// The configuration's id, built from its parameters.
    CONFIG config: String, File, Unit, Required;
    /// The family's size of the instance (Martello: the board side).
    N n: i32, Partition, Unit, Required;
    /// The instance's index among the parameter point's instances under `seed`.
    GAME_INDEX game_index: i64, File, Game, Required;
    /// The sweep seed.
    SEED seed: i64, File, Unit, Required;
    /// The seeded start position, in the family's notation, before any prefix.
    BOARD board: String, File, Game, Required;
    /// The requested length of the random prefix played before solving.
    PREFIX prefix: i32, File, Unit, Required;
    /// The prefix moves played, space-separated.
    PREFIX_MOVES prefix_moves: String, File, Game, Required;
    /// The position after the prefix, where the search started.
    START start: String, File, Game, Required;
    /// The solver's move order, by name.
    ORDER order: String, File, Unit, Required;
    /// The solver's restart schedule, by name.
    SCHEDULE schedule: String, File, Unit, Required;
    /// The per-attempt expansion budget (0: none).
    BUDGET budget: i64, File, Unit, Required;
    /// The try number of a multi-try experiment (0 otherwise).
    TRIAL trial: i32, File, Unit, Required;
    /// The score under Martello's old name, kept for readers older than `score`: equal to
    /// it in every row. Deprecated: hammer 0.2.0 stops writing it (docs/dataset.md).
    MIN_STONES min_stones: i32 = score, File, Derived, Required;
    /// `score <= the family's goal` (Martello: one stone left).
    SOLVABLE solvable: bool, File, Derived, Required;
    /// Whether `score` is proven exact; otherwise it is an upper bound.
    EXHAUSTIVE exhaustive: bool, File, Game, Required;
    /// Node expansions over all attempts.
    EXPANSIONS expansions: i64, File, Game, Required;
    /// Attempts (restarts) the schedule used.
    ATTEMPTS attempts: i32, File, Game, Required;
    /// The moves from `start` that reach `score`, space-separated.
    SOLUTION solution: String, File, Game, Required;
    /// Wall-clock solving time in nanoseconds (a timing column).
    WALL_NS wall_ns: i64, File, Game, Required;
    /// The id of the worker that solved the game.
    WORKER worker: String, File, Worker, Required;
    /// The version of hammer that solved the game.
    HAMMER_VERSION hammer_version: String, File, Worker, Required;

    // The columns that came with puzzle families.

    /// The puzzle family (`martello`, `peg`, ...).
    PUZZLE puzzle: String, File, Unit,
        Fill::Row(|r| r.puzzle = fill::PUZZLE.to_owned());
    /// The instance's parameter point, canonical (`n=6`, `h=6;s=4;...`).
    PARAMS params: String, File, Unit,
        Fill::Row(|r| r.params = fill::params(r.n));
    /// The lowest score found: exact when `exhaustive`, else an upper bound.
    SCORE score: i32, File, Game, Fill::Column(fill::SCORE_FROM);
    /// A sound lower bound on the score of `start`.
    LOWER_BOUND lower_bound: i32, File, Game,
        Fill::Row(|r| r.lower_bound = fill::LOWER_BOUND);
    /// Whether the configuration's schedule always ends exact (it ends in an unlimited
    /// attempt or its budgets grow without bound), so that a row that is not `exhaustive`
    /// under it means a problem, not a budget that ran out.
    SCHEDULE_COMPLETE schedule_complete: bool, File, Unit,
        Fill::Row(|r| r.schedule_complete = fill::schedule_complete(&r.schedule));

    // The columns that came with per-game limits and split games: nullable.

    /// The per-game limit that stopped the game before its answer was proven
    /// (`"expansions"` or `"time"`); null when none did.
    CAPPED_BY capped_by: Option<String>, File, Game, Null;
    /// The memo's peak size for the game in bytes (the same on every machine).
    MEMO_BYTES memo_bytes: Option<i64>, File, Game, Null;
    /// The parts a game was searched in (units leased to any worker): filled only in
    /// datasets written by earlier versions with split parts, null otherwise. Kept so
    /// that those part files read unchanged.
    SPLIT_PARTS split_parts: Option<i32>, File, Derived, Null;
    /// The frontier subtrees dealt among a game's parts: filled only in datasets written
    /// by earlier versions with split parts, null otherwise.
    SPLIT_NODES split_nodes: Option<i32>, File, Derived, Null;

    // The columns that came with games searched by a gang of workers: nullable.

    /// For a game searched by a gang of workers (`gang = K`): its members;
    /// null for a game searched by one worker.
    GANG_SIZE gang_size: Option<i32>, File, Derived, Null;
    /// For a game searched by a gang: each member's expansions, in rank order, separated
    /// by spaces (they add up to `expansions`).
    GANG_EXPANSIONS gang_expansions: Option<String>, File, Game, Null;
    /// For a game searched by a gang: each member's peak memo (its share of the states)
    /// in bytes, in rank order, separated by spaces (they add up to `memo_bytes`).
    GANG_MEMO_BYTES gang_memo_bytes: Option<String>, File, Game, Null;
    /// For a game searched by a gang: the states its members sent one another.
    STATES_SENT states_sent: Option<i64>, File, Game, Null;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `docs/dataset.md` lists the shared columns in file order, with their types: the
    /// order and types external readers rely on.
    #[test]
    fn the_docs_list_the_columns_in_file_order() {
        let docs = include_str!("../../docs/dataset.md");
        let section = docs
            .split("## Columns")
            .nth(1)
            .and_then(|s| s.split("Then each family's own columns").next())
            .expect("docs/dataset.md has a Columns section");
        let documented: Vec<(&str, &str)> = section
            .lines()
            .filter_map(|line| {
                let mut cells = line.strip_prefix("| `")?.split(" | ");
                let name = cells.next()?.strip_suffix('`')?;
                Some((name, cells.next()?))
            })
            .collect();
        let declared: Vec<(&str, String)> = TABLE
            .iter()
            .map(|c| {
                let nullable = if c.nullable { ", nullable" } else { "" };
                (c.name, format!("{}{nullable}", c.data_type()))
            })
            .collect();
        let documented: Vec<(&str, String)> = documented
            .into_iter()
            .map(|(name, ty)| (name, ty.to_owned()))
            .collect();
        assert_eq!(documented, declared);
    }

    /// A nullable column is null where a file predates it, and only a nullable one; a
    /// column filled from another reads that one's values, so the other is always there
    /// and of the same type.
    #[test]
    fn fills_fit_their_columns() {
        for column in TABLE {
            assert_eq!(
                column.nullable,
                matches!(column.fill, Fill::Null),
                "{}",
                column.name
            );
            if let Fill::Column(from) = column.fill {
                let from = TABLE.iter().find(|c| c.name == from).expect("a column");
                assert!(from.required(), "{}", from.name);
                assert_eq!(from.kind, column.kind, "{}", column.name);
            }
        }
        assert!(TABLE.iter().any(|c| matches!(c.fill, Fill::Row(_))));
    }

    #[test]
    fn names_are_the_fields() {
        assert_eq!(col::MIN_STONES, "min_stones");
        assert_eq!(col::SPLIT_NODES, "split_nodes");
        let mut names: Vec<&str> = TABLE.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TABLE.len(), "a column is declared twice");
    }
}
