//! Sweep files: what a hammer run plays, and how it is cut into work units.
//!
//! A sweep is a TOML file (format in `docs/sweep-format.md`) naming a seed and a list of
//! experiments; each experiment crosses board sizes and game ranges with solver settings.
//! The coordinator and every worker parse the same text, so everything here is a pure
//! function of that text: the configurations, their ids, the units and the unit ids never
//! depend on the machine, the time or the number of workers, and a unit that is re-run
//! anywhere rewrites the same dataset part.
//!
//! Validation is strict and happens before anything runs: a typo found after an
//! hour-long sweep costs the hour, so unknown keys, duplicates and values out of range
//! are refused with the file, line, column and key path.

mod canonical;
mod continuation;
mod error;
mod experiment;
mod parse;
mod rows;
mod solvers;
mod units;

use std::path::{Path, PathBuf};

use hammer_family::{FamilyRef, ParamValue, Point};
use hammer_solver::{Config, Limits, Order, Schedule};

pub use canonical::ConfigIdError;
pub use continuation::{Continuation, ContinuationError, UnknownGames};
pub use error::SweepError;
pub use hammer_family::{cells_from_wire, cells_to_wire};
/// The per-game limit that stopped a game, as results and rows carry it.
pub use hammer_solver::Cap;
pub use rows::{UnitRows, game_row};
pub use units::{DEFAULT_UNIT_SECONDS, MAX_UNIT_GAMES};

/// The most result rows (configurations x sizes x games, over all experiments) a sweep
/// may ask for. 10^10 rows is already months of CPU and terabytes of Parquet; a larger
/// number is almost certainly a slip such as a missing digit separator.
pub const MAX_ROWS: u64 = 10_000_000_000;

/// The most work units a sweep may have: `units()` materialises them all, and every unit
/// becomes one Parquet part file, so millions of tiny units would swamp both the
/// coordinator and the file system. Raise `unit_games` instead.
pub const MAX_UNITS: u64 = 1_000_000;

/// The most experiments in one sweep; unit ids give the experiment index three digits.
pub const MAX_EXPERIMENTS: usize = 1_000;

/// The most configurations in one experiment; unit ids give the config index four digits.
pub const MAX_CONFIGS: usize = 10_000;

/// The most parameter points in one experiment (the cross product of its family's
/// parameter lists); more is almost certainly a slip, and each point is its own series
/// of units.
pub const MAX_POINTS: usize = 10_000;

/// Longest random prefix: more random moves than this leave little of a 6x6 game and
/// almost nothing of smaller ones, so a larger value is taken for a mistake.
pub const MAX_PREFIX: u32 = 63;

/// A parsed and validated sweep file.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// The dataset's `sweep` column. Restricted like an experiment name (letters, digits,
    /// `_ . -`, starting with a letter) so that tools can also use it as a file name.
    pub name: String,
    /// Below 2^63, because the dataset stores it in an Int64 column.
    pub seed: u64,
    /// The `[[experiment]]` tables, in file order: a unit names its experiment by index.
    pub experiments: Vec<Experiment>,
    /// The file's text exactly as loaded. The coordinator ships this, not a re-encoding,
    /// so that workers parse the very same bytes and agree on the digest.
    pub text: String,
    /// 32 lowercase hex digits of xxh3-128 over `text`; identifies the sweep, so that a
    /// worker can refuse work from a sweep file other than the one it loaded.
    pub digest: String,
}

/// One `[[experiment]]` of a sweep: parameter points x games x configurations.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    /// The dataset's `experiment` partition; valid under `hammer_dataset::validate_experiment`.
    pub name: String,
    /// What the rows are for; a run-time experiment is still plain configurations.
    pub kind: ExperimentKind,
    /// The puzzle family (`puzzle = "peg"`; Martello when the file names none, so that
    /// every sweep file written before families keeps its meaning and its digest).
    pub family: FamilyRef,
    /// The family's parameter lists as the file gives them (defaults filled in), one per
    /// parameter in the family's order. The canonical form writes these rather than the
    /// axes of `points`, because a family may normalise a value by the others (a peg
    /// board's `pegs = 0` becomes holes - 1, which differs by board), so the points need
    /// not be the cross product of their own axes.
    pub param_lists: Vec<Vec<ParamValue>>,
    /// The parameter points: the cross product of the family's parameter lists, the
    /// family's first parameter outermost, each list in file order, without duplicates.
    pub points: Vec<Point>,
    /// Games per point: indices `first_game..first_game + games`, fewer for a point with
    /// fewer instances (see [`Experiment::games_of`]).
    pub games: u64,
    /// The first game index of every point.
    pub first_game: u64,
    /// The games another experiment left unknown, when this experiment continues them
    /// (`unknown_games`): it then plays exactly these, each game a unit, and `games` is
    /// the longest list.
    pub unknown_games: Option<UnknownGames>,
    /// Games per work unit as written in the file; `None` means the default of
    /// [`Experiment::unit_size`].
    pub unit_games: Option<u64>,
    /// `gang = K`: every game is searched by a gang of K workers together, each owning a
    /// hash share of the game's states (the owner search of `hammer_solver::owners`); the
    /// coordinator leases the game to all K at once and the gang's leader submits its
    /// row. Each game is then a unit of its own.
    pub gang: Option<u32>,
    /// The outside program the experiment runs (`solver = "NAME"`, puzzle sat), with
    /// the limits of each of its runs; `None` for the families that search themselves.
    pub program: Option<hammer_family::Program>,
    /// The cross product of the solver settings: orders (outermost), then schedules or
    /// budgets, then prefixes, then trials (innermost), each in file order. A unit names
    /// its configuration by index into this list.
    pub configs: Vec<RunConfig>,
}

/// What an experiment measures. Both kinds run the same machinery; the kind only fixes
/// which keys the file may give and documents the intent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExperimentKind {
    /// Solve every game under every configuration (the default).
    Solve,
    /// A run-time distribution for the tuner (`hammer tune`): every game gets `attempts`
    /// independent attempts (trials `0..attempts`, each with its own run seed, an empty
    /// memo and, by default, the random order), each capped at `cap` expansions and
    /// without fallback. One row per attempt; `exhaustive` says whether it finished.
    RunTime {
        /// Attempts per game.
        attempts: u32,
        /// Expansions each attempt may use.
        cap: u64,
    },
}

/// One solver configuration of an experiment: what the worker passes to
/// `hammer_solver::Solver::solve`, plus the try number that picks the run seed.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    /// Canonical id, e.g. `order=random;schedule=paper;prefix=0;trial=0`, or with a budget
    /// `order=random;schedule=1000;budget=1000;prefix=3;trial=7`. It is the dataset's
    /// `config` column and part of every result key, so it only ever changes together
    /// with the meaning of a configuration; [`RunConfig::from_id`] reads it back.
    pub id: String,
    /// The move order.
    pub order: Order,
    /// The restart schedule.
    pub schedule: Schedule,
    /// Random moves played before the search.
    pub prefix: u32,
    /// Expansions of the single attempt of a budget configuration; 0 when the experiment
    /// gives `schedules` rather than `budgets`.
    pub budget: u64,
    /// Which independent try this is (0-based); it selects the run seed.
    pub trial: u32,
    /// What one game may spend (the experiment's `max_expansions`, `max_seconds` and
    /// `max_memo_mb`); part of the id when set, since it changes results.
    pub limits: Limits,
}

impl RunConfig {
    /// Builds a configuration with its canonical id, so that the id can never disagree
    /// with the fields.
    pub fn new(order: Order, schedule: Schedule, prefix: u32, budget: u64, trial: u32) -> Self {
        let limits = Limits::default();
        let id = canonical::config_id(&order, &schedule, prefix, budget, trial, &limits);
        RunConfig {
            id,
            order,
            schedule,
            prefix,
            budget,
            trial,
            limits,
        }
    }

    /// The same configuration under per-game `limits`, with its id to match.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self.id = canonical::config_id(
            &self.order,
            &self.schedule,
            self.prefix,
            self.budget,
            self.trial,
            &limits,
        );
        self
    }

    /// A budget configuration: one attempt of `budget` expansions and no exact fallback,
    /// so that the dataset's `exhaustive` column says whether the budget sufficed.
    pub fn with_budget(order: Order, budget: u64, prefix: u32, trial: u32) -> Self {
        let schedule = Schedule::List {
            phases: vec![(1, budget)],
            then_exact: false,
        };
        RunConfig::new(order, schedule, prefix, budget, trial)
    }

    /// Reads a configuration back from its id (the dataset's `config` column), so that
    /// analysis can recover the settings of a row without the sweep file. Only canonical
    /// ids are accepted.
    pub fn from_id(id: &str) -> Result<RunConfig, ConfigIdError> {
        canonical::parse_config_id(id)
    }

    /// The solver's view; `trial` and `budget` are not part of it because the trial only
    /// picks the run seed and the budget is already the schedule.
    pub fn solver_config(&self) -> Config {
        Config {
            order: self.order,
            schedule: self.schedule.clone(),
            prefix: self.prefix,
            limits: self.limits,
            cancel: None,
            profile: false,
        }
    }

    /// The run seed of instance `index` of `point` under this configuration: the one the
    /// worker passes to the solver. Configurations with the same trial share it, so
    /// their random prefixes are the same moves and results pair up game by game.
    pub fn run_seed(&self, family: FamilyRef, point: &Point, sweep_seed: u64, index: u64) -> u64 {
        family.run_seed(point, sweep_seed, index, self.trial)
    }
}

/// Games `start..end` of one (experiment, configuration, point): the unit of work the
/// coordinator hands out and of which one dataset part file holds the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unit {
    /// Index into `Sweep::experiments`.
    pub experiment: u32,
    /// Index into that experiment's `configs`.
    pub config: u32,
    /// Index into that experiment's `points`.
    pub point: u32,
    /// The point's size: the dataset's `n` partition.
    pub n: u32,
    /// Whether the size alone names the point in the experiment (every point has its
    /// own size, as Martello's do), so that the id leaves the point index out.
    pub named_by_size: bool,
    /// The first game index.
    pub start: u64,
    /// Exclusive.
    pub end: u64,
}

impl Unit {
    /// A valid `hammer_dataset` part id such as `e000-c0003-n6-g000000001000`, or
    /// `e000-c0003-n6p0002-g000000000000` where several points share a size. The end is
    /// left out because it follows from the sweep; zero padding keeps the part files of
    /// one partition in unit order when listed by name. Martello ids are those of
    /// sweeps written before families existed.
    pub fn id(&self) -> String {
        if self.named_by_size {
            format!(
                "e{:03}-c{:04}-n{}-g{:012}",
                self.experiment, self.config, self.n, self.start
            )
        } else {
            format!(
                "e{:03}-c{:04}-n{}p{:04}-g{:012}",
                self.experiment, self.config, self.n, self.point, self.start
            )
        }
    }

    /// Number of games, hence result rows, in the unit.
    pub fn games(&self) -> u64 {
        self.end - self.start
    }
}

/// A sweep file read from disk, whose continuations (`unknown_games` with a dataset) the
/// caller reads before [`SweepFile::finish`] makes the sweep: parsing reads no dataset.
#[derive(Debug)]
pub struct SweepFile {
    text: String,
    origin: String,
    /// The sweep file's folder, which schedule files and datasets are relative to.
    base: PathBuf,
    continuations: Vec<Continuation>,
    /// The sweep when it continues no dataset.
    ready: Option<Sweep>,
}

impl SweepFile {
    /// Reads a sweep file and checks all of it but the continued datasets' games.
    pub fn read(path: &Path) -> Result<SweepFile, SweepError> {
        let origin = path.display().to_string();
        let bytes = std::fs::read(path)
            .map_err(|e| error::file_error(&origin, format!("cannot read the sweep file: {e}")))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            error::file_error(
                &origin,
                format!(
                    "the file is not UTF-8 (bad byte at offset {})",
                    e.utf8_error().valid_up_to()
                ),
            )
        })?;
        let base = path.parent().unwrap_or(Path::new(".")).to_owned();
        parse::read_file(text, origin, base)
    }

    /// The continuations whose games the caller reads, each into its `games`.
    pub fn continuations_mut(&mut self) -> &mut [Continuation] {
        &mut self.continuations
    }

    /// The sweep, with the continuations' games written into its text.
    pub fn finish(self) -> Result<Sweep, SweepError> {
        parse::finish(self)
    }
}

impl Sweep {
    /// Reads and parses a sweep file that continues no dataset's games (see
    /// [`SweepFile`] for one that does); errors name the path as given.
    pub fn load(path: &Path) -> Result<Sweep, SweepError> {
        SweepFile::read(path)?.finish()
    }

    /// Parses and validates sweep text; `origin` names it in error messages (the file
    /// name, or something like `<coordinator>` for text received over the network).
    ///
    /// Schedule files (`schedules = ["@best.schedule"]`) and continued datasets are only
    /// read with [`SweepFile`], which writes them into the sweep's text; text given here
    /// must already be self-contained, as the text a coordinator ships is.
    pub fn parse(text: &str, origin: &str) -> Result<Sweep, SweepError> {
        parse::parse(text, origin)
    }

    /// Every (experiment, configuration, size, game) exactly once, cut into units.
    ///
    /// The order is a suggested dispatch order: experiments in file order, and within
    /// an experiment round-robin over its (size, configuration) series, so that a sweep
    /// stopped halfway has the first games of every configuration rather than all games
    /// of a few.
    pub fn units(&self) -> Vec<Unit> {
        units::units(self)
    }

    /// The knowledge bases the configurations' learned orders use, each once: (the path
    /// as the sweep names it, its digest, its bytes). A coordinator sends them to its
    /// workers with the sweep, so the files need to be on the coordinator's disk only.
    pub fn knowledge_bases(&self) -> Vec<(String, u128, Vec<u8>)> {
        let mut seen = Vec::new();
        for config in self.experiments.iter().flat_map(|e| &e.configs) {
            if let hammer_solver::Order::Learned { kb, .. } = config.order
                && !seen.contains(&kb)
            {
                seen.push(kb);
            }
        }
        seen.into_iter()
            .filter_map(hammer_solver::learned::shipped)
            .collect()
    }

    /// Number of result rows of the complete sweep.
    pub fn total_games(&self) -> u64 {
        self.experiments
            .iter()
            .map(|e| e.configs.len() as u64 * e.point_games())
            .sum()
    }

    /// The unit with this id, if it is one of `units()`; ids that are not canonical
    /// (other padding, a start inside a unit) are refused rather than guessed at.
    pub fn unit_by_id(&self, id: &str) -> Option<Unit> {
        units::unit_by_id(self, id)
    }

    /// The experiment and configuration a unit belongs to.
    pub fn config_of(&self, unit: &Unit) -> Option<(&Experiment, &RunConfig)> {
        let experiment = self.experiments.get(unit.experiment as usize)?;
        let config = experiment.configs.get(unit.config as usize)?;
        Some((experiment, config))
    }

    /// The experiment, configuration and parameter point a unit belongs to.
    pub fn context_of(&self, unit: &Unit) -> Option<(&Experiment, &RunConfig, &Point)> {
        let (experiment, config) = self.config_of(unit)?;
        let point = experiment.points.get(unit.point as usize)?;
        Some((experiment, config, point))
    }

    /// The sweep written out with every default made explicit. Parsing it gives the same
    /// experiments and configurations (but another text and digest); `hammer` can show
    /// it so that a reader sees exactly what a terse file expands to.
    pub fn to_canonical_toml(&self) -> String {
        canonical::to_toml(self)
    }
}

impl Experiment {
    /// Games per unit for configuration `config` at point `point`: `unit_games` when
    /// given, else the default sized from the family's cost estimate so that a unit
    /// takes about [`DEFAULT_UNIT_SECONDS`] on one thread.
    pub fn unit_size(&self, config: u32, point: u32) -> u64 {
        let (Some(c), Some(p)) = (
            self.configs.get(config as usize),
            self.points.get(point as usize),
        ) else {
            return 1;
        };
        if self.unknown_games.is_some() || self.gang.is_some() {
            return 1;
        }
        match self.unit_games {
            Some(u) => u,
            None => units::default_unit_games(self.family.estimated_seconds(p, &c.solver_config())),
        }
    }

    /// The games of `point`: `games`, or fewer when the point has fewer instances from
    /// `first_game` on (a peg board has one single-vacancy start per hole).
    pub fn games_of(&self, point: &Point) -> u64 {
        if let Some(list) = self.listed_games(point) {
            return list.len() as u64;
        }
        match self.family.instance_count(point) {
            Some(count) => self.games.min(count.saturating_sub(self.first_game)),
            None => self.games,
        }
    }

    /// The listed games of `point` in an `unknown_games` experiment; `None` in an
    /// experiment that plays a range.
    pub fn listed_games(&self, point: &Point) -> Option<&[u64]> {
        let unknown = self.unknown_games.as_ref()?;
        let at = self.points.iter().position(|p| p == point)?;
        unknown.games.get(at).map(Vec::as_slice)
    }

    /// Games over all points, under one configuration.
    pub fn point_games(&self) -> u64 {
        self.points.iter().map(|p| self.games_of(p)).sum()
    }

    /// Whether every point has a size of its own, so that unit ids name points by size.
    pub fn named_by_size(&self) -> bool {
        let mut sizes: Vec<u32> = self.points.iter().map(|p| self.family.size(p)).collect();
        sizes.sort_unstable();
        sizes.windows(2).all(|w| w[0] != w[1])
    }
}

/// xxh3-128 of the text as 32 lowercase hex digits.
pub(crate) fn digest(text: &str) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn digest_is_the_canonical_xxh3_128_hex() {
        // The reference vector of XXH3-128 for empty input, as `xxhsum -H2` and Python's
        // `xxhash.xxh3_128_hexdigest(b"")` print it (high half first), so other tools
        // can recompute a sweep's digest.
        assert_eq!(super::digest(""), "99aa06d3014798d86001c324468d497f");
    }
}
