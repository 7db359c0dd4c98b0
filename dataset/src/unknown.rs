//! The games an experiment left unknown, which a sweep's `unknown_games` continues.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::layout::dataset_parts;
use crate::read::read_part;

/// Why the unknown games of an experiment cannot be listed.
#[derive(Debug, thiserror::Error)]
pub enum UnknownGamesError {
    /// The dataset holds no row of the experiment: most likely a misspelt name.
    #[error("the dataset {} has no experiment \"{experiment}\" (it has: {})", .dir.display(), .present.join(", "))]
    NoExperiment {
        /// The dataset directory.
        dir: PathBuf,
        /// The experiment asked for.
        experiment: String,
        /// The experiments the dataset does hold.
        present: Vec<String>,
    },
    /// A row of another sweep seed: the same game indices are other games there.
    #[error("{} holds games of sweep seed {found}, but this sweep's seed is {expected}: the same indices would be other games", .path.display())]
    OtherSeed {
        /// The part file holding the row.
        path: PathBuf,
        /// The seed in the row.
        found: i64,
        /// The seed of this sweep.
        expected: u64,
    },
    /// The dataset or one of its parts cannot be read.
    #[error(transparent)]
    Dataset(#[from] Error),
}

/// The games of `experiment` in the dataset at `dir` that have rows but no exhaustive
/// row, as game indices (sorted) by params text. Every row must be of sweep seed `seed`.
pub fn unknown_games(
    dir: &Path,
    experiment: &str,
    seed: u64,
) -> Result<BTreeMap<String, Vec<u64>>, UnknownGamesError> {
    let parts = dataset_parts(dir)?;
    let mine: Vec<_> = parts
        .iter()
        .filter(|p| p.experiment == experiment)
        .collect();
    if mine.is_empty() {
        let mut present: Vec<String> = parts.iter().map(|p| p.experiment.clone()).collect();
        present.dedup();
        return Err(UnknownGamesError::NoExperiment {
            dir: dir.to_owned(),
            experiment: experiment.to_owned(),
            present,
        });
    }
    // Per (params, game): whether some row settled it.
    let mut settled: BTreeMap<(String, u64), bool> = BTreeMap::new();
    for part in mine {
        for row in read_part(&part.path)? {
            if row.seed as u64 != seed {
                return Err(UnknownGamesError::OtherSeed {
                    path: part.path.clone(),
                    found: row.seed,
                    expected: seed,
                });
            }
            let done = settled
                .entry((row.params, row.game_index as u64))
                .or_default();
            *done |= row.exhaustive;
        }
    }
    let mut out: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for ((params, index), done) in settled {
        let list = out.entry(params).or_default();
        if !done {
            list.push(index);
        }
    }
    Ok(out)
}
