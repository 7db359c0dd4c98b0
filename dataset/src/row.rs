//! A result row's conversion to and from Arrow record batches, and its key. The row
//! itself ([`ResultRow`], borrowed [`RowRef`]) is generated from the column table
//! (`table.rs`).

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, BooleanArray, Int32Array, Int64Array, RecordBatch, StringArray, new_null_array,
};
use arrow::datatypes::DataType;
use hammer_family::{Cell, ColumnKind};

use crate::error::{ColumnError, Result};
use crate::schema::{arrow_type, check_schema, family_columns, file_schema, schema};
use crate::table::{Fill, ResultRow, RowRef, read_fields, shared_arrays};
use crate::value::Value;

/// Identity of a row: a sweep produces exactly one row per key, so the key is what
/// de-duplication and "what is still missing" queries work on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RowKey {
    /// The sweep that produced the row.
    pub sweep: String,
    /// The row's experiment.
    pub experiment: String,
    /// The solver configuration.
    pub config: String,
    /// The puzzle parameters.
    pub params: String,
    /// Which game of the job.
    pub game_index: i64,
}

impl ResultRow {
    /// The row's identity, for de-duplication and completeness checks.
    pub fn key(&self) -> RowKey {
        RowKey {
            sweep: self.sweep.clone(),
            experiment: self.experiment.clone(),
            config: self.config.clone(),
            params: self.params.clone(),
            game_index: self.game_index,
        }
    }
}

/// Builds one record batch in [`schema`] order.
pub fn rows_to_batch(rows: &[ResultRow]) -> Result<RecordBatch> {
    let refs: Vec<RowRef<'_>> = rows.iter().map(ResultRow::row_ref).collect();
    batch_from_refs(&refs, false)
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
    let cells = rows.iter().map(cell);
    let int = |c: Cell| match c {
        Cell::Int(v) => Some(v),
        _ => None,
    };
    match kind {
        ColumnKind::Int32 => Arc::new(Int32Array::from_iter(
            cells.map(|c| int(c).map(|v| v as i32)),
        )),
        ColumnKind::Int64 => Arc::new(Int64Array::from_iter(cells.map(int))),
        ColumnKind::Boolean => Arc::new(BooleanArray::from_iter(cells.map(|c| match c {
            Cell::Bool(v) => Some(v),
            _ => None,
        }))),
        ColumnKind::Utf8 => Arc::new(StringArray::from_iter(cells.map(|c| match c {
            Cell::Text(v) => Some(v),
            _ => None,
        }))),
    }
}

/// Like [`rows_to_batch`], over borrowed rows. With `file_only`, the batch is in
/// [`file_schema`] order: the partition columns, which the directory names carry, are not
/// built at all rather than built and projected away.
pub(crate) fn batch_from_refs(rows: &[RowRef<'_>], file_only: bool) -> Result<RecordBatch> {
    let mut columns = shared_arrays(rows, file_only);
    for c in family_columns() {
        columns.push(family_array(rows, c.family, c.index, c.spec.kind));
    }
    let schema = if file_only { file_schema() } else { schema() };
    Ok(RecordBatch::try_new(schema, columns)?)
}

/// Converts a record batch back into rows, looking columns up by name so that column order in
/// the file does not matter.
#[cfg(test)]
fn batch_to_rows(batch: &RecordBatch) -> Result<Vec<ResultRow>> {
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
                .and_then(|a| a.as_any().downcast_ref::<StringArray>())
                .map(|a| a.value(0).to_string());
            text.map_or(Cell::Null, Cell::Text)
        }
    }
}

/// Sets one field of every row from its column of `batch`, or as the column's `fill` says
/// when the file lacks it (a fill that needs the whole row is pushed onto `row_fills`).
pub(crate) fn read_field<T: Value>(
    batch: &RecordBatch,
    column: &'static str,
    fill: Fill,
    rows: &mut [ResultRow],
    field: impl Fn(&mut ResultRow) -> &mut T,
    row_fills: &mut Vec<fn(&mut ResultRow)>,
) -> Result<(), ColumnError> {
    let from = if batch.column_by_name(column).is_some() {
        column
    } else {
        match fill {
            Fill::Required => return Err(ColumnError::Missing { column }),
            Fill::Null => return Ok(()),
            Fill::Row(f) => {
                row_fills.push(f);
                return Ok(());
            }
            Fill::Column(other) => other,
        }
    };
    for (row, value) in rows.iter_mut().zip(T::read(batch, from)?) {
        *field(row) = value;
    }
    Ok(())
}

pub(crate) fn rows_from_batch(batch: &RecordBatch) -> Result<Vec<ResultRow>, ColumnError> {
    check_schema(&batch.schema())?;
    let mut rows = vec![ResultRow::default(); batch.num_rows()];
    let mut row_fills = Vec::new();
    read_fields(batch, &mut rows, &mut row_fills)?;
    let family_arrays: Vec<(&str, Option<&ArrayRef>)> = family_columns()
        .iter()
        .map(|c| (c.family, batch.column_by_name(c.spec.name)))
        .collect();
    for (i, row) in rows.iter_mut().enumerate() {
        for fill in &row_fills {
            fill(row);
        }
        row.extra = family_arrays
            .iter()
            .filter(|(f, _)| *f == row.puzzle)
            .map(|(_, array)| array.map_or(Cell::Null, |a| family_cell(a, i)))
            .collect();
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::int32s;
    use crate::schema::COLUMNS;
    use crate::table::{Place, TABLE};
    use arrow::array::StringArray;
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
                gang_size: Some(2),
                gang_expansions: Some("5 7".into()),
                gang_memo_bytes: Some("64 128".into()),
                states_sent: Some(9),
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
        let expected: Vec<&str> = TABLE
            .iter()
            .filter(|c| c.place == Place::File)
            .map(|c| c.name)
            .chain(family_columns().iter().map(|c| c.spec.name))
            .collect();
        assert_eq!(names, expected);
        assert!(!names.iter().any(|n| n == "experiment" || n == "n"));
    }

    #[test]
    fn schema_matches_the_table() {
        let schema = schema();
        let (shared, family) = schema.fields().split_at(TABLE.len());
        for (field, column) in shared.iter().zip(TABLE) {
            assert_eq!(field.name(), column.name);
            assert_eq!(field.data_type(), &column.data_type(), "{}", column.name);
            assert_eq!(field.is_nullable(), column.nullable, "{}", column.name);
        }
        // Family columns are nullable: rows of other families leave them empty.
        assert_eq!(family.len(), family_columns().len());
        assert!(family.iter().all(|f| f.is_nullable()));
        // The columns that are never null come first.
        let first: Vec<&str> = shared[..COLUMNS.len()]
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        assert_eq!(first, *COLUMNS);
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

    /// A file written before families has neither the columns that came with them nor
    /// the limit and family columns: every row reads as a Martello row, its score from
    /// `min_stones`.
    #[test]
    fn a_file_from_before_families_reads_as_martello_rows() {
        let mut written = awkward_rows();
        written[1].schedule = "luby:256".into();
        let batch = rows_to_batch(&written).unwrap();
        let before_families = [
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
        let indices: Vec<usize> = before_families
            .iter()
            .map(|c| batch.schema().index_of(c).unwrap())
            .collect();
        let old = batch.project(&indices).unwrap();
        let read = batch_to_rows(&old).unwrap();
        assert_eq!(read.len(), written.len());
        for (w, r) in written.iter().zip(&read) {
            let expected = ResultRow {
                puzzle: "martello".into(),
                params: format!("n={}", w.n),
                lower_bound: 0,
                schedule_complete: w
                    .schedule
                    .parse::<hammer_solver::Schedule>()
                    .is_ok_and(|s| s.always_exact()),
                capped_by: None,
                memo_bytes: None,
                split_parts: None,
                split_nodes: None,
                gang_size: None,
                gang_expansions: None,
                gang_memo_bytes: None,
                states_sent: None,
                extra: Vec::new(),
                ..w.clone()
            };
            assert_eq!(*r, expected);
        }
        assert!(read[1].schedule_complete && !read[0].schedule_complete);
    }

    /// The file keeps `min_stones` for readers older than `score`: the same values.
    #[test]
    fn min_stones_holds_the_score() {
        let batch = rows_to_batch(&awkward_rows()).unwrap();
        let column = |name| int32s(&batch, name).unwrap().to_vec();
        assert_eq!(column("min_stones"), column("score"));
        assert_eq!(column("score"), [0, 3]);
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
