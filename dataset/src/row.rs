use std::sync::{Arc, LazyLock};

use arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, Int32Array, Int64Array, RecordBatch, StringBuilder,
};
use arrow::datatypes::{DataType, Field, Int32Type, Int64Type, Schema, SchemaRef};

use crate::error::{ColumnError, Result};

/// One finished game: the unit the cluster produces and the analysis consumes.
///
/// Fields are plain owned values rather than an Arrow view so that workers can build rows
/// without knowing anything about Arrow; the conversion happens once per part file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResultRow {
    pub sweep: String,
    pub experiment: String,
    pub config: String,
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
    pub min_stones: i32,
    pub solvable: bool,
    pub exhaustive: bool,
    pub expansions: i64,
    pub attempts: i32,
    pub solution: String,
    pub wall_ns: i64,
    pub worker: String,
    pub hammer_version: String,
}

/// Identity of a row: a sweep produces exactly one row per key, so the key is what
/// de-duplication and "what is still missing" queries work on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RowKey {
    pub sweep: String,
    pub experiment: String,
    pub config: String,
    pub n: i32,
    pub game_index: i64,
}

impl ResultRow {
    pub fn key(&self) -> RowKey {
        RowKey {
            sweep: self.sweep.clone(),
            experiment: self.experiment.clone(),
            config: self.config.clone(),
            n: self.n,
            game_index: self.game_index,
        }
    }
}

/// Column names in file order; external readers and the docs rely on this order.
pub const COLUMNS: &[&str] = &[
    "sweep",
    "experiment",
    "config",
    "n",
    "game_index",
    "seed",
    "board",
    "prefix",
    "prefix_moves",
    "start",
    "order",
    "schedule",
    "budget",
    "trial",
    "min_stones",
    "solvable",
    "exhaustive",
    "expansions",
    "attempts",
    "solution",
    "wall_ns",
    "worker",
    "hammer_version",
];

/// Arrow type of each column in [`COLUMNS`]; kept next to it so the two cannot drift apart.
const TYPES: &[DataType] = &[
    DataType::Utf8,    // sweep
    DataType::Utf8,    // experiment
    DataType::Utf8,    // config
    DataType::Int32,   // n
    DataType::Int64,   // game_index
    DataType::Int64,   // seed
    DataType::Utf8,    // board
    DataType::Int32,   // prefix
    DataType::Utf8,    // prefix_moves
    DataType::Utf8,    // start
    DataType::Utf8,    // order
    DataType::Utf8,    // schedule
    DataType::Int64,   // budget
    DataType::Int32,   // trial
    DataType::Int32,   // min_stones
    DataType::Boolean, // solvable
    DataType::Boolean, // exhaustive
    DataType::Int64,   // expansions
    DataType::Int32,   // attempts
    DataType::Utf8,    // solution
    DataType::Int64,   // wall_ns
    DataType::Utf8,    // worker
    DataType::Utf8,    // hammer_version
];

static SCHEMA: LazyLock<SchemaRef> = LazyLock::new(|| {
    let fields: Vec<Field> = COLUMNS
        .iter()
        .zip(TYPES)
        .map(|(name, ty)| Field::new(*name, ty.clone(), false))
        .collect();
    Arc::new(Schema::new(fields))
});

/// Columns whose value is stored only in the directory names (`experiment=NAME/n=N`), not
/// inside the part files.
///
/// Storing them in the files as well breaks `pandas.read_parquet(DIR)`: pyarrow infers the
/// hive partition fields as dictionaries and then refuses to merge them with the plain string
/// column from the file. [`crate::read_part`] restores them from the path.
pub const PARTITION_COLUMNS: &[&str] = &["experiment", "n"];

static FILE_SCHEMA: LazyLock<SchemaRef> = LazyLock::new(|| {
    let fields: Vec<Field> = SCHEMA
        .fields()
        .iter()
        .filter(|f| !PARTITION_COLUMNS.contains(&f.name().as_str()))
        .map(|f| (**f).clone())
        .collect();
    Arc::new(Schema::new(fields))
});

/// The Arrow schema of a [`ResultRow`], and of what readers see once they add the partition
/// columns from the path.
///
/// Every column is non-nullable and of a plain type (Utf8, Int32, Int64, Boolean): no
/// dictionaries, views or timestamps, so pandas, polars, DuckDB and pyarrow all read the files
/// without type mapping surprises.
pub fn schema() -> SchemaRef {
    Arc::clone(&SCHEMA)
}

/// The schema stored inside a part file: [`schema`] without [`PARTITION_COLUMNS`].
pub fn file_schema() -> SchemaRef {
    Arc::clone(&FILE_SCHEMA)
}

/// A borrowed [`ResultRow`]: every column's value, with the strings borrowed.
///
/// The coordinator holds the per-game values as they arrived and the per-unit values
/// (sweep, config, order, ...) once; building an owned `ResultRow` per game would clone
/// seven strings per row only to copy them again into Arrow buffers. [`crate::write_part_refs`]
/// takes these instead.
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
    pub min_stones: i32,
    pub solvable: bool,
    pub exhaustive: bool,
    pub expansions: i64,
    pub attempts: i32,
    pub solution: &'a str,
    pub wall_ns: i64,
    pub worker: &'a str,
    pub hammer_version: &'a str,
}

impl ResultRow {
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
            min_stones: self.min_stones,
            solvable: self.solvable,
            exhaustive: self.exhaustive,
            expansions: self.expansions,
            attempts: self.attempts,
            solution: &self.solution,
            wall_ns: self.wall_ns,
            worker: &self.worker,
            hammer_version: &self.hammer_version,
        }
    }
}

/// Builds one record batch in [`schema`] order.
pub fn rows_to_batch(rows: &[ResultRow]) -> Result<RecordBatch> {
    let refs: Vec<RowRef<'_>> = rows.iter().map(ResultRow::row_ref).collect();
    batch_from_refs(&refs, false)
}

/// Like [`rows_to_batch`], over borrowed rows. With `file_only`, the batch is in
/// [`file_schema`] order: the partition columns, which the directory names carry, are not
/// built at all rather than built and projected away.
pub(crate) fn batch_from_refs(rows: &[RowRef<'_>], file_only: bool) -> Result<RecordBatch> {
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

    // Same order as COLUMNS; the round-trip test catches a swap because batch_to_rows reads
    // by name.
    let mut columns = Vec::with_capacity(COLUMNS.len());
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
        int32(rows, |r| r.min_stones),
        boolean(rows, |r| r.solvable),
        boolean(rows, |r| r.exhaustive),
        int64(rows, |r| r.expansions),
        int32(rows, |r| r.attempts),
        utf8(rows, |r| r.solution),
        int64(rows, |r| r.wall_ns),
        utf8(rows, |r| r.worker),
        utf8(rows, |r| r.hammer_version),
    ]);
    let schema = if file_only { file_schema() } else { schema() };
    Ok(RecordBatch::try_new(schema, columns)?)
}

/// Checks that `schema` has every dataset column with a usable type, without looking at data.
///
/// Extra columns are allowed so that files written by a newer version stay readable.
pub(crate) fn check_schema(schema: &Schema) -> Result<(), ColumnError> {
    for (&column, expected) in COLUMNS.iter().zip(TYPES) {
        let field = schema
            .field_with_name(column)
            .map_err(|_| ColumnError::Missing { column })?;
        if !type_accepted(expected, field.data_type()) {
            return Err(ColumnError::WrongType {
                column,
                expected: expected.clone(),
                found: field.data_type().clone(),
            });
        }
    }
    Ok(())
}

/// Strings written by other tools may come back as large or view strings; they hold the same
/// values, so they are accepted. Integer widths are not, since a silent narrowing would corrupt
/// counts.
fn type_accepted(expected: &DataType, found: &DataType) -> bool {
    match expected {
        DataType::Utf8 => matches!(
            found,
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
        ),
        other => other == found,
    }
}

/// Converts a record batch back into rows, looking columns up by name so that column order in
/// the file does not matter.
pub fn batch_to_rows(batch: &RecordBatch) -> Result<Vec<ResultRow>> {
    Ok(rows_from_batch(batch)?)
}

pub(crate) fn rows_from_batch(batch: &RecordBatch) -> Result<Vec<ResultRow>, ColumnError> {
    check_schema(&batch.schema())?;
    let len = batch.num_rows();

    let mut sweep = strings(batch, "sweep")?.into_iter();
    let mut experiment = strings(batch, "experiment")?.into_iter();
    let mut config = strings(batch, "config")?.into_iter();
    let n = int32s(batch, "n")?;
    let game_index = int64s(batch, "game_index")?;
    let seed = int64s(batch, "seed")?;
    let mut board = strings(batch, "board")?.into_iter();
    let prefix = int32s(batch, "prefix")?;
    let mut prefix_moves = strings(batch, "prefix_moves")?.into_iter();
    let mut start = strings(batch, "start")?.into_iter();
    let mut order = strings(batch, "order")?.into_iter();
    let mut schedule = strings(batch, "schedule")?.into_iter();
    let budget = int64s(batch, "budget")?;
    let trial = int32s(batch, "trial")?;
    let min_stones = int32s(batch, "min_stones")?;
    let solvable = booleans(batch, "solvable")?;
    let exhaustive = booleans(batch, "exhaustive")?;
    let expansions = int64s(batch, "expansions")?;
    let attempts = int32s(batch, "attempts")?;
    let mut solution = strings(batch, "solution")?.into_iter();
    let wall_ns = int64s(batch, "wall_ns")?;
    let mut worker = strings(batch, "worker")?.into_iter();
    let mut hammer_version = strings(batch, "hammer_version")?.into_iter();

    // All arrays of a RecordBatch have the batch's length, so the defaults below are never
    // used; they only avoid a panic path.
    let at32 = |v: &[i32], i: usize| v.get(i).copied().unwrap_or_default();
    let at64 = |v: &[i64], i: usize| v.get(i).copied().unwrap_or_default();
    let atb = |v: &BooleanArray, i: usize| i < v.len() && v.value(i);
    let mut rows = Vec::with_capacity(len);
    for i in 0..len {
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
        });
    }
    Ok(rows)
}

/// Looks a column up and rejects nulls, which the schema forbids but a foreign writer might
/// still produce.
pub fn non_null<'a>(
    batch: &'a RecordBatch,
    column: &'static str,
) -> Result<&'a ArrayRef, ColumnError> {
    let array = batch
        .column_by_name(column)
        .ok_or(ColumnError::Missing { column })?;
    let nulls = array.null_count();
    if nulls > 0 {
        return Err(ColumnError::Nulls { column, nulls });
    }
    Ok(array)
}

/// The error for a column that is present but not of the `expected` type.
pub fn wrong_type(column: &'static str, expected: DataType, array: &ArrayRef) -> ColumnError {
    ColumnError::WrongType {
        column,
        expected,
        found: array.data_type().clone(),
    }
}

fn strings(batch: &RecordBatch, column: &'static str) -> Result<Vec<String>, ColumnError> {
    let mut out = Vec::with_capacity(batch.num_rows());
    for_each_str(batch, column, |v| out.push(v.to_owned()))?;
    Ok(out)
}

/// Calls `f` with each value of a string column, whichever of Arrow's three string
/// layouts the writer chose (pyarrow, polars and DuckDB each have their favourite).
pub fn for_each_str(
    batch: &RecordBatch,
    column: &'static str,
    mut f: impl FnMut(&str),
) -> Result<(), ColumnError> {
    let array = non_null(batch, column)?;
    match array.data_type() {
        DataType::Utf8 => array
            .as_string::<i32>()
            .iter()
            .for_each(|v| f(v.unwrap_or_default())),
        DataType::LargeUtf8 => array
            .as_string::<i64>()
            .iter()
            .for_each(|v| f(v.unwrap_or_default())),
        DataType::Utf8View => array
            .as_string_view()
            .iter()
            .for_each(|v| f(v.unwrap_or_default())),
        _ => return Err(wrong_type(column, DataType::Utf8, array)),
    }
    Ok(())
}

/// The values of an Int32 column without nulls.
pub fn int32s<'a>(batch: &'a RecordBatch, column: &'static str) -> Result<&'a [i32], ColumnError> {
    let array = non_null(batch, column)?;
    array
        .as_primitive_opt::<Int32Type>()
        .map(|a| a.values().as_ref())
        .ok_or_else(|| wrong_type(column, DataType::Int32, array))
}

/// The values of an Int64 column without nulls.
pub fn int64s<'a>(batch: &'a RecordBatch, column: &'static str) -> Result<&'a [i64], ColumnError> {
    let array = non_null(batch, column)?;
    array
        .as_primitive_opt::<Int64Type>()
        .map(|a| a.values().as_ref())
        .ok_or_else(|| wrong_type(column, DataType::Int64, array))
}

/// A Boolean column without nulls.
pub fn booleans<'a>(
    batch: &'a RecordBatch,
    column: &'static str,
) -> Result<&'a BooleanArray, ColumnError> {
    let array = non_null(batch, column)?;
    array
        .as_boolean_opt()
        .ok_or_else(|| wrong_type(column, DataType::Boolean, array))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow::array::StringArray;

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
            .collect();
        assert_eq!(names, expected);
    }

    #[test]
    fn schema_matches_columns() {
        let schema = schema();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(names, COLUMNS);
        assert!(schema.fields().iter().all(|f| !f.is_nullable()));
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
