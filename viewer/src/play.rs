//! Playing a position: its legal moves, a player's move checked with the reason it is
//! refused, and the solver's hints.
//!
//! A hint is the minimum score still reachable after a move, from the same exact search
//! `hammer solve` runs, capped at a budget of expansions per move so that a hard
//! position cannot hold the page: a capped search says "at most" (its best score) and
//! "at least" (the bound it proved), never a guess.

use hammer_family::{FamilyRef, Instance, Job, Point};
use hammer_solver::{Config, Order, Schedule};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::ViewError;
use crate::game::point_of_params;

/// A position as the page sends it.
#[derive(Debug, Clone, Deserialize)]
pub struct Position {
    #[serde(default = "default_puzzle")]
    pub puzzle: String,
    /// Canonical `key=value;...`; empty when the state tells (a Martello board).
    #[serde(default)]
    pub params: String,
    pub state: String,
    /// For `/api/move`: the move to try.
    #[serde(default, rename = "move")]
    pub mv: Option<String>,
}

fn default_puzzle() -> String {
    hammer_family::DEFAULT_FAMILY.to_owned()
}

/// One legal move and where it leads.
#[derive(Debug, Clone, Serialize)]
pub struct MoveInfo {
    #[serde(rename = "move")]
    pub mv: String,
    pub after: String,
    pub score: u32,
    /// Other ways to write the same move ([`hammer_family::Family::move_aliases`]); the
    /// board accepts a click on any of them.
    pub same_as: Vec<String>,
}

/// A position's page: its score, moves and (for families the page cannot draw) picture.
#[derive(Debug, Clone, Serialize)]
pub struct PositionInfo {
    pub puzzle: String,
    pub params: String,
    pub state: String,
    pub score: u32,
    pub goal: u32,
    pub moves: Vec<MoveInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawing: Option<String>,
}

/// The family and point of a position: from `params`, or from the state itself.
fn resolve(position: &Position) -> Result<(FamilyRef, Point), ViewError> {
    let family = FamilyRef::named(position.puzzle.trim())?;
    let state = position.state.trim();
    if state.is_empty() {
        return Err(ViewError::Input {
            context: "state".into(),
            message: "empty: paste a board in the puzzle's notation".into(),
        });
    }
    if !position.params.trim().is_empty() {
        return Ok((family, point_of_params(family, &position.params)?));
    }
    let point = family
        .point_of_state(state)?
        .ok_or_else(|| ViewError::Input {
            context: format!("state '{state}'"),
            message: format!("{} needs its parameters (params)", family.name()),
        })?;
    Ok((family, point))
}

/// The legal moves of a position, each with the state after it.
pub fn position(position: &Position) -> Result<PositionInfo, ViewError> {
    let (family, point) = resolve(position)?;
    let state = position.state.trim();
    // Scoring first also checks the notation, with the parser's own message.
    let score = family.score(&point, state)?;
    let listed = family.moves(&point, state)?;
    let mut moves = Vec::with_capacity(listed.len());
    for (mv, after) in listed {
        moves.push(MoveInfo {
            score: family.score(&point, &after)?,
            same_as: family.move_aliases(&point, state, &mv, &after),
            mv,
            after,
        });
    }
    Ok(PositionInfo {
        puzzle: family.name().to_owned(),
        params: point.to_string(),
        state: state.to_owned(),
        score,
        goal: family.goal(&point),
        moves,
        drawing: if family.page_draws_board() {
            None
        } else {
            Some(family.draw(&point, state, false)?)
        },
    })
}

/// The state after the player's move, or why the move is refused.
pub fn try_move(position: &Position) -> Result<String, ViewError> {
    let (family, point) = resolve(position)?;
    let mv = position.mv.as_deref().map(str::trim).unwrap_or_default();
    if mv.is_empty() {
        return Err(ViewError::Input {
            context: "move".into(),
            message: "empty".into(),
        });
    }
    let after = family
        .replay(&point, position.state.trim(), &[mv])
        .map_err(|e| match e {
            hammer_family::FamilyError::BadMove { reason, .. } => ViewError::Refused(reason),
            other => other.into(),
        })?;
    after.into_iter().next().ok_or_else(|| ViewError::Input {
        context: format!("move {mv}"),
        message: "no state after it".into(),
    })
}

/// The solver's answer for the state after one move.
#[derive(Debug, Clone, Serialize)]
pub struct Hint {
    #[serde(rename = "move")]
    pub mv: String,
    pub after: String,
    /// The lowest score found after the move: exact when `exact`, else "at most".
    pub score: u32,
    pub exact: bool,
    /// The bound the search proved: the score is at least this.
    pub lower_bound: u32,
    pub expansions: u64,
}

/// Hints for every legal move of `position`, each search capped at `budget` expansions.
pub fn hints(position: &Position, budget: u64) -> Result<Vec<Hint>, ViewError> {
    let (family, point) = resolve(position)?;
    let listed = family.moves(&point, position.state.trim())?;
    let config = Config {
        order: Order::Standard,
        schedule: Schedule::List {
            phases: vec![(1, budget.max(1))],
            then_exact: false,
        },
        prefix: 0,
        limits: Default::default(),
        cancel: None,
        profile: false,
    };
    listed
        .into_par_iter()
        .map_init(
            || family.solver(),
            |solver, (mv, after)| {
                let solved = solver.solve(Job {
                    point: &point,
                    instance: Instance::Given(&after),
                    config: &config,
                    run_seed: 0,
                    program: None,
                })?;
                Ok(Hint {
                    mv,
                    after,
                    score: solved.game.score,
                    exact: solved.game.exhaustive,
                    lower_bound: if solved.game.exhaustive {
                        solved.game.score
                    } else {
                        solved.game.lower_bound
                    },
                    expansions: solved.game.expansions,
                })
            },
        )
        .collect::<Result<Vec<_>, hammer_family::FamilyError>>()
        .map_err(ViewError::from)
}

/// Seeded instance `index` of a point under sweep seed `seed`: the board a sweep with that
/// seed solves as game `index` (Martello: `hammer solve --random`).
pub fn instance(puzzle: &str, params: &str, seed: u64, index: u64) -> Result<String, ViewError> {
    let family = FamilyRef::named(puzzle.trim())?;
    let point = point_of_params(family, params)?;
    Ok(family.instance(
        &point,
        Instance::Seeded {
            sweep_seed: seed,
            index,
        },
    )?)
}
