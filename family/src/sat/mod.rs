//! An outside SAT solver on seeded random k-SAT instances, as a family: the points are
//! the generator's parameters (`k`, `vars`, `ratio`), the instances its seeded formulas,
//! and a game runs the experiment's declared program ([`Program`]) as independent
//! attempts, one fresh process per attempt of the configuration's schedule.
//!
//! The record speaks the shared columns' language: `score` is 0 for a checked model
//! (satisfiable), 1 for a refutation and 2 for no answer, so `solvable` (`score <= 0`) is
//! "found satisfiable"; `exhaustive` says the instance was decided; `expansions` is the
//! cost summed over the attempts, in the solver's own unit; `capped_by` is `expansions`
//! when the budget ran out and `time` when a time limit ended the last attempt. The
//! `sat_` columns say what was run and what it used.

mod attempts;

use hammer_cnf::KSat;
use hammer_engine::seeded::MAX_INDEX;

use crate::error::bad;
use crate::{
    ColumnKind, ColumnSpec, Family, FamilyError, GameSolver, Info, Instance, ParamKind, ParamSpec,
    ParamValue, Point, Positions, Search,
};

pub use attempts::{MAX_ATTEMPTS, Program, SCORE_SAT, SCORE_UNKNOWN, SCORE_UNSAT, Shuffle};

/// The family.
#[derive(Clone, Copy, Debug, Default)]
pub struct SatFamily;

/// The widest clause: the generator draws k distinct variables per clause.
const MAX_K: i64 = 16;
/// The most variables of a generated formula.
const MAX_VARS: i64 = 10_000_000;

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "k",
        sweep_key: "k",
        kind: ParamKind::Int { min: 1, max: MAX_K },
        default: Some("3"),
        doc: "literals per clause",
    },
    ParamSpec {
        key: "vars",
        sweep_key: "vars",
        kind: ParamKind::Int {
            min: 1,
            max: MAX_VARS,
        },
        default: None,
        doc: "variables of the formula",
    },
    ParamSpec {
        key: "ratio",
        sweep_key: "ratio",
        kind: ParamKind::Decimal { min: 0, max: 1000 },
        default: Some("4.26"),
        doc: "clauses per variable: the formula has round(ratio x vars) clauses",
    },
];

const COLUMNS: &[ColumnSpec] = &[
    ColumnSpec {
        name: "sat_solver",
        kind: ColumnKind::Utf8,
        doc: "the `[solvers.NAME]` the experiment ran",
    },
    ColumnSpec {
        name: "sat_status",
        kind: ColumnKind::Utf8,
        doc: "the last attempt's status: could-not-start, timeout, memout, crash, wrong, solved, refuted, unknown or error",
    },
    ColumnSpec {
        name: "sat_clauses",
        kind: ColumnKind::Int64,
        doc: "clauses of the instance",
    },
    ColumnSpec {
        name: "sat_instance_digest",
        kind: ColumnKind::Utf8,
        doc: "SHA-256 of the instance as a DIMACS file, before any shuffle, hex",
    },
    ColumnSpec {
        name: "sat_executable_digest",
        kind: ColumnKind::Utf8,
        doc: "SHA-256 of the program's executable, hex",
    },
    ColumnSpec {
        name: "sat_cost",
        kind: ColumnKind::Int64,
        doc: "the cost in the solver's unit (the declaration's `cost` pattern), summed over the attempts; null when no attempt reported one (CaDiCaL prints no conflicts line for a formula decided without a conflict)",
    },
    ColumnSpec {
        name: "sat_cpu_user_ns",
        kind: ColumnKind::Int64,
        doc: "user CPU time of the attempts' process trees, summed (timing)",
    },
    ColumnSpec {
        name: "sat_cpu_system_ns",
        kind: ColumnKind::Int64,
        doc: "system CPU time of the attempts' process trees, summed (timing)",
    },
    ColumnSpec {
        name: "sat_peak_bytes",
        kind: ColumnKind::Int64,
        doc: "the largest peak resident memory of an attempt's process tree (timing)",
    },
    ColumnSpec {
        name: "sat_exit_code",
        kind: ColumnKind::Int32,
        doc: "the last attempt's exit code; null when a signal ended it or it did not start",
    },
    ColumnSpec {
        name: "sat_signal",
        kind: ColumnKind::Int32,
        doc: "the signal that ended the last attempt; null when it exited",
    },
    ColumnSpec {
        name: "sat_stderr",
        kind: ColumnKind::Utf8,
        doc: "the tail of the last attempt's standard error (at most 4 KiB, invalid UTF-8 replaced)",
    },
    ColumnSpec {
        name: "sat_measured_by",
        kind: ColumnKind::Utf8,
        doc: "how the run was measured and contained: cgroup or process-group",
    },
];

const INFO: Info = Info {
    name: "sat",
    summary: "An outside SAT solver ([solvers.NAME]) on seeded uniform random k-SAT: fresh process per attempt, measured and contained",
    params: PARAMS,
    columns: COLUMNS,
    size_param: Some("vars"),
};

/// The generator of a checked point.
fn generator(point: &Point) -> Result<KSat, FamilyError> {
    let k = point.int("k").unwrap_or(3);
    let vars = point.int("vars").unwrap_or(0);
    let ratio: f64 = point
        .text("ratio")
        .and_then(|t| t.parse().ok())
        .unwrap_or(f64::NAN);
    KSat::with_ratio(k as u32, vars as u64, ratio).map_err(|e| bad("ratio", e.to_string()))
}

/// The seed of a point's formulas: the sweep's seed keyed by the point's text, so that
/// instance `i` of two points are drawn independently (not one a prefix of the other).
fn formula_seed(point: &Point, sweep_seed: u64) -> u64 {
    let mut rng = hammer_engine::seeded::stream(sweep_seed, &format!("hammer/sat/{point}"), 0);
    rand_core::Rng::next_u64(&mut rng)
}

/// The formula of `instance` at `point`: a seeded one, or DIMACS text given.
pub(crate) fn formula(
    point: &Point,
    instance: Instance<'_>,
) -> Result<hammer_cnf::Cnf, FamilyError> {
    match instance {
        Instance::Seeded { sweep_seed, index } => {
            if index > MAX_INDEX {
                return Err(FamilyError::NoSuchInstance {
                    index,
                    count: MAX_INDEX + 1,
                });
            }
            generator(point)?
                .generate(formula_seed(point, sweep_seed), index)
                .map_err(|e| bad("vars", e.to_string()))
        }
        Instance::Given(text) => {
            hammer_cnf::dimacs::parse(text.as_bytes()).map_err(|e| FamilyError::BadState {
                text: text.lines().next().unwrap_or("").to_string(),
                reason: e.to_string(),
            })
        }
    }
}

impl Family for SatFamily {
    fn info(&self) -> &'static Info {
        &INFO
    }

    fn point(&self, values: Vec<ParamValue>) -> Result<Point, FamilyError> {
        let point = INFO.point(values);
        generator(&point)?;
        Ok(point)
    }

    fn instance_count(&self, _point: &Point) -> Option<u64> {
        None
    }

    /// A checked model: `score` 0.
    fn goal(&self, _point: &Point) -> u32 {
        SCORE_SAT
    }

    fn search(&self) -> Search {
        Search::Program
    }

    fn solver(&self) -> Box<dyn GameSolver> {
        Box::new(attempts::SatSolver::new())
    }

    fn game(&self, _point: &Point) -> Result<Box<dyn Positions>, FamilyError> {
        Err(FamilyError::NoPositions { family: INFO.name })
    }

    /// The instance's formula as DIMACS text.
    fn instance(&self, point: &Point, instance: Instance<'_>) -> Result<String, FamilyError> {
        let cnf = formula(point, instance)?;
        Ok(String::from_utf8_lossy(&hammer_cnf::dimacs::to_bytes(&cnf)).into_owned())
    }

    fn answer(&self, _question: &serde_json::Value) -> Result<serde_json::Value, FamilyError> {
        Err(FamilyError::BadQuestion(
            "puzzle sat has no spec of questions: its rules are the solver's".to_string(),
        ))
    }
}
