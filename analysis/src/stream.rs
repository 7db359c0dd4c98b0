//! The first pass over the rows: every accumulator whose size depends on the groups and
//! the games, not on the rows, fed part by part in reading order, so that no row is kept.
//!
//! Fed in reading order, the first row of a key wins exactly as it did when every row was
//! in memory: deduplication (runs of game indices per group), the schedules' meaning, the
//! per-game facts (pages, see `pages.rs`), the overview's sets and the counts. The figures
//! that pair rows of a game across configurations (Figures 7, 13, 14 to 16 and the
//! meta-solver) still read rows; this pass only notes which parts hold such rows, the
//! games they span and which of their rows were duplicates, so that a second pass
//! (`scan.rs`, `paired.rs`) re-reads those parts window by window of games.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use crate::load::{Names, Row};
use crate::pages::GamePages;
use crate::prepare::{
    ExactStandard, Facts, GameKey, GameRuns, Ids, OtherExact, Prepared, Unknowns,
};
use crate::runs::IndexRuns;

/// A set that skips the insert when the value repeats the previous one: a column such as
/// the order or the budget has a few values, mostly in runs.
#[derive(Debug, Default)]
pub struct Distinct<T> {
    pub set: BTreeSet<T>,
    last: Option<T>,
}

impl<T: Ord + Copy> Distinct<T> {
    pub fn insert(&mut self, v: T) {
        if self.last != Some(v) {
            self.set.insert(v);
            self.last = Some(v);
        }
    }
}

/// One (experiment, n) row of the dataset overview.
#[derive(Debug, Default)]
pub struct OverviewGroup {
    pub rows: u64,
    pub configs: Distinct<u32>,
    pub games: IndexRuns,
    /// The games with an exhaustive row.
    pub settled: IndexRuns,
    pub seeds: Distinct<i64>,
    pub orders: Distinct<u32>,
    pub schedules: Distinct<u32>,
    pub prefixes: Distinct<i32>,
    pub budgets: Distinct<i64>,
    pub trials: Distinct<i32>,
    pub exhaustive: u64,
}

/// A value per key, with the slot of the last key remembered: rows come in runs of one
/// key (a part is one experiment and one n).
#[derive(Debug)]
struct Keyed<K, V> {
    index: FxHashMap<K, usize>,
    values: Vec<(K, V)>,
    last: Option<(K, usize)>,
}

impl<K, V> Default for Keyed<K, V> {
    fn default() -> Self {
        Keyed {
            index: FxHashMap::default(),
            values: Vec::new(),
            last: None,
        }
    }
}

impl<K: std::hash::Hash + Eq + Copy, V: Default> Keyed<K, V> {
    fn get(&mut self, key: K) -> Option<&mut V> {
        let slot = match self.last {
            Some((k, slot)) if k == key => slot,
            _ => {
                let values = &mut self.values;
                let slot = *self.index.entry(key).or_insert_with(|| {
                    values.push((key, V::default()));
                    values.len() - 1
                });
                self.last = Some((key, slot));
                slot
            }
        };
        self.values.get_mut(slot).map(|(_, v)| v)
    }
}

/// A part holding rows of the figures that pair games, for the second pass.
#[derive(Debug, Default)]
pub struct PartNeed {
    /// The part's position in the dataset's part list.
    pub part: usize,
    /// Rows of Figure 7, 14 to 16 or the meta-solver.
    pub paired: u64,
    /// Rows Figure 13 may compare, as (n, rows) runs: kept when the n has two orders or
    /// more.
    pub fig13: Vec<(i32, u64)>,
    /// Positions (in the part's rows) of the duplicates the first pass dropped.
    pub dropped: Vec<u32>,
    /// The least and the greatest game of those rows: the second pass reads the part for
    /// the windows of games this range meets.
    pub span: Option<(GameKey, GameKey)>,
}

impl PartNeed {
    fn widen(&mut self, key: GameKey) {
        self.span = Some(match self.span {
            None => (key, key),
            Some((lo, hi)) => (lo.min(key), hi.max(key)),
        });
    }

    /// The rows the second pass may keep from this part (Figure 13's counted whatever
    /// their n).
    pub fn rows(&self) -> u64 {
        self.paired + self.fig13.iter().map(|(_, c)| c).sum::<u64>()
    }
}

/// Which rows the second pass keeps, and from which parts.
#[derive(Debug, Default)]
pub struct Plan {
    pub parts: Vec<PartNeed>,
    ids: Ids,
    complete: HashMap<u32, bool>,
    /// The sizes where Figure 13 compares two orders or more.
    fig13_sizes: BTreeSet<i32>,
    /// n -> the orders of Figure 13's rows.
    pub fig13_orders: BTreeMap<i32, BTreeSet<u32>>,
}

impl Plan {
    /// Whether Figure 7, 13, 14 to 16 or the meta-solver reads `row`: the union of their
    /// filters, so that they see the same rows, in the same order, as before.
    pub fn keeps(&self, r: &Row) -> bool {
        paired(r, &self.ids, &self.complete)
            || (fig13(r, &self.ids) && self.fig13_sizes.contains(&r.n))
    }

    /// How many rows the second pass keeps.
    pub fn rows(&self) -> u64 {
        let fig13 = |p: &PartNeed| -> u64 {
            p.fig13
                .iter()
                .filter(|(n, _)| self.fig13_sizes.contains(n))
                .map(|(_, c)| c)
                .sum()
        };
        self.parts.iter().map(|p| p.paired + fig13(p)).sum()
    }

    /// The parts to read again: those with rows to keep.
    pub fn needed(&self) -> impl Iterator<Item = &PartNeed> {
        self.parts
            .iter()
            .filter(|p| p.paired > 0 || p.fig13.iter().any(|(n, _)| self.fig13_sizes.contains(n)))
    }
}

fn complete_of(complete: &HashMap<u32, bool>, schedule: u32) -> bool {
    complete.get(&schedule).copied().unwrap_or(false)
}

/// Rows of Figure 7 (a random prefix), 14 to 16 (a budget) and the meta-solver.
fn paired(r: &Row, ids: &Ids, complete: &HashMap<u32, bool>) -> bool {
    r.budget > 0
        || (r.prefix >= 1 && r.budget == 0 && complete_of(complete, r.schedule))
        || (Some(r.schedule) == ids.paper && r.prefix == 0 && r.budget == 0)
}

/// Rows Figure 13 compares (when their n has two orders or more).
fn fig13(r: &Row, ids: &Ids) -> bool {
    Some(r.schedule) == ids.exact && r.prefix == 0 && r.budget == 0 && r.exhaustive && r.solvable
}

/// Wall time of each part of the pass, reported as stages.
#[derive(Debug, Default, Clone, Copy)]
pub struct Timing {
    pub deduplicate: Duration,
    pub prepare: Duration,
    pub overview: Duration,
    pub counts: Duration,
}

/// The first game that disagrees with the fact of its game: (game, the fact, the row's
/// minimum stone count, the row's config).
type Conflict = (GameKey, i32, i32, u32);

/// The accumulators of the first pass.
#[derive(Default)]
pub struct Stream {
    groups: Keyed<(u32, u32, u32, i32), IndexRuns>,
    duplicates: u64,
    rows: u64,
    ids: Ids,
    complete: HashMap<u32, bool>,
    facts: GamePages,
    expansions: GamePages,
    /// Games whose exact standard-order row says another minimum than their fact.
    exceptions: BTreeMap<GameKey, i32>,
    /// The sizes with an exact standard-order row.
    standard_sizes: BTreeSet<i32>,
    /// Per size, the (order, schedule) of the first exhaustive row of another exact
    /// configuration, and the expansions of its rows: the cost figures of a size that has
    /// no standard-order rows (the frontier sweeps run random order with restarts).
    other_cost: BTreeMap<i32, (u32, u32)>,
    other_expansions: GamePages,
    inexact: u64,
    /// Games of capped rows (a per-game limit stopped them), to their best proved lower
    /// bound: unknown unless another row settles them. Capped games are the rare hard
    /// ones, so a map of them stays small.
    capped: BTreeMap<GameKey, i32>,
    conflicts: u64,
    first_conflict: Option<Conflict>,
    overview: Keyed<(u32, i32), OverviewGroup>,
    games: Keyed<(i32, i64), IndexRuns>,
    sweeps: Distinct<u32>,
    experiments: Distinct<u32>,
    fig13_orders: BTreeMap<i32, BTreeSet<u32>>,
    /// The (n, order) last added to `fig13_orders`.
    fig13_last: Option<(i32, u32)>,
    /// The schedule of the last row and its meaning.
    last_schedule: Option<(u32, bool)>,
    parts: Vec<PartNeed>,
    pub timing: Timing,
}

impl Stream {
    /// Feeds the rows of part number `part` (ids of `names`), in reading order.
    pub fn add_part(&mut self, part: usize, rows: &[Row], names: &Names) {
        self.ids = Ids::of(names);
        let started = Instant::now();
        let mut need = PartNeed {
            part,
            ..PartNeed::default()
        };
        let live = self.dedupe(rows, &mut need.dropped);
        let deduped = Instant::now();
        for r in &live {
            self.prepare(r, &mut need);
        }
        let prepared = Instant::now();
        for r in &live {
            self.overview(r);
        }
        let overviewed = Instant::now();
        for r in &live {
            self.count(r);
        }
        let t = &mut self.timing;
        t.deduplicate += deduped - started;
        t.prepare += prepared - deduped;
        t.overview += overviewed - prepared;
        t.counts += overviewed.elapsed();
        if need.paired > 0 || !need.fig13.is_empty() {
            self.parts.push(need);
        }
    }

    /// The rows whose key (sweep, experiment, config, n, game_index) no earlier row has.
    /// A sweep writes one row per key, so a repeat means a part file was copied or written
    /// twice under two part ids; counting both would weigh those games double.
    fn dedupe<'r>(&mut self, rows: &'r [Row], dropped: &mut Vec<u32>) -> Vec<&'r Row> {
        let mut live = Vec::with_capacity(rows.len());
        for (at, r) in rows.iter().enumerate() {
            let key = (r.sweep, r.experiment, r.config, r.n);
            if self.groups.get(key).is_some_and(|g| g.insert(r.game_index)) {
                live.push(r);
            } else {
                self.duplicates += 1;
                dropped.push(u32::try_from(at).unwrap_or(u32::MAX));
            }
        }
        self.rows += live.len() as u64;
        live
    }

    /// The schedule's meaning, the per-game facts, and what the second pass needs.
    fn prepare(&mut self, r: &Row, need: &mut PartNeed) {
        let complete = match self.last_schedule {
            Some((schedule, complete)) if schedule == r.schedule => complete,
            _ => {
                let complete = *self
                    .complete
                    .entry(r.schedule)
                    .or_insert(r.schedule_complete);
                self.last_schedule = Some((r.schedule, complete));
                complete
            }
        };
        if paired(r, &self.ids, &self.complete) {
            need.paired += 1;
            need.widen(GameKey::of(r));
        } else if fig13(r, &self.ids) {
            need.widen(GameKey::of(r));
            match need.fig13.last_mut() {
                Some((n, rows)) if *n == r.n => *rows += 1,
                _ => need.fig13.push((r.n, 1)),
            }
            if self.fig13_last != Some((r.n, r.order)) {
                self.fig13_orders.entry(r.n).or_default().insert(r.order);
                self.fig13_last = Some((r.n, r.order));
            }
        }
        if r.prefix != 0 || r.budget != 0 || !complete {
            return;
        }
        let key = GameKey::of(r);
        if !r.exhaustive {
            if r.capped {
                // Every capped row's bound is proved: keep the best.
                let bound = self.capped.entry(key).or_insert(r.lower_bound);
                *bound = (*bound).max(r.lower_bound);
            } else {
                self.inexact += 1;
            }
            return;
        }
        let min = i64::from(r.min_stones);
        let old = self.facts.first(&key, min);
        if let Some(fact) = old
            && fact != min
        {
            self.conflicts += 1;
            if self.first_conflict.is_none() {
                let fact = i32::try_from(fact).unwrap_or(r.min_stones);
                self.first_conflict = Some((key, fact, r.min_stones, r.config));
            }
        }
        if Some(r.order) == self.ids.standard && Some(r.schedule) == self.ids.exact {
            self.standard_sizes.insert(r.n);
            if self.expansions.first(&key, r.expansions).is_none()
                && old.is_some_and(|fact| fact != min)
            {
                self.exceptions.insert(key, r.min_stones);
            }
        } else if !self.standard_sizes.contains(&r.n) {
            let chosen = *self.other_cost.entry(r.n).or_insert((r.order, r.schedule));
            if chosen == (r.order, r.schedule) {
                self.other_expansions.first(&key, r.expansions);
            }
        }
    }

    fn overview(&mut self, r: &Row) {
        let Some(g) = self.overview.get((r.experiment, r.n)) else {
            return;
        };
        g.rows += 1;
        g.configs.insert(r.config);
        g.games.insert(r.game_index);
        if r.exhaustive {
            g.settled.insert(r.game_index);
        }
        g.seeds.insert(r.seed);
        g.orders.insert(r.order);
        g.schedules.insert(r.schedule);
        g.prefixes.insert(r.prefix);
        g.budgets.insert(r.budget);
        g.trials.insert(r.trial);
        g.exhaustive += u64::from(r.exhaustive);
    }

    fn count(&mut self, r: &Row) {
        if let Some(runs) = self.games.get((r.n, r.seed)) {
            runs.insert(r.game_index);
        }
        self.sweeps.insert(r.sweep);
        self.experiments.insert(r.experiment);
    }

    /// The prepared facts (with no rows yet: the second pass adds them) and the plan of
    /// the second pass.
    pub fn finish(self, names: Names) -> (Prepared, Plan) {
        let ids = Ids::of(&names);
        let mut warnings = Vec::new();
        let duplicates = self.duplicates;
        if duplicates > 0 {
            warnings.push(format!(
                "{duplicates} row(s) repeat the key (sweep, experiment, config, n, game_index) \
                 of an earlier row, probably a part file copied or written twice; only the \
                 first of each is used"
            ));
        }
        if self.inexact > 0 {
            warnings.push(format!(
                "{} row(s) with prefix 0, no budget and a schedule that should end \
                 exact are marked not exhaustive; they are left out of the solvability sample",
                self.inexact
            ));
        }
        if let Some((key, fact, min, config)) = self.first_conflict {
            warnings.push(format!(
                "{} game(s) have exhaustive results that disagree, which points at a solver \
                 bug; for example n={} seed={} game_index={}: min_stones {} and {} \
                 (config {:?}); the first one read is used",
                self.conflicts,
                key.n,
                key.seed,
                key.game_index,
                fact,
                min,
                names.name(config),
            ));
        }
        // A capped game that some exhaustive row answers is not unknown.
        let mut unknowns: BTreeMap<i32, Unknowns> = BTreeMap::new();
        for (key, bound) in &self.capped {
            if self.facts.get(key).is_none() {
                let u = unknowns.entry(key.n).or_default();
                // Martello's goal is one stone: a bound above it proves the game
                // unsolvable.
                if *bound > 1 {
                    u.unsolvable += 1;
                } else {
                    u.open += 1;
                }
            }
        }
        let mut runs = GameRuns::new();
        for ((sweep, experiment, config, n), set) in self.groups.values {
            runs.entry((sweep, experiment))
                .or_default()
                .insert((config, n), set);
        }
        let fig13_sizes = self
            .fig13_orders
            .iter()
            .filter(|(_, orders)| orders.len() >= 2)
            .map(|(n, _)| *n)
            .collect();
        let plan = Plan {
            parts: self.parts,
            ids,
            complete: self.complete.clone(),
            fig13_sizes,
            fig13_orders: self.fig13_orders,
        };
        let prepared = Prepared {
            names,
            martello_rows: self.rows,
            ids,
            complete: self.complete,
            facts: Facts::new(self.facts),
            exact_standard: ExactStandard::new(self.expansions, self.exceptions),
            other_exact: OtherExact::new(
                self.other_expansions,
                self.other_cost,
                &self.standard_sizes,
            ),
            warnings,
            duplicates,
            runs,
            overview: self.overview.values.into_iter().collect(),
            games: self.games.values.iter().map(|(_, r)| r.len()).sum(),
            sweeps: self.sweeps.set,
            experiments: self.experiments.set,
            unknowns,
        };
        (prepared, plan)
    }
}
