use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Arc;

use arrow::array::{Int32Array, RecordBatch, RecordBatchOptions, StringArray};
use arrow::datatypes::{DataType, Field, FieldRef, Schema};
use arrow::error::ArrowError;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::error::{ColumnError, Error, FileProblem, Result};
use crate::layout::{is_hidden, list_parts, partition_of_path};
use crate::row::rows_from_batch;
use crate::schema::{PARTITION_COLUMNS, check_schema};
use crate::table::{ResultRow, col};

const MAGIC: &[u8; 4] = b"PAR1";

/// Reads every row of one part file, taking `experiment` and `n` from the path.
///
/// Files written by other tools may still contain the partition columns; then each row must
/// agree with the directories, because a mismatch means a file was moved or hand-edited and
/// analysis grouping by the path would disagree with analysis grouping by the column.
pub fn read_part(path: &Path) -> Result<Vec<ResultRow>> {
    let in_file = |problem: FileProblem| Error::File {
        path: path.to_owned(),
        problem,
    };
    let corrupt = |e: &dyn std::fmt::Display| in_file(FileProblem::Corrupt(e.to_string()));
    let column_problem = |e: ColumnError| match e {
        ColumnError::Missing { column } if PARTITION_COLUMNS.contains(&column) => {
            in_file(FileProblem::OutsideLayout { column })
        }
        other => in_file(other.into()),
    };

    let file = open_part_file(path)?;

    let partition = partition_of_path(path);
    let partition = partition.as_ref().map(|(e, n)| (e.as_str(), *n));
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| corrupt(&e))?;
    // Checked before reading data so that an empty or damaged file with the wrong columns
    // reports the column, which is the more actionable problem.
    let (schema, _) = restored_schema(builder.schema(), partition);
    check_schema(&schema).map_err(column_problem)?;
    let reader = builder.build().map_err(|e| corrupt(&e))?;

    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.map_err(|e| corrupt(&e))?;
        let batch = restore_partition(&batch, partition).map_err(|e| corrupt(&e))?;
        rows.extend(rows_from_batch(&batch).map_err(column_problem)?);
    }

    if let Some((experiment, n)) = partition {
        for (row_index, row) in rows.iter().enumerate() {
            if row.experiment != experiment {
                return Err(in_file(FileProblem::PartitionMismatch {
                    column: col::EXPERIMENT,
                    path_value: format!("{experiment:?}"),
                    file_value: format!("{:?}", row.experiment),
                    row: row_index,
                }));
            }
            if row.n != n {
                return Err(in_file(FileProblem::PartitionMismatch {
                    column: col::N,
                    path_value: n.to_string(),
                    file_value: row.n.to_string(),
                    row: row_index,
                }));
            }
        }
    }
    Ok(rows)
}

/// `schema` plus the partition columns it lacks, if the path supplies them, and which ones were
/// added.
fn restored_schema(schema: &Schema, partition: Option<(&str, i32)>) -> (Schema, [bool; 2]) {
    let mut fields: Vec<FieldRef> = schema.fields().iter().cloned().collect();
    let mut added = [false; 2];
    if partition.is_some() {
        let wanted = [(col::EXPERIMENT, DataType::Utf8), (col::N, DataType::Int32)];
        for ((name, ty), added) in wanted.into_iter().zip(&mut added) {
            if schema.column_with_name(name).is_none() {
                fields.push(Arc::new(Field::new(name, ty, false)));
                *added = true;
            }
        }
    }
    (
        Schema::new_with_metadata(fields, schema.metadata().clone()),
        added,
    )
}

/// Appends the partition columns that the file does not store, as constants from the path.
pub(crate) fn restore_partition(
    batch: &RecordBatch,
    partition: Option<(&str, i32)>,
) -> Result<RecordBatch, ArrowError> {
    let (schema, [add_experiment, add_n]) = restored_schema(&batch.schema(), partition);
    let Some((experiment, n)) = partition else {
        return Ok(batch.clone());
    };
    let len = batch.num_rows();
    let mut columns = batch.columns().to_vec();
    if add_experiment {
        columns.push(Arc::new(StringArray::from_iter_values(
            std::iter::repeat_n(experiment, len),
        )));
    }
    if add_n {
        columns.push(Arc::new(Int32Array::from_value(n, len)));
    }
    RecordBatch::try_new_with_options(
        Arc::new(schema),
        columns,
        &RecordBatchOptions::new().with_row_count(Some(len)),
    )
}

/// Tells "this is not Parquet at all" apart from "this is a Parquet file cut short", which
/// the Parquet decoder reports with the same footer error but which need different fixes
/// (wrong file vs. re-run the task).
/// Opens a part file after checking its Parquet magic bytes at both ends, so that an
/// empty, foreign or truncated file is named as such: the decoder reports all three as
/// the same footer error, and they need different fixes. Every reader of part files
/// (this crate, the analysis, the viewer) opens them here.
pub fn open_part_file(path: &Path) -> Result<File> {
    let file = File::open(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        action: "cannot open",
        source,
    })?;
    match check_magic(&file).map_err(|source| Error::Io {
        path: path.to_owned(),
        action: "cannot read",
        source,
    })? {
        None => Ok(file),
        Some(problem) => Err(Error::File {
            path: path.to_owned(),
            problem,
        }),
    }
}

fn check_magic(mut file: &File) -> io::Result<Option<FileProblem>> {
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(Some(FileProblem::Empty));
    }
    let mut head = [0u8; 4];
    let head_ok = len >= 4 && {
        file.read_exact(&mut head)?;
        &head == MAGIC
    };
    let mut tail = [0u8; 4];
    let tail_ok = len >= 8 && {
        file.seek(SeekFrom::End(-4))?;
        file.read_exact(&mut tail)?;
        &tail == MAGIC
    };
    file.seek(SeekFrom::Start(0))?;
    Ok(match (head_ok, tail_ok) {
        (true, true) => None,
        (false, false) => Some(FileProblem::NotParquet),
        (true, false) => Some(FileProblem::Corrupt(
            "no PAR1 magic at the end, the file is truncated".to_owned(),
        )),
        (false, true) => Some(FileProblem::Corrupt(
            "no PAR1 magic at the start".to_owned(),
        )),
    })
}

/// Reads all parts of the dataset, in [`list_parts`] order.
pub fn read_dataset(dir: &Path) -> Result<Vec<ResultRow>> {
    let mut rows = Vec::new();
    for part in list_parts(dir)? {
        rows.extend(read_part(&part.path)?);
    }
    Ok(rows)
}

/// Deletes temporary files (`.*.tmp`) that crashed writers left anywhere under `dir`,
/// returning how many were removed.
///
/// Only call this while no writer is active on `dir`: an in-flight temporary file looks
/// exactly like an abandoned one. A missing `dir` holds nothing stale and gives 0.
pub fn remove_stale_temp_files(dir: &Path) -> Result<usize> {
    match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(0),
        _ => remove_temp_files_in(dir),
    }
}

fn remove_temp_files_in(dir: &Path) -> Result<usize> {
    let io = |path: &Path, action, source| Error::Io {
        path: path.to_owned(),
        action,
        source,
    };
    let mut removed = 0;
    let entries = fs::read_dir(dir).map_err(|e| io(dir, "cannot list directory", e))?;
    for entry in entries {
        let entry = entry.map_err(|e| io(dir, "cannot list directory", e))?;
        let path = entry.path();
        // Not following symlinks keeps the sweep inside the dataset.
        let kind = entry.file_type().map_err(|e| io(&path, "cannot stat", e))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if kind.is_dir() {
            removed += remove_temp_files_in(&path)?;
        } else if kind.is_file() && is_hidden(&name) && name.ends_with(".tmp") {
            match fs::remove_file(&path) {
                Ok(()) => removed += 1,
                // Someone else cleaned it up concurrently; the goal is reached either way.
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(io(&path, "cannot remove stale temporary file", e)),
            }
        }
    }
    Ok(removed)
}
