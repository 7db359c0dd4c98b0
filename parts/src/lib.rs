//! A unit's part: its games' rows as one Parquet file, named by the unit, put into the
//! dataset's store only if the name is free, and recognised when found in place.
//!
//! The coordinator and the workers both write parts through this crate, so that a part
//! is the same whoever writes it: the same rows (but for the timing columns), the same
//! name, the same footer.
//!
//! The footer's key-value pairs carry the sweep's digest and the unit's [`Summary`] (the
//! figures the coordinator's journal keeps). A part found already in place, written by a
//! run that stopped before journaling it or by another writer of the same unit, is then
//! recognised and committed from its footer alone, and a part of another sweep under the
//! same name is refused rather than taken for this one's.

pub mod compact;
pub mod delta;

use std::collections::HashMap;

use bytes::Bytes;
use hammer_dataset::{encode_part_refs, part_key, part_metadata};
use hammer_proto::v1::{GameResult, UnitWritten};
use hammer_store::{Created, Store, StoreError};
use hammer_sweep::{Sweep, Unit, UnitRows, cells_from_wire};

pub(crate) const SWEEP: &str = "hammer.sweep";
pub(crate) const DIGEST: &str = "hammer.sweep_digest";
pub(crate) const UNIT: &str = "hammer.unit";
pub(crate) const GAMES: &str = "hammer.games";
pub(crate) const SOLVABLE: &str = "hammer.solvable";
pub(crate) const EXPANSIONS: &str = "hammer.expansions";

/// What a unit's part holds, in the figures `hammer status` shows: one line of the
/// coordinator's journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The unit's id.
    pub unit_id: String,
    /// Rows of the part: the unit's games.
    pub games: u64,
    /// Games whose score reached the family's goal.
    pub solvable: u64,
    /// Expansions of all the games together.
    pub expansions: u64,
}

impl Summary {
    /// The summary as a worker reports a part it put, with the part's size in bytes.
    pub fn written(self, bytes: u64) -> UnitWritten {
        UnitWritten {
            unit_id: self.unit_id,
            games: self.games,
            solvable: self.solvable,
            expansions: self.expansions,
            bytes,
        }
    }
}

impl From<UnitWritten> for Summary {
    /// What a worker reports of a part it put, its size aside.
    fn from(written: UnitWritten) -> Summary {
        Summary {
            unit_id: written.unit_id,
            games: written.games,
            solvable: written.solvable,
            expansions: written.expansions,
        }
    }
}

/// A part ready to put: its key below the dataset's location, its bytes and summary.
#[derive(Clone, Debug)]
pub struct Encoded {
    /// `experiment=…/n=…/part-<unit>.parquet`.
    pub key: String,
    /// The whole Parquet file.
    pub bytes: Bytes,
    /// What the part holds.
    pub summary: Summary,
}

/// Why a part could not be made, put or recognised.
#[derive(Debug, thiserror::Error)]
pub enum PartError {
    /// The unit is not one of the sweep's.
    #[error("unit {0} is not a unit of the sweep")]
    OutsideSweep(String),
    /// The rows could not be encoded, or a part's footer could not be read.
    #[error(transparent)]
    Dataset(#[from] hammer_dataset::Error),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The dataset's Delta log holds a version that is not JSON lines.
    #[error("the Delta log's {0}")]
    DeltaLog(String),
    /// A compaction cannot go on: its plan or staged files are not as it left them, or
    /// its inputs are not what their footers say.
    #[error("compaction: {0}")]
    Compaction(String),
    /// A unit's part name is taken by a part that is not this sweep's.
    #[error(
        "{location} is taken by a part with {found}, not a part of this sweep (digest \
         {digest}); write this sweep to another --out, or give its experiment another name"
    )]
    Foreign {
        /// The part's location.
        location: String,
        /// What its footer says instead.
        found: String,
        /// This sweep's digest.
        digest: String,
    },
}

/// The key of `unit`'s part below the dataset's location.
pub fn key_of(sweep: &Sweep, unit: &Unit) -> Result<String, PartError> {
    let (experiment, _, _) = sweep
        .context_of(unit)
        .ok_or_else(|| PartError::OutsideSweep(unit.id()))?;
    Ok(part_key(
        &experiment.name,
        i32::try_from(unit.n).unwrap_or(i32::MAX),
        &unit.id(),
    ))
}

/// Encodes `unit`'s part from its games' results, each with the id and version of the
/// worker that solved it (the `worker` and `hammer_version` columns), in game order.
pub fn encode<'w>(
    sweep: &Sweep,
    unit: &Unit,
    games: impl IntoIterator<Item = (GameResult, &'w str, &'w str)>,
) -> Result<Encoded, PartError> {
    let unit_id = unit.id();
    let shared =
        UnitRows::new(sweep, unit).ok_or_else(|| PartError::OutsideSweep(unit_id.clone()))?;
    // The family cells moved out of the wire's form first, then rows that borrow every
    // string: the unit's shared strings are made once.
    let games: Vec<_> = games
        .into_iter()
        .map(|(mut game, worker, version)| {
            let extra = cells_from_wire(std::mem::take(&mut game.extra));
            (game, extra, worker, version)
        })
        .collect();
    let (mut solvable, mut expansions) = (0u64, 0u64);
    let mut rows: Vec<_> = games
        .iter()
        .map(|(game, extra, worker, version)| {
            solvable += u64::from(shared.solvable(game.score));
            expansions += game.expansions;
            shared.row(game, extra, worker, version)
        })
        .collect();
    let summary = Summary {
        unit_id,
        games: rows.len() as u64,
        solvable,
        expansions,
    };
    let experiment = &shared.experiment.name;
    let footer = footer(sweep, &summary);
    let bytes = encode_part_refs(experiment, shared.n, &summary.unit_id, &mut rows, &footer)?;
    Ok(Encoded {
        key: part_key(experiment, shared.n, &summary.unit_id),
        bytes: Bytes::from(bytes),
        summary,
    })
}

/// The footer's pairs for a unit's part.
fn footer(sweep: &Sweep, summary: &Summary) -> Vec<(&'static str, String)> {
    vec![
        (SWEEP, sweep.name.clone()),
        (DIGEST, sweep.digest.clone()),
        (UNIT, summary.unit_id.clone()),
        (GAMES, summary.games.to_string()),
        (SOLVABLE, summary.solvable.to_string()),
        (EXPANSIONS, summary.expansions.to_string()),
    ]
}

/// Puts a part, created only if absent, and returns the summary of the part that the
/// name holds afterwards with its size in bytes. When the name is taken, the part in
/// place must be this sweep's part of the same unit (an earlier run wrote it and stopped
/// before journaling it, or another writer of the unit won the race); its rows equal
/// these but for the timing columns, so it stands.
pub async fn put(store: &Store, sweep: &Sweep, part: Encoded) -> Result<(Summary, u64), PartError> {
    match store.create(&part.key, part.bytes.clone()).await? {
        Created::New => Ok((part.summary, part.bytes.len() as u64)),
        Created::Exists => {
            let bytes = store.get(&part.key).await?;
            let size = bytes.len() as u64;
            let summary = recognise(store, sweep, &part.key, &part.summary.unit_id, bytes)?;
            Ok((summary, size))
        }
    }
}

/// The summary of the part at `key`, read from the store and checked to be this sweep's
/// part of `unit`.
pub async fn existing(
    store: &Store,
    sweep: &Sweep,
    key: &str,
    unit: &str,
) -> Result<Summary, PartError> {
    let bytes = store.get(key).await?;
    recognise(store, sweep, key, unit, bytes)
}

/// The summary in a part's footer, checked to be this sweep's part of `unit`.
fn recognise(
    store: &Store,
    sweep: &Sweep,
    key: &str,
    unit: &str,
    bytes: Bytes,
) -> Result<Summary, PartError> {
    let pairs: HashMap<String, String> = part_metadata(unit, bytes)?.into_iter().collect();
    let foreign = |found: &str| PartError::Foreign {
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
            Ok(Summary {
                unit_id: unit.to_owned(),
                games,
                solvable,
                expansions,
            })
        }
        _ => Err(foreign("a footer that does not name this unit")),
    }
}

#[cfg(test)]
mod tests;
