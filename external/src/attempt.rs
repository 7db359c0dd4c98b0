//! One attempt: a private directory, the command expanded, the program run contained
//! in a clean environment, its answer read, and one record of it all.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use hammer_cnf::{Cnf, Renaming};
use hammer_exec::{Command, ExecError, Limits, Measured, RunStatus, Verdict};
use thiserror::Error;

use crate::answer::{self, Check, JSON_RESULT};
use crate::executable::Executable;
use crate::json::Value;
use crate::placeholders::{Placeholder, Values};
use crate::spec::{Output, Solver};

/// What one attempt runs, on what, and how far.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The checked declaration.
    pub solver: &'a Solver,
    /// Its program, resolved (see [`crate::resolve`]).
    pub executable: &'a Executable,
    /// The instance file the program reads, already on disk.
    pub instance: &'a Path,
    /// The formula a model is checked against: the original one when `renaming` is
    /// given. Needed by the `dimacs` and `minisat` forms, which check models.
    pub formula: Option<&'a Cnf>,
    /// When the instance file is a shuffle of `formula`: the renaming that takes its
    /// models back to `formula`, applied before the check.
    pub renaming: Option<&'a Renaming>,
    /// The value of `{seed}`.
    pub seed: u64,
    /// The value of `{budget}`, in the declaration's unit; needed when the command
    /// names it.
    pub budget: Option<u64>,
    /// The PATH the program sees (its only variable besides `HOME`, `TMPDIR` and, for
    /// JSON, `HAMMER_RESULT`).
    pub path: &'a OsStr,
    /// The limits of the run.
    pub limits: Limits,
    /// The directory in which the run's private directory is made.
    pub scratch: &'a Path,
    /// Keep the private directory after the run (its path is in [`Record::kept`]).
    pub keep: bool,
}

/// What one attempt did and answered.
#[derive(Clone, Debug)]
pub struct Record {
    /// The one status of the run.
    pub status: RunStatus,
    /// What the answer said, as checked.
    pub verdict: Verdict,
    /// Why the answer was not understood or is wrong; `None` otherwise.
    pub reason: Option<String>,
    /// The cost in the solver's unit: by the declaration's pattern, else as the JSON
    /// answer reported it. A float, since a pattern may read any number (seconds, say);
    /// a count stays exact up to 2^53.
    pub cost: Option<f64>,
    /// The score a JSON answer reported.
    pub score: Option<i64>,
    /// The extra values a JSON answer reported, by column.
    pub extras: BTreeMap<String, Value>,
    /// What the runner measured: how the program ended, whether a limit ended it, its
    /// times, peak memory and standard error's tail. Its `stdout` is left empty: the
    /// answer has been read from it.
    pub run: Measured,
    /// The command as run: the executable's path, then the expanded arguments.
    pub argv: Vec<OsString>,
    /// The private directory, when it was kept.
    pub kept: Option<PathBuf>,
}

/// An attempt that could not be made; a program that fails is a [`Record`], not this.
#[derive(Debug, Error)]
pub enum AttemptError {
    /// The command names `{budget}` but the request has none.
    #[error("the command passes {{budget}}, but the attempt has no budget")]
    NoBudget,
    /// A form that checks models without a formula to check them against.
    #[error("output `{output}` checks models, but the attempt has no formula")]
    NoFormula {
        /// The output form.
        output: &'static str,
    },
    /// The instance file is not there.
    #[error("the instance {} cannot be read", .path.display())]
    Instance {
        /// The instance's path.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// The private directory could not be made.
    #[error("cannot make a private directory in {}", .path.display())]
    Scratch {
        /// The scratch directory.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// The runner failed (not the program).
    #[error("cannot run the attempt")]
    Run {
        /// The runner's error.
        #[source]
        source: ExecError,
    },
}

/// Runs one attempt and reads its answer. The private directory, `{tmp}`, is the run's
/// working directory, `HOME` and `TMPDIR`; it is removed afterwards unless
/// [`Request::keep`] (a removal that fails leaves it behind, unreported).
pub fn attempt(request: &Request<'_>) -> Result<Record, AttemptError> {
    let solver = request.solver;
    if request.budget.is_none() && solver.uses(Placeholder::Budget) {
        return Err(AttemptError::NoBudget);
    }
    let checks_models = matches!(solver.output(), Output::Dimacs | Output::Minisat);
    if checks_models && request.formula.is_none() {
        return Err(AttemptError::NoFormula {
            output: solver.output().name(),
        });
    }
    let instance_error = |source| AttemptError::Instance {
        path: request.instance.to_owned(),
        source,
    };
    std::fs::metadata(request.instance).map_err(instance_error)?;
    let instance = std::path::absolute(request.instance).map_err(instance_error)?;
    let private = tempfile::Builder::new()
        .prefix("attempt-")
        .tempdir_in(request.scratch)
        .map_err(|source| AttemptError::Scratch {
            path: request.scratch.to_owned(),
            source,
        })?;
    let tmp = private.path().to_owned();
    let values = Values {
        instance: instance.as_os_str(),
        seed: request.seed,
        budget: request.budget,
        tmp: tmp.as_os_str(),
    };
    let args: Vec<OsString> = solver.args().iter().map(|a| a.expand(&values)).collect();
    let command = Command {
        program: request.executable.path.clone(),
        args: args.clone(),
        dir: tmp.clone(),
        env: environment(solver, request.path, &tmp),
        stdin: Vec::new(),
        limits: request.limits,
    };
    let mut measured = hammer_exec::run(&command).map_err(|source| AttemptError::Run { source })?;
    let check = Check {
        formula: request.formula,
        renaming: request.renaming,
    };
    let reading = answer::read(solver, &measured, &tmp, check, request.limits.output);
    let status = RunStatus::of(&measured, reading.verdict);
    measured.stdout = Vec::new();
    let kept = request.keep.then(|| private.keep());
    let mut argv = vec![request.executable.path.clone().into_os_string()];
    argv.extend(args);
    Ok(Record {
        status,
        verdict: reading.verdict,
        reason: reading.reason,
        cost: reading.cost,
        score: reading.score,
        extras: reading.extras,
        run: measured,
        argv,
        kept,
    })
}

/// The program's whole environment: the PATH given, the private directory as `HOME`
/// and `TMPDIR`, and for JSON `HAMMER_RESULT`. Nothing of this process's.
fn environment(solver: &Solver, path: &OsStr, tmp: &Path) -> Vec<(OsString, OsString)> {
    let mut env = vec![
        ("PATH".into(), path.to_owned()),
        ("HOME".into(), tmp.as_os_str().to_owned()),
        ("TMPDIR".into(), tmp.as_os_str().to_owned()),
    ];
    if let Output::Json { .. } = solver.output() {
        env.push((
            "HAMMER_RESULT".into(),
            tmp.join(JSON_RESULT).into_os_string(),
        ));
    }
    env
}
