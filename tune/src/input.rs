//! From dataset rows to the tuner's input: per game, the run-time distribution of its
//! capped random attempts and the cost of the exact searches a schedule can fall back on.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::model::GameRtd;
use crate::{Error, Result};
use hammer_analysis::RowSource;
use hammer_solver::ScheduleKind;

/// The example sweep that makes tuning data, named in errors.
pub const EXAMPLE_TUNE: &str = "examples/tune_rtd.toml";

/// One game of the tuning set.
#[derive(Debug, Clone)]
pub struct TuneGame {
    pub game_index: i64,
    pub rtd: GameRtd,
    /// Expansions of the exact search in the tuning order (the fallback of a tuned list,
    /// whose final unlimited attempt keeps the list's order), or in the random order when
    /// the tuning order has no exact rows.
    pub exact_tuned: Option<f64>,
    /// Expansions of the exact search in the standard order: plain DFS, and the fallback
    /// of `paper`.
    pub exact_standard: Option<f64>,
    /// From the exact rows; `None` when the game has none.
    pub solvable: Option<bool>,
}

impl TuneGame {
    /// The fallback cost of a schedule whose unlimited attempt runs in the tuning order,
    /// standing in the standard order's when only that was measured.
    pub fn fallback_tuned(&self) -> f64 {
        self.exact_tuned.or(self.exact_standard).unwrap_or(f64::NAN)
    }

    pub fn fallback_standard(&self) -> f64 {
        self.exact_standard.or(self.exact_tuned).unwrap_or(f64::NAN)
    }
}

/// Everything the tuner reads from a dataset.
#[derive(Debug, Clone)]
pub struct TuneInput {
    /// The tuning sweep's name.
    pub sweep: String,
    /// The tuning sweep's seed, which validation must not reuse.
    pub seed: i64,
    /// The board size tuned for.
    pub n: i32,
    /// The run-time experiment read.
    pub experiment: String,
    /// The move order of its attempts, which the tuned schedule is for.
    pub order: String,
    /// Attempts per game.
    pub attempts: u32,
    /// The expansion cap of each attempt, beyond which nothing is measured.
    pub cap: u64,
    /// The tuning games.
    pub games: Vec<TuneGame>,
    /// The orders of the exact searches found on the tuning games (`"random"`,
    /// `"standard"`, the tuning order's name).
    pub exact_orders: Vec<String>,
    /// Games of the run-time experiment left out because they had no exact row.
    pub dropped_games: usize,
}

impl TuneInput {
    /// Whether the tuned lists' fallback was priced with the exact search in the tuning
    /// order itself (else the random order's, or the standard order's, stands in).
    pub fn exact_in_tuning_order(&self) -> bool {
        self.exact_orders.contains(&self.order)
    }
}

/// What the first visit of the rows finds: the experiments with capped attempts (budget
/// rows without prefix), by id, with their trials and sizes.
#[derive(Default)]
struct Candidates {
    trials: BTreeMap<u32, BTreeSet<i32>>,
    sizes: BTreeMap<u32, BTreeSet<i32>>,
}

/// The run-time experiment's rows of one size, and the exact rows of that size.
#[derive(Default)]
struct Gathered {
    caps: BTreeSet<i64>,
    orders: BTreeSet<u32>,
    seeds: BTreeSet<i64>,
    sweeps: BTreeSet<u32>,
    /// Per game: finished lengths and the trials seen.
    per_game: BTreeMap<i64, (Vec<u64>, BTreeSet<i32>)>,
    /// (seed, order, game) -> (expansions, solvable) of the exact searches.
    exact: HashMap<(i64, u32, i64), (f64, bool)>,
}

/// Finds the run-time experiment (one with `budget > 0`, no prefix and several trials;
/// `experiment` picks one by name when there are several) and the exact rows on the same
/// games, for board size `n` (default: the largest size of that experiment). Visits the
/// rows twice (the experiment and size first, then their rows), keeping a few numbers per
/// game, not the rows.
pub fn collect(rows: RowSource, experiment: Option<&str>, n: Option<i32>) -> Result<TuneInput> {
    let refuse = |reason: String| Error::Refused {
        path: rows.dir().to_owned(),
        reason,
    };
    let mut found = Candidates::default();
    let names = rows.visit(&mut |_, r| {
        if r.budget > 0 && r.prefix == 0 {
            found
                .trials
                .entry(r.experiment)
                .or_default()
                .insert(r.trial);
            found.sizes.entry(r.experiment).or_default().insert(r.n);
        }
    })?;
    let candidates: BTreeMap<&str, u32> = found
        .trials
        .keys()
        .map(|&id| (names.name(id), id))
        .collect();
    let chosen = choose_experiment(&candidates, &found.trials, experiment, &refuse)?;
    let experiment_id = candidates
        .get(chosen)
        .copied()
        .ok_or_else(|| refuse(format!("experiment \"{chosen}\" has no rows")))?;
    let sizes = found.sizes.remove(&experiment_id).unwrap_or_default();
    let n = choose_size(chosen, &sizes, n, &refuse)?;
    let g = gather(rows, experiment_id, n)?;
    let label = |ids: &BTreeSet<u32>| list(ids.iter().map(|&id| names.name(id)));
    if g.caps.len() != 1 || g.orders.len() != 1 || g.seeds.len() != 1 || g.sweeps.len() != 1 {
        return Err(refuse(format!(
            "experiment \"{chosen}\" mixes caps ({}), orders ({}), seeds ({}) or sweeps ({}); a run-time experiment has one of each",
            list(g.caps.iter()),
            label(&g.orders),
            list(g.seeds.iter()),
            label(&g.sweeps)
        )));
    }
    let (Some(&cap), Some(&order), Some(&seed), Some(&sweep)) = (
        g.caps.first(),
        g.orders.first(),
        g.seeds.first(),
        g.sweeps.first(),
    ) else {
        return Err(refuse(format!("experiment \"{chosen}\" has no rows")));
    };
    let cap = cap as u64;
    let attempts = g
        .per_game
        .values()
        .map(|(_, t)| t.len() as u32)
        .max()
        .unwrap_or(0);
    let exact_ids: BTreeSet<u32> = g
        .exact
        .keys()
        .filter(|(s, _, _)| *s == seed)
        .map(|(_, o, _)| *o)
        .collect();
    let id_of = |name: &str| exact_ids.iter().copied().find(|&id| names.name(id) == name);
    let exact_orders: BTreeSet<&str> = exact_ids.iter().map(|&id| names.name(id)).collect();
    // The tuned lists fall back on an exact search in the tuning order; the random
    // order's stands in when only that was measured (the same order when tuning random).
    let exact_in_tuning_order = exact_ids.contains(&order);
    let tuned_id = if exact_in_tuning_order {
        Some(order)
    } else {
        id_of("random")
    };
    let standard_id = id_of("standard");
    if exact_orders.is_empty() {
        return Err(refuse(format!(
            "no exact search on the games of \"{chosen}\": schedules fall back on it, so its cost is part of every prediction; add an experiment with schedules = \"exact\" (in the run-time experiment's order, and standard for plain DFS) on the same games, as in {EXAMPLE_TUNE}"
        )));
    }
    let mut games = Vec::with_capacity(g.per_game.len());
    let mut dropped = 0;
    for (game_index, (finished, trials)) in g.per_game {
        let tuned = tuned_id.and_then(|o| g.exact.get(&(seed, o, game_index)));
        let standard = standard_id.and_then(|o| g.exact.get(&(seed, o, game_index)));
        if tuned.is_none() && standard.is_none() {
            dropped += 1;
            continue;
        }
        games.push(TuneGame {
            game_index,
            rtd: GameRtd::new(finished, trials.len() as u32, cap),
            exact_tuned: tuned.map(|e| e.0),
            exact_standard: standard.map(|e| e.0),
            solvable: tuned.or(standard).map(|e| e.1),
        });
    }
    if games.is_empty() {
        return Err(refuse(format!(
            "none of the games of \"{chosen}\" (size {n}) has an exact row to price the fallback"
        )));
    }
    Ok(TuneInput {
        sweep: names.name(sweep).to_owned(),
        seed,
        n,
        experiment: chosen.to_owned(),
        order: names.name(order).to_owned(),
        attempts,
        cap,
        games,
        exact_orders: exact_orders.into_iter().map(str::to_owned).collect(),
        dropped_games: dropped,
    })
}

/// The run-time experiment to tune: the one named, or the only one with several
/// attempts per game.
fn choose_experiment<'a>(
    candidates: &BTreeMap<&'a str, u32>,
    trials: &BTreeMap<u32, BTreeSet<i32>>,
    experiment: Option<&'a str>,
    refuse: &dyn Fn(String) -> Error,
) -> Result<&'a str> {
    Ok(match experiment {
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
                .filter(|(_, id)| trials.get(id).is_some_and(|t| t.len() > 1))
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
    })
}

/// The size to tune: the one asked for, or the experiment's largest.
fn choose_size(
    chosen: &str,
    sizes: &BTreeSet<i32>,
    n: Option<i32>,
    refuse: &dyn Fn(String) -> Error,
) -> Result<i32> {
    Ok(match n {
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
    })
}

/// The second visit: the run-time experiment's rows of size `n` (per game, the lengths
/// of the finished attempts; a trial seen twice is counted once), and the exact rows of
/// that size (schedule "exact", no prefix, first trial), of every seed until the
/// experiment's is known.
fn gather(rows: RowSource, experiment: u32, n: i32) -> Result<Gathered> {
    let mut g = Gathered::default();
    rows.visit(&mut |names, r| {
        if r.n != n || r.prefix != 0 {
            return;
        }
        if r.experiment == experiment && r.budget > 0 {
            g.caps.insert(r.budget);
            g.orders.insert(r.order);
            g.seeds.insert(r.seed);
            g.sweeps.insert(r.sweep);
            let entry = g.per_game.entry(r.game_index).or_default();
            if entry.1.insert(r.trial) && r.exhaustive {
                entry.0.push(r.expansions.max(0) as u64);
            }
        } else if r.trial == 0
            && r.budget == 0
            && r.exhaustive
            && ScheduleKind::of_name(names.name(r.schedule)) == Some(ScheduleKind::Exact)
        {
            g.exact.insert(
                (r.seed, r.order, r.game_index),
                (r.expansions as f64, r.solvable),
            );
        }
    })?;
    Ok(g)
}

fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let v: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    if v.is_empty() {
        "none".to_owned()
    } else {
        v.join(", ")
    }
}
