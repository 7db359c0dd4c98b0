//! Solving games directly, without any cluster: the function the worker runs for every
//! game, and a pool that runs a unit on all cores.
//!
//! Tests and benchmarks call these to know what the cluster must produce, so the cluster
//! and the direct path share this single piece of code.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use hammer_dataset::ResultRow;
use hammer_engine::seeded::{self, SeededError};
use hammer_engine::{Martello, Move};
use hammer_proto::v1::GameResult;
use hammer_solver::Solver;
use hammer_sweep::{Sweep, Unit};
use rayon::prelude::*;

/// The version written to the dataset's `hammer_version` column.
pub const HAMMER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Why a game or unit could not be solved.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The unit names an experiment or configuration the sweep does not have: the unit
    /// came from another sweep.
    #[error("unit {unit} does not belong to sweep {sweep:?}")]
    UnknownUnit { unit: String, sweep: String },
    #[error("game {index} of size {n}")]
    Seeded {
        n: u8,
        index: u64,
        #[source]
        source: SeededError,
    },
    #[error("cannot start the solver threads")]
    ThreadPool(#[from] rayon::ThreadPoolBuildError),
    /// The unit was abandoned (it was committed by another worker, or the worker stops).
    #[error("solving was cancelled")]
    Cancelled,
}

/// Moves in the dataset's notation, space-separated (`A1xB1 C2xC3`).
fn moves_text(moves: &[Move], n: u8) -> String {
    let mut out = String::with_capacity(moves.len() * 6);
    for (i, mv) in moves.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&mv.notation(n));
    }
    out
}

/// Solves game `index` of unit `unit` of `sweep` and returns its dataset row.
///
/// The board is `seeded::game(sweep.seed, n, index)` and the run seed
/// `seeded::run_seed(sweep.seed, n, index, trial)`, so the row is a pure function of the
/// sweep text and the key, apart from `wall_ns` and `worker`. `solver` is reused from
/// game to game because its memo and buffers are expensive to allocate.
pub fn solve_game(
    sweep: &Sweep,
    unit: &Unit,
    index: u64,
    solver: &mut Solver<Martello>,
    worker: &str,
) -> Result<ResultRow, SolveError> {
    let (experiment, config) = sweep
        .config_of(unit)
        .ok_or_else(|| SolveError::UnknownUnit {
            unit: unit.id(),
            sweep: sweep.name.clone(),
        })?;
    let n = unit.n;
    let board = seeded::game(sweep.seed, n, index).map_err(|source| SolveError::Seeded {
        n,
        index,
        source,
    })?;
    let run_seed = seeded::run_seed(sweep.seed, n, index, config.trial);
    let started = Instant::now();
    let outcome = solver.solve(&board, &config.solver_config(), run_seed);
    let wall_ns = i64::try_from(started.elapsed().as_nanos()).unwrap_or(i64::MAX);
    Ok(ResultRow {
        sweep: sweep.name.clone(),
        experiment: experiment.name.clone(),
        config: config.id.clone(),
        n: i32::from(n),
        game_index: index as i64,
        seed: sweep.seed as i64,
        board: board.to_string(),
        prefix: config.prefix as i32,
        prefix_moves: moves_text(&outcome.prefix_moves, n),
        start: outcome.start.to_string(),
        order: config.order.to_string(),
        schedule: config.schedule.to_string(),
        budget: config.budget as i64,
        trial: config.trial as i32,
        min_stones: outcome.min_score as i32,
        solvable: outcome.min_score == 1,
        exhaustive: outcome.exhaustive,
        expansions: outcome.counters.expansions as i64,
        attempts: outcome.counters.attempts as i32,
        solution: moves_text(&outcome.solution, n),
        wall_ns,
        worker: worker.to_owned(),
        hammer_version: HAMMER_VERSION.to_owned(),
    })
}

/// The per-game part of a row as sent to the coordinator; the rest of the row is fixed
/// by the lease and the registration, so it is not repeated for every game.
pub fn to_wire(row: ResultRow) -> GameResult {
    GameResult {
        game_index: row.game_index as u64,
        board: row.board,
        prefix_moves: row.prefix_moves,
        start: row.start,
        min_stones: row.min_stones as u32,
        exhaustive: row.exhaustive,
        expansions: row.expansions as u64,
        attempts: row.attempts as u32,
        solution: row.solution,
        wall_ns: row.wall_ns as u64,
    }
}

/// A rayon pool with one reusable solver per thread.
///
/// Solvers are indexed by rayon's thread index rather than created per task, because
/// rayon splits a range into many more tasks than threads and a fresh solver allocates
/// its memo; the mutexes are never contended (one thread, one solver).
pub struct SolverPool {
    pool: rayon::ThreadPool,
    solvers: Vec<Mutex<Solver<Martello>>>,
}

impl SolverPool {
    /// `threads == 0` means one thread per available core.
    pub fn new(threads: usize) -> Result<SolverPool, SolveError> {
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            threads
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("hammer-solve-{i}"))
            .build()?;
        let solvers = (0..threads)
            .map(|_| Mutex::new(Solver::new(Martello)))
            .collect();
        Ok(SolverPool { pool, solvers })
    }

    pub fn threads(&self) -> usize {
        self.solvers.len()
    }

    /// Solves games `games` (a sub-range of `unit`) on all threads of the pool, passing
    /// each row to `emit` as soon as it is done (in no particular order). Stops early
    /// with [`SolveError::Cancelled`] once `cancel` is set.
    pub fn solve_range(
        &self,
        sweep: &Sweep,
        unit: &Unit,
        games: std::ops::Range<u64>,
        worker: &str,
        cancel: &AtomicBool,
        emit: &(dyn Fn(ResultRow) + Sync),
    ) -> Result<(), SolveError> {
        self.pool.install(|| {
            games.into_par_iter().try_for_each(|index| {
                if cancel.load(Ordering::Relaxed) {
                    return Err(SolveError::Cancelled);
                }
                let slot = rayon::current_thread_index().unwrap_or(0) % self.solvers.len();
                // A panic while holding the lock cannot leave the solver inconsistent in
                // a way that matters: `solve` resets it at the start of every game.
                let mut solver = self.solvers[slot]
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                let row = solve_game(sweep, unit, index, &mut solver, worker)?;
                drop(solver);
                emit(row);
                Ok(())
            })
        })
    }

    /// Solves a whole unit and returns its rows sorted by game index: the direct path
    /// that benchmarks and tests compare the cluster with.
    pub fn solve_unit(
        &self,
        sweep: &Sweep,
        unit: &Unit,
        worker: &str,
    ) -> Result<Vec<ResultRow>, SolveError> {
        let rows = Mutex::new(Vec::with_capacity(unit.games() as usize));
        let cancel = AtomicBool::new(false);
        self.solve_range(sweep, unit, unit.start..unit.end, worker, &cancel, &|row| {
            rows.lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(row)
        })?;
        let mut rows = rows
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        rows.sort_by_key(|r| r.game_index);
        Ok(rows)
    }
}
