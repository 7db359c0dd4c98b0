//! One measured attempt of an external solver: the layer between a sweep file's solver
//! declaration and [`hammer_exec::run`].
//!
//! - [`SolverSpec`] is a `[solvers.NAME]` table as written; [`SolverSpec::validate`]
//!   fills in its preset (`presets.toml`, embedded: CaDiCaL, Kissat, MiniSat,
//!   CryptoMiniSat) and checks it into a [`Solver`], or says which field (and which
//!   element of `command`) is wrong.
//! - [`resolve`] finds the program in a PATH the caller gives and digests its bytes.
//! - [`attempt`] runs one attempt and gives a [`Record`]: the status in BenchExec's
//!   precedence, what the program answered (checked where it can be), its cost in its
//!   own unit, and what it used.
//!
//! The output forms: `dimacs` (the SAT competition's `s`/`v` lines and exit codes),
//! `minisat` (MiniSat's result file, at `{tmp}/result`), `json` (hammer's own protocol:
//! one object in the file at `HAMMER_RESULT`, or on the last line of standard output;
//! see [`mod@json`]) and `exit-code` (the exit code alone, mapped to a status).
//!
//! **Invariants.**
//! - Never a shell: each element of a command is one argument, its placeholders
//!   expanded in place ([`placeholders`]).
//! - A clean environment: the program sees `PATH` as the caller gives it, `HOME` and
//!   `TMPDIR` set to its private directory, and for JSON `HAMMER_RESULT`; nothing of
//!   the caller's environment.
//! - A model is believed only once checked against the formula, and the model of a
//!   shuffled instance only after [`hammer_cnf::Renaming::to_original`] took it back
//!   to the original: a failed check is `wrong`.
//! - No bytes a program prints or writes make this crate panic or hold more than the
//!   run's output limit of them.
//!
//! **Boundaries.** The crate knows no sweep, dataset or network: the sweep crate reads
//! `[solvers.NAME]` into a [`SolverSpec`] (holding the TOML spans that
//! [`SpecError::field`] and [`SpecError::index`] point into), and the worker calls
//! [`attempt`] with instance files it wrote. A solver kept running across attempts
//! (a persistent mode) would be a further form; every attempt here is a fresh process.

mod answer;
mod attempt;
mod executable;
pub mod json;
pub mod placeholders;
mod preset;
mod spec;

pub use answer::{JSON_RESULT, MINISAT_RESULT};
pub use attempt::{AttemptError, Record, Request, attempt};
pub use executable::{Executable, ExecutableError, resolve};
pub use json::Value;
pub use placeholders::{Placeholder, Template, Values};
pub use preset::{PRESETS, names as preset_names, preset};
pub use spec::{ColumnType, Output, Reported, Solver, SolverSpec, SpecError};
