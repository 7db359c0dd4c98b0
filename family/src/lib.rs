//! Puzzle families: what the sweep, worker, dataset, analysis and command line see of a
//! puzzle.
//!
//! A family (Martello solo, peg solitaire, Mancala's first turn, ...) has its rules in
//! `hammer-engine` (a [`hammer_engine::Puzzle`] plus notation) and its adapter here: one
//! module implementing [`Family`], listed once in [`registry`]. Everything above this
//! crate goes through `dyn Family`, so adding a family touches its rules module, its
//! adapter module, one line of the registry, and its analysis.
//!
//! The trait is object-safe on purpose: the cluster picks the family per experiment at
//! run time, while inside an adapter the solver stays monomorphised on the family's
//! `Puzzle`, so the search loop pays nothing for the indirection (it happens once per
//! game, not once per expansion).

mod counting;
mod error;
mod game;
mod owners;
mod params;
mod registry;
mod report;
mod solved;

pub mod clobber;
pub mod mancala;
pub mod martello;
pub mod peg;
pub mod sat;
pub mod tours;

pub(crate) use counting::count_positions;
pub use counting::{CountTeam, Counted, Counting};
pub use error::FamilyError;
pub use game::{Draw, Game, Positions};
pub(crate) use owners::solve_by_owners;
pub use owners::{OwnedSolved, Owners, OwnersError, Team};
pub use params::{ParamKind, ParamSpec, ParamValue, Point, point_from_pairs};
pub use registry::{DEFAULT_FAMILY, by_name, families, learning_names, names};
pub use report::{ReportExtras, TourRows};
pub use sat::{Program, Shuffle};
pub use solved::{Cell, ColumnKind, ColumnSpec, Solved, cells_from_wire, cells_to_wire};

use hammer_solver::Config;
use hammer_solver::learned::Learner;

/// Which instance of a parameter point to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instance<'a> {
    /// Instance `index` of the point, made from the sweep seed (Martello: a seeded random
    /// start; peg: a single-vacancy start or a seeded random position; Mancala: the start).
    Seeded {
        /// The sweep's seed.
        sweep_seed: u64,
        /// The instance's index at the point.
        index: u64,
    },
    /// A position given in the family's notation (the command line's `solve BOARD`).
    Given(&'a str),
}

/// What a family is, as data: the registry, the docs' table and the sweep parser read it.
#[derive(Debug)]
pub struct Info {
    /// The name in sweep files and on the command line.
    pub name: &'static str,
    /// One line for the docs and `--help`.
    pub summary: &'static str,
    /// The parameters that make a point.
    pub params: &'static [ParamSpec],
    /// The family's own dataset columns.
    pub columns: &'static [ColumnSpec],
    /// The parameter whose value is [`Family::size`] (Martello `n`, peg `pegs`, Mancala
    /// `h`), if one is: charts against size draw one line per value of the other
    /// parameters (one line per peg board, not both boards pooled).
    pub size_param: Option<&'static str>,
}

impl Info {
    /// `values`, one per parameter in order, each beside its key: what a family that
    /// normalises its values edits before it makes the [`Point`].
    pub fn keyed(&self, values: Vec<ParamValue>) -> Vec<(&'static str, ParamValue)> {
        self.params.iter().map(|s| s.key).zip(values).collect()
    }

    /// The point of `values`, one per parameter in order, unchecked.
    pub fn point(&self, values: Vec<ParamValue>) -> Point {
        Point::new(self.name, self.keyed(values))
    }
}

/// One puzzle family, as the rest of hammer sees it.
pub trait Family: Send + Sync + 'static {
    /// What the family is: its name, one-line summary, parameters and dataset columns.
    fn info(&self) -> &'static Info;

    /// The name in sweep files (`puzzle = "peg"`), on the command line (`--puzzle peg`)
    /// and in the dataset's `puzzle` column. Lowercase ASCII letters.
    fn name(&self) -> &'static str {
        self.info().name
    }

    /// One line for `--help` and the docs.
    fn summary(&self) -> &'static str {
        self.info().summary
    }

    /// The parameters of an instance, in canonical order. Every parameter has a default
    /// except where the spec says otherwise, so `Point` can be built from any subset.
    fn params(&self) -> &'static [ParamSpec] {
        self.info().params
    }

    /// Checks a complete, defaulted parameter point (one value per [`Family::params`]
    /// entry, in that order) beyond the per-value ranges (for example a peg count that
    /// does not fit the board), and returns it as a [`Point`]; a family that normalises
    /// its values (peg's board names) or checks them together overrides it.
    fn point(&self, values: Vec<ParamValue>) -> Result<Point, FamilyError> {
        Ok(self.info().point(values))
    }

    /// The point's value of the dataset's `n` partition column: the family's notion of
    /// size (Martello: the board side; peg: the pegs at the start; Mancala: holes per side).
    /// By default the value of [`Info::size_param`]; a family without one overrides it.
    fn size(&self, point: &Point) -> u32 {
        let value = self.size_param().and_then(|key| point.int(key));
        value.map_or(0, |v| v as u32)
    }

    /// [`Info::size_param`].
    fn size_param(&self) -> Option<&'static str> {
        self.info().size_param
    }

    /// How many distinct instances the point has, when that is finite (peg's
    /// single-vacancy starts: one per hole; Mancala: one). `None`: seeded, unlimited.
    fn instance_count(&self, point: &Point) -> Option<u64>;

    /// The score that counts as solved: the dataset's `solvable` is `score <= goal`.
    /// Martello and peg: 1 (one stone or peg left); Mancala: 0 (every stone in the store).
    fn goal(&self, point: &Point) -> u32;

    /// The family's own typed dataset columns, in file order. Their names start with the
    /// family name and an underscore (`peg_finishes`) so families never collide.
    fn columns(&self) -> &'static [ColumnSpec] {
        self.info().columns
    }

    /// A rough single-thread time in seconds for one instance of `point` under
    /// `config`; it sizes default work units. It must be a pure function of its
    /// arguments using only IEEE `+ - * /` and `min`, because it is part of the sweep
    /// format: changing it moves the unit boundaries of sweeps that rely on the default.
    fn estimated_seconds(&self, point: &Point, config: &Config) -> f64 {
        let _ = (point, config);
        0.05
    }

    /// A solver for one thread. It keeps its memo and buffers from one game to the next,
    /// because they are expensive to allocate.
    fn solver(&self) -> Box<dyn GameSolver>;

    /// The point a position given on the command line belongs to, when the position
    /// tells (Martello: the board's side; peg: the board from the row lengths). The
    /// command line uses it when the user sets no parameter, so that
    /// `hammer solve BOARD` needs no `--param`.
    /// An error when the position cannot be read at all, so that the user learns what
    /// is wrong with it rather than which parameter is missing.
    fn point_of_state(&self, state: &str) -> Result<Option<Point>, FamilyError> {
        let _ = state;
        Ok(None)
    }

    /// The family at `point`: its notation, seeded starts and picture, through which
    /// the methods below read and write positions.
    fn game(&self, point: &Point) -> Result<Box<dyn Positions>, FamilyError>;

    /// The start position of an instance in the family's notation.
    fn instance(&self, point: &Point, instance: Instance<'_>) -> Result<String, FamilyError> {
        self.game(point)?.instance(instance)
    }

    /// The legal moves of `state` (in the family's notation) with the state after each,
    /// in the family's standard order. The command line's `hammer moves`.
    fn moves(&self, point: &Point, state: &str) -> Result<Vec<(String, String)>, FamilyError> {
        self.game(point)?.moves(state)
    }

    /// Plays `moves` from `state` and returns every state after the first, one per move;
    /// an illegal or malformed move is an error naming it and its position in the list.
    fn replay(
        &self,
        point: &Point,
        state: &str,
        moves: &[&str],
    ) -> Result<Vec<String>, FamilyError> {
        self.game(point)?.replay(state, moves)
    }

    /// The score of a state (what the search minimises).
    fn score(&self, point: &Point, state: &str) -> Result<u32, FamilyError> {
        self.game(point)?.score(state)
    }

    /// A picture of a state for `hammer replay` (several lines of text), with ANSI
    /// colours when `colour`.
    fn draw(&self, point: &Point, state: &str, colour: bool) -> Result<String, FamilyError> {
        self.game(point)?.draw(state, colour)
    }

    /// What the score counts, in the singular, when it counts pieces left on the board
    /// (Martello: `stone`). The command line's text then speaks of them ("min stones 1",
    /// "(4 stones)") rather than of a score.
    fn score_unit(&self) -> Option<&'static str> {
        None
    }

    /// The point the command line takes when the user gives no parameter and no position
    /// tells one (`hammer bench` with no `--param`), when that is not every parameter's
    /// default: Martello's `n` has no default, because a sweep must name its sizes.
    fn default_point(&self) -> Option<Point> {
        None
    }

    /// Other spellings of move `mv` of `state` that lead to the same state `after`
    /// (Martello: the eaten stone's other row neighbour eating it), so that a page can
    /// take the player's move in any of them.
    fn move_aliases(&self, point: &Point, state: &str, mv: &str, after: &str) -> Vec<String> {
        let _ = (point, state, mv, after);
        Vec::new()
    }

    /// Whether the viewer's page draws this family's positions itself from the state
    /// text (Martello: a board of stones the player clicks). Otherwise the viewer sends
    /// [`Family::draw`]'s text picture with each state.
    fn page_draws_board(&self) -> bool {
        false
    }

    /// Whether `hammer analyze` draws the 2013 report's figures from this family's rows
    /// (Martello's games are the report's); the rows of a family without them get a
    /// section of their own instead.
    fn report_figures(&self) -> bool {
        false
    }

    /// The section of its own that `hammer analyze` adds to the family's generic one,
    /// with where the rows keep what it reads: `None` for none.
    fn report_extras(&self) -> Option<ReportExtras> {
        None
    }

    /// Who searches the family's instances: hammer's own solver, or an outside program
    /// that the experiment declares (sat), whose keys (`solver`, `instances`, `limits`)
    /// the sweep file then takes.
    fn search(&self) -> Search {
        Search::Own
    }

    /// The learned move order's side of the family (docs/learned-order.md), if the
    /// family's rules have transition features: `None` refuses `learned:` orders.
    fn learning(&self) -> Option<&dyn Learning> {
        None
    }

    /// The owner search of one game by several workers (`hammer solve --owners`,
    /// `--peers`), if the family's states can travel between processes: `None` refuses
    /// it.
    fn owners(&self) -> Option<&dyn Owners> {
        None
    }

    /// Counting every position reachable from a start (`hammer count`), alone or by a
    /// gang of processes, if the family's puzzle can count and its positions can travel
    /// between processes: `None` refuses it.
    fn counting(&self) -> Option<&dyn Counting> {
        None
    }

    /// Answers one question of the family's spec (`shared/spec/FAMILY.md`, "Questions"):
    /// a JSON object with a `kind` and its inputs, answered with the JSON the spec gives.
    /// The conformance cases and `hammer ask` come through here; a question the spec
    /// rejects is an error naming the problem.
    fn answer(&self, question: &serde_json::Value) -> Result<serde_json::Value, FamilyError>;

    /// The run seed of instance `index` of `point`, try `trial`: every random choice of a
    /// solve (prefix, move order, playouts) comes from streams keyed by it. The default
    /// keys a stream by the family, the point's text and the index; Martello keeps the
    /// run seeds it had before families existed.
    fn run_seed(&self, point: &Point, sweep_seed: u64, index: u64, trial: u32) -> u64 {
        keyed_run_seed(self.name(), point, sweep_seed, index, trial)
    }
}

/// Who searches a family's instances ([`Family::search`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// hammer's depth-first search over the family's `Puzzle`.
    Own,
    /// An outside program, run per attempt ([`Program`]).
    Program,
}

/// What the learned move order needs of a family that supports it: the version of its
/// features, which a knowledge base records and a `learned:` order is checked against,
/// and how `hammer learn` counts a solved game into a knowledge base.
pub trait Learning: Send + Sync {
    /// The version of the family's transition features (its
    /// `hammer_engine::MoveFeatures::VERSION`).
    fn feature_version(&self) -> u32;

    /// The longest radius the features hash a transition to.
    fn max_radius(&self) -> usize;

    /// Counts the solved game from `start` (a position in the family's notation) along
    /// `solution` (its moves) into `learner`: at each state, the move taken as taken and
    /// the other legal moves as not taken.
    fn learn_game(
        &self,
        learner: &mut Learner,
        start: &str,
        solution: &[&str],
    ) -> Result<(), FamilyError>;
}

/// Solves instances of one family; one per thread.
pub trait GameSolver: Send {
    /// Solves one instance. The result is a pure function of the job (see
    /// `hammer_engine::seeded`).
    fn solve(&mut self, job: Job<'_>) -> Result<Solved, FamilyError>;
}

/// One instance for a [`GameSolver`]: the point, which instance of it, the solver's
/// configuration and the run seed.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// The parameter point.
    pub point: &'a Point,
    /// Which instance of the point.
    pub instance: Instance<'a>,
    /// The solver's configuration.
    pub config: &'a Config,
    /// The seed of the solver's own randomness.
    pub run_seed: u64,
    /// The outside program the experiment declares, for the families that run one
    /// (sat); `None` for the families that search themselves.
    pub program: Option<&'a Program>,
}

/// The default [`Family::run_seed`]: word `2 * trial` of the ChaCha20 stream labelled
/// `hammer/FAMILY/runs/POINT` at stream `index` of the sweep seed.
pub(crate) fn keyed_run_seed(
    family: &str,
    point: &Point,
    sweep_seed: u64,
    index: u64,
    trial: u32,
) -> u64 {
    use hammer_engine::seeded::stream;
    let label = format!("hammer/{family}/runs/{point}");
    let mut rng = stream(sweep_seed, &label, index);
    rng.set_word_pos(2 * u128::from(trial));
    rand_core::Rng::next_u64(&mut rng)
}

/// A registered family as a plain value: compared and printed by name, so that types
/// holding one (a sweep's experiments) can derive `Debug`, `PartialEq` and `Copy`.
#[derive(Clone, Copy)]
pub struct FamilyRef(pub &'static dyn Family);

impl FamilyRef {
    /// The family called `name`.
    pub fn named(name: &str) -> Result<FamilyRef, FamilyError> {
        by_name(name).map(FamilyRef)
    }
}

impl std::ops::Deref for FamilyRef {
    type Target = dyn Family;
    fn deref(&self) -> &Self::Target {
        self.0
    }
}

impl std::fmt::Debug for FamilyRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name())
    }
}

impl PartialEq for FamilyRef {
    fn eq(&self, other: &Self) -> bool {
        self.0.name() == other.0.name()
    }
}

impl Eq for FamilyRef {}
