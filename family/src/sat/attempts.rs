//! A game of the sat family: the instance written once, then the schedule's attempts,
//! each a fresh process of the experiment's [`Program`], until one answers.

use std::ffi::OsString;
use std::path::PathBuf;

use hammer_exec::{Exit, RunStatus};
use hammer_external::{Executable, Record, Request, Solver, SolverSpec, attempt, resolve};
use hammer_proto::v1::GameResult;

use crate::{Cell, FamilyError, GameSolver, Job, Solved, cells_to_wire};

/// The most attempts of one game: an endless schedule (`luby`, `fixed`) over a program
/// that never answers stops here, with the status of its last attempt.
pub const MAX_ATTEMPTS: usize = 100_000;

/// `score` of a game whose model checked: the family's goal.
pub const SCORE_SAT: u32 = 0;
/// `score` of a game whose formula was refuted.
pub const SCORE_UNSAT: u32 = 1;
/// `score` of a game that no attempt decided.
pub const SCORE_UNKNOWN: u32 = 2;

/// A `[solvers.NAME]` declaration as an experiment runs it: the checked solver and the
/// limits of each of its runs. The sweep crate makes it; a sat game runs it.
#[derive(Clone, Debug)]
pub struct Program {
    /// The declaration's name (the dataset's `sat_solver`).
    pub name: String,
    /// The declaration as written, its preset filled in: what two programs are compared by.
    pub spec: SolverSpec,
    /// The checked declaration.
    pub solver: Solver,
    /// The limits of every attempt (the experiment's `limits`).
    pub limits: hammer_exec::Limits,
    /// Whether each attempt gets its own seeded shuffle of the instance.
    pub shuffle: Shuffle,
    /// Where the declaration's command is written, `FILE:LINE:COL: solvers.NAME.command`,
    /// for the messages of a machine that cannot run it.
    pub declared_at: String,
}

/// What an attempt runs on: the instance, or a seeded shuffle of it per attempt
/// (`hammer_cnf::shuffle`, seeded by the attempt's seed), whose model is taken back to
/// the instance before it is checked. Most solvers' seeds change little of what they
/// do; a shuffle gives every attempt a random start whatever the solver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shuffle {
    /// Every attempt reads the instance as generated.
    #[default]
    None,
    /// Variables renamed, clauses and their literals reordered.
    Rename,
    /// As `Rename`, and each variable negated everywhere with probability 1/2.
    RenameAndFlip,
}

impl Shuffle {
    /// The names of `instances.shuffle`, in the order of the variants.
    pub const NAMES: [&'static str; 3] = ["none", "rename", "rename-and-flip"];

    /// The shuffle a name names.
    pub fn of_name(name: &str) -> Option<Shuffle> {
        let all = [Shuffle::None, Shuffle::Rename, Shuffle::RenameAndFlip];
        Shuffle::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| all[i])
    }

    /// The name `instances.shuffle` gives it.
    pub fn name(self) -> &'static str {
        match self {
            Shuffle::None => Shuffle::NAMES[0],
            Shuffle::Rename => Shuffle::NAMES[1],
            Shuffle::RenameAndFlip => Shuffle::NAMES[2],
        }
    }

    fn signs(self) -> Option<hammer_cnf::Signs> {
        match self {
            Shuffle::None => None,
            Shuffle::Rename => Some(hammer_cnf::Signs::Keep),
            Shuffle::RenameAndFlip => Some(hammer_cnf::Signs::Flip),
        }
    }
}

impl PartialEq for Program {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.spec == other.spec
            && self.limits == other.limits
            && self.shuffle == other.shuffle
    }
}

/// One thread's runner: a private directory for its instance files and the programs
/// it resolved, each once.
pub(crate) struct SatSolver {
    scratch: Option<tempfile::TempDir>,
    executables: Vec<(String, Executable)>,
}

impl SatSolver {
    pub(crate) fn new() -> SatSolver {
        SatSolver {
            scratch: None,
            executables: Vec::new(),
        }
    }

    fn scratch(&mut self) -> Result<PathBuf, FamilyError> {
        if self.scratch.is_none() {
            let dir = tempfile::Builder::new()
                .prefix("hammer-sat-")
                .tempdir()
                .map_err(|e| program_error("", format!("cannot make a scratch directory: {e}")))?;
            self.scratch = Some(dir);
        }
        Ok(self
            .scratch
            .as_ref()
            .map(|d| d.path().to_owned())
            .unwrap_or_default())
    }

    /// The program of `program`, resolved on this process's PATH the first time.
    fn executable(
        &mut self,
        program: &Program,
        path: &OsString,
    ) -> Result<Executable, FamilyError> {
        let name = program.solver.program();
        if let Some((_, e)) = self.executables.iter().find(|(n, _)| n == name) {
            return Ok(e.clone());
        }
        let found = resolve(name, path)
            .map_err(|e| program_error(&program.name, hammer_proto::error_chain(&e)))?;
        self.executables.push((name.to_string(), found.clone()));
        Ok(found)
    }
}

fn program_error(name: &str, reason: String) -> FamilyError {
    FamilyError::Program {
        name: name.to_string(),
        reason,
    }
}

/// What the attempts of one game add up to.
#[derive(Default)]
struct Tally {
    attempts: u32,
    cost: Option<f64>,
    user_ns: u64,
    system_ns: u64,
    peak: u64,
    last: Option<Record>,
}

impl Tally {
    fn add(&mut self, record: Record) {
        self.attempts += 1;
        if let Some(c) = record.cost {
            self.cost = Some(self.cost.unwrap_or(0.0) + c);
        }
        self.user_ns += nanos(record.run.cpu_user);
        self.system_ns += nanos(record.run.cpu_system);
        self.peak = self.peak.max(record.run.peak_memory);
        self.last = Some(record);
    }
}

fn nanos(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

fn int(v: u64) -> Cell {
    Cell::Int(i64::try_from(v).unwrap_or(i64::MAX))
}

/// The seed of attempt `i` of a game: the run seed mixed with `i`, below 2^31 because
/// solvers read their seed as a C `int`.
fn attempt_seed(run_seed: u64, i: u64) -> u64 {
    hammer_engine::mix::mix64(run_seed ^ hammer_engine::mix::mix64(i.wrapping_add(1))) & 0x7fff_ffff
}

impl GameSolver for SatSolver {
    fn solve(&mut self, job: Job<'_>) -> Result<Solved, FamilyError> {
        let program = job.program.ok_or(FamilyError::NoProgram)?;
        let cnf = super::formula(job.point, job.instance)?;
        let scratch = self.scratch()?;
        let file = scratch.join("instance.cnf");
        let digest = hammer_cnf::write_instance(&cnf, &file)
            .map_err(|e| program_error(&program.name, hammer_proto::error_chain(&e)))?;
        let path = std::env::var_os("PATH").unwrap_or_default();
        let executable = self.executable(program, &path)?;
        let mut tally = Tally::default();
        let budgets = job.config.schedule.budgets().take(MAX_ATTEMPTS);
        for (i, budget) in budgets.enumerate() {
            if job.config.cancel.as_ref().is_some_and(|c| c.is_set()) {
                break;
            }
            let seed = attempt_seed(job.run_seed, i as u64);
            let shuffled = match program.shuffle.signs() {
                None => None,
                Some(signs) => Some(shuffled(program, &cnf, seed, signs, &scratch)?),
            };
            let request = Request {
                solver: &program.solver,
                executable: &executable,
                instance: shuffled.as_ref().map_or(&file, |(path, _)| path),
                formula: Some(&cnf),
                renaming: shuffled.as_ref().map(|(_, r)| r),
                seed,
                budget,
                path: &path,
                limits: program.limits,
                scratch: &scratch,
                keep: false,
            };
            let record = attempt(&request)
                .map_err(|e| program_error(&program.name, hammer_proto::error_chain(&e)))?;
            let go_on = record.status == RunStatus::Unknown;
            tally.add(record);
            if !go_on {
                break;
            }
        }
        Ok(solved(program, &cnf, &digest, &executable, tally))
    }
}

/// The shuffle of `cnf` by `seed`, written beside the instance, and its renaming.
fn shuffled(
    program: &Program,
    cnf: &hammer_cnf::Cnf,
    seed: u64,
    signs: hammer_cnf::Signs,
    scratch: &std::path::Path,
) -> Result<(PathBuf, hammer_cnf::Renaming), FamilyError> {
    let fail = |reason: String| program_error(&program.name, reason);
    let (shuffle, renaming) = hammer_cnf::shuffle(cnf, seed, 0, signs)
        .map_err(|e| fail(hammer_proto::error_chain(&e)))?;
    let path = scratch.join("shuffled.cnf");
    hammer_cnf::write_instance(&shuffle, &path).map_err(|e| fail(hammer_proto::error_chain(&e)))?;
    Ok((path, renaming))
}

/// The game's record from its attempts.
fn solved(
    program: &Program,
    cnf: &hammer_cnf::Cnf,
    digest: &hammer_cnf::Digest,
    executable: &Executable,
    tally: Tally,
) -> Solved {
    let status = tally.last.as_ref().map(|r| r.status);
    let score = match status {
        Some(RunStatus::Solved) => SCORE_SAT,
        Some(RunStatus::Refuted) => SCORE_UNSAT,
        _ => SCORE_UNKNOWN,
    };
    let capped_by = match status {
        Some(RunStatus::Unknown) => hammer_solver::Cap::Expansions.name(),
        Some(RunStatus::Timeout) => hammer_solver::Cap::Time.name(),
        _ => "",
    };
    let (exit, signal) = match tally.last.as_ref().map(|r| &r.run.exit) {
        Some(Exit::Code(c)) => (Cell::Int(i64::from(*c)), Cell::Null),
        Some(Exit::Signal(s)) => (Cell::Null, Cell::Int(i64::from(*s))),
        _ => (Cell::Null, Cell::Null),
    };
    let header = format!("p cnf {} {}", cnf.vars(), cnf.num_clauses());
    let extra = vec![
        Cell::Text(program.name.clone()),
        Cell::Text(status.map_or("", RunStatus::name).to_string()),
        int(cnf.num_clauses() as u64),
        Cell::Text(digest.to_hex()),
        Cell::Text(executable.digest.to_hex()),
        tally
            .cost
            .map_or(Cell::Null, |c| Cell::Int(c.round() as i64)),
        int(tally.user_ns),
        int(tally.system_ns),
        int(tally.peak),
        exit,
        signal,
        tally.last.as_ref().map_or(Cell::Null, |r| {
            Cell::Text(String::from_utf8_lossy(&r.run.stderr_tail).into_owned())
        }),
        tally
            .last
            .as_ref()
            .map_or(Cell::Null, |r| Cell::Text(r.run.method.name().to_string())),
    ];
    Solved {
        game: GameResult {
            board: header.clone(),
            start: header,
            score,
            exhaustive: score != SCORE_UNKNOWN,
            expansions: tally.cost.map_or(0, |c| c.max(0.0).round() as u64),
            attempts: tally.attempts,
            capped_by: capped_by.to_string(),
            extra: cells_to_wire(extra),
            ..GameResult::default()
        },
        heuristic_steps: 0,
        memo_states: 0,
        profile: None,
    }
}
