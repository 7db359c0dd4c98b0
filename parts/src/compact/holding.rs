//! Which units a part file holds, read from its footer: one unit for a unit's part, every
//! unit of its inputs for a compacted file. A resumed coordinator reads this to recognise
//! the units whose rows are already in the dataset, whatever file they are in now.

use std::collections::HashMap;

use hammer_store::Store;
use serde_json::{Value, json};

use crate::{DIGEST, EXPANSIONS, GAMES, PartError, SOLVABLE, SWEEP, Summary, UNIT};

/// The footer key of a compacted file's units: a JSON array of
/// `[unit, games, solvable, expansions]`.
const UNITS: &str = "hammer.units";
/// The footer key of the part ids of inputs without hammer's footer (files of an older
/// hammer or another tool): a JSON array of strings.
const FOREIGN: &str = "hammer.foreign_parts";

/// What a footer says a file holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holding {
    /// The sweep's name, when the footer has one.
    pub sweep: Option<String>,
    /// The sweep's digest, when the footer has one: every unit below is of that sweep.
    pub digest: Option<String>,
    /// The units whose rows the file holds, with their summaries.
    pub units: Vec<Summary>,
    /// Part ids of inputs whose footers said nothing: their rows are in the file, but
    /// whose units they are is unknown.
    pub foreign: Vec<String>,
}

impl Holding {
    /// What the footer `pairs` of the file with part id `part_id` say it holds.
    pub fn of(pairs: Vec<(String, String)>, part_id: &str) -> Holding {
        let pairs: HashMap<String, String> = pairs.into_iter().collect();
        let mut holding = Holding {
            sweep: pairs.get(SWEEP).cloned(),
            digest: pairs.get(DIGEST).cloned(),
            ..Holding::default()
        };
        let number = |name: &str| pairs.get(name).and_then(|v| v.parse::<u64>().ok());
        if let Some(units) = pairs.get(UNITS) {
            holding.units = parse_units(units);
            holding.foreign = pairs
                .get(FOREIGN)
                .and_then(|text| serde_json::from_str::<Vec<String>>(text).ok())
                .unwrap_or_default();
        } else if let (Some(unit), Some(games), Some(solvable), Some(expansions)) = (
            pairs.get(UNIT),
            number(GAMES),
            number(SOLVABLE),
            number(EXPANSIONS),
        ) {
            holding.units.push(Summary {
                unit_id: unit.clone(),
                games,
                solvable,
                expansions,
            });
        } else {
            holding.foreign.push(part_id.to_owned());
        }
        holding
    }

    /// Adds what another file of the same sweep holds.
    pub(crate) fn extend(&mut self, other: Holding) {
        if self.sweep.is_none() {
            self.sweep = other.sweep;
        }
        self.units.extend(other.units);
        self.foreign.extend(other.foreign);
    }

    /// Rows the footers account for, or `None` when some input had no footer.
    pub(crate) fn games(&self) -> Option<u64> {
        self.foreign
            .is_empty()
            .then(|| self.units.iter().map(|u| u.games).sum())
    }

    /// The footer's pairs of a compacted file holding this.
    pub(crate) fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(sweep) = &self.sweep {
            pairs.push((SWEEP, sweep.clone()));
        }
        if let Some(digest) = &self.digest {
            pairs.push((DIGEST, digest.clone()));
        }
        let units: Vec<Value> = self
            .units
            .iter()
            .map(|u| json!([u.unit_id, u.games, u.solvable, u.expansions]))
            .collect();
        pairs.push((UNITS, Value::Array(units).to_string()));
        if !self.foreign.is_empty() {
            pairs.push((FOREIGN, json!(self.foreign).to_string()));
        }
        pairs
    }
}

fn parse_units(text: &str) -> Vec<Summary> {
    let Ok(Value::Array(units)) = serde_json::from_str::<Value>(text) else {
        return Vec::new();
    };
    units
        .iter()
        .filter_map(|unit| {
            Some(Summary {
                unit_id: unit.get(0)?.as_str()?.to_owned(),
                games: unit.get(1)?.as_u64()?,
                solvable: unit.get(2)?.as_u64()?,
                expansions: unit.get(3)?.as_u64()?,
            })
        })
        .collect()
}

/// The footer's first read: enough for the footer of a compacted file of a few thousand
/// units, so that one request usually does.
const FIRST_READ: u64 = 256 * 1024;

/// What the file at `key` holds, from its footer alone: one or two reads of its end.
pub async fn holding_of(store: &Store, key: &str) -> Result<Holding, PartError> {
    let part_id = part_id_of(key).unwrap_or(key);
    let mut suffix = store.get_suffix(key, FIRST_READ).await?;
    let footer =
        hammer_dataset::footer_length(&suffix).map(|len| len + hammer_dataset::FOOTER_TAIL);
    if let Some(needed) = footer.filter(|&n| n > suffix.len()) {
        suffix = store.get_suffix(key, needed as u64).await?;
    }
    let pairs = hammer_dataset::footer_pairs(&suffix, part_id)?;
    Ok(Holding::of(pairs, part_id))
}

/// The id in a part's file name: `…/part-ID.parquet` -> `ID`.
pub(crate) fn part_id_of(key: &str) -> Option<&str> {
    key.rsplit('/')
        .next()?
        .strip_prefix("part-")?
        .strip_suffix(".parquet")
}
