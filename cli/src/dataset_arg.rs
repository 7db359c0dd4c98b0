//! A dataset given on the command line: a directory, or an object store URL.
//!
//! The readers (analysis, learning, tuning) scan a local directory, so a dataset in an
//! object store is first copied, part by part, into a temporary directory that is removed
//! when the command ends. Every one of these commands reads the whole dataset anyway, so
//! the copy costs one read of each part, as reading it in place would.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use hammer_store::Store;

/// A readable dataset directory, with the location as the user gave it.
pub struct DatasetArg {
    dir: PathBuf,
    shown: String,
    /// The copy of a dataset in an object store, removed on drop.
    copy: Option<tempfile::TempDir>,
}

impl DatasetArg {
    /// Opens `location`; a URL's parts are copied first, with a line on stderr.
    pub fn open(location: &str) -> Result<DatasetArg> {
        DatasetArg::open_below(location, "")
    }

    /// Opens `location` for a reader of the objects below `dir` alone (`experiment=NAME`
    /// for one experiment's parts): of a URL, only those are copied.
    pub fn open_below(location: &str, dir: &str) -> Result<DatasetArg> {
        let store = Store::open(location)?;
        if let Some(local) = store.local_dir() {
            return Ok(DatasetArg {
                shown: local.display().to_string(),
                dir: local.to_owned(),
                copy: None,
            });
        }
        let copy = tempfile::Builder::new()
            .prefix("hammer-dataset-")
            .tempdir()
            .context("cannot create a temporary directory for the dataset's copy")?;
        let started = std::time::Instant::now();
        let parts = crate::runtime::runtime()?.block_on(async {
            // A missing bucket would otherwise read as an empty dataset.
            store.check_readable().await?;
            store.download(dir, copy.path()).await
        })?;
        // Named here, not as the empty copy that the readers would name.
        if parts == 0 && dir.is_empty() {
            anyhow::bail!("{store}: not a hammer dataset: no objects below it");
        }
        if parts == 0 {
            anyhow::bail!("{store}: no objects below {dir}");
        }
        eprintln!(
            "read {parts} objects of {store} in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        Ok(DatasetArg {
            dir: copy.path().to_owned(),
            shown: store.to_string(),
            copy: Some(copy),
        })
    }

    /// The directory to read.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How to name the dataset to the user: the path, or the URL without credentials.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// Whether the dataset is a copy (so that nothing beside it, such as a state
    /// directory, belongs to it).
    pub fn is_copy(&self) -> bool {
        self.copy.is_some()
    }
}
