//! Solvers over any [`Puzzle`]: exact depth-first search with a memo and a sound lower
//! bound, the report's move orders, and budgeted restarts that keep finished work.
//!
//! Every random choice comes from ChaCha streams keyed by the run seed (see
//! [`hammer_puzzle::seeded`]), so (seed, game, configuration) reproduces a result bit
//! for bit, on any machine and with any number of threads.

mod count;
mod count_gang;
pub mod learned;
mod limits;
mod memo;
mod order;
mod owners;
mod pages;
mod profile;
mod schedule;
mod search;

use hammer_puzzle::Puzzle;
use hammer_puzzle::seeded::{bounded, fast_stream};

pub use count::{Countable, Counts, Level, Reduction, count, count_towards};
pub use count_gang::{GangCountStats, count_gang};
pub use limits::{Cancel, Cap, Limits};
pub use memo::Memo;
pub use order::{Order, OrderError, OrderKind, OrderSpec};
pub use owners::{GangError, Link, OwnedOutcome, solve_gang, solve_owned};
pub use profile::{Level as ProfileLevel, Profile};
pub use schedule::{PAPER_PHASES, Schedule, ScheduleError, ScheduleKind, luby};
pub use search::Counters;

use search::{AttemptEnd, Search};

/// What to run on one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// How the successors of a state are ranked.
    pub order: Order,
    /// How the budgeted attempts and restarts are laid out.
    pub schedule: Schedule,
    /// Random moves played before the search starts (the report's randomized starts).
    pub prefix: u32,
    /// What one game may spend; a game stopped by a limit reports which one.
    pub limits: Limits,
    /// Set by another thread to give the game up ([`Cap::Cancelled`]); not part of the
    /// configuration's identity.
    pub cancel: Option<Cancel>,
    /// Count what the search does at each score into [`Outcome::profile`] (see
    /// [`Profile`]); the results are the same either way.
    pub profile: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            order: Order::Standard,
            schedule: Schedule::Exact,
            prefix: 0,
            limits: Limits::default(),
            cancel: None,
            profile: false,
        }
    }
}

/// The result of one solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome<P: Puzzle> {
    /// The random prefix actually played (shorter than asked when the game got stuck).
    pub prefix_moves: Vec<P::Move>,
    /// The state after the prefix, where the search started.
    pub start: P::State,
    /// The lowest score found. Exact when `exhaustive`, else an upper bound.
    pub min_score: u32,
    /// Whether `min_score` is proven: the bound was reached or the search completed.
    pub exhaustive: bool,
    /// Moves from `start` that reach `min_score`.
    pub solution: Vec<P::Move>,
    /// A sound lower bound on the score of `start`: the start's own bound (the one the
    /// search could stop at) when `exhaustive`; when not, the bound the search proved
    /// before it stopped (at least the start's bound, at most `min_score`).
    pub lower_bound: u32,
    /// The game limit that stopped the search before the answer was proven, if any. A
    /// budget schedule that simply ran out of attempts is not a cap.
    pub capped_by: Option<Cap>,
    /// What the search did: expansions, attempts and the like.
    pub counters: Counters,
    /// Fully explored states in the memo at the end.
    pub memo_states: u64,
    /// The memo's peak size for this game ([`Memo::game_bytes`]): the same on every
    /// machine and thread, unlike the table's current allocation.
    pub memo_bytes: u64,
    /// Memo entries replaced because the memo was at its limit.
    pub memo_evictions: u64,
    /// What the search did at each score, when [`Config::profile`] asked.
    pub profile: Option<Box<Profile>>,
}

/// A reusable solver: it keeps its memo and buffers from one game to the next.
pub struct Solver<P: Puzzle> {
    puzzle: P,
    search: Search<P>,
}

impl<P: Puzzle> Solver<P> {
    /// A solver of `puzzle` with an empty memo.
    pub fn new(puzzle: P) -> Self {
        Solver {
            puzzle,
            search: Search::new(),
        }
    }

    /// The puzzle it solves.
    pub fn puzzle(&self) -> &P {
        &self.puzzle
    }

    /// Solves `board` under `config`. `seed` is the run seed (see
    /// [`hammer_puzzle::seeded::run_seed`]); the prefix and the search draw from
    /// separate streams of it, so the prefix does not depend on the order or schedule.
    pub fn solve(&mut self, board: &P::State, config: &Config, seed: u64) -> Outcome<P> {
        let (prefix_moves, start) = self.prefix(board, config, seed);
        let puzzle = &self.puzzle;
        let search = &mut self.search;
        search.reset(puzzle, &start, config);
        let exhaustive = run_search(search, puzzle, &start, config, seed);
        finish(search, config, prefix_moves, start, exhaustive)
    }

    /// The random prefix of `config` from `board`, and the state it reaches.
    fn prefix(&self, board: &P::State, config: &Config, seed: u64) -> (Vec<P::Move>, P::State) {
        let puzzle = &self.puzzle;
        let mut prefix_rng = fast_stream(seed, "hammer/prefix", 0);
        let mut start = *board;
        let mut prefix_moves = Vec::with_capacity(config.prefix as usize);
        let mut buf = Vec::new();
        for _ in 0..config.prefix {
            puzzle.moves(&start, &mut buf);
            if buf.is_empty() {
                break;
            }
            let mv = buf[bounded(&mut prefix_rng, buf.len() as u32) as usize];
            prefix_moves.push(mv);
            start = puzzle.apply(&start, mv);
        }
        (prefix_moves, start)
    }
}

/// The search of a game from `start`: `config`'s schedule over attempts from the start,
/// drawing from the run seed's search stream.
fn run_search<P: Puzzle>(
    search: &mut Search<P>,
    puzzle: &P,
    start: &P::State,
    config: &Config,
    seed: u64,
) -> bool {
    let mut rng = fast_stream(seed, "hammer/search", 0);
    run_schedule(search, config, |search, order, budget| {
        search.attempt(puzzle, start, order, &mut rng, budget)
    })
}

/// Runs `config`'s schedule, one `attempt` per budget, until an attempt proves or
/// completes the search, a game limit stops it or the schedule ends; returns whether the
/// result is exact.
fn run_schedule<P: Puzzle>(
    search: &mut Search<P>,
    config: &Config,
    mut attempt: impl FnMut(&mut Search<P>, Order, Option<u64>) -> AttemptEnd,
) -> bool {
    if search.proven() {
        return true;
    }
    // A learned order whose temperature the caller left unsettled takes the schedule's
    // default here; a refused combination was refused where the configuration was read.
    let configured = config
        .order
        .for_schedule(&config.schedule)
        .unwrap_or(config.order);
    for budget in config.schedule.budgets() {
        // The unlimited attempt may have an order of its own (`paper` falls back on the
        // regular standard-order search, as the report's meta-solver did).
        let order = match budget {
            None => config.schedule.tail_order().unwrap_or(configured),
            Some(_) => configured,
        };
        match attempt(search, order, budget) {
            AttemptEnd::Proven | AttemptEnd::Complete => return true,
            AttemptEnd::Cut if search.cap.is_some() => return false,
            AttemptEnd::Cut => {}
        }
    }
    false
}

/// The outcome of the game `search` just ran: the least score it reached, with its moves.
fn finish<P: Puzzle>(
    search: &mut Search<P>,
    config: &Config,
    prefix_moves: Vec<P::Move>,
    start: P::State,
    exhaustive: bool,
) -> Outcome<P> {
    let memo_states = search.memo.len() as u64;
    let memo_bytes = search.memo.game_bytes();
    let memo_evictions = search.memo.evictions();
    if config.limits.memo_bytes.is_some() {
        // Hand the memory back now rather than at the next game, so that a worker that
        // runs only as many limited games as fit its memory holds no more.
        search.memo.clear();
    }
    Outcome {
        prefix_moves,
        start,
        min_score: search.best,
        exhaustive,
        solution: search.best_path.clone(),
        lower_bound: if exhaustive {
            search.target
        } else {
            search.proved_bound().max(search.target)
        },
        capped_by: if exhaustive { None } else { search.cap },
        counters: search.counters,
        memo_states,
        memo_bytes,
        memo_evictions,
        profile: search.profile.take().map(|mut profile| {
            profile.start_bound = search.target;
            profile.memo_evictions = memo_evictions;
            profile
        }),
    }
}
