//! The facts every figure shares: which rows are duplicates, which games have an exact
//! answer, and how long the plain exact search took on each.
//!
//! Experiment names are free text, so nothing here looks at them: what a row is good for
//! follows from its columns (prefix, budget, order, schedule, exhaustive).

use std::collections::{BTreeMap, HashMap};

use crate::gamemap::GameMap;
use crate::load::{Data, Row};
use crate::runs::IndexRuns;

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

/// How many distinct games (n, seed, game_index) the rows hold, counted with runs of game
/// indices per (n, seed) instead of a set of every game.
pub fn distinct_games(rows: &[Row]) -> u64 {
    let mut games: BTreeMap<(i32, i64), IndexRuns> = BTreeMap::new();
    let mut last: Option<((i32, i64), IndexRuns)> = None;
    for r in rows {
        let key = (r.n, r.seed);
        match &mut last {
            Some((k, runs)) if *k == key => {
                runs.insert(r.game_index);
            }
            _ => {
                if let Some((k, runs)) = last.take() {
                    games.insert(k, runs);
                }
                let mut runs = games.remove(&key).unwrap_or_default();
                runs.insert(r.game_index);
                last = Some((key, runs));
            }
        }
    }
    if let Some((k, runs)) = last {
        games.insert(k, runs);
    }
    games.values().map(IndexRuns::len).sum()
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

/// What [`dedupe`] found.
#[derive(Debug, Default)]
pub struct Deduped {
    /// Rows removed.
    pub duplicates: u64,
    /// The game indices of every (sweep, experiment, config, n) group, which is also what
    /// the completeness check needs.
    pub runs: GameRuns,
}

/// Removes rows whose key (sweep, experiment, config, n, game_index) an earlier row
/// already has, in place.
///
/// A sweep writes one row per key, so a repeat means a part file was copied or written
/// twice under two part ids; counting both would weigh those games double. Done in place
/// because the rows are the bulk of the memory an analysis needs, and with runs of game
/// indices per group rather than a set of every key (see `runs.rs`).
pub fn dedupe(rows: &mut Vec<Row>) -> Deduped {
    let before = rows.len();
    let mut index: HashMap<(u32, u32, u32, i32), usize> = HashMap::new();
    let mut groups: Vec<((u32, u32, u32, i32), IndexRuns)> = Vec::new();
    let mut last: Option<((u32, u32, u32, i32), usize)> = None;
    rows.retain(|r| {
        let key = (r.sweep, r.experiment, r.config, r.n);
        let slot = match last {
            Some((k, slot)) if k == key => slot,
            _ => {
                let slot = *index.entry(key).or_insert_with(|| {
                    groups.push((key, IndexRuns::default()));
                    groups.len() - 1
                });
                last = Some((key, slot));
                slot
            }
        };
        groups
            .get_mut(slot)
            .is_some_and(|(_, runs)| runs.insert(r.game_index))
    });
    let mut runs = GameRuns::new();
    for ((sweep, experiment, config, n), set) in groups {
        runs.entry((sweep, experiment))
            .or_default()
            .insert((config, n), set);
    }
    Deduped {
        duplicates: (before - rows.len()) as u64,
        runs,
    }
}

/// Ids of the order and schedule names the figures look for (absent when no row has them).
#[derive(Debug, Clone, Copy, Default)]
pub struct Ids {
    pub standard: Option<u32>,
    pub exact: Option<u32>,
    pub paper: Option<u32>,
}

/// Deduplicated rows and per-game facts.
pub struct Prepared<'a> {
    pub data: &'a Data,
    /// Rows with their duplicate keys removed (see [`dedupe`]).
    pub rows: &'a [Row],
    pub ids: Ids,
    /// Schedule id -> whether it always ends exact.
    pub complete: HashMap<u32, bool>,
    /// Exact prefix-0 result of every game in the solvability sample.
    pub facts: GameMap<Fact>,
    /// Expansions of the exact standard-order search of a game (prefix 0).
    pub exact_standard: GameMap<(i64, i32)>,
    pub warnings: Vec<String>,
    pub duplicates: u64,
    /// The game indices of every group (see [`dedupe`]).
    pub runs: GameRuns,
}

impl<'a> Prepared<'a> {
    /// `data` must have been through [`dedupe`], which returned `deduped`.
    pub fn new(data: &'a Data, deduped: Deduped) -> Prepared<'a> {
        let Deduped { duplicates, runs } = deduped;
        let mut warnings = Vec::new();
        let rows = data.rows.as_slice();
        if duplicates > 0 {
            warnings.push(format!(
                "{duplicates} row(s) repeat the key (sweep, experiment, config, n, game_index) \
                 of an earlier row, probably a part file copied or written twice; only the \
                 first of each is used"
            ));
        }
        let names = &data.names;
        let ids = Ids {
            standard: names.find("standard"),
            exact: names.find("exact"),
            paper: names.find("paper"),
        };
        let mut complete = HashMap::new();
        for row in rows {
            complete
                .entry(row.schedule)
                .or_insert(row.schedule_complete);
        }

        let mut facts = Vec::new();
        let mut exact_standard = Vec::new();
        let mut inexact = 0u64;
        for (at, row) in rows.iter().enumerate() {
            if row.prefix != 0 || row.budget != 0 {
                continue;
            }
            if !complete.get(&row.schedule).copied().unwrap_or(false) {
                continue;
            }
            if !row.exhaustive {
                inexact += 1;
                continue;
            }
            let key = GameKey::of(row);
            let at = u32::try_from(at).unwrap_or(u32::MAX);
            facts.push((
                key,
                at,
                Fact {
                    min_stones: row.min_stones,
                },
            ));
            if Some(row.order) == ids.standard && Some(row.schedule) == ids.exact {
                exact_standard.push((key, at, (row.expansions, row.min_stones)));
            }
        }
        let (facts, conflicts) = GameMap::first_read(facts, |a, b| a != b);
        let (exact_standard, _) = GameMap::first_read(exact_standard, |_, _| false);
        if inexact > 0 {
            warnings.push(format!(
                "{inexact} row(s) with prefix 0, no budget and a schedule that should end \
                 exact are marked not exhaustive; they are left out of the solvability sample"
            ));
        }
        let example = conflicts
            .first
            .and_then(|at| rows.get(at as usize))
            .and_then(|row| {
                let key = GameKey::of(row);
                facts.get(&key).map(|fact| (key, *fact, row))
            });
        if let Some((key, fact, row)) = example {
            warnings.push(format!(
                "{} game(s) have exhaustive results that disagree, which points at a solver \
                 bug; for example n={} seed={} game_index={}: min_stones {} and {} \
                 (config {:?}); the first one read is used",
                conflicts.count,
                key.n,
                key.seed,
                key.game_index,
                fact.min_stones,
                row.min_stones,
                names.name(row.config),
            ));
        }
        Prepared {
            data,
            rows,
            ids,
            complete,
            facts,
            exact_standard,
            warnings,
            duplicates,
            runs,
        }
    }

    pub fn name(&self, id: u32) -> &str {
        self.data.names.name(id)
    }

    pub fn is_complete(&self, schedule: u32) -> bool {
        self.complete.get(&schedule).copied().unwrap_or(false)
    }
}
