//! The learned move order: successors ranked by how often moves with the same transition
//! were taken on solution paths, from a knowledge base learned on solved games.
//!
//! The transition hashes come from the puzzle's [`MoveFeatures`] ([`Puzzle::Features`]);
//! a knowledge base records their version, and an order whose knowledge base was learned
//! with other features is refused ([`crate::Order::check_learned`]). A move's score is the smoothed rate
//! `(taken + M * p) / (taken + untaken + M)` at the longest radius the knowledge base
//! knows the transition, where `p` is the rate of all transitions at that radius and
//! `M` is [`PRIOR_WEIGHT`]; a move the knowledge base never saw at any radius gets the
//! overall rate of radius 1. Ties keep the standard order; a temperature adds seeded
//! noise so that the attempts of a restart schedule differ.
//!
//! Knowledge bases are loaded once per process and kept in a registry, so that
//! [`crate::Order`] stays a small `Copy` value that names one by its index (the same
//! way the peg family shares its endgame tables process-wide). One received from a
//! coordinator is freed when the last sweep holding it ends ([`release`]), so that a
//! worker that stays up across many sweeps does not keep every sweep's tables.

mod kb;
mod rates;

use std::path::Path;
use std::sync::{Arc, RwLock};

use hammer_puzzle::{MoveFeatures, Puzzle, Successor};

pub use kb::{Counts, FORMAT_VERSION, Kb, KbError, KbProblem};

/// How many observations the prior rate weighs in the smoothed rate.
pub const PRIOR_WEIGHT: f64 = 4.0;

/// A loaded knowledge base with what names it.
#[derive(Debug)]
pub struct Loaded {
    /// The path the order names it by.
    pub path: String,
    /// The file's digest, as in the configuration id.
    pub digest: u128,
    /// The transition counts.
    pub kb: Kb,
    /// Installed from a coordinator's bytes ([`install`]) rather than read from disk: a
    /// sweep's `learned:PATH` on a worker then uses it and never opens PATH.
    pub received: bool,
    /// Per radius, the rate of all transitions: the prior of the smoothed rate.
    prior: Vec<f64>,
    /// The radius-1 rates, for [`Loaded::prefetch1`] and [`Loaded::rate1`].
    rates1: rates::Rates1,
}

impl Loaded {
    /// The smoothed success rate of a move whose transition hashes (radius 1, 2, ...)
    /// are `keys`, at the longest radius known (at most `keys.len()`).
    #[inline]
    pub fn rate(&self, keys: &[u64]) -> f64 {
        for r in (1..=keys.len().min(self.kb.radius())).rev() {
            if let Some(c) = self.kb.get(r, keys[r - 1]) {
                let p = self.prior[r - 1];
                let seen = c.taken as f64 + c.untaken as f64;
                return (c.taken as f64 + PRIOR_WEIGHT * p) / (seen + PRIOR_WEIGHT);
            }
        }
        self.prior.first().copied().unwrap_or(0.0)
    }

    /// Asks the processor to bring the radius-1 rates of `keys` into the cache: a large
    /// knowledge base misses it on every lookup, and prefetching a state's successors
    /// together, some work before reading them ([`Loaded::rate1`]), overlaps the misses.
    #[inline]
    pub fn prefetch1(&self, keys: &[u64]) {
        for &key in keys {
            self.rates1.prefetch(key);
        }
    }

    /// [`Loaded::rate`] of `[key]`, from a flat table.
    #[inline]
    pub fn rate1(&self, key: u64) -> f64 {
        self.rates1.get(key)
    }
}

/// A registry entry. A knowledge base installed from a coordinator's bytes is counted by
/// the sweeps that hold it, and freed when the last one releases it ([`release`]); the
/// index stays taken, so that indices in parsed orders never name another base.
struct Slot {
    loaded: Option<Arc<Loaded>>,
    holders: usize,
}

static REGISTRY: RwLock<Vec<Slot>> = RwLock::new(Vec::new());

/// Loads `path` into the registry and returns its index; a file already loaded with the
/// same digest reuses its entry. A knowledge base received from a coordinator under
/// `path` takes the place of the file.
pub fn load(path: &str) -> Result<u32, KbError> {
    if let Some(i) = REGISTRY
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .position(|s| {
            s.loaded
                .as_ref()
                .is_some_and(|l| l.received && l.path == path)
        })
    {
        return Ok(i as u32);
    }
    let (kb, digest) = Kb::read(Path::new(path))?;
    Ok(register(path, kb, digest, false))
}

/// Installs a knowledge base that a coordinator sent, under the path its sweep names,
/// after checking that the bytes have the digest the coordinator announced. Workers call
/// it before parsing the sweep, so that they need no copy of the file on their disk.
pub fn install(path: &str, bytes: &[u8], announced: u128) -> Result<u32, KbError> {
    let problem = |problem| KbError {
        path: path.to_owned(),
        problem,
    };
    let (kb, digest) = Kb::from_bytes(bytes).map_err(problem)?;
    if digest != announced {
        return Err(problem(KbProblem::Received {
            found: digest,
            announced,
        }));
    }
    Ok(register(path, kb, digest, true))
}

/// Releases one holder of the knowledge base installed under `path` with `digest` (a
/// sweep that ended); the last release frees it. Searches still running keep their own
/// reference until they end. Whether it was freed.
pub fn release(path: &str, digest: u128) -> bool {
    let mut reg = REGISTRY.write().unwrap_or_else(|e| e.into_inner());
    let Some(slot) = reg.iter_mut().find(|s| {
        s.loaded
            .as_ref()
            .is_some_and(|l| l.received && l.path == path && l.digest == digest)
    }) else {
        return false;
    };
    slot.holders = slot.holders.saturating_sub(1);
    if slot.holders == 0 {
        slot.loaded = None;
    }
    slot.loaded.is_none()
}

/// The bytes and digest of registry entry `index`, for a coordinator to send.
pub fn shipped(index: u32) -> Option<(String, u128, Vec<u8>)> {
    get(index).map(|l| (l.path.clone(), l.digest, l.kb.to_bytes()))
}

fn register(path: &str, kb: Kb, digest: u128, received: bool) -> u32 {
    let mut reg = REGISTRY.write().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = reg.iter().position(|s| {
        s.loaded
            .as_ref()
            .is_some_and(|l| l.digest == digest && l.path == path)
    }) {
        reg[i].holders += usize::from(received);
        return i as u32;
    }
    let prior: Vec<f64> = (1..=kb.radius())
        .map(|r| {
            let (_, t, u) = kb.stats(r);
            if t + u == 0 {
                0.0
            } else {
                t as f64 / (t + u) as f64
            }
        })
        .collect();
    let rates1 = match kb.tables.first() {
        Some(table) => rates::Rates1::new(table.iter(), prior[0]),
        None => rates::Rates1::new(std::iter::empty(), 0.0),
    };
    reg.push(Slot {
        loaded: Some(Arc::new(Loaded {
            path: path.to_owned(),
            digest,
            kb,
            received,
            prior,
            rates1,
        })),
        holders: usize::from(received),
    });
    reg.len() as u32 - 1
}

/// The knowledge base of a registry index that [`load`] returned.
pub fn get(index: u32) -> Option<Arc<Loaded>> {
    let reg = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
    reg.get(index as usize).and_then(|s| s.loaded.clone())
}

/// Counts transitions on solution paths: the learning half of `hammer learn`.
pub struct Learner {
    kb: Kb,
    keys: Vec<u64>,
}

/// A solution that does not replay.
#[derive(Debug, thiserror::Error)]
#[error("move {index} of the solution is not legal there")]
pub struct ReplayError {
    /// The move's place in the solution, from 0.
    pub index: usize,
}

impl Learner {
    /// A learner for `n`x`n` boards that keeps transitions up to `radius`, keyed by features of `feature_version`.
    pub fn new(n: u8, radius: usize, feature_version: u32) -> Learner {
        Learner {
            kb: Kb::new(n, radius, feature_version),
            keys: Vec::new(),
        }
    }

    /// Replays `solution` from `start`. At each state, the transition of the move taken
    /// counts as taken and those of the other legal moves as not taken. Moves that give
    /// the same state as the one taken (a stone eaten by either row neighbour) are
    /// the same successor, so the standard listing (one move per state) is used.
    pub fn game<P: Puzzle>(
        &mut self,
        puzzle: &P,
        start: &P::State,
        solution: &[P::Move],
    ) -> Result<(), ReplayError> {
        let radius = self.kb.radius();
        let mut state = *start;
        let mut list = Vec::new();
        let mut succ = Vec::new();
        let mut features = P::Features::default();
        for (index, &mv) in solution.iter().enumerate() {
            puzzle.moves(&state, &mut list);
            let next = puzzle.apply(&state, mv);
            let taken = list
                .iter()
                .position(|&m| m == mv || puzzle.apply(&state, m) == next)
                .ok_or(ReplayError { index })?;
            succ.clear();
            succ.extend(list.iter().map(|&mv| Successor {
                mv,
                bound: 0,
                fp: 0,
            }));
            features.of_state(puzzle, &state);
            if !features.transition_keys(puzzle, &state, &succ, radius, &mut self.keys) {
                return Ok(());
            }
            for (i, keys) in self.keys.chunks_exact(radius).enumerate() {
                for (r, &key) in keys.iter().enumerate() {
                    let c = self.kb.tables[r].entry(key).or_default();
                    if i == taken {
                        c.taken = c.taken.saturating_add(1);
                    } else {
                        c.untaken = c.untaken.saturating_add(1);
                    }
                }
            }
            state = next;
        }
        self.kb.games += 1;
        Ok(())
    }

    /// The knowledge base learned so far.
    pub fn finish(self) -> Kb {
        self.kb
    }
}

#[cfg(test)]
mod tests;
