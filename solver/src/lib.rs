//! Solvers over any [`Puzzle`]: exact depth-first search with a memo and a sound lower
//! bound, the report's move orders, and budgeted restarts that keep finished work.
//!
//! Every random choice comes from ChaCha streams keyed by the run seed (see
//! [`hammer_engine::seeded`]), so (seed, game, configuration) reproduces a result bit
//! for bit, on any machine and with any number of threads.

mod count;
pub mod learned;
mod memo;
mod order;
mod schedule;
mod search;

use hammer_engine::Puzzle;
use hammer_engine::seeded::{bounded, fast_stream};

pub use count::{Countable, Counts, Level, Reduction, count, count_towards};
pub use memo::Memo;
pub use order::{Order, OrderError};
pub use schedule::{PAPER_PHASES, Schedule, ScheduleError, luby};
pub use search::Counters;

use search::{AttemptEnd, Search};

/// What to run on one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub order: Order,
    pub schedule: Schedule,
    /// Random moves played before the search starts (the report's randomized starts).
    pub prefix: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            order: Order::Standard,
            schedule: Schedule::Exact,
            prefix: 0,
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
    /// The sound lower bound of `start` the search could stop at.
    pub lower_bound: u32,
    pub counters: Counters,
    /// Fully explored states in the memo at the end, and the bytes it held.
    pub memo_states: u64,
    pub memo_bytes: u64,
}

/// A reusable solver: it keeps its memo and buffers from one game to the next.
pub struct Solver<P: Puzzle> {
    puzzle: P,
    search: Search<P>,
}

impl<P: Puzzle> Solver<P> {
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
    /// [`hammer_engine::seeded::run_seed`]); the prefix and the search draw from
    /// separate streams of it, so the prefix does not depend on the order or schedule.
    pub fn solve(&mut self, board: &P::State, config: &Config, seed: u64) -> Outcome<P> {
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

        let mut rng = fast_stream(seed, "hammer/search", 0);
        let search = &mut self.search;
        search.reset(puzzle, &start);
        let mut exhaustive = search.proven();
        if !exhaustive {
            for budget in config.schedule.budgets() {
                // The unlimited attempt may have an order of its own (`paper` falls back
                // on the regular standard-order search, as the report's meta-solver did).
                let order = match budget {
                    None => config.schedule.tail_order().unwrap_or(config.order),
                    Some(_) => config.order,
                };
                match search.attempt(puzzle, &start, order, &mut rng, budget) {
                    AttemptEnd::Proven | AttemptEnd::Complete => {
                        exhaustive = true;
                        break;
                    }
                    AttemptEnd::Cut => {}
                }
            }
        }
        Outcome {
            prefix_moves,
            start,
            min_score: search.best,
            exhaustive,
            solution: search.best_path.clone(),
            lower_bound: search.target,
            counters: search.counters,
            memo_states: search.memo.len() as u64,
            memo_bytes: search.memo.bytes() as u64,
        }
    }
}
