use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesBuilder};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::schema::types::ColumnPath;

use crate::error::{Error, Result};
use crate::layout::{
    experiment_dir_name, n_dir_name, part_file_name, partition_dir, validate_experiment,
    validate_part_id,
};
use crate::row::batch_from_refs;
use crate::schema::file_schema;
use crate::table::col;
use crate::table::{ResultRow, RowRef};

/// Distinguishes temporary files of concurrent writes of the same part within one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes one part file atomically and durably, returning its final path.
///
/// Readers may scan the dataset while workers write, and a worker may crash at any point, so
/// the file is first written under a hidden temporary name that every reader skips, synced,
/// and only then renamed over the final name; the directory is synced afterwards so the rename
/// itself survives a power loss. Rewriting an existing part (a retried task) replaces it in
/// the same atomic way. Rows are sorted by (config, game_index, trial) so that re-running a
/// task gives the same file apart from the timing columns.
///
/// The `experiment` and `n` columns are not stored in the file (see
/// [`crate::PARTITION_COLUMNS`]): the directory names carry them.
pub fn write_part(
    dir: &Path,
    experiment: &str,
    n: i32,
    part_id: &str,
    rows: &[ResultRow],
) -> Result<PathBuf> {
    let mut refs: Vec<RowRef<'_>> = rows.iter().map(ResultRow::row_ref).collect();
    write_part_refs(dir, experiment, n, part_id, &mut refs)
}

/// The order of rows in a part file.
fn row_order(a: &RowRef<'_>, b: &RowRef<'_>) -> std::cmp::Ordering {
    (a.config, a.game_index, a.trial, a.sweep).cmp(&(b.config, b.game_index, b.trial, b.sweep))
}

/// [`write_part`] over borrowed rows, for writers that keep the values elsewhere. The rows
/// are sorted in place unless they already are in file order.
pub fn write_part_refs(
    dir: &Path,
    experiment: &str,
    n: i32,
    part_id: &str,
    rows: &mut [RowRef<'_>],
) -> Result<PathBuf> {
    let batch = checked_batch(experiment, n, part_id, rows)?;
    let file_schema = file_schema();

    let part_dir = partition_dir(dir, experiment, n);
    ensure_dir(&part_dir)?;
    let final_name = part_file_name(part_id);
    let final_path = part_dir.join(&final_name);
    let temp_path = part_dir.join(format!(
        ".{final_name}.{}-{}.tmp",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));

    let mut guard = TempGuard {
        path: Some(temp_path.clone()),
    };
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp_path)
        .map_err(|source| io_error(&temp_path, "cannot create temporary file", source))?;
    let props = writer_properties();
    let write_error = |source| Error::Write {
        path: temp_path.clone(),
        source,
    };
    let mut writer = ArrowWriter::try_new(file, file_schema, Some(props)).map_err(write_error)?;
    writer.write(&batch).map_err(write_error)?;
    writer.finish().map_err(write_error)?;
    writer
        .inner()
        .sync_all()
        .map_err(|source| io_error(&temp_path, "cannot fsync temporary file", source))?;
    drop(writer);

    fs::rename(&temp_path, &final_path).map_err(|source| {
        io_error(
            &final_path,
            "cannot rename temporary file into place",
            source,
        )
    })?;
    guard.path = None;
    sync_dir(&part_dir)?;
    Ok(final_path)
}

/// Checks the names and that every row belongs to the partition, sorts the rows into file
/// order unless they already are, and makes the batch a part file holds.
fn checked_batch(
    experiment: &str,
    n: i32,
    part_id: &str,
    rows: &mut [RowRef<'_>],
) -> Result<arrow::record_batch::RecordBatch> {
    validate_experiment(experiment)?;
    validate_part_id(part_id)?;
    if let Some((index, row)) = rows
        .iter()
        .enumerate()
        .find(|(_, r)| r.experiment != experiment || r.n != n)
    {
        return Err(Error::RowOutsidePartition {
            index,
            row_experiment: row.experiment.to_owned(),
            row_n: row.n,
            experiment: experiment.to_owned(),
            n,
        });
    }
    if !rows.is_sorted_by(|a, b| row_order(a, b).is_le()) {
        rows.sort_by(row_order);
    }
    batch_from_refs(rows, true)
}

/// A part file's bytes, for a store that publishes them itself (a create-only put): the
/// same file [`write_part_refs`] writes, plus `metadata` as the Parquet footer's key-value
/// pairs, which say whose part it is without reading its rows ([`part_metadata`]).
pub fn encode_part_refs(
    experiment: &str,
    n: i32,
    part_id: &str,
    rows: &mut [RowRef<'_>],
    metadata: &[(&str, String)],
) -> Result<Vec<u8>> {
    let batch = checked_batch(experiment, n, part_id, rows)?;
    let encode_error = |source| Error::Encode {
        part_id: part_id.to_owned(),
        source,
    };
    let pairs = metadata
        .iter()
        .map(|(k, v)| KeyValue::new((*k).to_owned(), v.clone()))
        .collect();
    let props = writer_properties_builder()
        .set_key_value_metadata(Some(pairs))
        .build();
    let mut bytes = Vec::new();
    let mut writer =
        ArrowWriter::try_new(&mut bytes, file_schema(), Some(props)).map_err(encode_error)?;
    writer.write(&batch).map_err(encode_error)?;
    writer.finish().map_err(encode_error)?;
    drop(writer);
    Ok(bytes)
}

/// The key-value pairs of a part file's footer, read from its bytes.
pub fn part_metadata(part_id: &str, bytes: bytes::Bytes) -> Result<Vec<(String, String)>> {
    let reader = SerializedFileReader::new(bytes).map_err(|source| Error::Encode {
        part_id: part_id.to_owned(),
        source,
    })?;
    Ok(key_value_pairs(reader.metadata().file_metadata()))
}

/// A footer's key-value pairs, a missing value as empty.
pub(crate) fn key_value_pairs(
    metadata: &parquet::file::metadata::FileMetaData,
) -> Vec<(String, String)> {
    metadata
        .key_value_metadata()
        .into_iter()
        .flatten()
        .map(|kv| (kv.key.clone(), kv.value.clone().unwrap_or_default()))
        .collect()
}

/// The key of a part below the dataset's root: `experiment=NAME/n=N/part-ID.parquet`.
pub fn part_key(experiment: &str, n: i32, part_id: &str) -> String {
    format!(
        "{}/{}/{}",
        experiment_dir_name(experiment),
        n_dir_name(n),
        part_file_name(part_id)
    )
}

/// Columns whose values are (nearly) all distinct: a dictionary would hold every value
/// once plus an index per row, which costs hashing every value and saves nothing, so they
/// are stored plain and left to zstd. Low-cardinality columns (sweep, config, order,
/// worker, ...) keep parquet's default dictionary encoding.
const DISTINCT_COLUMNS: &[&str] = &[
    col::GAME_INDEX,
    col::BOARD,
    col::START,
    col::SOLUTION,
    col::EXPANSIONS,
    col::WALL_NS,
];

fn writer_properties() -> WriterProperties {
    writer_properties_builder().build()
}

pub(crate) fn writer_properties_builder() -> WriterPropertiesBuilder {
    let mut builder =
        WriterProperties::builder().set_compression(Compression::ZSTD(ZstdLevel::default()));
    for column in DISTINCT_COLUMNS {
        builder = builder.set_column_dictionary_enabled(ColumnPath::from(*column), false);
    }
    // Minimum and maximum of a board or a move list select nothing (no reader prunes on
    // them), and computing them compares every value: a tenth of the writer's time.
    for column in [col::BOARD, col::START, col::SOLUTION] {
        builder = builder
            .set_column_statistics_enabled(ColumnPath::from(column), EnabledStatistics::None);
    }
    builder
}

/// Removes the temporary file if the write fails half-way, so that failed writes leave
/// nothing behind for `remove_stale_temp_files` to find.
struct TempGuard {
    path: Option<PathBuf>,
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        if let Some(path) = self.path.take() {
            // Best effort: the original error is more useful than a cleanup failure.
            let _ = fs::remove_file(path);
        }
    }
}

fn io_error(path: &Path, action: &'static str, source: io::Error) -> Error {
    Error::Io {
        path: path.to_owned(),
        action,
        source,
    }
}

/// Creates `path` and any missing ancestors, syncing each parent after a creation so the new
/// directory entry is durable before files are placed in it.
fn ensure_dir(path: &Path) -> Result<()> {
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => {
            return Err(Error::Layout {
                path: path.to_owned(),
                reason: "expected a directory, found a file".to_owned(),
            });
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(source) => return Err(io_error(path, "cannot stat", source)),
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    ensure_dir(parent)?;
    match fs::create_dir(path) {
        Ok(()) => {}
        // Another writer won the race; it syncs the parent too, but we must not rely on its
        // timing, so fall through and sync as well.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(source) => return Err(io_error(path, "cannot create directory", source)),
    }
    sync_dir(parent)
}

/// A rename or create is only durable once the containing directory is synced.
fn sync_dir(path: &Path) -> Result<()> {
    File::open(path)
        .and_then(|d| d.sync_all())
        .map_err(|source| io_error(path, "cannot fsync directory", source))
}
