//! A unit's part in the dataset's store: one name per unit, created only if absent, with
//! the footer saying whose part it is.
//!
//! The footer's key-value pairs carry the sweep's digest and the unit's summary (the
//! figures the journal keeps), so that a part found already in place, written by an
//! earlier run that stopped before journaling it, is recognised and committed from its
//! footer alone, and a part of another sweep under the same name is refused rather than
//! taken for this one's.

use std::collections::{HashMap, HashSet};

use bytes::Bytes;
use hammer_dataset::{part_key, part_metadata};
use hammer_store::{Created, Store};
use hammer_sweep::{Sweep, UnitRows};
use tracing::info;

use crate::CoordinatorError;
use crate::state::{CommitEntry, StateDir};

const SWEEP: &str = "hammer.sweep";
const DIGEST: &str = "hammer.sweep_digest";
const UNIT: &str = "hammer.unit";
const GAMES: &str = "hammer.games";
const SOLVABLE: &str = "hammer.solvable";
const EXPANSIONS: &str = "hammer.expansions";

/// The footer's pairs for a unit's part.
pub(crate) fn footer(sweep: &Sweep, entry: &CommitEntry) -> Vec<(&'static str, String)> {
    vec![
        (SWEEP, sweep.name.clone()),
        (DIGEST, sweep.digest.clone()),
        (UNIT, entry.unit_id.clone()),
        (GAMES, entry.games.to_string()),
        (SOLVABLE, entry.solvable.to_string()),
        (EXPANSIONS, entry.expansions.to_string()),
    ]
}

/// Puts a unit's part, created only if absent. When the name is taken, the part in place
/// must be this sweep's part of this unit (an earlier run wrote it and stopped before
/// journaling it, or a second writer of the unit won the race); its rows equal these but
/// for the timing columns, so it stands, and its summary is returned.
pub(crate) async fn put(
    store: &Store,
    sweep: &Sweep,
    key: &str,
    bytes: Vec<u8>,
    entry: CommitEntry,
) -> Result<CommitEntry, CoordinatorError> {
    match store.create(key, Bytes::from(bytes)).await? {
        Created::New => Ok(entry),
        Created::Exists => existing(store, sweep, key, &entry.unit_id).await,
    }
}

/// The summary of the part at `key`, checked to be this sweep's part of `unit`.
async fn existing(
    store: &Store,
    sweep: &Sweep,
    key: &str,
    unit: &str,
) -> Result<CommitEntry, CoordinatorError> {
    let bytes = store.get(key).await?;
    let pairs: HashMap<String, String> = part_metadata(unit, bytes)?.into_iter().collect();
    let foreign = |found: &str| CoordinatorError::ForeignPart {
        location: format!("{store}/{key}"),
        found: found.to_owned(),
        digest: sweep.digest.clone(),
    };
    match pairs.get(DIGEST) {
        Some(digest) if digest == &sweep.digest => {}
        Some(digest) => return Err(foreign(&format!("sweep digest {digest}"))),
        None => return Err(foreign("no sweep digest (a part of an older hammer)")),
    }
    let number = |name: &str| pairs.get(name).and_then(|v| v.parse::<u64>().ok());
    match (
        pairs.get(UNIT),
        number(GAMES),
        number(SOLVABLE),
        number(EXPANSIONS),
    ) {
        (Some(found), Some(games), Some(solvable), Some(expansions)) if found == unit => {
            Ok(CommitEntry {
                unit_id: unit.to_owned(),
                games,
                solvable,
                expansions,
            })
        }
        _ => Err(foreign("a footer that does not name this unit")),
    }
}

/// Commits the parts already in the store of units the journal does not have: what a run
/// that stopped between a part's put and its journal line left. One listing per
/// experiment of the sweep, then one read of each part found, so a restart costs a few
/// list requests (1,000 keys each on S3) however many units the sweep has.
pub(crate) async fn adopt(
    store: &Store,
    sweep: &Sweep,
    state: &mut StateDir,
    committed: &mut Vec<CommitEntry>,
) -> Result<usize, CoordinatorError> {
    let done: HashSet<&str> = committed.iter().map(|e| e.unit_id.as_str()).collect();
    let mut wanted: HashMap<String, String> = HashMap::new();
    let mut experiments = Vec::new();
    for unit in sweep.units() {
        let id = unit.id();
        if done.contains(id.as_str()) {
            continue;
        }
        let Some(rows) = UnitRows::new(sweep, &unit) else {
            continue;
        };
        let name = &rows.experiment.name;
        if !experiments.contains(name) {
            experiments.push(name.clone());
        }
        wanted.insert(part_key(name, rows.n, &id), id);
    }
    let mut adopted = Vec::new();
    for experiment in &experiments {
        for key in store.list(&format!("experiment={experiment}")).await? {
            if let Some(unit) = wanted.get(&key) {
                adopted.push(existing(store, sweep, &key, unit).await?);
            }
        }
    }
    for entry in &adopted {
        state.append(entry)?;
        info!(unit = %entry.unit_id, "committed a part found in the dataset");
    }
    let count = adopted.len();
    committed.extend(adopted);
    Ok(count)
}
