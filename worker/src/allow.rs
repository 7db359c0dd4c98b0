//! Which outside programs a worker runs: a sweep file names programs, and a standing
//! coordinator takes sweep files from anyone who holds its token, so a worker runs only
//! the executables it was started with (`hammer worker --allow-solver PATH`), compared
//! by path and SHA-256. `hammer run` runs the sweep its user gave it, and so its solvers.

use std::ffi::OsStr;

use hammer_external::{Executable, resolve};
use hammer_sweep::Sweep;

use crate::error::WorkerError;

/// The programs this worker runs.
#[derive(Clone, Debug, Default)]
pub enum Solvers {
    /// Those of the executables given, each resolved and digested when the worker
    /// started; none when the list is empty.
    Allowed(Vec<Executable>),
    /// Those the sweep names: for `hammer run`, whose user wrote the sweep.
    #[default]
    TheSweeps,
}

impl Solvers {
    /// The executables named (paths or names on `path`), resolved and digested now.
    pub fn allow(programs: &[String], path: &OsStr) -> Result<Solvers, WorkerError> {
        let found: Result<Vec<Executable>, _> = programs
            .iter()
            .map(|p| {
                resolve(p, path).map_err(|source| WorkerError::AllowedSolver {
                    program: p.clone(),
                    source,
                })
            })
            .collect();
        Ok(Solvers::Allowed(found?))
    }

    /// Refuses `sweep` when it names a program this worker does not run; `path` is
    /// where the sweep's program names are looked up, as its games will.
    pub fn check(&self, sweep: &Sweep, path: &OsStr) -> Result<(), WorkerError> {
        let Solvers::Allowed(allowed) = self else {
            return Ok(());
        };
        for program in sweep.experiments.iter().filter_map(|e| e.program.as_ref()) {
            let named = program.solver.program();
            let refuse = |reason: String| WorkerError::SolverNotAllowed {
                sweep: sweep.name.clone(),
                solver: program.name.clone(),
                reason,
            };
            let found = resolve(named, path).map_err(|e| refuse(hammer_proto::error_chain(&e)))?;
            let same = |a: &Executable| a.path == found.path && a.digest == found.digest;
            if !allowed.iter().any(same) {
                return Err(refuse(format!(
                    "{} (SHA-256 {}) is not among this worker's --allow-solver programs",
                    found.path.display(),
                    found.digest.to_hex()
                )));
            }
        }
        Ok(())
    }
}
