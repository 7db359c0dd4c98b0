use std::path::PathBuf;

/// Result alias so that every public function reports [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can stop an analysis.
///
/// Problems with the dataset itself come from `hammer-dataset` (or are built from its
/// error types), so a corrupt part or a missing column is reported the same way whether
/// the Rust reader, the analysis or a sweep command met it: path first, then the problem.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A part file or the layout is unusable; the inner error names the file.
    #[error(transparent)]
    Dataset(#[from] hammer_dataset::Error),

    /// The report directory cannot be written, or would clobber something that is not a
    /// report.
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

    /// The report directory exists and is not a report written by `hammer analyze`.
    #[error("{}: {reason}", .path.display())]
    OutputRefused {
        /// The directory that was refused.
        path: PathBuf,
        /// Why writing there would be unsafe, for the message.
        reason: String,
    },

    /// plotters could not draw or encode a chart.
    #[error("{}: cannot draw chart: {message}", .path.display())]
    Chart {
        /// The chart file being written.
        path: PathBuf,
        /// plotters' own description of the failure.
        message: String,
    },

    /// The dataset has more rows than the analysis can hold within `--memory-limit`; said
    /// before reading any row, from the part files' footers, or after the first pass when
    /// the rows of the figures that pair games would not fit.
    #[error(
        "{}: {rows} rows need about {} MiB to analyse, above the memory limit of {} MiB; \
         raise --memory-limit, or analyse a subset (one experiment=NAME directory)",
        .path.display(), .need >> 20, .limit >> 20
    )]
    MemoryLimit {
        /// The dataset.
        path: PathBuf,
        /// The rows that would have to be held.
        rows: u64,
        /// Bytes those rows need.
        need: u64,
        /// The memory limit, in bytes.
        limit: u64,
    },

    /// The report could not be serialised as JSON.
    #[error("cannot encode the report as JSON")]
    Json(#[from] serde_json::Error),
}
