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
    NotADataset {
        /// The directory that was to be read.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },

    /// A name that would end up as a path component is unsafe or ambiguous there.
    #[error("invalid {kind} {name:?}: {reason}")]
    InvalidName {
        /// What the name names (experiment, part id).
        kind: &'static str,
        /// The refused name.
        name: String,
        /// Which rule it breaks.
        reason: &'static str,
    },

    /// `write_part` was handed a row that belongs to another partition; writing it would put
    /// the row under a path that contradicts its own columns.
    #[error(
        "row {index} has experiment={row_experiment:?} n={row_n}, but the part is written for \
         experiment={experiment:?} n={n}"
    )]
    RowOutsidePartition {
        /// The row's position in the input.
        index: usize,
        /// The row's own experiment.
        row_experiment: String,
        /// The row's own `n`.
        row_n: i32,
        /// The experiment of the part being written.
        experiment: String,
        /// The `n` of the part being written.
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
        /// The file or directory the call was on.
        path: PathBuf,
        /// What was being done, for the message.
        action: &'static str,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },

    /// The Parquet encoder failed while writing a part.
    #[error("{}: cannot write Parquet", .path.display())]
    Write {
        /// The part file being written.
        path: PathBuf,
        /// The encoder's error.
        #[source]
        source: ParquetError,
    },

    /// The Parquet encoder failed on a part kept in memory, or a part's bytes are not a
    /// Parquet file.
    #[error("part {part_id}: cannot encode or decode Parquet")]
    Encode {
        /// The part's id.
        part_id: String,
        /// The encoder's error.
        #[source]
        source: ParquetError,
    },

    /// An entry in the dataset directory does not fit the
    /// `experiment=NAME/n=N/part-ID.parquet` layout.
    #[error("{}: not part of the dataset layout experiment=NAME/n=N/part-ID.parquet: {reason}", .path.display())]
    Layout {
        /// The misplaced entry.
        path: PathBuf,
        /// How it departs from the layout.
        reason: String,
    },

    /// A part file exists but its content cannot be used. The problem is part of the
    /// message (it says what is wrong with the file), so it is not also a source.
    #[error("{}: {problem}", .path.display())]
    File {
        /// The rejected part file.
        path: PathBuf,
        /// What is wrong with its content.
        problem: FileProblem,
    },
}

/// A column of a record batch is missing or unusable.
#[derive(Debug, thiserror::Error)]
pub enum ColumnError {
    /// The batch has no column of that name.
    #[error("missing column {column:?}")]
    Missing {
        /// The column's name.
        column: &'static str,
    },

    /// The column has an Arrow type the dataset does not accept for it.
    #[error("wrong type of column {column:?}: expected {expected}, found {found}")]
    WrongType {
        /// The column's name.
        column: &'static str,
        /// The type the dataset declares.
        expected: DataType,
        /// The type the batch holds.
        found: DataType,
    },

    /// A non-nullable column holds nulls.
    #[error("column {column:?} has {nulls} null value(s), but it must have none")]
    Nulls {
        /// The column's name.
        column: &'static str,
        /// How many nulls it holds.
        nulls: usize,
    },
}

/// Why the content of one part file was rejected; always wrapped in [`Error::File`] so that
/// the path is attached.
#[derive(Debug, thiserror::Error)]
pub enum FileProblem {
    /// The file has no bytes, typically a write cut short.
    #[error("empty file, not Parquet")]
    Empty,

    /// The file lacks the Parquet magic bytes.
    #[error("not a Parquet file (no PAR1 magic at its start or end)")]
    NotParquet,

    /// The Parquet reader rejected the file; the string is its message.
    #[error("truncated or corrupt Parquet file: {0}")]
    Corrupt(String),

    /// A column of the file is missing or unusable.
    #[error(transparent)]
    Column(#[from] ColumnError),

    /// Partition columns live in the directory names, so a part file copied out of the
    /// layout has lost them.
    #[error(
        "missing column {column:?}: it is not stored in the file and the path is not inside \
         experiment=NAME/n=N/"
    )]
    OutsideLayout {
        /// The partition column that cannot be recovered.
        column: &'static str,
    },

    /// A partition column stored in the file contradicts the directory it sits in.
    #[error(
        "partition value in path disagrees with column {column:?}: the path says {path_value}, \
         row {row} of the file says {file_value}"
    )]
    PartitionMismatch {
        /// The partition column.
        column: &'static str,
        /// The value the directory name gives.
        path_value: String,
        /// The value the file holds.
        file_value: String,
        /// The first row that disagrees.
        row: usize,
    },
}
