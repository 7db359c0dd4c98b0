//! What the tests share: finding a real program (or printing SKIPPED), writing
//! instances and small Python programs, and running one attempt.

// Each test file uses its own part of this module.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hammer_cnf::{Cnf, KSat, Renaming, write_instance};
use hammer_exec::Limits;
use hammer_external::{Record, Request, Solver, SolverSpec, attempt, resolve};

/// The PATH every attempt of the tests gives its program.
pub const PATH: &str = "/usr/bin:/bin";

/// The Python the test programs run on.
pub const PYTHON: &str = "/usr/bin/python3";

/// Whether a missing program fails the test rather than skipping it.
fn required() -> bool {
    std::env::var("HAMMER_REQUIRE_SOLVERS").as_deref() == Ok("1")
}

/// Whether `program` is installed in [`PATH`]; if not, prints a SKIPPED line naming
/// its Debian package, or fails under `HAMMER_REQUIRE_SOLVERS=1`.
pub fn have(program: &str, package: &str) -> bool {
    if resolve(program, OsStr::new(PATH)).is_ok() {
        return true;
    }
    assert!(
        !required(),
        "HAMMER_REQUIRE_SOLVERS=1 but {program} is not installed"
    );
    println!("SKIPPED: no {program} (Debian: apt-get install {package})");
    false
}

/// Whether [`PYTHON`] is there to run the test programs.
pub fn have_python() -> bool {
    if Path::new(PYTHON).is_file() {
        return true;
    }
    assert!(
        !required(),
        "HAMMER_REQUIRE_SOLVERS=1 but {PYTHON} is missing"
    );
    println!("SKIPPED: no {PYTHON}");
    false
}

/// A declaration from the TOML of a `[solvers.NAME]` table's body.
pub fn spec(toml: &str) -> SolverSpec {
    toml::from_str(toml).unwrap_or_else(|e| panic!("{toml}: {e}"))
}

/// A declaration checked.
pub fn solver(toml: &str) -> Solver {
    spec(toml)
        .validate()
        .unwrap_or_else(|e| panic!("{toml}: {e}"))
}

/// Random 3-SAT with `vars` variables at `ratio`, written to `dir`.
pub fn instance(dir: &Path, vars: u64, ratio: f64, index: u64) -> (Cnf, PathBuf) {
    let cnf = KSat::with_ratio(3, vars, ratio)
        .expect("valid")
        .generate(2026, index)
        .expect("generated");
    let path = dir.join(format!("ksat-{vars}-{ratio}-{index}.cnf"));
    write_instance(&cnf, &path).expect("written");
    (cnf, path)
}

/// A Python program in `dir`, run through its `#!` line (no shell).
pub fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!{PYTHON}\n{body}")).expect("written");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

/// Limits generous enough that no test run meets them unless it means to.
pub fn limits() -> Limits {
    Limits {
        cpu: Some(Duration::from_secs(60)),
        wall: Some(Duration::from_secs(120)),
        ..Limits::default()
    }
}

/// One attempt's settings, with the defaults the tests mostly want.
pub struct Attempt<'a> {
    pub solver: &'a Solver,
    pub instance: &'a Path,
    pub formula: Option<&'a Cnf>,
    pub renaming: Option<&'a Renaming>,
    pub seed: u64,
    pub budget: Option<u64>,
    pub limits: Limits,
    pub scratch: &'a Path,
    pub keep: bool,
}

impl<'a> Attempt<'a> {
    pub fn new(solver: &'a Solver, instance: &'a Path, scratch: &'a Path) -> Self {
        Attempt {
            solver,
            instance,
            formula: None,
            renaming: None,
            seed: 1,
            budget: None,
            limits: limits(),
            scratch,
            keep: false,
        }
    }

    pub fn run(&self) -> Record {
        let executable = resolve(self.solver.program(), OsStr::new(PATH))
            .unwrap_or_else(|e| panic!("{}: {e}", self.solver.program()));
        let request = Request {
            solver: self.solver,
            executable: &executable,
            instance: self.instance,
            formula: self.formula,
            renaming: self.renaming,
            seed: self.seed,
            budget: self.budget,
            path: OsStr::new(PATH),
            limits: self.limits,
            scratch: self.scratch,
            keep: self.keep,
        };
        attempt(&request).unwrap_or_else(|e| panic!("attempt: {e}"))
    }
}
