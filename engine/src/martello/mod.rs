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

use crate::{Puzzle, Successor};
use state::{remove_at, row_hash, set_at};

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
    fn successors(
        &self,
        state: &State,
        bound: u32,
        fp: u128,
        cutoff: u32,
        _moves: &mut Vec<Move>,
        out: &mut Vec<Successor<Move>>,
    ) {
        successors(state, bound, fp, cutoff, out);
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

/// [`Puzzle::successors`] for Martello: the work that depends only on the parent (its
/// row hashes, its zones, which stones are bridges) is done once per parent instead of
/// once per move, no child state is built except where a move cuts the board, and
/// successors that will be pruned get no fingerprint.
fn successors(
    state: &State,
    bound: u32,
    fp: u128,
    cutoff: u32,
    out: &mut Vec<Successor<Move>>,
) {
    out.clear();
    // The parent's row hashes, computed when first needed.
    let mut hashes = [0u128; MAX_N as usize];
    let mut hashed = 0u32;
    let mut hash = |r: usize| {
        if hashed >> r & 1 == 0 {
            hashed |= 1 << r;
            hashes[r & 7] = row_hash(r, state.rows[r & 7]);
        }
        hashes[r & 7]
    };
    // The stones each row shares a zone with.
    let mut zone = [state.present; MAX_N as usize];
    let cut = bound::has_cut(state);
    if cut {
        for (from, to) in bound::zones(state) {
            let stones = bound::stones_of_rows(state, from, to);
            zone[from..to].fill(stones);
        }
    }
    // Whether eating a stone splits its component, computed once per eaten stone.
    let (mut known, mut split) = (0u64, 0u64);
    moves::for_each(state, |mv| {
        let (xr, yr) = (mv.eater_row as usize, mv.eaten_row as usize);
        let child_bound;
        let (y_word, x_word);
        if xr == yr {
            y_word = remove_at(state.rows[yr], mv.eaten_pos as usize);
            x_word = y_word;
        } else {
            y_word = set_at(state.rows[yr], mv.eaten_pos as usize, mv.eater.0 + 1);
            x_word = remove_at(state.rows[xr], mv.eater_pos as usize);
        }
        if xr != yr
            && x_word == 0
            && let Some(gap) = new_cut(state, xr)
        {
            // The eater's zone splits at the gap; the other zones keep their count.
            let zone = zone[xr & 7];
            let child = state.apply(mv);
            let upper = bound::stones_of_rows(&child, 0, gap) & zone;
            let lower = zone & !upper & !(1u64 << mv.eaten.0);
            let before = if cut {
                bound::components(zone, state.n)
            } else {
                bound
            };
            child_bound = bound - before
                + bound::components(upper, state.n)
                + bound::components(lower, state.n);
        } else {
            let bit = 1u64 << mv.eaten.0;
            if known & bit == 0 {
                known |= bit;
                if bound::splits(zone[yr & 7], state.n, mv.eaten) {
                    split |= bit;
                }
            }
            child_bound = bound + (split & bit != 0) as u32;
        }
        let child_fp = if child_bound >= cutoff {
            0
        } else if xr == yr {
            fp ^ hash(yr) ^ row_hash(yr, y_word)
        } else {
            fp ^ hash(yr) ^ hash(xr) ^ row_hash(yr, y_word) ^ row_hash(xr, x_word)
        };
        out.push(Successor {
            mv,
            bound: child_bound,
            fp: child_fp,
        });
    });
}

/// Whether emptying row `xr` of `state` (by a vertical move out of it, so every other
/// row keeps its emptiness) makes a new pair of empty rows with stones on both sides;
/// if so, the first row of the pair.
#[inline]
fn new_cut(state: &State, xr: usize) -> Option<usize> {
    let n = state.n as usize;
    let rows = &state.rows;
    let gap = if xr > 0 && rows[xr - 1] == 0 {
        xr - 1
    } else if xr + 1 < n && rows[xr + 1] == 0 {
        xr
    } else {
        return None;
    };
    let split = rows[..gap].iter().any(|&w| w != 0) && rows[gap + 2..n].iter().any(|&w| w != 0);
    split.then_some(gap)
}
