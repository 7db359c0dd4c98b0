//! Solving games directly, without any cluster: the function the worker runs for every
//! game, and a pool that runs a unit on all cores.
//!
//! Tests and benchmarks call these to know what the cluster must produce, so the cluster
//! and the direct path share this single piece of code.

use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use hammer_dataset::ResultRow;
use hammer_family::{FamilyError, FamilyRef, GameSolver, Instance, Job};
use hammer_proto::v1::GameResult;
use hammer_solver::{Cancel, Cap, Memo};
use hammer_sweep::{Sweep, Unit, UnitRows};

/// The version written to the dataset's `hammer_version` column.
pub const HAMMER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Why a game or unit could not be solved.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The unit names an experiment, configuration or point the sweep does not have: the
    /// unit came from another sweep.
    #[error("unit {unit} does not belong to sweep {sweep:?}")]
    UnknownUnit {
        /// The unit's id.
        unit: String,
        /// The sweep's name.
        sweep: String,
    },
    /// The family could not make or solve the instance (an index past its instances).
    #[error("game {index} of unit {unit}")]
    Instance {
        /// The unit's id.
        unit: String,
        /// The game's index in its experiment.
        index: u64,
        /// What the family said.
        #[source]
        source: FamilyError,
    },
    /// The pool's threads could not be started.
    #[error("cannot start the solver threads")]
    ThreadPool(#[from] rayon::ThreadPoolBuildError),
    /// A gang member's search thread could not be started.
    #[error("cannot start a gang member's thread")]
    ThreadStart(#[source] std::io::Error),
    /// The unit was abandoned (it was committed by another worker, or the worker stops).
    #[error("solving was cancelled")]
    Cancelled,
    /// The gang searching game `index` broke or did not form: the coordinator leases the
    /// game again to a new gang.
    #[error("the gang searching game {index} of unit {unit} broke")]
    Gang {
        /// The unit's id.
        unit: String,
        /// The game's index in its experiment.
        index: u64,
        /// What broke.
        #[source]
        source: Box<crate::gang::GangFailure>,
    },
}

/// One thread's solvers, one per family met so far: a solver keeps its memo and buffers
/// from one game to the next, because they are expensive to allocate.
#[derive(Default)]
pub struct GameSolvers {
    by_family: Vec<(&'static str, Box<dyn GameSolver>)>,
}

impl GameSolvers {
    /// No solvers yet: each is made when its family is first met.
    pub fn new() -> GameSolvers {
        GameSolvers::default()
    }

    /// The solver of `family`, made on first use.
    pub fn get(&mut self, family: FamilyRef) -> &mut dyn GameSolver {
        let name = family.name();
        let at = match self.by_family.iter().position(|(n, _)| *n == name) {
            Some(at) => at,
            None => {
                self.by_family.push((name, family.solver()));
                self.by_family.len() - 1
            }
        };
        self.by_family[at].1.as_mut()
    }
}

/// Solves game `index` of unit `unit` of `sweep` and returns its per-game values, as the
/// worker sends them to the coordinator (the rest of the row is fixed by the lease and
/// the registration, so it is not repeated for every game).
///
/// The instance is the family's seeded instance `index` of the unit's point and the run
/// seed the family's `run_seed(point, sweep.seed, index, trial)`, so the values are a
/// pure function of the sweep text and the key, apart from `wall_ns`.
pub fn solve_game(
    sweep: &Sweep,
    unit: &Unit,
    index: u64,
    solvers: &mut GameSolvers,
) -> Result<GameResult, SolveError> {
    solve_game_cancellable(sweep, unit, index, solvers, None)
}

/// [`solve_game`] that can be given up: once `cancel` is set the search stops within a few thousand expansions and the game is
/// [`SolveError::Cancelled`]: its values are never a result.
pub fn solve_game_cancellable(
    sweep: &Sweep,
    unit: &Unit,
    index: u64,
    solvers: &mut GameSolvers,
    cancel: Option<&Cancel>,
) -> Result<GameResult, SolveError> {
    let (experiment, config, point) =
        sweep
            .context_of(unit)
            .ok_or_else(|| SolveError::UnknownUnit {
                unit: unit.id(),
                sweep: sweep.name.clone(),
            })?;
    let family = experiment.family;
    let run_seed = config.run_seed(family, point, sweep.seed, index);
    let instance = Instance::Seeded {
        sweep_seed: sweep.seed,
        index,
    };
    let mut solver_config = config.solver_config();
    solver_config.cancel = cancel.cloned();
    let started = Instant::now();
    let solved = solvers
        .get(family)
        .solve(Job {
            point,
            instance,
            config: &solver_config,
            run_seed,
            program: experiment.program.as_ref(),
        })
        .map_err(|source| SolveError::Instance {
            unit: unit.id(),
            index,
            source,
        })?;
    if cancel.is_some_and(Cancel::is_set) || solved.capped_by() == Some(Cap::Cancelled) {
        return Err(SolveError::Cancelled);
    }
    let wall_ns = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
    Ok(GameResult {
        game_index: index,
        wall_ns,
        ..solved.game
    })
}

/// A rayon pool with one reusable solver per thread.
///
/// Solvers are indexed by rayon's thread index rather than created per task, because
/// rayon splits a range into many more tasks than threads and a fresh solver allocates
/// its memo; the mutexes are never contended (one thread, one solver).
///
/// Several units may be solved on one pool at once (`hammer run` and `hammer worker
/// --leases` run one worker loop per lease over a shared pool, so that units of one game
/// still fill every core): their games share the pool's queue and threads (see
/// [`SolverPool::solve_range`] for why each game is a job of its own), and the memory
/// budget is the pool's, shared by all of them.
pub struct SolverPool {
    pool: rayon::ThreadPool,
    solvers: Vec<Mutex<GameSolvers>>,
    budget: MemoryBudget,
}

/// What one game needs besides its memo: buffers, the stack, the solver itself; a
/// generous allowance so that `--memory-limit` holds for the process as a whole.
const GAME_OVERHEAD: u64 = 16 << 20;

/// The memory the pool's running games may claim together (`--memory-limit`): a game
/// whose memo is limited claims its memo's peak ([`Memo::peak_bytes`], up to twice the
/// limit while the table grows) plus [`GAME_OVERHEAD`] before it starts and waits while
/// that would not fit, unless nothing else runs (one game always may).
struct MemoryBudget {
    limit: Option<u64>,
    claimed: Mutex<u64>,
    freed: std::sync::Condvar,
}

impl MemoryBudget {
    fn new(limit: Option<u64>) -> MemoryBudget {
        MemoryBudget {
            limit,
            claimed: Mutex::new(0),
            freed: std::sync::Condvar::new(),
        }
    }

    /// Blocks until `bytes` fit; returns what was claimed (0 without a limit), for
    /// [`MemoryBudget::release`].
    fn claim(&self, bytes: u64) -> u64 {
        let Some(limit) = self.limit.filter(|_| bytes > 0) else {
            return 0;
        };
        let mut claimed = self.claimed.lock().unwrap_or_else(|p| p.into_inner());
        while *claimed > 0 && *claimed + bytes > limit {
            claimed = self.freed.wait(claimed).unwrap_or_else(|p| p.into_inner());
        }
        *claimed += bytes;
        bytes
    }

    fn release(&self, bytes: u64) {
        if bytes == 0 {
            return;
        }
        let mut claimed = self.claimed.lock().unwrap_or_else(|p| p.into_inner());
        *claimed = claimed.saturating_sub(bytes);
        drop(claimed);
        self.freed.notify_all();
    }
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
            .map(|_| Mutex::new(GameSolvers::new()))
            .collect();
        Ok(SolverPool {
            pool,
            solvers,
            budget: MemoryBudget::new(None),
        })
    }

    /// Keeps the games solved at once within `bytes` of memory: games whose experiment
    /// limits each game's memo (`max_memo_mb`) run on as many threads as fit, whichever
    /// units they belong to. Games without a memo limit cannot be bounded this way
    /// (limiting their memo here would make expansions depend on the worker), so they
    /// run on every thread.
    pub fn with_memory_limit(mut self, bytes: Option<u64>) -> SolverPool {
        self.budget = MemoryBudget::new(bytes);
        self
    }

    /// What one game of `unit` claims from the memory budget: 0 when its memo is not
    /// limited.
    fn game_bytes(&self, sweep: &Sweep, unit: &Unit) -> u64 {
        sweep
            .config_of(unit)
            .and_then(|(_, config)| config.limits.memo_bytes)
            .map_or(0, |memo| Memo::peak_bytes(memo) + GAME_OVERHEAD)
    }

    /// The number of solver threads.
    pub fn threads(&self) -> usize {
        self.solvers.len()
    }

    /// Solves games `games` (a sub-range of `unit`) on all threads of the pool, passing
    /// each game's values to `emit` as soon as it is done (in no particular order). Stops
    /// early with [`SolveError::Cancelled`] once `cancel` is set.
    ///
    /// Every game is its own job, spawned from the calling thread (never a pool thread)
    /// into the pool's queue, and the caller waits without taking part. Not a parallel
    /// iterator: a pool thread waiting in a `join` of one unit steals the games of
    /// another unit solved on the same pool and runs them nested on its stack, so the
    /// first unit's call could not return, nor its worker loop lease the next unit,
    /// until an unrelated game of the other unit ended, while the other thread idled.
    /// Here a pool thread only ever runs one game at a time, from start to end.
    pub fn solve_range(
        &self,
        sweep: &Sweep,
        unit: &Unit,
        games: std::ops::Range<u64>,
        cancel: &Cancel,
        emit: &(dyn Fn(GameResult) + Sync),
    ) -> Result<(), SolveError> {
        let bytes = self.game_bytes(sweep, unit);
        // The first error ends the range: later games are skipped, the error returned.
        let failure: OnceLock<SolveError> = OnceLock::new();
        self.pool.in_place_scope(|scope| {
            for index in games {
                let failure = &failure;
                scope.spawn(move |_| {
                    if cancel.is_set() {
                        let _ = failure.set(SolveError::Cancelled);
                        return;
                    }
                    if failure.get().is_some() {
                        return;
                    }
                    match self.solve_one(sweep, unit, index, bytes, cancel) {
                        Ok(game) => emit(game),
                        Err(e) => {
                            let _ = failure.set(e);
                        }
                    }
                });
            }
        });
        match failure.into_inner() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Solves one game on the current pool thread with that thread's solver, within the
    /// memory budget.
    fn solve_one(
        &self,
        sweep: &Sweep,
        unit: &Unit,
        index: u64,
        bytes: u64,
        cancel: &Cancel,
    ) -> Result<GameResult, SolveError> {
        let claimed = self.budget.claim(bytes);
        let slot = rayon::current_thread_index().unwrap_or(0) % self.solvers.len();
        // A panic while holding the lock cannot leave the solver inconsistent in a way
        // that matters: `solve` resets it at the start of every game.
        let mut solver = self.solvers[slot]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let game = solve_game_cancellable(sweep, unit, index, &mut solver, Some(cancel));
        drop(solver);
        self.budget.release(claimed);
        game
    }

    /// Solves a whole unit and returns its rows sorted by game index: the direct path
    /// that benchmarks and tests compare the cluster with.
    pub fn solve_unit(
        &self,
        sweep: &Sweep,
        unit: &Unit,
        worker: &str,
    ) -> Result<Vec<ResultRow>, SolveError> {
        let unknown = || SolveError::UnknownUnit {
            unit: unit.id(),
            sweep: sweep.name.clone(),
        };
        let shared = UnitRows::new(sweep, unit).ok_or_else(unknown)?;
        let games = Mutex::new(Vec::with_capacity(unit.games() as usize));
        let cancel = Cancel::new();
        self.solve_range(sweep, unit, unit.start..unit.end, &cancel, &|game| {
            games
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(game)
        })?;
        let mut games = games
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        games.sort_by_key(|g| g.game_index);
        Ok(games
            .iter()
            .map(|g| shared.owned_row(g, worker, HAMMER_VERSION))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::{MemoryBudget, SolveError, SolverPool};
    use hammer_solver::Cancel;
    use hammer_sweep::{Sweep, Unit};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    /// Two units on one pool of two threads: the first of two quick 8x8 games (29 and 30
    /// of seed 2013, about a second in all), then, while they run, one of a game that
    /// runs until it is cancelled (game 27: open after 10 million expansions, capped here
    /// at a billion). The quick unit's call must return once its own games are done. With
    /// a parallel iterator it did not: the thread that finished game 29 waited in the
    /// unit's `join` for game 30, stole the other unit's game and ran it nested on its
    /// stack, so the call returned only when that game ended (the worker loop then could
    /// not lease its next unit, as seen in a 7x7 sweep's `hammer status`).
    #[test]
    fn a_unit_is_done_when_its_games_are_whatever_another_unit_runs() {
        let sweep = Sweep::parse(
            r#"
name = "two-units"
seed = 2013

[[experiment]]
name = "frontier"
sizes = [8]
games = 40
orders = ["random"]
schedules = ["luby:256"]
max_expansions = 1_000_000_000
max_memo_mb = 64
"#,
            "test",
        )
        .expect("the test's sweep parses");
        let first = sweep.units()[0];
        let (quick_games, long_games) = (
            Unit {
                start: 29,
                end: 31,
                ..first
            },
            Unit {
                start: 27,
                end: 28,
                ..first
            },
        );
        let pool = Arc::new(SolverPool::new(2).expect("a pool of two threads"));
        let endless = Cancel::new();
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let quick = {
            let (pool, sweep, done_tx) = (pool.clone(), sweep.clone(), done_tx.clone());
            std::thread::spawn(move || {
                let solved =
                    pool.solve_range(&sweep, &quick_games, 29..31, &Cancel::new(), &|_| {});
                let _ = done_tx.send("quick");
                solved
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        let long = {
            let (pool, sweep, endless) = (pool.clone(), sweep.clone(), endless.clone());
            std::thread::spawn(move || {
                let solved = pool.solve_range(&sweep, &long_games, 27..28, &endless, &|_| {});
                let _ = done_tx.send("long");
                solved
            })
        };
        let first_done = done_rx.recv_timeout(Duration::from_secs(120));
        endless.set();
        assert!(quick.join().expect("no panic").is_ok());
        let long = long.join().expect("no panic");
        assert_eq!(
            first_done,
            Ok("quick"),
            "the quick unit's call waited for the other unit's game"
        );
        assert!(
            matches!(long, Err(SolveError::Cancelled)),
            "game 27 ran until cancelled: {long:?}"
        );
    }

    #[test]
    fn a_claim_that_does_not_fit_waits_for_a_release() {
        let budget = Arc::new(MemoryBudget::new(Some(100)));
        assert_eq!(budget.claim(60), 60);
        let granted = Arc::new(AtomicBool::new(false));
        let waiter = {
            let (budget, granted) = (budget.clone(), granted.clone());
            std::thread::spawn(move || {
                let claimed = budget.claim(60);
                granted.store(true, Ordering::SeqCst);
                budget.release(claimed);
            })
        };
        std::thread::sleep(Duration::from_millis(100));
        assert!(!granted.load(Ordering::SeqCst), "60 + 60 bytes fit in 100");
        budget.release(60);
        waiter.join().unwrap();
        assert!(granted.load(Ordering::SeqCst));
    }

    #[test]
    fn one_game_always_runs_and_unlimited_games_claim_nothing() {
        let budget = MemoryBudget::new(Some(10));
        // Larger than the whole budget: it runs alone rather than never.
        assert_eq!(budget.claim(50), 50);
        budget.release(50);
        let unlimited = MemoryBudget::new(None);
        assert_eq!(unlimited.claim(50), 0);
        assert_eq!(unlimited.claim(50), 0);
        // A game without a memo limit claims nothing even under a limit.
        assert_eq!(budget.claim(0), 0);
    }
}
