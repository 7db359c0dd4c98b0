//! An independent SAT model of Machinarium slide tours (`shared/spec/machinarium.md`),
//! solved with the pure-Rust CDCL solver splr.
//!
//! hammer's own solver of the `tours` family is a depth-first search; this crate
//! encodes the same rules as clauses, after the seed's constraint model, so that the two
//! can be compared on the same boards (`tests/differential.rs`) and timed side by
//! side (`cargo run --release -p hammer-tours-sat --example sat_bench`). It shares no
//! code with hammer's engine: its board parser and tour checker are written from the
//! spec too.

mod board;
mod encode;

use std::time::{Duration, Instant};

pub use board::{Board, BoardError, check};
use encode::Encoding;

/// Why a solve failed.
#[derive(Debug, thiserror::Error)]
pub enum SatError {
    /// The board or the start cell is refused.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// splr failed other than by finding the formula unsatisfiable.
    #[error("the SAT solver gave up: {0}")]
    Solver(String),
}

/// One solve: the tour found, if any, and what it cost.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// A tour (cell numbers from 1, in order), or `None` when there is none.
    pub tour: Option<Vec<u32>>,
    /// Variables of the formula.
    pub variables: u32,
    /// Clauses of the formula.
    pub clauses: u64,
    /// Time spent building the formula.
    pub encode: Duration,
    /// Time spent in the SAT solver.
    pub solve: Duration,
}

/// Tours counted by enumeration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    /// Tours found.
    pub tours: u64,
    /// The cells that begin at least one tour, increasing.
    pub starts: Vec<u32>,
    /// Whether `limit` stopped the enumeration (then `tours` is a lower bound).
    pub truncated: bool,
}

/// A tour of `board`, from `start` when given.
pub fn solve(board: &Board, start: Option<u32>) -> Result<Outcome, SatError> {
    if let Some(cell) = start
        && !board.is_free(cell)
    {
        return Err(BoardError::BadStart {
            cell,
            cells: (board.n() * board.n()) as u32,
        }
        .into());
    }
    let began = Instant::now();
    let encoding = Encoding::new(board, start);
    let encode = began.elapsed();
    let began = Instant::now();
    let model = run(&encoding.clauses)?;
    Ok(Outcome {
        tour: model.map(|m| encoding.tour(&m)),
        variables: encoding.variables as u32,
        clauses: encoding.clauses.len() as u64,
        encode,
        solve: began.elapsed(),
    })
}

/// Counts the tours of `board` by solving again with each tour found forbidden, up to
/// `limit` tours (a board with many tours takes as many solves: small boards only).
pub fn count(board: &Board, limit: u64) -> Result<Count, SatError> {
    let mut encoding = Encoding::new(board, None);
    let mut starts = std::collections::BTreeSet::new();
    let mut tours = 0;
    while tours < limit {
        let Some(model) = run(&encoding.clauses)? else {
            return Ok(Count {
                tours,
                starts: starts.into_iter().collect(),
                truncated: false,
            });
        };
        let tour = encoding.tour(&model);
        tours += 1;
        starts.insert(tour[0]);
        let block = encoding.block(&tour);
        encoding.clauses.push(block);
    }
    Ok(Count {
        tours,
        starts: starts.into_iter().collect(),
        truncated: true,
    })
}

/// Whether splr simplifies the formula by variable elimination first. It must, although
/// it is slower: with `enable_eliminator = false`, splr 0.17.2 answers UNSAT on some
/// satisfiable tour formulas (the 3-cell board `#./..` among them), which the
/// conformance test catches.
const ELIMINATE: bool = true;

/// Solves a formula: a model (one literal per variable, by number) or `None` if it has
/// none.
fn run(clauses: &[Vec<i32>]) -> Result<Option<Vec<i32>>, SatError> {
    use splr::{Certificate, Config, SolveIF, Solver, SolverError};
    let config = Config {
        quiet_mode: true,
        enable_eliminator: ELIMINATE,
        ..Config::default()
    };
    let answer = match Solver::try_from((config, clauses)) {
        Ok(mut solver) => solver.solve(),
        Err(early) => early,
    };
    match answer {
        Ok(Certificate::SAT(model)) => Ok(Some(model)),
        Ok(Certificate::UNSAT) | Err(SolverError::EmptyClause) => Ok(None),
        Err(e) => Err(SatError::Solver(format!("{e:?}"))),
    }
}
