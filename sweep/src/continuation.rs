//! `unknown_games`: an experiment that plays exactly the games another experiment left
//! unknown (no exhaustive row), typically under a larger per-game limit.
//!
//! In a sweep file the key names the earlier experiment in a dataset on disk:
//!
//! ```toml
//! unknown_games = { dataset = "data/frontier", experiment = "cap1e7" }
//! ```
//!
//! Parsing reads no dataset: [`crate::SweepFile::read`] lists such keys as
//! [`Continuation`]s, the caller reads their games (`hammer_dataset::unknown_games`), and
//! [`crate::SweepFile::finish`] writes the games into the sweep's text (as it does for
//! schedule files), so the text the coordinator keeps and ships is self-contained and its
//! digest fixes the games:
//!
//! ```toml
//! unknown_games = { experiment = "cap1e7", games = { "n=8" = [4, 17, 230] } }
//! ```
//!
//! Each listed game is a work unit of its own: continued games are the hard ones.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::Range;
use std::path::PathBuf;

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

/// An `unknown_games` key that names a dataset, whose games the caller reads between
/// [`crate::SweepFile::read`] and [`crate::SweepFile::finish`].
#[derive(Clone, Debug)]
pub struct Continuation {
    /// The dataset: a directory, relative to the sweep file's folder, or an object
    /// store URL (`s3://BUCKET/PREFIX`) as written.
    pub dataset: PathBuf,
    /// The experiment whose unknown games are continued.
    pub experiment: String,
    /// The sweep's seed: rows of another seed hold other games under the same indices.
    pub seed: u64,
    /// The games that the caller read, by params text.
    pub games: Option<BTreeMap<String, Vec<u64>>>,
    /// The key's place in the sweep file, for errors.
    at: SweepError,
    /// Byte offset of the key's value, which finds it again when the text is parsed anew.
    pub(crate) offset: usize,
}

impl Continuation {
    /// The error of reading this continuation's games, at its key in the sweep file.
    pub fn error(&self, source: hammer_dataset::UnknownGamesError) -> ContinuationError {
        ContinuationError {
            at: SweepError {
                message: format!("cannot continue experiment \"{}\"", self.experiment),
                ..self.at.clone()
            },
            source,
        }
    }

    /// The error of a sweep finished before this continuation's games were read.
    pub(crate) fn unread(&self) -> SweepError {
        SweepError {
            message: format!(
                "the unknown games of experiment \"{}\" in {} were not read",
                self.experiment,
                self.dataset.display()
            ),
            ..self.at.clone()
        }
    }
}

/// A continuation's games could not be read from its dataset.
#[derive(Debug, thiserror::Error)]
#[error("{at}")]
pub struct ContinuationError {
    at: SweepError,
    #[source]
    source: hammer_dataset::UnknownGamesError,
}

/// The key as read, before the experiment's points are known.
pub(crate) struct Listing {
    from: String,
    /// Params text -> game indices; `None` while a dataset's games are still to be read.
    games: Option<BTreeMap<String, Vec<u64>>>,
    /// Read from a dataset (the text must then be rewritten), not given inline.
    from_dataset: Option<String>,
    span: Range<usize>,
}

pub(crate) fn read(
    loc: &Locator<'_>,
    value: &Value<'_>,
    key: &str,
    files: &mut Files<'_>,
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
            // A URL names the same dataset from any folder. The rule is
            // `hammer_store::is_url`'s, which this crate does not depend on.
            let is_url = dir.split_once("://").is_some_and(|(scheme, _)| {
                !scheme.is_empty() && scheme.bytes().all(|b| b.is_ascii_alphanumeric())
            });
            let continuation = Continuation {
                dataset: if is_url {
                    PathBuf::from(&dir)
                } else {
                    base.join(&dir)
                },
                experiment: from.clone(),
                seed: files.seed,
                games: None,
                at: loc.error(&value.span(), key, ""),
                offset: value.span().start,
            };
            (files.continued(continuation), Some(dir))
        }
        (None, Some(games)) => (Some(games), None),
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

impl Listing {
    /// The games of each of `points`; a dataset's listing also writes the self-contained
    /// form into the sweep's text.
    pub(crate) fn resolve(
        self,
        loc: &Locator<'_>,
        key: &str,
        points: &[Point],
        files: &mut Files<'_>,
    ) -> Result<UnknownGames, SweepError> {
        // Still to be read: the sweep is finished with the games later.
        let Some(mut listed) = self.games else {
            return Ok(UnknownGames {
                from: self.from,
                games: vec![Vec::new(); points.len()],
            });
        };
        let names: Vec<String> = points.iter().map(Point::to_string).collect();
        if self.from_dataset.is_none()
            && let Some(extra) = listed.keys().find(|k| !names.contains(k))
        {
            return Err(loc.error(
                &self.span,
                key,
                format!("games are listed for point {extra}, which this experiment does not have"),
            ));
        }
        let games: Vec<Vec<u64>> = names
            .iter()
            .map(|n| listed.remove(n).unwrap_or_default())
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
