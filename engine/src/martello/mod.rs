//! Martello solo on an n x n board, 1 <= n <= 8.
//!
//! A [`State`] is the normalized state of the spec: each row as the ordered list of its
//! stones. Rows are packed one per `u64`, one byte per stone (stone id + 1, 0 = end of
//! row), so a state is a small `Copy` value and a move touches at most two words.

mod bound;
mod moves;
mod notation;
mod state;

pub use moves::Move;
pub use notation::ParseError;
pub use state::{State, Stone, MAX_N};

use crate::Puzzle;

/// The Martello rules as a [`Puzzle`]. The board size lives in each [`State`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Martello;

impl Puzzle for Martello {
    type State = State;
    type Move = Move;

    #[inline]
    fn moves(&self, state: &State, out: &mut Vec<Move>) {
        moves::generate(state, out);
    }

    #[inline]
    fn apply(&self, state: &State, mv: Move) -> State {
        state.apply(mv)
    }

    #[inline]
    fn score(&self, state: &State) -> u32 {
        state.stone_count()
    }

    #[inline]
    fn lower_bound(&self, state: &State) -> u32 {
        bound::components(state.present(), state.n())
    }

    #[inline]
    fn fingerprint(&self, state: &State) -> u128 {
        state.fingerprint()
    }
}
