//! A result row, owned ([`ResultRow`]) and borrowed ([`RowRef`]), and its conversion to
//! and from Arrow record batches.

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, BooleanArray, BooleanBuilder, Int32Array, Int32Builder, Int64Array,
    Int64Builder, RecordBatch, StringArray, StringBuilder, new_null_array,
};
use arrow::datatypes::DataType;
use hammer_family::{Cell, ColumnKind};

use crate::columns::{booleans, int32s, int64s, strings};
use crate::error::{ColumnError, Result};
use crate::schema::{arrow_type, check_schema, col, family_columns, file_schema, schema};

/// One finished game: the unit the cluster produces and the analysis consumes.
///
/// Fields are plain owned values rather than an Arrow view so that workers can build rows
/// without knowing anything about Arrow; the conversion happens once per part file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResultRow {
    pub sweep: String,
    pub experiment: String,
    pub config: String,
    /// The family's size of the instance (Martello: the board side).
    pub n: i32,
    pub game_index: i64,
    pub seed: i64,
    pub board: String,
    pub prefix: i32,
    pub prefix_moves: String,
    pub start: String,
    pub order: String,
    pub schedule: String,
    pub budget: i64,
    pub trial: i32,
    /// The score under Martello's old name: equal to `score` in every row.
    pub min_stones: i32,
    /// `score <= the family's goal` (Martello: one stone left).
    pub solvable: bool,
    pub exhaustive: bool,
    pub expansions: i64,
    pub attempts: i32,
    pub solution: String,
    pub wall_ns: i64,
    pub worker: String,
    pub hammer_version: String,
    /// The puzzle family (`martello`, `peg`, ...).
    pub puzzle: String,
    /// The instance's parameter point, canonical (`n=6`, `h=6;s=4;...`).
    pub params: String,
    /// The lowest score found: exact when `exhaustive`, else an upper bound.
    pub score: i32,
    /// A sound lower bound on the score of `start`.
    pub lower_bound: i32,
    /// Whether the configuration's schedule always ends exact (it ends in an unlimited
    /// attempt or its budgets grow without bound), so that a row that is not
    /// `exhaustive` under it means a problem, not a budget that ran out.
    pub schedule_complete: bool,
    /// The per-game limit that stopped the game before its answer was proven
    /// (`"expansions"` or `"time"`); `None` when none did.
    pub capped_by: Option<String>,
    /// The memo's peak size for the game, in bytes; `None` in files written before it.
    pub memo_bytes: Option<i64>,
    /// For a game searched in parts (`split`): the parts, and the frontier subtrees
    /// dealt among them; `None` for a game searched whole.
    pub split_parts: Option<i32>,
    pub split_nodes: Option<i32>,
    /// The family's own columns, in the order of its `Family::columns`.
    pub extra: Vec<Cell>,
}

/// Identity of a row: a sweep produces exactly one row per key, so the key is what
/// de-duplication and "what is still missing" queries work on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RowKey {
    pub sweep: String,
    pub experiment: String,
    pub config: String,
    pub params: String,
    pub game_index: i64,
}

impl ResultRow {
    pub fn key(&self) -> RowKey {
        RowKey {
            sweep: self.sweep.clone(),
            experiment: self.experiment.clone(),
            config: self.config.clone(),
            params: self.params.clone(),
            game_index: self.game_index,
        }
    }

    /// The row with its strings borrowed.
    pub fn row_ref(&self) -> RowRef<'_> {
        RowRef {
            sweep: &self.sweep,
            experiment: &self.experiment,
            config: &self.config,
            n: self.n,
            game_index: self.game_index,
            seed: self.seed,
            board: &self.board,
            prefix: self.prefix,
            prefix_moves: &self.prefix_moves,
            start: &self.start,
            order: &self.order,
            schedule: &self.schedule,
            budget: self.budget,
            trial: self.trial,
            solvable: self.solvable,
            exhaustive: self.exhaustive,
            expansions: self.expansions,
            attempts: self.attempts,
            solution: &self.solution,
            wall_ns: self.wall_ns,
            worker: &self.worker,
            hammer_version: &self.hammer_version,
            puzzle: &self.puzzle,
            params: &self.params,
            score: self.score,
            lower_bound: self.lower_bound,
            schedule_complete: self.schedule_complete,
            capped_by: self.capped_by.as_deref(),
            memo_bytes: self.memo_bytes,
            split_parts: self.split_parts,
            split_nodes: self.split_nodes,
            extra: &self.extra,
        }
    }
}

/// A borrowed [`ResultRow`]: every column's value, with the strings borrowed.
///
/// The coordinator holds the per-game values as they arrived and the per-unit values
/// (sweep, config, order, ...) once; building an owned `ResultRow` per game would clone
/// a dozen strings per row only to copy them again into Arrow buffers.
/// [`crate::write_part_refs`] takes these instead. `min_stones` is not here: it is `score`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowRef<'a> {
    pub sweep: &'a str,
    pub experiment: &'a str,
    pub config: &'a str,
    pub n: i32,
    pub game_index: i64,
    pub seed: i64,
    pub board: &'a str,
    pub prefix: i32,
    pub prefix_moves: &'a str,
    pub start: &'a str,
    pub order: &'a str,
    pub schedule: &'a str,
    pub budget: i64,
    pub trial: i32,
    pub solvable: bool,
    pub exhaustive: bool,
    pub expansions: i64,
    pub attempts: i32,
    pub solution: &'a str,
    pub wall_ns: i64,
    pub worker: &'a str,
    pub hammer_version: &'a str,
    pub puzzle: &'a str,
    pub params: &'a str,
    pub score: i32,
    pub lower_bound: i32,
    pub schedule_complete: bool,
    pub capped_by: Option<&'a str>,
    pub memo_bytes: Option<i64>,
    pub split_parts: Option<i32>,
    pub split_nodes: Option<i32>,
    pub extra: &'a [Cell],
}

impl RowRef<'_> {
    /// The owned row.
    pub fn to_owned_row(&self) -> ResultRow {
        ResultRow {
            sweep: self.sweep.to_owned(),
            experiment: self.experiment.to_owned(),
            config: self.config.to_owned(),
            n: self.n,
            game_index: self.game_index,
            seed: self.seed,
            board: self.board.to_owned(),
            prefix: self.prefix,
            prefix_moves: self.prefix_moves.to_owned(),
            start: self.start.to_owned(),
            order: self.order.to_owned(),
            schedule: self.schedule.to_owned(),
            budget: self.budget,
            trial: self.trial,
            min_stones: self.score,
            solvable: self.solvable,
            exhaustive: self.exhaustive,
            expansions: self.expansions,
            attempts: self.attempts,
            solution: self.solution.to_owned(),
            wall_ns: self.wall_ns,
            worker: self.worker.to_owned(),
            hammer_version: self.hammer_version.to_owned(),
            puzzle: self.puzzle.to_owned(),
            params: self.params.to_owned(),
            score: self.score,
            lower_bound: self.lower_bound,
            schedule_complete: self.schedule_complete,
            capped_by: self.capped_by.map(str::to_owned),
            memo_bytes: self.memo_bytes,
            split_parts: self.split_parts,
            split_nodes: self.split_nodes,
            extra: self.extra.to_vec(),
        }
    }
}

/// Builds one record batch in [`schema`] order.
pub fn rows_to_batch(rows: &[ResultRow]) -> Result<RecordBatch> {
    let refs: Vec<RowRef<'_>> = rows.iter().map(ResultRow::row_ref).collect();
    batch_from_refs(&refs, false)
}

fn utf8<'a>(rows: &[RowRef<'a>], f: impl Fn(&RowRef<'a>) -> &'a str) -> ArrayRef {
    let bytes = rows.iter().map(|r| f(r).len()).sum();
    let mut builder = StringBuilder::with_capacity(rows.len(), bytes);
    for row in rows {
        builder.append_value(f(row));
    }
    Arc::new(builder.finish())
}

fn int32(rows: &[RowRef<'_>], f: impl Fn(&RowRef<'_>) -> i32) -> ArrayRef {
    Arc::new(Int32Array::from_iter_values(rows.iter().map(f)))
}

fn int64(rows: &[RowRef<'_>], f: impl Fn(&RowRef<'_>) -> i64) -> ArrayRef {
    Arc::new(Int64Array::from_iter_values(rows.iter().map(f)))
}

fn boolean(rows: &[RowRef<'_>], f: impl Fn(&RowRef<'_>) -> bool) -> ArrayRef {
    let values: Vec<bool> = rows.iter().map(f).collect();
    Arc::new(BooleanArray::from(values))
}

/// One family column: the cell of each row of that family, null in the others. A part
/// file holds one experiment, hence one family, so most of these are all-null arrays.
fn family_array(rows: &[RowRef<'_>], family: &str, index: usize, kind: ColumnKind) -> ArrayRef {
    if !rows.iter().any(|r| r.puzzle == family) {
        return new_null_array(&arrow_type(kind), rows.len());
    }
    let cell = |r: &RowRef<'_>| {
        if r.puzzle == family {
            r.extra.get(index).cloned().unwrap_or(Cell::Null)
        } else {
            Cell::Null
        }
    };
    match kind {
        ColumnKind::Int32 => {
            let mut b = Int32Builder::with_capacity(rows.len());
            for r in rows {
                match cell(r) {
                    Cell::Int(v) => b.append_value(v as i32),
                    _ => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        ColumnKind::Int64 => {
            let mut b = Int64Builder::with_capacity(rows.len());
            for r in rows {
                match cell(r) {
                    Cell::Int(v) => b.append_value(v),
                    _ => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        ColumnKind::Boolean => {
            let mut b = BooleanBuilder::with_capacity(rows.len());
            for r in rows {
                match cell(r) {
                    Cell::Bool(v) => b.append_value(v),
                    _ => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        ColumnKind::Utf8 => {
            let mut b = StringBuilder::new();
            for r in rows {
                match cell(r) {
                    Cell::Text(v) => b.append_value(v),
                    _ => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
    }
}

/// Like [`rows_to_batch`], over borrowed rows. With `file_only`, the batch is in
/// [`file_schema`] order: the partition columns, which the directory names carry, are not
/// built at all rather than built and projected away.
pub(crate) fn batch_from_refs(rows: &[RowRef<'_>], file_only: bool) -> Result<RecordBatch> {
    // Same order as COLUMNS; the round-trip test catches a swap because batch_to_rows reads
    // by name.
    let mut columns = Vec::with_capacity(schema().fields().len());
    columns.push(utf8(rows, |r| r.sweep));
    if !file_only {
        columns.push(utf8(rows, |r| r.experiment));
    }
    columns.push(utf8(rows, |r| r.config));
    if !file_only {
        columns.push(int32(rows, |r| r.n));
    }
    columns.extend([
        int64(rows, |r| r.game_index),
        int64(rows, |r| r.seed),
        utf8(rows, |r| r.board),
        int32(rows, |r| r.prefix),
        utf8(rows, |r| r.prefix_moves),
        utf8(rows, |r| r.start),
        utf8(rows, |r| r.order),
        utf8(rows, |r| r.schedule),
        int64(rows, |r| r.budget),
        int32(rows, |r| r.trial),
        int32(rows, |r| r.score),
        boolean(rows, |r| r.solvable),
        boolean(rows, |r| r.exhaustive),
        int64(rows, |r| r.expansions),
        int32(rows, |r| r.attempts),
        utf8(rows, |r| r.solution),
        int64(rows, |r| r.wall_ns),
        utf8(rows, |r| r.worker),
        utf8(rows, |r| r.hammer_version),
        utf8(rows, |r| r.puzzle),
        utf8(rows, |r| r.params),
        int32(rows, |r| r.score),
        int32(rows, |r| r.lower_bound),
        boolean(rows, |r| r.schedule_complete),
        Arc::new(rows.iter().map(|r| r.capped_by).collect::<StringArray>()),
        Arc::new(rows.iter().map(|r| r.memo_bytes).collect::<Int64Array>()),
        Arc::new(rows.iter().map(|r| r.split_parts).collect::<Int32Array>()),
        Arc::new(rows.iter().map(|r| r.split_nodes).collect::<Int32Array>()),
    ]);
    for c in family_columns() {
        columns.push(family_array(rows, c.family, c.index, c.spec.kind));
    }
    let schema = if file_only { file_schema() } else { schema() };
    Ok(RecordBatch::try_new(schema, columns)?)
}

/// Converts a record batch back into rows, looking columns up by name so that column order in
/// the file does not matter.
pub fn batch_to_rows(batch: &RecordBatch) -> Result<Vec<ResultRow>> {
    Ok(rows_from_batch(batch)?)
}

/// The value of a nullable family column at `i`.
fn family_cell(array: &ArrayRef, i: usize) -> Cell {
    if array.is_null(i) {
        return Cell::Null;
    }
    match array.data_type() {
        DataType::Int32 => Cell::Int(i64::from(
            array
                .as_any()
                .downcast_ref::<Int32Array>()
                .map_or(0, |a| a.value(i)),
        )),
        DataType::Int64 => Cell::Int(
            array
                .as_any()
                .downcast_ref::<Int64Array>()
                .map_or(0, |a| a.value(i)),
        ),
        DataType::Boolean => Cell::Bool(
            array
                .as_any()
                .downcast_ref::<BooleanArray>()
                .is_some_and(|a| a.value(i)),
        ),
        _ => {
            let cast = arrow::compute::cast(&array.slice(i, 1), &DataType::Utf8).ok();
            let text = cast
                .as_ref()
                .and_then(|a| a.as_any().downcast_ref::<arrow::array::StringArray>())
                .map(|a| a.value(0).to_string());
            text.map_or(Cell::Null, Cell::Text)
        }
    }
}

/// A nullable text column, or all nulls when the file lacks it (its type was checked by
/// `check_schema`, and large or view strings are cast).
fn optional_strings(batch: &RecordBatch, name: &str) -> Vec<Option<String>> {
    let len = batch.num_rows();
    let Some(array) = batch.column_by_name(name) else {
        return vec![None; len];
    };
    let cast = arrow::compute::cast(array, &DataType::Utf8).ok();
    match cast
        .as_ref()
        .and_then(|a| a.as_any().downcast_ref::<StringArray>())
    {
        Some(a) => a.iter().map(|v| v.map(str::to_owned)).collect(),
        None => vec![None; len],
    }
}

/// A nullable Int64 column, or all nulls when the file lacks it.
fn optional_int32s(batch: &RecordBatch, name: &str) -> Vec<Option<i32>> {
    match batch
        .column_by_name(name)
        .and_then(|a| a.as_any().downcast_ref::<Int32Array>())
    {
        Some(a) => a.iter().collect(),
        None => vec![None; batch.num_rows()],
    }
}

fn optional_int64s(batch: &RecordBatch, name: &str) -> Vec<Option<i64>> {
    match batch
        .column_by_name(name)
        .and_then(|a| a.as_any().downcast_ref::<Int64Array>())
    {
        Some(a) => a.iter().collect(),
        None => vec![None; batch.num_rows()],
    }
}

pub(crate) fn rows_from_batch(batch: &RecordBatch) -> Result<Vec<ResultRow>, ColumnError> {
    check_schema(&batch.schema())?;
    let len = batch.num_rows();
    let has = |name: &str| batch.column_by_name(name).is_some();

    let mut sweep = strings(batch, col::SWEEP)?.into_iter();
    let mut experiment = strings(batch, col::EXPERIMENT)?.into_iter();
    let mut config = strings(batch, col::CONFIG)?.into_iter();
    let n = int32s(batch, col::N)?;
    let game_index = int64s(batch, col::GAME_INDEX)?;
    let seed = int64s(batch, col::SEED)?;
    let mut board = strings(batch, col::BOARD)?.into_iter();
    let prefix = int32s(batch, col::PREFIX)?;
    let mut prefix_moves = strings(batch, col::PREFIX_MOVES)?.into_iter();
    let mut start = strings(batch, col::START)?.into_iter();
    let mut order = strings(batch, col::ORDER)?.into_iter();
    let schedule = strings(batch, col::SCHEDULE)?;
    let budget = int64s(batch, col::BUDGET)?;
    let trial = int32s(batch, col::TRIAL)?;
    let min_stones = int32s(batch, col::MIN_STONES)?;
    let solvable = booleans(batch, col::SOLVABLE)?;
    let exhaustive = booleans(batch, col::EXHAUSTIVE)?;
    let expansions = int64s(batch, col::EXPANSIONS)?;
    let attempts = int32s(batch, col::ATTEMPTS)?;
    let mut solution = strings(batch, col::SOLUTION)?.into_iter();
    let wall_ns = int64s(batch, col::WALL_NS)?;
    let mut worker = strings(batch, col::WORKER)?.into_iter();
    let mut hammer_version = strings(batch, col::HAMMER_VERSION)?.into_iter();
    // Columns that came with families: read when present, else filled as a file written
    // before families means them (a Martello row).
    let puzzle = if has(col::PUZZLE) {
        strings(batch, col::PUZZLE)?
    } else {
        vec![hammer_family::DEFAULT_FAMILY.to_string(); len]
    };
    let params = if has(col::PARAMS) {
        strings(batch, col::PARAMS)?
    } else {
        n.iter().map(|n| format!("n={n}")).collect()
    };
    let score = if has(col::SCORE) {
        int32s(batch, col::SCORE)?.to_vec()
    } else {
        min_stones.to_vec()
    };
    let lower_bound = if has(col::LOWER_BOUND) {
        int32s(batch, col::LOWER_BOUND)?.to_vec()
    } else {
        vec![0; len]
    };
    let schedule_complete: Vec<bool> = if has(col::SCHEDULE_COMPLETE) {
        let b = booleans(batch, col::SCHEDULE_COMPLETE)?;
        (0..len).map(|i| b.value(i)).collect()
    } else {
        schedule
            .iter()
            .map(|s| {
                s.parse::<hammer_solver::Schedule>()
                    .is_ok_and(|s| s.always_exact())
            })
            .collect()
    };
    // Columns that came with per-game limits: null where a file predates them.
    let capped_by = optional_strings(batch, col::CAPPED_BY);
    let memo_bytes = optional_int64s(batch, col::MEMO_BYTES);
    let split_parts = optional_int32s(batch, col::SPLIT_PARTS);
    let split_nodes = optional_int32s(batch, col::SPLIT_NODES);
    let family_arrays: Vec<(&str, usize, Option<&ArrayRef>)> = family_columns()
        .iter()
        .map(|c| (c.family, c.index, batch.column_by_name(c.spec.name)))
        .collect();

    // All arrays of a RecordBatch have the batch's length, so the defaults below are never
    // used; they only avoid a panic path.
    let at32 = |v: &[i32], i: usize| v.get(i).copied().unwrap_or_default();
    let at64 = |v: &[i64], i: usize| v.get(i).copied().unwrap_or_default();
    let atb = |v: &BooleanArray, i: usize| i < v.len() && v.value(i);
    let mut schedule = schedule.into_iter();
    let mut rows = Vec::with_capacity(len);
    for i in 0..len {
        let family = puzzle.get(i).cloned().unwrap_or_default();
        let extra = family_arrays
            .iter()
            .filter(|(f, _, _)| *f == family)
            .map(|(_, _, array)| array.map_or(Cell::Null, |a| family_cell(a, i)))
            .collect();
        rows.push(ResultRow {
            sweep: sweep.next().unwrap_or_default(),
            experiment: experiment.next().unwrap_or_default(),
            config: config.next().unwrap_or_default(),
            n: at32(n, i),
            game_index: at64(game_index, i),
            seed: at64(seed, i),
            board: board.next().unwrap_or_default(),
            prefix: at32(prefix, i),
            prefix_moves: prefix_moves.next().unwrap_or_default(),
            start: start.next().unwrap_or_default(),
            order: order.next().unwrap_or_default(),
            schedule: schedule.next().unwrap_or_default(),
            budget: at64(budget, i),
            trial: at32(trial, i),
            min_stones: at32(min_stones, i),
            solvable: atb(solvable, i),
            exhaustive: atb(exhaustive, i),
            expansions: at64(expansions, i),
            attempts: at32(attempts, i),
            solution: solution.next().unwrap_or_default(),
            wall_ns: at64(wall_ns, i),
            worker: worker.next().unwrap_or_default(),
            hammer_version: hammer_version.next().unwrap_or_default(),
            puzzle: family,
            params: params.get(i).cloned().unwrap_or_default(),
            score: at32(&score, i),
            lower_bound: at32(&lower_bound, i),
            schedule_complete: schedule_complete.get(i).copied().unwrap_or_default(),
            capped_by: capped_by.get(i).cloned().flatten(),
            memo_bytes: memo_bytes.get(i).copied().flatten(),
            split_parts: split_parts.get(i).copied().flatten(),
            split_nodes: split_nodes.get(i).copied().flatten(),
            extra,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{COLUMNS, LIMIT_COLUMNS, PARTITION_COLUMNS};
    use arrow::datatypes::{Field, Schema};

    fn awkward_rows() -> Vec<ResultRow> {
        let distinct = |tag: &str| format!("{tag}-value");
        vec![
            ResultRow::default(),
            ResultRow {
                sweep: "süß-☃-スイープ".into(),
                experiment: distinct("experiment"),
                config: distinct("config"),
                n: i32::MIN,
                game_index: i64::MAX,
                seed: i64::MIN,
                board: distinct("board"),
                prefix: i32::MAX,
                prefix_moves: "A1xB1 C2xC3".into(),
                start: distinct("start"),
                order: distinct("order"),
                schedule: distinct("schedule"),
                budget: 1,
                trial: 2,
                min_stones: 3,
                solvable: true,
                exhaustive: false,
                expansions: 4,
                attempts: 5,
                solution: distinct("solution"),
                wall_ns: 6,
                worker: distinct("worker"),
                hammer_version: distinct("hammer_version"),
                puzzle: "martello".into(),
                params: "n=-1".into(),
                score: 3,
                lower_bound: 2,
                schedule_complete: true,
                capped_by: Some("time".into()),
                memo_bytes: Some(1 << 40),
                split_parts: Some(8),
                split_nodes: Some(130),
                extra: Vec::new(),
            },
        ]
    }

    #[test]
    fn file_schema_lacks_partition_columns() {
        let names: Vec<String> = file_schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect();
        let expected: Vec<&str> = COLUMNS
            .iter()
            .copied()
            .filter(|c| !PARTITION_COLUMNS.contains(c))
            .chain(LIMIT_COLUMNS.iter().map(|(name, _)| *name))
            .chain(family_columns().iter().map(|c| c.spec.name))
            .collect();
        assert_eq!(names, expected);
    }

    #[test]
    fn schema_matches_columns() {
        let schema = schema();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(&names[..COLUMNS.len()], COLUMNS);
        let shared = &schema.fields()[..COLUMNS.len()];
        assert!(shared.iter().all(|f| !f.is_nullable()));
        // Family columns are nullable: rows of other families leave them empty.
        let limits = &schema.fields()[COLUMNS.len()..COLUMNS.len() + LIMIT_COLUMNS.len()];
        assert!(limits.iter().all(|f| f.is_nullable()));
        let family = &schema.fields()[COLUMNS.len() + LIMIT_COLUMNS.len()..];
        assert_eq!(family.len(), family_columns().len());
        assert!(family.iter().all(|f| f.is_nullable()));
    }

    #[test]
    fn batch_round_trip() {
        let rows = awkward_rows();
        let batch = rows_to_batch(&rows).unwrap();
        assert_eq!(batch.schema(), schema());
        assert_eq!(batch_to_rows(&batch).unwrap(), rows);
    }

    #[test]
    fn empty_batch_round_trip() {
        let batch = rows_to_batch(&[]).unwrap();
        assert_eq!(batch.num_rows(), 0);
        assert!(batch_to_rows(&batch).unwrap().is_empty());
    }

    #[test]
    fn missing_and_mistyped_columns_are_named() {
        let batch = rows_to_batch(&awkward_rows()).unwrap();

        let without = batch.project(&[0, 1, 2, 3, 5]).unwrap(); // drops game_index and later
        let err = batch_to_rows(&without).unwrap_err().to_string();
        assert!(err.contains("missing column \"game_index\""), "{err}");

        let mut fields: Vec<Field> = schema().fields().iter().map(|f| (**f).clone()).collect();
        let mut columns = batch.columns().to_vec();
        let idx = COLUMNS.iter().position(|c| *c == "expansions").unwrap();
        fields[idx] = Field::new("expansions", DataType::Int32, false);
        columns[idx] = Arc::new(Int32Array::from(vec![1, 2]));
        let mistyped = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).unwrap();
        let err = batch_to_rows(&mistyped).unwrap_err().to_string();
        assert!(err.contains("wrong type of column \"expansions\""), "{err}");
        assert!(err.contains("expected Int64, found Int32"), "{err}");
    }

    #[test]
    fn nulls_are_rejected_with_column_name() {
        let batch = rows_to_batch(&awkward_rows()).unwrap();
        let mut fields: Vec<Field> = schema().fields().iter().map(|f| (**f).clone()).collect();
        let mut columns = batch.columns().to_vec();
        fields[2] = Field::new("config", DataType::Utf8, true);
        columns[2] = Arc::new(StringArray::from(vec![Some("a"), None]));
        let with_null = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).unwrap();
        let err = batch_to_rows(&with_null).unwrap_err().to_string();
        assert!(err.contains("column \"config\" has 1 null value"), "{err}");
    }

    #[test]
    fn large_strings_are_accepted() {
        let rows = awkward_rows();
        let batch = rows_to_batch(&rows).unwrap();
        let mut fields: Vec<Field> = schema().fields().iter().map(|f| (**f).clone()).collect();
        let mut columns = batch.columns().to_vec();
        fields[0] = Field::new("sweep", DataType::LargeUtf8, false);
        columns[0] = arrow::compute::cast(&columns[0], &DataType::LargeUtf8).unwrap();
        let large = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).unwrap();
        assert_eq!(batch_to_rows(&large).unwrap(), rows);
    }

    #[test]
    fn key_orders_by_sweep_first() {
        let a = ResultRow {
            sweep: "a".into(),
            game_index: 9,
            ..ResultRow::default()
        };
        let b = ResultRow {
            sweep: "b".into(),
            ..ResultRow::default()
        };
        assert!(a.key() < b.key());
        assert_eq!(a.key(), a.clone().key());
    }
}
