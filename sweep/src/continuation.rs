//! `unknown_games`: an experiment that plays exactly the games another experiment left
//! unknown (no exhaustive row), typically under a larger per-game limit.
//!
//! In a sweep file the key names the earlier experiment in a dataset on disk:
//!
//! ```toml
//! unknown_games = { dataset = "data/frontier", experiment = "cap1e7" }
//! ```
//!
//! [`crate::Sweep::load`] reads that dataset and writes the games into the sweep's text
//! (as it does for schedule files), so the text the coordinator keeps and ships is
//! self-contained and its digest fixes the games:
//!
//! ```toml
//! unknown_games = { experiment = "cap1e7", games = { "n=8" = [4, 17, 230] } }
//! ```
//!
//! Each listed game is a work unit of its own: continued games are the hard ones.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;

use hammer_family::Point;
use toml::de::DeValue;

use crate::SweepError;
use crate::error::Locator;
use crate::parse::{Files, Value, in_file_order, join, string, type_error};

/// The games of one experiment that another left unknown, by parameter point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGames {
    /// The experiment they come from (for the reader of the sweep text).
    pub from: String,
    /// Per point of this experiment (in `Experiment::points` order), the game indices,
    /// sorted and distinct.
    pub games: Vec<Vec<u64>>,
}

/// The key as read, before the experiment's points are known.
pub(crate) struct Listing {
    from: String,
    /// Params text -> game indices.
    games: BTreeMap<String, Vec<u64>>,
    /// Read from a dataset (the text must then be rewritten), not given inline.
    from_dataset: Option<String>,
    span: Range<usize>,
}

pub(crate) fn read(
    loc: &Locator<'_>,
    value: &Value<'_>,
    key: &str,
    files: &Files<'_>,
) -> Result<Listing, SweepError> {
    let DeValue::Table(table) = value.get_ref() else {
        return Err(type_error(
            loc,
            value,
            key,
            "a table such as { dataset = \"DIR\", experiment = \"NAME\" }",
        ));
    };
    let (mut dataset, mut from, mut games) = (None, None, None);
    for (k, v) in in_file_order(table) {
        let sub = join(key, k.get_ref());
        match k.get_ref().as_ref() {
            "dataset" => dataset = Some(string(loc, v, &sub)?.to_string()),
            "experiment" => from = Some(string(loc, v, &sub)?.to_string()),
            "games" => games = Some(inline_games(loc, v, &sub)?),
            other => {
                return Err(loc.error(
                    &k.span(),
                    sub.clone(),
                    format!("unknown key '{other}'; expected dataset and experiment"),
                ));
            }
        }
    }
    let Some(from) = from else {
        return Err(loc.error(
            &value.span(),
            key,
            "missing key: which experiment's unknown games to play (experiment = \"NAME\")",
        ));
    };
    let (games, from_dataset) = match (dataset, games) {
        (Some(dir), None) => {
            let Some(base) = files.base else {
                return Err(loc.error(
                    &value.span(),
                    key,
                    "a dataset is named in sweep text that was not loaded from a file; load the sweep with its path so that the dataset can be read",
                ));
            };
            let path = base.join(&dir);
            let games = from_dataset(&path, &from, files.seed)
                .map_err(|e| loc.error(&value.span(), key, e))?;
            (games, Some(dir))
        }
        (None, Some(games)) => (games, None),
        _ => {
            return Err(loc.error(
                &value.span(),
                key,
                "give the dataset to read (dataset = \"DIR\"), and no games list",
            ));
        }
    };
    Ok(Listing {
        from,
        games,
        from_dataset,
        span: value.span(),
    })
}

/// `games = { "PARAMS" = [i, ...], ... }`, as a resolved text has it.
fn inline_games(
    loc: &Locator<'_>,
    value: &Value<'_>,
    key: &str,
) -> Result<BTreeMap<String, Vec<u64>>, SweepError> {
    let DeValue::Table(table) = value.get_ref() else {
        return Err(type_error(loc, value, key, "a table of game lists"));
    };
    let mut out = BTreeMap::new();
    for (k, v) in in_file_order(table) {
        let sub = join(key, k.get_ref());
        let DeValue::Array(items) = v.get_ref() else {
            return Err(type_error(loc, v, &sub, "a list of game indices"));
        };
        let mut list = Vec::with_capacity(items.len());
        for item in items {
            let index = crate::parse::ranged(
                loc,
                item,
                &sub,
                "game index",
                0,
                hammer_puzzle::seeded::MAX_INDEX,
            )?;
            if list.last().is_some_and(|&last| last >= index) {
                return Err(loc.error(
                    &item.span(),
                    sub.clone(),
                    "game indices must be listed in increasing order, each once",
                ));
            }
            list.push(index);
        }
        out.insert(k.get_ref().to_string(), list);
    }
    Ok(out)
}

/// The games of experiment `name` in the dataset at `dir` that have rows but no
/// exhaustive row, by params text. Refuses rows of another sweep seed: their games are
/// other boards.
fn from_dataset(
    dir: &Path,
    name: &str,
    seed: Option<u64>,
) -> Result<BTreeMap<String, Vec<u64>>, String> {
    let parts = hammer_dataset::dataset_parts(dir).map_err(|e| e.to_string())?;
    let mine: Vec<_> = parts.iter().filter(|p| p.experiment == name).collect();
    if mine.is_empty() {
        let mut names: Vec<&str> = parts.iter().map(|p| p.experiment.as_str()).collect();
        names.dedup();
        return Err(format!(
            "the dataset {} has no experiment \"{name}\" (it has: {})",
            dir.display(),
            names.join(", ")
        ));
    }
    // Per (params, game): whether some row settled it.
    let mut settled: BTreeMap<(String, u64), bool> = BTreeMap::new();
    for part in mine {
        let rows = hammer_dataset::read_part(&part.path).map_err(|e| e.to_string())?;
        for row in rows {
            if let Some(seed) = seed
                && row.seed as u64 != seed
            {
                return Err(format!(
                    "{} holds games of sweep seed {}, but this sweep's seed is {seed}: the same indices would be other games",
                    part.path.display(),
                    row.seed
                ));
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

impl Listing {
    /// The games of each of `points`; a dataset's listing also writes the self-contained
    /// form into the sweep's text.
    pub(crate) fn resolve(
        mut self,
        loc: &Locator<'_>,
        key: &str,
        points: &[Point],
        files: &mut Files<'_>,
    ) -> Result<UnknownGames, SweepError> {
        let names: Vec<String> = points.iter().map(Point::to_string).collect();
        if self.from_dataset.is_none()
            && let Some(extra) = self.games.keys().find(|k| !names.contains(k))
        {
            return Err(loc.error(
                &self.span,
                key,
                format!("games are listed for point {extra}, which this experiment does not have"),
            ));
        }
        let games: Vec<Vec<u64>> = names
            .iter()
            .map(|n| self.games.remove(n).unwrap_or_default())
            .collect();
        if games.iter().all(Vec::is_empty) {
            let source = self.from_dataset.as_deref().unwrap_or("the listing");
            return Err(loc.error(
                &self.span,
                key,
                format!(
                    "experiment \"{}\" in {source} left no game of this experiment's points ({}) unknown: nothing to continue",
                    self.from,
                    names.join(", ")
                ),
            ));
        }
        if self.from_dataset.is_some() {
            files.substitute(self.span.clone(), inline_text(&self.from, &names, &games));
        }
        Ok(UnknownGames {
            from: self.from,
            games,
        })
    }
}

/// The self-contained form of a listing.
pub(crate) fn inline_text(from: &str, names: &[String], games: &[Vec<u64>]) -> String {
    let mut out = format!("{{ experiment = \"{from}\", games = {{ ");
    let lists: Vec<String> = names
        .iter()
        .zip(games)
        .filter(|(_, g)| !g.is_empty())
        .map(|(name, g)| {
            let mut s = format!("\"{name}\" = [");
            for (i, index) in g.iter().enumerate() {
                let _ = write!(s, "{}{index}", if i > 0 { ", " } else { "" });
            }
            s.push(']');
            s
        })
        .collect();
    out.push_str(&lists.join(", "));
    out.push_str(" } }");
    out
}
