//! Parts found in the dataset at start: what a run that stopped between a part's put and
//! its journal line left, or a worker put and the coordinator never heard of.

use std::collections::{HashMap, HashSet};

use hammer_store::Store;
use hammer_sweep::Sweep;
use tracing::info;

use crate::error::CoordinatorError;
use crate::state::{CommitEntry, StateDir};

/// Commits the parts already in the store of units the journal does not have. One listing
/// per experiment of the sweep, then one read of each part found, so a restart costs a
/// few list requests (1,000 keys each on S3) however many units the sweep has.
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
    let mut adopted = Vec::new();
    for experiment in &experiments {
        for key in store.list(&format!("experiment={experiment}")).await? {
            if let Some(unit) = wanted.get(&key) {
                adopted.push(hammer_parts::existing(store, sweep, &key, unit).await?);
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
