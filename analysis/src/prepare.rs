//! The facts every figure shares: which rows are duplicates, which games have an exact
//! answer, and how long the plain exact search took on each.
//!
//! Experiment names are free text, so nothing here looks at them: what a row is good for
//! follows from its columns (prefix, budget, order, schedule, exhaustive).

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::load::{Data, Row};

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

/// Removes rows whose key (sweep, experiment, config, n, game_index) an earlier row
/// already has, in place, and returns how many were removed.
///
/// A sweep writes one row per key, so a repeat means a part file was copied or written
/// twice under two part ids; counting both would weigh those games double. Done in place
/// because the rows are the bulk of the memory an analysis needs.
pub fn dedupe(rows: &mut Vec<Row>) -> u64 {
    let before = rows.len();
    let mut seen = HashSet::with_capacity(rows.len());
    rows.retain(|r| seen.insert((r.sweep, r.experiment, r.config, r.n, r.game_index)));
    (before - rows.len()) as u64
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
    pub facts: BTreeMap<GameKey, Fact>,
    /// Expansions of the exact standard-order search of a game (prefix 0).
    pub exact_standard: BTreeMap<GameKey, (i64, i32)>,
    pub warnings: Vec<String>,
    pub duplicates: u64,
}

impl<'a> Prepared<'a> {
    /// `data` must have been through [`dedupe`]; `duplicates` is what it returned.
    pub fn new(data: &'a Data, duplicates: u64) -> Prepared<'a> {
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

        let mut facts: BTreeMap<GameKey, Fact> = BTreeMap::new();
        let mut exact_standard = BTreeMap::new();
        let mut inexact = 0u64;
        let mut conflicts = Vec::new();
        for row in rows {
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
            match facts.get(&key) {
                Some(f) if f.min_stones != row.min_stones => conflicts.push((key, *f, *row)),
                Some(_) => {}
                None => {
                    facts.insert(
                        key,
                        Fact {
                            min_stones: row.min_stones,
                        },
                    );
                }
            }
            if Some(row.order) == ids.standard && Some(row.schedule) == ids.exact {
                exact_standard
                    .entry(key)
                    .or_insert((row.expansions, row.min_stones));
            }
        }
        if inexact > 0 {
            warnings.push(format!(
                "{inexact} row(s) with prefix 0, no budget and a schedule that should end \
                 exact are marked not exhaustive; they are left out of the solvability sample"
            ));
        }
        if let Some((key, fact, row)) = conflicts.first() {
            warnings.push(format!(
                "{} game(s) have exhaustive results that disagree, which points at a solver \
                 bug; for example n={} seed={} game_index={}: min_stones {} and {} \
                 (config {:?}); the first one read is used",
                conflicts.len(),
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
        }
    }

    pub fn name(&self, id: u32) -> &str {
        self.data.names.name(id)
    }

    pub fn is_complete(&self, schedule: u32) -> bool {
        self.complete.get(&schedule).copied().unwrap_or(false)
    }
}
