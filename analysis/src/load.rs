//! Reading the columns the figures need, and nothing else.
//!
//! `hammer_dataset::read_dataset` materialises every column, including the board, start
//! and solution strings that dominate the file size; a report over millions of games only
//! needs a dozen small columns. So parts are listed with `hammer_dataset::list_parts`
//! (which validates the layout) and each file is read through a Parquet
//! [`ProjectionMask`]. The schema is still checked against the full dataset schema, so a
//! file that `read_part` would reject is rejected here too, with the same error types.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow::array::{Array, RecordBatch};
use arrow::datatypes::Schema;
use hammer_dataset::{
    ColumnError, FileProblem, PARTITION_COLUMNS, PartInfo, booleans, col, fill, for_each_str,
    int32s, int64s, type_accepted,
};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::error::{Error, Result};

/// The columns the analysis reads from every part file. `experiment` and `n` come from
/// the path (and are also read, to cross-check, when a foreign writer stored them).
pub const READ_COLUMNS: &[&str] = &[
    col::SWEEP,
    col::CONFIG,
    col::GAME_INDEX,
    col::SEED,
    col::PREFIX,
    col::ORDER,
    col::SCHEDULE,
    col::BUDGET,
    col::TRIAL,
    col::MIN_STONES,
    col::SOLVABLE,
    col::EXHAUSTIVE,
    col::EXPANSIONS,
    col::ATTEMPTS,
    col::WALL_NS,
];

/// Small integer ids for the few distinct strings of a column (sweep names, configs,
/// orders, schedules), so that a row is a fixed-size value and millions fit in memory.
#[derive(Debug, Default, Clone)]
pub struct Names {
    names: Vec<String>,
    ids: HashMap<String, u32>,
}

impl Names {
    pub(crate) fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_owned());
        self.ids.insert(name.to_owned(), id);
        id
    }

    /// The id of `name` if any row has it.
    pub fn find(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    /// The id of the first name, in id order, that `is` holds for.
    pub fn first(&self, is: impl Fn(&str) -> bool) -> Option<u32> {
        let at = self.names.iter().position(|name| is(name))?;
        u32::try_from(at).ok()
    }

    /// Every name, in id order.
    pub fn all(&self) -> &[String] {
        &self.names
    }

    /// The name behind an id a row carries; empty for an unknown id.
    pub fn name(&self, id: u32) -> &str {
        self.names.get(id as usize).map_or("", String::as_str)
    }
}

/// Columns read when the file has them: files written before puzzle families lack the
/// first three (they are Martello rows, `schedule_complete` follows from the schedule's
/// name, and the lower bound is 0), files written before per-game limits `capped_by`
/// (no game was capped).
pub const OPTIONAL_COLUMNS: &[&str] = &[
    col::PUZZLE,
    col::SCHEDULE_COMPLETE,
    col::LOWER_BOUND,
    col::CAPPED_BY,
];

/// One result row, reduced to what the figures use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The sweep that made the row, as an id into [`Names`].
    pub sweep: u32,
    /// The experiment the row belongs to, as an id into [`Names`].
    pub experiment: u32,
    pub(crate) config: u32,
    /// The board's side (an n x n board).
    pub n: i32,
    /// Which game of its seed, so that rows of one game can be paired.
    pub game_index: i64,
    /// The sweep seed; with `n` and `game_index` it fixes the board.
    pub seed: i64,
    /// Length of the random prefix played before solving.
    pub prefix: i32,
    /// The move order's name, as an id into [`Names`].
    pub order: u32,
    /// The restart schedule's name, as an id into [`Names`].
    pub schedule: u32,
    /// Per-attempt expansion budget; 0 means none.
    pub budget: i64,
    /// Try number of a multi-try experiment; 0 otherwise.
    pub trial: i32,
    pub(crate) min_stones: i32,
    /// The search left one stone: the game is solvable.
    pub solvable: bool,
    /// The answer is proven exact, not cut short by a budget.
    pub exhaustive: bool,
    /// Node expansions over all attempts: the cost the figures compare.
    pub expansions: i64,
    pub(crate) attempts: i32,
    /// Solving time; only the tuner's validation reads it (figures count expansions).
    pub wall_ns: i64,
    /// The schedule always ends exact, so a row that is not `exhaustive` means a problem
    /// unless a per-game limit stopped it (`capped`).
    pub schedule_complete: bool,
    /// A proven lower bound on the score (see the dataset's `lower_bound`).
    pub lower_bound: i32,
    /// A per-game limit stopped the game before its answer was proven (`capped_by` is
    /// not null): the game is unknown, not a problem.
    pub capped: bool,
}

/// The rows of a dataset plus the strings their ids refer to.
#[derive(Debug, Default, Clone)]
pub struct Data {
    pub(crate) dir: PathBuf,
    /// Every row read.
    pub rows: Vec<Row>,
    pub(crate) names: Names,
    pub(crate) parts: usize,
    /// Parts of other puzzle families than Martello: the figures of the 2013 report are
    /// about Martello, so these rows are left to the family sections (`families.rs`).
    pub family_parts: Vec<PathBuf>,
    /// What reading took; stages are added as the analysis goes.
    pub stats: crate::report::ReadStats,
}

/// The dataset's part files, after checking that `dir` is a dataset with at least one.
pub(crate) fn dataset_parts(dir: &Path) -> Result<Vec<PartInfo>> {
    Ok(hammer_dataset::dataset_parts(dir)?)
}

fn file_error(path: &Path, problem: FileProblem) -> Error {
    Error::Dataset(hammer_dataset::Error::File {
        path: path.to_owned(),
        problem,
    })
}

fn corrupt(path: &Path, e: &dyn std::fmt::Display) -> Error {
    file_error(path, FileProblem::Corrupt(e.to_string()))
}

/// Checks the file against the whole dataset schema, not just the projected columns, so
/// that a file `hammer_dataset::read_part` rejects is rejected here as well.
fn check_schema(schema: &Schema) -> Result<(), ColumnError> {
    let full = hammer_dataset::schema();
    for field in full.fields() {
        let Some(column) = hammer_dataset::COLUMNS
            .iter()
            .copied()
            .find(|c| *c == field.name())
        else {
            continue;
        };
        match schema.field_with_name(column) {
            Ok(found) if type_accepted(field.data_type(), found.data_type()) => {}
            Ok(found) => {
                return Err(ColumnError::WrongType {
                    column,
                    expected: field.data_type().clone(),
                    found: found.data_type().clone(),
                });
            }
            Err(_) if PARTITION_COLUMNS.contains(&column) => {}
            Err(_) => return Err(ColumnError::Missing { column }),
        }
    }
    Ok(())
}

/// A part file opened for reading, its magic bytes, footer and schema checked.
fn open_part(path: &Path) -> Result<ParquetRecordBatchReaderBuilder<File>> {
    let file = hammer_dataset::open_part_file(path)?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| corrupt(path, &e))?;
    check_schema(builder.schema()).map_err(|e| file_error(path, e.into()))?;
    Ok(builder)
}

/// The row count in a part's footer, after the checks of [`open_part`]: reading every
/// footer first refuses a bad file before any row is read, and sizes the row vector once.
pub(crate) fn footer_rows(path: &Path) -> Result<u64> {
    let builder = open_part(path)?;
    Ok(u64::try_from(builder.metadata().file_metadata().num_rows()).unwrap_or(0))
}

/// The rows of one part file, with string ids local to the part (`names`); the caller
/// maps them to the dataset's ids, so that parts can be read in parallel.
#[derive(Debug, Default)]
pub(crate) struct PartRows {
    pub names: Names,
    pub rows: Vec<Row>,
    /// The part holds another family's rows (from its first such batch on).
    pub family: bool,
    /// That family's name (the first non-Martello `puzzle` value).
    pub family_name: String,
}

/// Reads one part, record batch by record batch, projecting only [`READ_COLUMNS`] (and
/// the optional and stored partition columns the file has).
pub(crate) fn read_part(part: &PartInfo) -> Result<PartRows> {
    let path = part.path.as_path();
    let builder = open_part(path)?;
    let stored_partition: Vec<&str> = PARTITION_COLUMNS
        .iter()
        .copied()
        .filter(|c| builder.schema().column_with_name(c).is_some())
        .collect();
    let optional: Vec<&str> = OPTIONAL_COLUMNS
        .iter()
        .copied()
        .filter(|c| builder.schema().column_with_name(c).is_some())
        .collect();
    let mask = ProjectionMask::columns(
        builder.parquet_schema(),
        READ_COLUMNS
            .iter()
            .copied()
            .chain(stored_partition.iter().copied())
            .chain(optional.iter().copied()),
    );
    let rows = usize::try_from(builder.metadata().file_metadata().num_rows()).unwrap_or(0);
    let reader = builder
        .with_projection(mask)
        .build()
        .map_err(|e| corrupt(path, &e))?;

    let mut out = PartRows::default();
    let experiment = out.names.id(&part.experiment);
    let mut row_base = 0usize;
    for batch in reader {
        let batch = batch.map_err(|e| corrupt(path, &e))?;
        if let Some(name) = other_family(&batch).map_err(|e| file_error(path, e.into()))? {
            // One part is one experiment, hence one family.
            out.family = true;
            out.family_name = name;
            return Ok(out);
        }
        if out.rows.capacity() == 0 {
            out.rows.reserve_exact(rows);
        }
        append_batch(part, experiment, row_base, &batch, &mut out)
            .map_err(|problem| file_error(path, problem))?;
        row_base += batch.num_rows();
    }
    Ok(out)
}

/// The first family of the batch's rows whose rows do not feed the 2013 report's
/// figures ([`hammer_family::Family::report_figures`]), if any.
fn other_family(batch: &RecordBatch) -> Result<Option<String>, ColumnError> {
    let figures = |name: &str| hammer_family::by_name(name).is_ok_and(|f| f.report_figures());
    if batch.column_by_name(col::PUZZLE).is_none() {
        // A file written before families: its rows are `fill::PUZZLE`'s.
        return Ok((!figures(fill::PUZZLE)).then(|| fill::PUZZLE.to_owned()));
    }
    let (mut other, mut last_with) = (None, None::<String>);
    for_each_str(batch, col::PUZZLE, |v| {
        if other.is_some() || last_with.as_deref() == Some(v) {
            return;
        }
        if figures(v) {
            last_with = Some(v.to_owned());
        } else {
            other = Some(v.to_owned());
        }
    })?;
    Ok(other)
}

/// Interned ids of a string column.
fn string_ids(
    batch: &RecordBatch,
    name: &'static str,
    names: &mut Names,
) -> Result<Vec<u32>, ColumnError> {
    let mut ids = Vec::with_capacity(batch.num_rows());
    for_each_str(batch, name, |v| ids.push(names.id(v)))?;
    Ok(ids)
}

fn append_batch(
    part: &PartInfo,
    experiment: u32,
    row_base: usize,
    batch: &RecordBatch,
    out: &mut PartRows,
) -> Result<(), FileProblem> {
    let names = &mut out.names;
    check_stored_partition(part, row_base, batch, names)?;
    let sweep = string_ids(batch, col::SWEEP, names)?;
    let config = string_ids(batch, col::CONFIG, names)?;
    let order = string_ids(batch, col::ORDER, names)?;
    let schedule = string_ids(batch, col::SCHEDULE, names)?;
    let game_index = int64s(batch, col::GAME_INDEX)?;
    let seed = int64s(batch, col::SEED)?;
    let prefix = int32s(batch, col::PREFIX)?;
    let budget = int64s(batch, col::BUDGET)?;
    let trial = int32s(batch, col::TRIAL)?;
    let min_stones = int32s(batch, col::MIN_STONES)?;
    let solvable = booleans(batch, col::SOLVABLE)?;
    let exhaustive = booleans(batch, col::EXHAUSTIVE)?;
    let expansions = int64s(batch, col::EXPANSIONS)?;
    let attempts = int32s(batch, col::ATTEMPTS)?;
    let wall_ns = int64s(batch, col::WALL_NS)?;
    let complete: Vec<bool> = if batch.column_by_name(col::SCHEDULE_COMPLETE).is_some() {
        let b = booleans(batch, col::SCHEDULE_COMPLETE)?;
        (0..batch.num_rows()).map(|i| b.value(i)).collect()
    } else {
        // Older files: the schedule's meaning, from its name.
        schedule
            .iter()
            .map(|&id| fill::schedule_complete(names.name(id)))
            .collect()
    };
    let lower_bound: Vec<i32> = match batch.column_by_name(col::LOWER_BOUND) {
        Some(_) => int32s(batch, col::LOWER_BOUND)?.to_vec(),
        None => vec![fill::LOWER_BOUND; batch.num_rows()],
    };
    let capped: Vec<bool> = match batch.column_by_name(col::CAPPED_BY) {
        Some(array) => (0..batch.num_rows()).map(|i| array.is_valid(i)).collect(),
        None => vec![false; batch.num_rows()],
    };
    // Every array of a record batch has the batch's length; zipping keeps the loop free of
    // indexing that could panic if that ever did not hold.
    let rows = sweep
        .iter()
        .zip(&config)
        .zip(order.iter().zip(&schedule))
        .zip(game_index.iter().zip(seed))
        .zip(prefix.iter().zip(budget))
        .zip(trial.iter().zip(min_stones))
        .zip(expansions.iter().zip(attempts))
        .zip(wall_ns)
        .enumerate();
    for (i, (((((((sw, cf), (or, sc)), (gi, se)), (pr, bu)), (tr, ms)), (ex, at)), wall)) in rows {
        out.rows.push(Row {
            sweep: *sw,
            experiment,
            config: *cf,
            n: part.n,
            game_index: *gi,
            seed: *se,
            prefix: *pr,
            order: *or,
            schedule: *sc,
            budget: *bu,
            trial: *tr,
            min_stones: *ms,
            solvable: i < solvable.len() && solvable.value(i),
            exhaustive: i < exhaustive.len() && exhaustive.value(i),
            expansions: *ex,
            attempts: *at,
            wall_ns: *wall,
            schedule_complete: complete.get(i).copied().unwrap_or(false),
            lower_bound: lower_bound.get(i).copied().unwrap_or(0),
            capped: capped.get(i).copied().unwrap_or(false),
        });
    }
    Ok(())
}

/// A foreign writer may have stored the partition columns; then they must agree with the
/// path, or grouping by path and by column would give two different analyses.
fn check_stored_partition(
    part: &PartInfo,
    row_base: usize,
    batch: &RecordBatch,
    names: &mut Names,
) -> Result<(), FileProblem> {
    if batch.column_by_name(col::EXPERIMENT).is_some() {
        let ids = string_ids(batch, col::EXPERIMENT, names)?;
        let want = names.id(&part.experiment);
        if let Some(i) = ids.iter().position(|&id| id != want) {
            return Err(FileProblem::PartitionMismatch {
                column: col::EXPERIMENT,
                path_value: format!("{:?}", part.experiment),
                file_value: format!("{:?}", names.name(ids[i])),
                row: row_base + i,
            });
        }
    }
    if batch.column_by_name(col::N).is_some() {
        let ns = int32s(batch, col::N)?;
        if let Some(i) = ns.iter().position(|&n| n != part.n) {
            return Err(FileProblem::PartitionMismatch {
                column: col::N,
                path_value: part.n.to_string(),
                file_value: ns[i].to_string(),
                row: row_base + i,
            });
        }
    }
    Ok(())
}
