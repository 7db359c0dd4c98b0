//! The owner search as a family capability: one game searched by several owners, threads
//! of this process or the members of a gang of processes (`hammer_solver::owners`).

use hammer_engine::{Notation, Wire};
use hammer_proto::v1::GameResult;
use hammer_solver::{GangError, Link, OwnedOutcome, solve_gang, solve_owned};

use crate::{Cell, FamilyError, Instance, Point, Solved, cells_to_wire};

/// Who searches a game by owners.
pub enum Team<'a> {
    /// This many threads of this process.
    Threads(usize),
    /// This process, as one member of a gang over `link`.
    Gang(&'a mut dyn Link),
}

/// A game searched by owners: its row, and what each worker did.
#[derive(Clone, Debug)]
pub struct OwnedSolved {
    /// The game's record.
    pub solved: Solved,
    /// Per worker: states expanded and states admitted to its table. A gang member other
    /// than the leader knows its own only; the others read zero.
    pub expansions: Vec<u64>,
    /// Per worker: states admitted to its table.
    pub table_states: Vec<u64>,
    /// Per worker: the bytes of its table at its largest (complete as `expansions` is).
    pub table_bytes: Vec<u64>,
    /// Successors sent to another worker.
    pub sent: u64,
    /// Expansions of the probe that chose the owner hash's salt, counted in the leader's
    /// `expansions` (the first worker), which alone runs it.
    pub probed: u64,
}

/// Why an owner search failed.
#[derive(Debug, thiserror::Error)]
pub enum OwnersError {
    /// The family refused the point or the instance.
    #[error(transparent)]
    Family(#[from] FamilyError),
    /// The gang's link to the other members failed.
    #[error(transparent)]
    Gang(#[from] GangError),
}

/// What a family that supports the owner search gives (`Family::owners`).
pub trait Owners: Send + Sync {
    /// Searches `instance` at `point` to its exact minimum with `team`. Every member of a
    /// gang must call this with the same game.
    fn solve(
        &self,
        point: &Point,
        instance: Instance<'_>,
        team: Team<'_>,
    ) -> Result<OwnedSolved, OwnersError>;
}

/// The owner search of `board` under `notation`'s rules, written as a row: the one
/// implementation behind every family's [`Owners`]. `extra` is the family's own columns.
pub(crate) fn solve_by_owners<N, P>(
    notation: &N,
    puzzle: &P,
    board: &N::Position,
    team: Team<'_>,
    extra: Vec<Cell>,
) -> Result<OwnedSolved, OwnersError>
where
    P: Wire,
    N: Notation<Position = P::State, Move = P::Move>,
{
    let outcome: OwnedOutcome<P::Move> = match team {
        Team::Threads(k) => solve_owned(puzzle, board, k),
        Team::Gang(link) => solve_gang(puzzle, board, link)?,
    };
    let solved = Solved {
        game: GameResult {
            board: notation.write(board),
            start: notation.write(board),
            score: outcome.min_score,
            lower_bound: puzzle.lower_bound(board),
            exhaustive: true,
            expansions: outcome.expansions.iter().sum(),
            attempts: 1,
            memo_bytes: outcome.table_bytes.iter().sum(),
            solution: notation.write_moves(board, &outcome.solution),
            extra: cells_to_wire(extra),
            ..GameResult::default()
        },
        heuristic_steps: 0,
        memo_states: outcome.table_states.iter().sum(),
        profile: None,
    };
    Ok(OwnedSolved {
        solved,
        expansions: outcome.expansions,
        table_states: outcome.table_states,
        table_bytes: outcome.table_bytes,
        sent: outcome.sent,
        probed: outcome.probed,
    })
}
