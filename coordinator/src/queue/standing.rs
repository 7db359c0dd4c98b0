//! A standing coordinator's sweeps on disk: where a submitted sweep's dataset and state
//! go, and the queue read back at start.
//!
//! - The dataset of sweep NAME is `ROOT/NAME/` (a directory, or a prefix of the store).
//! - Its state is `STATE/sweeps/NAME/`: the journal and the files of one sweep's state
//!   directory, plus `queue.meta` (its place in the queue, `queue/entry.rs`).
//! - `STATE/lock` is held while the coordinator runs; it covers every sweep's directory.

use std::fs::File;
use std::path::{Path, PathBuf};

use hammer_store::Store;
use hammer_sweep::Sweep;
use tracing::{info, warn};

use super::entry::{Entry, Home, Opener, Place};
use crate::error::CoordinatorError;
use crate::state::{StateError, lock_dir};

/// Where a standing coordinator keeps its sweeps, and how it opens them.
pub(crate) struct Standing {
    /// The root of the datasets, as given (a directory or a URL).
    root: String,
    /// The root of the sweeps' state directories.
    state: PathBuf,
    /// How each sweep is opened.
    opener: Opener,
    /// The state root's lock, held for the life of the coordinator.
    _lock: File,
}

impl Standing {
    /// Takes the state root `state`'s lock for the life of the coordinator, makes the
    /// datasets' root `out` when it is a directory, and reads back the sweeps kept in the
    /// state root, in submission order.
    pub(crate) async fn take_root(
        out: &Store,
        state: PathBuf,
        opener: Opener,
    ) -> Result<(Standing, Vec<Entry>), CoordinatorError> {
        let lock = lock_dir(&state)?;
        if let Some(dir) = out.local_dir() {
            std::fs::create_dir_all(dir).map_err(|source| StateError::Io {
                path: dir.to_owned(),
                action: "cannot create the datasets' root",
                source,
            })?;
        }
        let standing = Standing {
            root: out.to_string(),
            state,
            opener,
            _lock: lock,
        };
        let entries = standing.restore().await?;
        Ok((standing, entries))
    }

    fn sweeps_dir(&self) -> PathBuf {
        self.state.join("sweeps")
    }

    /// Opens `sweep` at `place`: its dataset below the root, its state below the state
    /// root, its place saved.
    pub(crate) async fn open(&self, sweep: Sweep, place: Place) -> Result<Entry, CoordinatorError> {
        let location = format!("{}/{}", self.root.trim_end_matches('/'), sweep.name);
        let out = Store::open(&location)?;
        let dir = self.sweeps_dir().join(&sweep.name);
        let entry = self
            .opener
            .open(sweep, out, Home::Queued(dir), place)
            .await?;
        entry.save()?;
        Ok(entry)
    }

    /// Reads the queue back: every sweep with a saved place, in submission order,
    /// renumbered from 1 (lease ids of before the restart are unknown anyway). A
    /// directory without `queue.meta` is a submission that never returned: skipped.
    async fn restore(&self) -> Result<Vec<Entry>, CoordinatorError> {
        let mut found: Vec<(Place, PathBuf)> = Vec::new();
        let dir = self.sweeps_dir();
        let listing = match std::fs::read_dir(&dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => {
                return Err(StateError::Io {
                    path: dir,
                    action: "cannot list",
                    source,
                }
                .into());
            }
        };
        for item in listing.flatten() {
            let path = item.path();
            if !path.join("queue.meta").exists() {
                warn!(dir = %path.display(), "a sweep's directory without queue.meta (a submission cut short); skipped");
                continue;
            }
            found.push((Place::load(&path)?, path));
        }
        found.sort_by_key(|(place, _)| place.seq);
        let mut entries = Vec::with_capacity(found.len());
        for (mut place, path) in found {
            let sweep = read_sweep(&path)?;
            place.seq = entries.len() as u64 + 1;
            let entry = self.open(sweep, place).await?;
            info!(sweep = %entry.sweep.name, seq = place.seq, "sweep restored from the queue");
            entries.push(entry);
        }
        Ok(entries)
    }
}

/// The sweep text a state directory keeps.
fn read_sweep(dir: &Path) -> Result<Sweep, CoordinatorError> {
    let path = dir.join("sweep.toml");
    let text = std::fs::read_to_string(&path).map_err(|source| StateError::Io {
        path: path.clone(),
        action: "cannot read",
        source,
    })?;
    Sweep::parse(&text, &path.display().to_string()).map_err(|e| {
        StateError::Corrupt {
            path,
            line: 0,
            reason: format!("the sweep kept here does not parse: {e}"),
        }
        .into()
    })
}
