//! The facts every figure shares: which rows are duplicates, which games have an exact
//! answer, and how long the plain exact search took on each.
//!
//! Experiment names are free text, so nothing here looks at them: what a row is good for
//! follows from its columns (prefix, budget, order, schedule, exhaustive). The facts are
//! accumulated row by row in `stream.rs`; this holds what that pass leaves.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use hammer_solver::{OrderKind, ScheduleKind};

use crate::load::{Names, Row};
use crate::pages::GamePages;
use crate::runs::IndexRuns;
use crate::stream::OverviewGroup;

/// A game: the board is a pure function of (seed, n, game_index), so rows of different
/// experiments (or sweeps with the same seed) with this key played the same board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameKey {
    pub n: i32,
    pub seed: i64,
    pub game_index: i64,
}

impl GameKey {
    pub fn of(row: &Row) -> GameKey {
        GameKey {
            n: row.n,
            seed: row.seed,
            game_index: row.game_index,
        }
    }
}

/// The exact minimum stone count of a game's start position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fact {
    pub min_stones: i32,
}

impl Fact {
    pub fn solvable(self) -> bool {
        self.min_stones == 1
    }
}

/// (sweep, experiment) -> (config, n) -> the game indices present.
pub type GameRuns = BTreeMap<(u32, u32), BTreeMap<(u32, i32), IndexRuns>>;

/// Ids of the orders and schedules the figures look for, by the solver's kinds: the
/// standard order, the exact schedule and the report's meta-solver (absent when no row
/// has them).
#[derive(Debug, Clone, Copy, Default)]
pub struct Ids {
    pub standard: Option<u32>,
    pub exact: Option<u32>,
    pub paper: Option<u32>,
}

impl Ids {
    pub fn of(names: &Names) -> Ids {
        let order = |kind| names.first(|name| OrderKind::of_name(name) == Some(kind));
        let schedule = |kind| names.first(|name| ScheduleKind::of_name(name) == Some(kind));
        Ids {
            standard: order(OrderKind::Standard),
            exact: schedule(ScheduleKind::Exact),
            paper: schedule(ScheduleKind::Paper),
        }
    }
}

fn narrow(v: i64) -> i32 {
    i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX })
}

/// The exact prefix-0 result of every game in the solvability sample: the first
/// exhaustive row read of the game, with prefix 0, no budget and a schedule that ends
/// exact.
#[derive(Debug, Default)]
pub struct Facts {
    min_stones: GamePages,
}

impl Facts {
    pub fn new(min_stones: GamePages) -> Facts {
        Facts { min_stones }
    }

    pub fn get(&self, key: &GameKey) -> Option<Fact> {
        self.min_stones.get(key).map(|m| Fact {
            min_stones: narrow(m),
        })
    }

    pub fn contains_key(&self, key: &GameKey) -> bool {
        self.get(key).is_some()
    }

    pub fn len(&self) -> u64 {
        self.min_stones.len()
    }

    pub fn is_empty(&self) -> bool {
        self.min_stones.is_empty()
    }

    /// The games and their facts, in game order.
    pub fn iter(&self) -> impl Iterator<Item = (GameKey, Fact)> + '_ {
        self.min_stones.iter().map(|(k, m)| {
            (
                k,
                Fact {
                    min_stones: narrow(m),
                },
            )
        })
    }
}

/// The expansions of the first exact standard-order row of a game (prefix 0, no budget);
/// its minimum stone count is the game's fact unless the two rows disagree, which only a
/// solver bug makes (`exceptions`).
#[derive(Debug, Default)]
pub struct ExactStandard {
    expansions: GamePages,
    exceptions: BTreeMap<GameKey, i32>,
}

impl ExactStandard {
    pub fn new(expansions: GamePages, exceptions: BTreeMap<GameKey, i32>) -> ExactStandard {
        ExactStandard {
            expansions,
            exceptions,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.expansions.is_empty()
    }

    fn min_stones(&self, key: &GameKey, facts: &Facts) -> i32 {
        match self.exceptions.get(key) {
            Some(&m) => m,
            None => facts.get(key).map_or(0, |f| f.min_stones),
        }
    }
}

/// The cost of exact search for the sizes that have no exact standard-order rows: per
/// size, the expansions of the first other exact configuration read (order, schedule),
/// one value per game. The frontier sweeps (7x7, 8x8) run random order with restarts, and
/// their cost distribution is the one there is; a size with standard-order rows keeps
/// those, which the report's Figures 11 and 12 are about.
#[derive(Debug, Default)]
pub struct OtherExact {
    expansions: GamePages,
    /// Size -> (order, schedule), only for sizes without standard-order rows.
    configs: BTreeMap<i32, (u32, u32)>,
}

impl OtherExact {
    pub fn new(
        expansions: GamePages,
        mut configs: BTreeMap<i32, (u32, u32)>,
        standard_sizes: &BTreeSet<i32>,
    ) -> OtherExact {
        configs.retain(|n, _| !standard_sizes.contains(n));
        OtherExact {
            expansions,
            configs,
        }
    }
}

/// The facts of every row, from the first pass (the figures that pair games get theirs
/// from the second, `paired.rs`).
pub struct Prepared {
    pub names: Names,
    /// Martello rows after deduplication.
    pub martello_rows: u64,
    pub ids: Ids,
    /// Schedule id -> whether it always ends exact.
    pub complete: HashMap<u32, bool>,
    /// Exact prefix-0 result of every game in the solvability sample.
    pub facts: Facts,
    /// Expansions of the exact standard-order search of a game (prefix 0).
    pub exact_standard: ExactStandard,
    /// Expansions of another exact configuration, for sizes without standard-order rows.
    pub other_exact: OtherExact,
    pub warnings: Vec<String>,
    pub duplicates: u64,
    /// The game indices of every group.
    pub runs: GameRuns,
    /// (experiment, n) -> the overview's accumulators.
    pub overview: BTreeMap<(u32, i32), OverviewGroup>,
    /// Distinct games (n, seed, game_index).
    pub games: u64,
    pub sweeps: BTreeSet<u32>,
    pub experiments: BTreeSet<u32>,
    /// Per n, the games a per-game limit left unknown: capped rows (prefix 0, no budget)
    /// of games that no row of any experiment settled.
    pub unknowns: BTreeMap<i32, Unknowns>,
}

/// Games a per-game limit stopped before their answer was proven, and that no other row
/// answers: they are neither in the solvability sample nor dropped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unknowns {
    /// Games whose proved bound still allows one stone: solvable or not, nobody knows.
    pub open: u64,
    /// Games whose proved lower bound is above one stone: unsolvable, with a minimum
    /// stone count that is not known.
    pub unsolvable: u64,
}

impl Unknowns {
    pub fn total(&self) -> u64 {
        self.open + self.unsolvable
    }
}

impl Prepared {
    pub fn name(&self, id: u32) -> &str {
        self.names.name(id)
    }

    pub fn is_complete(&self, schedule: u32) -> bool {
        self.complete.get(&schedule).copied().unwrap_or(false)
    }

    /// The exact standard-order search of a game: (expansions, minimum stone count).
    pub fn exact(&self, key: &GameKey) -> Option<(i64, i32)> {
        let expansions = self.exact_standard.expansions.get(key)?;
        Some((expansions, self.exact_standard.min_stones(key, &self.facts)))
    }

    /// The (order, schedule) whose exact search is the cost of games of size `n` in
    /// Figures 11 and 12: `standard/exact`, or for a size without it, the configuration
    /// of [`OtherExact`].
    pub fn cost_config(&self, n: i32) -> String {
        match self.other_exact.configs.get(&n) {
            Some(&(order, schedule)) => format!("{}/{}", self.name(order), self.name(schedule)),
            None => "standard/exact".to_string(),
        }
    }

    /// Whether any game has a cost for Figures 11 and 12.
    pub fn has_costs(&self) -> bool {
        !self.exact_standard.is_empty() || !self.other_exact.configs.is_empty()
    }

    /// The games of [`Prepared::exact_games`], then those of the sizes without
    /// standard-order rows with the expansions of their [`OtherExact`] configuration.
    pub fn cost_games(&self) -> impl Iterator<Item = (GameKey, (i64, i32))> + '_ {
        let configs = &self.other_exact.configs;
        let others = self
            .other_exact
            .expansions
            .zip(&self.facts.min_stones)
            .filter(move |(key, _, _)| configs.contains_key(&key.n))
            .map(|(key, e, fact)| (key, (e, fact.map_or(0, narrow))));
        self.exact_games().chain(others)
    }

    /// Every game with an exact standard-order search, in game order, with its
    /// (expansions, minimum stone count).
    #[inline]
    pub fn exact_games(&self) -> impl Iterator<Item = (GameKey, (i64, i32))> + '_ {
        let exceptions = &self.exact_standard.exceptions;
        self.exact_standard
            .expansions
            .zip(&self.facts.min_stones)
            .map(move |(key, e, fact)| {
                // Every game here has a fact; an exception only where the rows disagree.
                let exception = match exceptions.is_empty() {
                    true => None,
                    false => exceptions.get(&key).copied(),
                };
                (
                    key,
                    (e, exception.unwrap_or_else(|| fact.map_or(0, narrow))),
                )
            })
    }
}
