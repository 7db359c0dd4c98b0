//! The `moves` and `replay` questions.

use crate::Puzzle;

use super::position::{Move, Position, State};
use super::{Clobber, ClobberError};

/// Every legal move of `state` in move order, with the position after it. With no
/// colour to move, the moves of both colours.
pub fn moves(game: &Clobber, state: &State) -> Vec<(Move, Position)> {
    let mut out = Vec::new();
    game.moves(state, &mut out);
    out.into_iter()
        .map(|mv| (mv, game.play(state, mv).pos))
        .collect()
}

/// The answer to `replay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The state after the moves: its turn is the start's when there were none.
    pub state: State,
    /// Whether the game is over there.
    pub over: bool,
}

/// Plays `moves` from `start`, each checked for legality at its point.
pub fn replay(game: &Clobber, start: &State, moves: &[Move]) -> Result<Replay, ClobberError> {
    let mut state = *start;
    for (i, &mv) in moves.iter().enumerate() {
        if !game.is_legal(&state, mv) {
            return Err(ClobberError::Illegal {
                number: i + 1,
                mv: mv.to_string(),
            });
        }
        state = game.play(&state, mv);
    }
    Ok(Replay {
        state,
        over: game.is_over(&state),
    })
}
