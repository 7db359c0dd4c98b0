use std::path::PathBuf;

use arrow::datatypes::DataType;
use arrow::error::ArrowError;
use parquet::errors::ParquetError;

/// Result alias so that every public function reports [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong while writing or reading the dataset.
///
/// Variants that concern a file or directory carry its path and print it first, because a
/// sweep touches thousands of part files and an error without the path is useless to the
/// person who has to find and remove the bad one.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The directory is missing, is a file, or holds no part file at all; reading it would
    /// give an empty result that looks like a successful one.
    #[error("{}: not a hammer dataset: {reason}", .path.display())]
    NotADataset { path: PathBuf, reason: String },

    /// A name that would end up as a path component is unsafe or ambiguous there.
    #[error("invalid {kind} {name:?}: {reason}")]
    InvalidName {
        kind: &'static str,
        name: String,
        reason: &'static str,
    },

    /// `write_part` was handed a row that belongs to another partition; writing it would put
    /// the row under a path that contradicts its own columns.
    #[error(
        "row {index} has experiment={row_experiment:?} n={row_n}, but the part is written for \
         experiment={experiment:?} n={n}"
    )]
    RowOutsidePartition {
        index: usize,
        row_experiment: String,
        row_n: i32,
        experiment: String,
        n: i32,
    },

    /// A record batch does not have the dataset's columns.
    #[error(transparent)]
    Column(#[from] ColumnError),

    /// Arrow refused to assemble a record batch.
    #[error("cannot build an Arrow record batch")]
    Arrow(#[from] ArrowError),

    /// An operating-system call on a file or directory failed.
    #[error("{}: {action}", .path.display())]
    Io {
        path: PathBuf,
        action: &'static str,
        #[source]
        source: std::io::Error,
    },

    /// The Parquet encoder failed while writing a part.
    #[error("{}: cannot write Parquet", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: ParquetError,
    },

    /// An entry in the dataset directory does not fit the
    /// `experiment=NAME/n=N/part-ID.parquet` layout.
    #[error("{}: not part of the dataset layout experiment=NAME/n=N/part-ID.parquet: {reason}", .path.display())]
    Layout { path: PathBuf, reason: String },

    /// A part file exists but its content cannot be used. The problem is part of the
    /// message (it says what is wrong with the file), so it is not also a source.
    #[error("{}: {problem}", .path.display())]
    File { path: PathBuf, problem: FileProblem },
}

/// A column of a record batch is missing or unusable.
#[derive(Debug, thiserror::Error)]
pub enum ColumnError {
    #[error("missing column {column:?}")]
    Missing { column: &'static str },

    #[error("wrong type of column {column:?}: expected {expected}, found {found}")]
    WrongType {
        column: &'static str,
        expected: DataType,
        found: DataType,
    },

    #[error("column {column:?} has {nulls} null value(s), but it must have none")]
    Nulls { column: &'static str, nulls: usize },
}

/// Why the content of one part file was rejected; always wrapped in [`Error::File`] so that
/// the path is attached.
#[derive(Debug, thiserror::Error)]
pub enum FileProblem {
    #[error("empty file, not Parquet")]
    Empty,

    #[error("not a Parquet file (no PAR1 magic at its start or end)")]
    NotParquet,

    #[error("truncated or corrupt Parquet file: {0}")]
    Corrupt(String),

    #[error(transparent)]
    Column(#[from] ColumnError),

    /// Partition columns live in the directory names, so a part file copied out of the
    /// layout has lost them.
    #[error(
        "missing column {column:?}: it is not stored in the file and the path is not inside \
         experiment=NAME/n=N/"
    )]
    OutsideLayout { column: &'static str },

    #[error(
        "partition value in path disagrees with column {column:?}: the path says {path_value}, \
         row {row} of the file says {file_value}"
    )]
    PartitionMismatch {
        column: &'static str,
        path_value: String,
        file_value: String,
        row: usize,
    },
}
