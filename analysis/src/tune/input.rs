//! From dataset rows to the tuner's input: per game, the run-time distribution of its
//! capped random attempts and the cost of the exact searches a schedule can fall back on.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::model::GameRtd;
use crate::error::{Error, Result};
use crate::load::Data;

/// The example sweep that makes tuning data, named in errors.
pub const EXAMPLE_TUNE: &str = "examples/tune_rtd.toml";

/// One game of the tuning set.
#[derive(Debug, Clone)]
pub struct TuneGame {
    pub game_index: i64,
    pub rtd: GameRtd,
    /// Expansions of the exact search in the random order (the fallback of a tuned list,
    /// whose final unlimited attempt keeps the list's order).
    pub exact_random: Option<f64>,
    /// Expansions of the exact search in the standard order: plain DFS, and the fallback
    /// of `paper`.
    pub exact_standard: Option<f64>,
    /// From the exact rows; `None` when the game has none.
    pub solvable: Option<bool>,
}

impl TuneGame {
    /// The fallback cost of a schedule whose unlimited attempt runs in the random order,
    /// standing in the standard order's when only that was measured.
    pub fn fallback_random(&self) -> f64 {
        self.exact_random
            .or(self.exact_standard)
            .unwrap_or(f64::NAN)
    }

    pub fn fallback_standard(&self) -> f64 {
        self.exact_standard
            .or(self.exact_random)
            .unwrap_or(f64::NAN)
    }
}

/// Everything the tuner reads from a dataset.
#[derive(Debug, Clone)]
pub struct TuneInput {
    pub sweep: String,
    pub seed: i64,
    pub n: i32,
    pub experiment: String,
    pub order: String,
    pub attempts: u32,
    pub cap: u64,
    pub games: Vec<TuneGame>,
    /// Which exact searches were found (`"random"`, `"standard"`).
    pub exact_orders: Vec<String>,
    /// Games of the run-time experiment left out because they had no exact row.
    pub dropped_games: usize,
}

/// Finds the run-time experiment (one with `budget > 0`, no prefix and several trials;
/// `experiment` picks one by name when there are several) and the exact rows on the same
/// games, for board size `n` (default: the largest size of that experiment).
pub fn collect(data: &Data, experiment: Option<&str>, n: Option<i32>) -> Result<TuneInput> {
    let refuse = |reason: String| Error::Tune {
        path: data.dir.clone(),
        reason,
    };
    let names = &data.names;
    // Candidate experiments: budget rows without prefix, with their trial counts.
    let mut candidates: BTreeMap<&str, BTreeSet<i32>> = BTreeMap::new();
    for r in &data.rows {
        if r.budget > 0 && r.prefix == 0 {
            candidates
                .entry(names.name(r.experiment))
                .or_default()
                .insert(r.trial);
        }
    }
    let chosen = match experiment {
        Some(name) => {
            if !candidates.contains_key(name) {
                return Err(refuse(format!(
                    "experiment \"{name}\" has no capped attempts (rows with a budget and no prefix); run-time experiments here: {}",
                    list(candidates.keys().copied())
                )));
            }
            name
        }
        None => {
            let multi: Vec<&str> = candidates
                .iter()
                .filter(|(_, trials)| trials.len() > 1)
                .map(|(name, _)| *name)
                .collect();
            match multi.as_slice() {
                [one] => *one,
                [] => {
                    return Err(refuse(format!(
                        "no run-time experiment: the tuner needs an experiment with kind = \"run-time\" (several capped random attempts per game), as in {EXAMPLE_TUNE}"
                    )));
                }
                many => {
                    return Err(refuse(format!(
                        "several run-time experiments ({}); pick one with --experiment",
                        list(many.iter().copied())
                    )));
                }
            }
        }
    };
    let experiment_id = names
        .find(chosen)
        .ok_or_else(|| refuse(format!("experiment \"{chosen}\" has no rows")))?;
    let rtd_rows: Vec<_> = data
        .rows
        .iter()
        .filter(|r| r.experiment == experiment_id && r.budget > 0 && r.prefix == 0)
        .collect();
    let sizes: BTreeSet<i32> = rtd_rows.iter().map(|r| r.n).collect();
    let n = match n {
        Some(n) if sizes.contains(&n) => n,
        Some(n) => {
            return Err(refuse(format!(
                "experiment \"{chosen}\" has no games of size {n}; it has sizes {}",
                list(sizes.iter())
            )));
        }
        None => *sizes
            .last()
            .ok_or_else(|| refuse(format!("experiment \"{chosen}\" has no rows")))?,
    };
    let rtd_rows: Vec<_> = rtd_rows.into_iter().filter(|r| r.n == n).collect();
    let caps: BTreeSet<i64> = rtd_rows.iter().map(|r| r.budget).collect();
    let orders: BTreeSet<&str> = rtd_rows.iter().map(|r| names.name(r.order)).collect();
    let seeds: BTreeSet<i64> = rtd_rows.iter().map(|r| r.seed).collect();
    let sweeps: BTreeSet<&str> = rtd_rows.iter().map(|r| names.name(r.sweep)).collect();
    if caps.len() != 1 || orders.len() != 1 || seeds.len() != 1 || sweeps.len() != 1 {
        return Err(refuse(format!(
            "experiment \"{chosen}\" mixes caps ({}), orders ({}), seeds ({}) or sweeps ({}); a run-time experiment has one of each",
            list(caps.iter()),
            list(orders.iter()),
            list(seeds.iter()),
            list(sweeps.iter())
        )));
    }
    let (Some(&cap), Some(&order), Some(&seed), Some(&sweep)) =
        (caps.first(), orders.first(), seeds.first(), sweeps.first())
    else {
        return Err(refuse(format!("experiment \"{chosen}\" has no rows")));
    };
    let cap = cap as u64;

    // Per game: finished lengths and the attempt count (trials are deduplicated by key
    // already, but a trial seen twice is counted once to be safe).
    let mut per_game: BTreeMap<i64, (Vec<u64>, BTreeSet<i32>)> = BTreeMap::new();
    for r in &rtd_rows {
        let entry = per_game.entry(r.game_index).or_default();
        if entry.1.insert(r.trial) && r.exhaustive {
            entry.0.push(r.expansions.max(0) as u64);
        }
    }
    let attempts = per_game
        .values()
        .map(|(_, t)| t.len() as u32)
        .max()
        .unwrap_or(0);

    // Exact rows on the same games: schedule "exact", no prefix, first trial, same seed.
    let mut exact: HashMap<(&str, i64), (f64, bool)> = HashMap::new();
    let mut exact_orders = BTreeSet::new();
    for r in &data.rows {
        if r.n == n
            && r.seed == seed
            && r.prefix == 0
            && r.trial == 0
            && r.budget == 0
            && r.exhaustive
            && names.name(r.schedule) == "exact"
        {
            let order = names.name(r.order);
            if order == "random" || order == "standard" {
                exact_orders.insert(order.to_owned());
                exact.insert((order, r.game_index), (r.expansions as f64, r.solvable));
            }
        }
    }
    if exact_orders.is_empty() {
        return Err(refuse(format!(
            "no exact search on the games of \"{chosen}\": schedules fall back on it, so its cost is part of every prediction; add an experiment with schedules = \"exact\" (order random, and standard for plain DFS) on the same games, as in {EXAMPLE_TUNE}"
        )));
    }
    let mut games = Vec::with_capacity(per_game.len());
    let mut dropped = 0;
    for (game_index, (finished, trials)) in per_game {
        let random = exact.get(&("random", game_index));
        let standard = exact.get(&("standard", game_index));
        if random.is_none() && standard.is_none() {
            dropped += 1;
            continue;
        }
        games.push(TuneGame {
            game_index,
            rtd: GameRtd::new(finished, trials.len() as u32, cap),
            exact_random: random.map(|e| e.0),
            exact_standard: standard.map(|e| e.0),
            solvable: random.or(standard).map(|e| e.1),
        });
    }
    if games.is_empty() {
        return Err(refuse(format!(
            "none of the games of \"{chosen}\" (size {n}) has an exact row to price the fallback"
        )));
    }
    Ok(TuneInput {
        sweep: sweep.to_owned(),
        seed,
        n,
        experiment: chosen.to_owned(),
        order: order.to_owned(),
        attempts,
        cap,
        games,
        exact_orders: exact_orders.into_iter().collect(),
        dropped_games: dropped,
    })
}

fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let v: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    if v.is_empty() {
        "none".to_owned()
    } else {
        v.join(", ")
    }
}
