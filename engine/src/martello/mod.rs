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
pub use state::{MAX_N, State, Stone};

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
        bound::lower_bound(state)
    }

    #[inline]
    fn child_lower_bound(&self, parent: &State, parent_bound: u32, mv: Move, child: &State) -> u32 {
        // A vertical move that empties the eater's row next to an empty row cuts the
        // board: count afresh. Otherwise only the eaten stone's zone can change.
        let xr = mv.eater_row as usize;
        let n = parent.n() as usize;
        if xr != mv.eaten_row as usize && child.rows[xr] == 0 {
            // The new pair of empty rows, if any, starts at row `gap`; it only matters
            // when stones stand on both sides of it.
            let gap = if xr > 0 && child.rows[xr - 1] == 0 {
                Some(xr - 1)
            } else if xr + 1 < n && child.rows[xr + 1] == 0 {
                Some(xr)
            } else {
                None
            };
            if let Some(g) = gap {
                let above = child.rows[..g].iter().any(|&w| w != 0);
                let below = child.rows[g + 2..n].iter().any(|&w| w != 0);
                if above && below {
                    return bound::lower_bound(child);
                }
            }
        }
        let zone = if bound::has_cut(parent) {
            bound::zone_of_row(parent, mv.eaten_row as usize)
        } else {
            parent.present()
        };
        parent_bound + bound::splits(zone, parent.n(), mv.eaten) as u32
    }

    #[inline]
    fn fingerprint(&self, state: &State) -> u128 {
        state.fingerprint()
    }

    #[inline]
    fn child_fingerprint(&self, parent: &State, parent_fp: u128, mv: Move, child: &State) -> u128 {
        parent.child_fingerprint(parent_fp, mv, child)
    }
}
