//! The coordinator's state directory: which sweep it belongs to, and the journal of
//! committed units.
//!
//! Layout of `STATE/`:
//!
//! - `lock`: held with an exclusive file lock while a coordinator runs, so that two
//!   coordinators never share a journal.
//! - `sweep.toml`: the sweep text, for reference (what this state belongs to).
//! - `sweep.meta`: `hammer-state 1`, `digest HEX`, `name NAME`, one per line; written once,
//!   atomically. A restart with a sweep of another digest is refused.
//! - `journal.log`: one line per committed unit, appended and fsynced after the unit's part
//!   file was renamed into place and its directory fsynced:
//!
//!   ```text
//!   hammer-journal 1 digest=<32 hex> check=<16 hex>
//!   commit <unit id> games=<G> solvable=<S> expansions=<E> check=<16 hex>
//!   ```
//!
//!   `check` is xxh3-64 of the line up to the space before `check=`. A last line that is
//!   cut short or fails its check is what a crash during an append leaves: it is dropped
//!   (the unit runs again, which rewrites the same part file). A bad line anywhere else
//!   is corruption and stops the coordinator.

use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use hammer_sweep::Sweep;
use tracing::warn;

const META: &str = "sweep.meta";
const TEXT: &str = "sweep.toml";
const JOURNAL: &str = "journal.log";
const LOCK: &str = "lock";

/// Statistics of one committed unit, kept in the journal so that progress and summaries
/// survive restarts without reading the dataset: the summary of the unit's part.
pub(crate) use hammer_parts::Summary as CommitEntry;

/// Why a state directory cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// A file of the directory cannot be read or written.
    #[error("{}: {action}", .path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What was being done, as the message says it.
        action: &'static str,
        /// Why it failed.
        #[source]
        source: io::Error,
    },
    /// Another running coordinator holds the directory.
    #[error(
        "state directory {} is in use by another running coordinator (its lock file is held)",
        .path.display()
    )]
    Locked {
        /// The state directory.
        path: PathBuf,
    },
    /// The directory belongs to another sweep than the one given.
    #[error(
        "state directory {} belongs to sweep {state_name:?} (digest {state_digest}), but the \
         sweep file is {sweep_name:?} (digest {sweep_digest}); a changed sweep file would mix \
         results of two sweeps in one dataset. Use the original sweep file, or another --state \
         and --out for the new sweep",
        .path.display()
    )]
    DifferentSweep {
        /// The state directory.
        path: PathBuf,
        /// The name of the sweep the directory belongs to.
        state_name: String,
        /// That sweep's digest.
        state_digest: String,
        /// The name of the sweep given now.
        sweep_name: String,
        /// That sweep's digest.
        sweep_digest: String,
    },
    /// A file of the directory does not read as a coordinator wrote it.
    #[error("{}: line {line}: {reason}", .path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The line, from 1; 0 when the file as a whole is wrong.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

fn io_error<'a>(path: &'a Path, action: &'static str) -> impl FnOnce(io::Error) -> StateError + 'a {
    move |source| StateError::Io {
        path: path.to_owned(),
        action,
        source,
    }
}

/// An open state directory, locked for this process (or under a standing
/// coordinator's lock, which covers the state directories of all its sweeps).
pub struct StateDir {
    path: PathBuf,
    _lock: Option<File>,
}

fn check(body: &str) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(body.as_bytes()))
}

/// `body check=HEX`, verified; None when the check is missing or wrong.
fn verified(line: &str) -> Option<&str> {
    let (body, sum) = line.rsplit_once(" check=")?;
    (check(body) == sum).then_some(body)
}

fn journal_header(digest: &str) -> String {
    let body = format!("hammer-journal 1 digest={digest}");
    format!("{body} check={}\n", check(&body))
}

fn commit_line(entry: &CommitEntry) -> String {
    let body = format!(
        "commit {} games={} solvable={} expansions={}",
        entry.unit_id, entry.games, entry.solvable, entry.expansions
    );
    format!("{body} check={}\n", check(&body))
}

fn parse_commit(body: &str) -> Option<CommitEntry> {
    let mut words = body.split(' ');
    let (Some("commit"), Some(unit), Some(g), Some(s), Some(e), None) = (
        words.next(),
        words.next(),
        words.next(),
        words.next(),
        words.next(),
        words.next(),
    ) else {
        return None;
    };
    Some(CommitEntry {
        unit_id: unit.to_owned(),
        games: g.strip_prefix("games=")?.parse().ok()?,
        solvable: s.strip_prefix("solvable=")?.parse().ok()?,
        expansions: e.strip_prefix("expansions=")?.parse().ok()?,
    })
}

/// The digest and the sweep name of `sweep.meta`, whose text is `meta`.
fn parse_meta(path: &Path, meta: &str) -> Result<(String, String), StateError> {
    if meta.lines().next() != Some("hammer-state 1") {
        return Err(StateError::Corrupt {
            path: path.to_owned(),
            line: 1,
            reason: "expected `hammer-state 1`; not a hammer state directory, or one of a \
                     newer hammer"
                .into(),
        });
    }
    let field = |key: &str| {
        meta.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
            .unwrap_or("")
            .to_owned()
    };
    Ok((field("digest"), field("name")))
}

/// Creates directory `path` if needed and takes its lock file, so that two coordinators
/// never share it; the lock holds while the returned file is open.
pub(crate) fn lock_dir(path: &Path) -> Result<File, StateError> {
    create_dir(path)?;
    let lock_path = path.join(LOCK);
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(io_error(&lock_path, "cannot open lock file"))?;
    match lock.try_lock() {
        Ok(()) => Ok(lock),
        Err(fs::TryLockError::WouldBlock) => Err(StateError::Locked {
            path: path.to_owned(),
        }),
        Err(fs::TryLockError::Error(source)) => Err(StateError::Io {
            path: lock_path,
            action: "cannot lock",
            source,
        }),
    }
}

/// Creates directory `path` durably, if it is missing.
fn create_dir(path: &Path) -> Result<(), StateError> {
    if !path.is_dir() {
        fs::create_dir_all(path).map_err(io_error(path, "cannot create state directory"))?;
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            sync_dir(parent)?;
        }
    }
    Ok(())
}

/// Makes a new directory entry durable.
fn sync_dir(path: &Path) -> Result<(), StateError> {
    File::open(path)
        .and_then(|d| d.sync_all())
        .map_err(io_error(path, "cannot fsync directory"))
}

/// Writes `name` in `dir` atomically: temp file, fsync, rename, directory fsync.
pub(crate) fn write_atomic(dir: &Path, name: &str, contents: &str) -> Result<(), StateError> {
    let temp = dir.join(format!(".{name}.tmp"));
    let path = dir.join(name);
    let mut file = File::create(&temp).map_err(io_error(&temp, "cannot create"))?;
    file.write_all(contents.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(io_error(&temp, "cannot write"))?;
    fs::rename(&temp, &path).map_err(io_error(&path, "cannot rename into place"))?;
    sync_dir(dir)
}

impl StateDir {
    /// Opens (creating if needed) the state directory for `sweep` and returns the
    /// committed units found in its journal.
    /// `locked`: take the directory's own lock (a coordinator of one sweep); a standing
    /// coordinator holds one lock for all its sweeps' directories ([`lock_dir`]).
    pub(crate) fn open(
        path: &Path,
        sweep: &Sweep,
        locked: bool,
    ) -> Result<(StateDir, Vec<CommitEntry>), StateError> {
        let lock = if locked {
            Some(lock_dir(path)?)
        } else {
            create_dir(path)?;
            None
        };

        let meta_path = path.join(META);
        let journal_path = path.join(JOURNAL);
        match fs::read_to_string(&meta_path) {
            Ok(meta) => {
                let (digest, name) = parse_meta(&meta_path, &meta)?;
                if digest != sweep.digest {
                    return Err(StateError::DifferentSweep {
                        path: path.to_owned(),
                        state_name: name,
                        state_digest: digest,
                        sweep_name: sweep.name.clone(),
                        sweep_digest: sweep.digest.clone(),
                    });
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if journal_path.exists() {
                    return Err(StateError::Corrupt {
                        path: meta_path,
                        line: 0,
                        reason: "the journal exists but this file is missing, so the sweep \
                                 the journal belongs to is unknown"
                            .into(),
                    });
                }
                write_atomic(path, TEXT, &sweep.text)?;
                let meta = format!(
                    "hammer-state 1\ndigest {}\nname {}\n",
                    sweep.digest, sweep.name
                );
                write_atomic(path, META, &meta)?;
            }
            Err(source) => {
                return Err(StateError::Io {
                    path: meta_path,
                    action: "cannot read",
                    source,
                });
            }
        }

        let (entries, valid_len, existed) = read_journal(&journal_path, sweep)?;
        // Opened for each append: a standing coordinator keeps no file open per sweep.
        let mut journal = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(&journal_path)
            .map_err(io_error(&journal_path, "cannot open"))?;
        let len = journal
            .metadata()
            .map_err(io_error(&journal_path, "cannot stat"))?
            .len();
        if len != valid_len {
            warn!(path = %journal_path.display(), dropped_bytes = len - valid_len, "dropping a torn last journal line left by a crash");
            journal
                .set_len(valid_len)
                .and_then(|()| journal.sync_all())
                .map_err(io_error(
                    &journal_path,
                    "cannot truncate the torn last line",
                ))?;
        }
        if !existed || valid_len == 0 {
            journal
                .write_all(journal_header(&sweep.digest).as_bytes())
                .and_then(|()| journal.sync_all())
                .map_err(io_error(&journal_path, "cannot write"))?;
            sync_dir(path)?;
        }
        Ok((
            StateDir {
                path: path.to_owned(),
                _lock: lock,
            },
            entries,
        ))
    }

    /// Appends one commit and fsyncs it. Called only after the unit's part file is
    /// durable, so a unit in the journal always has its part on disk.
    pub(crate) fn append(&mut self, entry: &CommitEntry) -> Result<(), StateError> {
        let path = self.path.join(JOURNAL);
        OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut journal| {
                journal.write_all(commit_line(entry).as_bytes())?;
                journal.sync_data()
            })
            .map_err(io_error(&path, "cannot append to the journal"))
    }
}

/// What a state directory says about its sweep, read without taking it over: the sweep,
/// how much of it is committed, and whether a coordinator holds it right now. `hammer
/// analyze` uses it to tell a finished dataset from one still being written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateSummary {
    /// The sweep's name.
    pub sweep_name: String,
    /// Units of the sweep.
    pub units: u64,
    /// Units committed in the journal.
    pub units_committed: u64,
    /// Games of the sweep.
    pub games: u64,
    /// Games of the committed units.
    pub games_committed: u64,
    /// A coordinator holds the lock: the sweep may be running right now.
    pub running: bool,
}

impl StateDir {
    /// Reads the state directory at `path` without locking or changing it. The sweep comes
    /// from the copy of its text kept in the directory, checked against its digest; a torn
    /// last journal line is ignored, as a coordinator would drop it.
    pub fn inspect(path: &Path) -> Result<StateSummary, StateError> {
        let text_path = path.join(TEXT);
        let text = fs::read_to_string(&text_path).map_err(io_error(&text_path, "cannot read"))?;
        let sweep = Sweep::parse(&text, &text_path.display().to_string()).map_err(|e| {
            StateError::Corrupt {
                path: text_path.clone(),
                line: 0,
                reason: format!("the sweep kept in the state directory does not parse: {e}"),
            }
        })?;
        let meta_path = path.join(META);
        let meta = fs::read_to_string(&meta_path).map_err(io_error(&meta_path, "cannot read"))?;
        let (digest, _) = parse_meta(&meta_path, &meta)?;
        if digest != sweep.digest {
            return Err(StateError::Corrupt {
                path: meta_path,
                line: 0,
                reason: format!(
                    "digest {digest:?} is not the digest {} of the sweep text beside it",
                    sweep.digest
                ),
            });
        }
        let (entries, _, _) = read_journal(&path.join(JOURNAL), &sweep)?;
        let lock_path = path.join(LOCK);
        let running = match File::open(&lock_path) {
            Ok(lock) => matches!(lock.try_lock_shared(), Err(fs::TryLockError::WouldBlock)),
            Err(_) => false,
        };
        Ok(StateSummary {
            sweep_name: sweep.name.clone(),
            units: sweep.units().len() as u64,
            units_committed: entries.len() as u64,
            games: sweep.total_games(),
            games_committed: entries.iter().map(|e| e.games).sum(),
            running,
        })
    }
}

/// The entries of the journal, the length of its valid prefix, and whether it existed.
fn read_journal(path: &Path, sweep: &Sweep) -> Result<(Vec<CommitEntry>, u64, bool), StateError> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((Vec::new(), 0, false)),
        Err(source) => {
            return Err(StateError::Io {
                path: path.to_owned(),
                action: "cannot read",
                source,
            });
        }
    };
    let corrupt = |line: usize, reason: String| StateError::Corrupt {
        path: path.to_owned(),
        line,
        reason,
    };
    // Complete lines end with '\n'; whatever follows the last one is a torn append.
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let lines: Vec<&[u8]> = bytes[..complete].split(|&b| b == b'\n').collect();
    let lines = &lines[..lines.len().saturating_sub(1)]; // the empty piece after the last '\n'
    let mut entries = Vec::new();
    let mut seen = HashSet::new();
    let mut valid_len = 0u64;
    for (i, raw) in lines.iter().enumerate() {
        let number = i + 1;
        let is_last = i + 1 == lines.len();
        let body = std::str::from_utf8(raw).ok().and_then(verified);
        let Some(body) = body else {
            if is_last {
                // A crash mid-append can leave a full-length line of garbage or zeros.
                break;
            }
            return Err(corrupt(number, "checksum mismatch or not UTF-8".into()));
        };
        if i == 0 {
            let expected = format!("hammer-journal 1 digest={}", sweep.digest);
            if body != expected {
                return Err(corrupt(
                    number,
                    format!("expected header `{expected}`, found `{body}`"),
                ));
            }
        } else {
            let entry =
                parse_commit(body).ok_or_else(|| corrupt(number, format!("bad entry `{body}`")))?;
            let unit = sweep.unit_by_id(&entry.unit_id).ok_or_else(|| {
                corrupt(
                    number,
                    format!(
                        "unit {} is not a unit of sweep {}",
                        entry.unit_id, sweep.name
                    ),
                )
            })?;
            if unit.games() != entry.games {
                return Err(corrupt(
                    number,
                    format!(
                        "unit {} has {} games, the journal says {}",
                        entry.unit_id,
                        unit.games(),
                        entry.games
                    ),
                ));
            }
            if seen.insert(entry.unit_id.clone()) {
                entries.push(entry);
            }
        }
        valid_len += raw.len() as u64 + 1;
    }
    Ok((entries, valid_len, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_lines_round_trip_and_detect_damage() {
        let entry = CommitEntry {
            unit_id: "e000-c0001-n5-g000000000100".into(),
            games: 100,
            solvable: 37,
            expansions: 123_456,
        };
        let line = commit_line(&entry);
        let body = verified(line.trim_end()).map(str::to_owned);
        assert_eq!(body.as_deref().and_then(parse_commit), Some(entry));
        let damaged = line.replace("games=100", "games=101");
        assert_eq!(verified(damaged.trim_end()), None);
    }
}
