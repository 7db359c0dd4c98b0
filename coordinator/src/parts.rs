//! Parts found in the dataset at start: what a run that stopped between a part's put and
//! its journal line left, or a worker put and the coordinator never heard of, and the
//! units that `hammer compact` moved into compacted files, whose footers list them.

use std::collections::{HashMap, HashSet};

use hammer_parts::PartError;
use hammer_parts::compact::{self, Holding};
use hammer_store::Store;
use hammer_sweep::Sweep;
use tracing::info;

use crate::error::CoordinatorError;
use crate::state::{CommitEntry, StateDir};

/// Commits the parts already in the store of units the journal does not have. One listing
/// per experiment of the sweep, then one read of each part found and of each compacted
/// file's footer, so a restart costs a few list requests (1,000 keys each on S3) however
/// many units the sweep has.
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
        let Some((experiment, _, _)) = sweep.context_of(&unit) else {
            continue;
        };
        if !experiments.contains(&experiment.name) {
            experiments.push(experiment.name.clone());
        }
        wanted.insert(hammer_parts::key_of(sweep, &unit)?, id);
    }
    let wanted_ids: HashSet<&str> = wanted.values().map(String::as_str).collect();
    let mut adopted = Vec::new();
    for experiment in &experiments {
        for key in store.list(&format!("experiment={experiment}")).await? {
            if let Some(unit) = wanted.get(&key) {
                adopted.push(hammer_parts::existing(store, sweep, &key, unit).await?);
            } else if compact::is_compacted(&key) {
                adopted.extend(held(store, sweep, &key, &wanted_ids).await?);
            }
        }
    }
    // A unit is in one file: a compaction deletes the parts it replaced before it ends,
    // and a coordinator finishes an unfinished one before this runs.
    let mut seen = HashSet::new();
    adopted.retain(|entry: &CommitEntry| seen.insert(entry.unit_id.clone()));
    for entry in &adopted {
        state.append(entry)?;
        info!(unit = %entry.unit_id, "committed a part found in the dataset");
    }
    let count = adopted.len();
    committed.extend(adopted);
    Ok(count)
}

/// The units of `wanted` that the compacted file at `key` holds, checked to be this
/// sweep's as a unit's part is.
async fn held(
    store: &Store,
    sweep: &Sweep,
    key: &str,
    wanted: &HashSet<&str>,
) -> Result<Vec<CommitEntry>, CoordinatorError> {
    let Holding {
        digest,
        units,
        foreign,
        ..
    } = compact::holding_of(store, key).await?;
    let mine: Vec<CommitEntry> = units
        .into_iter()
        .filter(|u| wanted.contains(u.unit_id.as_str()))
        .collect();
    let foreign_unit = foreign.iter().any(|id| wanted.contains(id.as_str()));
    let found = match &digest {
        _ if foreign_unit => Some("a part without a sweep digest (of an older hammer)".to_owned()),
        Some(digest) if digest != &sweep.digest && !mine.is_empty() => {
            Some(format!("sweep digest {digest}"))
        }
        None if !mine.is_empty() => Some("no sweep digest".to_owned()),
        _ => None,
    };
    match found {
        Some(found) => Err(PartError::Foreign {
            location: format!("{store}/{key}"),
            found,
            digest: sweep.digest.clone(),
        }
        .into()),
        None => Ok(mine),
    }
}
