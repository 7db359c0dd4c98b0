//! Mancala's first turn (`docs/mancala.md`): one player sows from the holes of a
//! `2h`-hole ring into one store, with free picks and relays, and wants as many stones
//! as possible in the store before the turn passes.
//!
//! As a [`Puzzle`], the score is the stones left on the board. A free pick always puts
//! a stone in the store, so the score falls with it; a pick that ends the turn may gain
//! nothing, but it leads to an ended state with no moves, so the search's depth stays
//! within the start's score plus one.

mod bound;
mod notation;
mod rules;
mod state;

pub use notation::NotationError;
pub use rules::{Arith, MAX_H, MAX_HOLES, MAX_S, MAX_STONES, Picks, Rules, RulesError};
pub use state::{Pick, PickError, PositionError, Sowing, State};

use crate::Puzzle;

/// The Mancala first-turn rules as a [`Puzzle`]. The rule point lives in each
/// [`State`]; a move is the 1-based hole picked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mancala;

impl Puzzle for Mancala {
    type State = State;
    type Move = u8;
    type Features = crate::NoFeatures;

    #[inline]
    fn moves(&self, state: &State, out: &mut Vec<u8>) {
        out.clear();
        if state.ended {
            return;
        }
        let pickable = state.rules.pickable();
        for (i, &x) in state.holes[..pickable].iter().enumerate() {
            if x > 0 {
                out.push(i as u8 + 1);
            }
        }
    }

    #[inline]
    fn apply(&self, state: &State, mv: u8) -> State {
        state.apply(usize::from(mv))
    }

    #[inline]
    fn score(&self, state: &State) -> u32 {
        state.on_board()
    }

    #[inline]
    fn lower_bound(&self, state: &State) -> u32 {
        bound::lower_bound(state)
    }

    #[inline]
    fn fingerprint(&self, state: &State) -> u128 {
        bound::fingerprint(state)
    }
}
