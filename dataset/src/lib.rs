//! The result dataset of hammer sweeps: one row per finished game, stored as a hive-partitioned
//! Parquet directory `DIR/experiment=NAME/n=N/part-ID.parquet`.
//!
//! The format is the interface between the Rust cluster and the Python analysis, so it is kept
//! deliberately plain (non-nullable Utf8/Int32/Int64/Boolean columns) and is checked against
//! pyarrow, polars, DuckDB and pandas in this crate's tests. Files are published atomically so
//! that a reader scanning the directory while workers write never sees half a file. See
//! `docs/dataset.md` for the column meanings and reader snippets.

#[macro_use]
mod generate;

mod columns;
mod error;
mod layout;
mod read;
mod rewrite;
mod row;
mod schema;
mod table;
mod unknown;
mod value;
mod write;

pub use columns::{booleans, for_each_str, int32s, int64s};
pub use error::{ColumnError, Error, FileProblem, Result};
pub use hammer_family::Cell;
pub use layout::{
    MAX_NAME_LEN, PartInfo, STATE_DIR, dataset_parts, list_parts, validate_experiment,
    validate_part_id,
};
pub use read::{open_part_file, read_dataset, read_part, remove_stale_temp_files};
pub use rewrite::{FOOTER_TAIL, PartEncoder, footer_length, footer_pairs, part_batches};
pub use row::{RowKey, rows_to_batch};
pub use schema::{
    COLUMNS, FamilyColumn, PARTITION_COLUMNS, family_columns, file_schema, schema, type_accepted,
};
pub use table::{Column, Fill, Place, ResultRow, RowRef, Source, TABLE, col, fill};
pub use unknown::{UnknownGamesError, unknown_games};
pub use value::Value;
pub use write::{encode_part_refs, part_key, part_metadata, write_part, write_part_refs};
