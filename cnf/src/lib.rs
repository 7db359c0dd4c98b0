//! SAT instances and the answers of SAT solvers, for sweeps that run external solvers:
//!
//! - [`Cnf`], a formula; [`dimacs`] reads it (every error with its line, column and
//!   token) and writes it in one canonical form.
//! - [`read_instance`] reads a file stored plain, as gzip or as xz (see [`mod@file`] for
//!   the choice of decoders) and digests it: [`Digest`], the SHA-256 of the bytes as
//!   stored, which a sweep's identity records for every file it names.
//! - [`KSat`], uniform random k-SAT, and [`shuffle()`], a seeded renaming and reordering of
//!   an instance with its [`Renaming`] back. Both draw from `hammer-puzzle`'s seeded
//!   streams, so every random number in hammer comes from one place, and their
//!   procedures are documented as contracts that golden tests pin.
//! - [`Model`] and [`Cnf::check`]: whether an assignment satisfies a formula.
//! - [`parse_output`] and [`parse_minisat_result`]: a solver's answer ([`Answer`]) from
//!   its output in the SAT competition's form or MiniSat's result file; never a panic,
//!   whatever the bytes.
//! - [`CostPattern`]: the solver's cost (conflicts, say) read from its output by a
//!   user's regular expression.
//!
//! The crate runs no solver: it is the vocabulary that the sweep, the worker and their
//! tests share. Its tests run the real solvers Debian packages (CaDiCaL, MiniSat,
//! PicoSAT, CryptoMiniSat).

pub mod cost;
pub mod digest;
pub mod dimacs;
pub mod file;
mod formula;
pub mod ksat;
mod model;
pub mod output;
pub mod shuffle;

pub use cost::{CostError, CostPattern};
pub use digest::Digest;
pub use dimacs::{ParseError, ParseErrorKind};
pub use file::{Compression, FileError, InstanceFile, read_instance, write_instance};
pub use formula::{ClauseError, Cnf, MAX_VARS};
pub use ksat::{KSat, KSatError};
pub use model::{Model, ModelError, Violation};
pub use output::{Answer, OutputError, Status, parse_minisat_result, parse_output};
pub use shuffle::{Renaming, ShuffleError, Signs, shuffle};
