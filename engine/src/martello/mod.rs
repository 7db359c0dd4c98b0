//! Martello solo on an n x n board, 1 <= n <= 8.
//!
//! A [`State`] is the normalized state of the spec: each row as the ordered list of its
//! stones. Rows are packed one per `u64`, one byte per stone (stone id + 1, 0 = end of
//! row), so a state is a small `Copy` value and a move touches at most two words.

mod bound;
mod moves;
mod notation;
pub mod signature;
mod state;
mod wire;

pub use moves::Move;
pub use notation::{ParseError, Side};
pub use state::{MAX_N, State, Stone};

use crate::{Puzzle, Successor};
use state::{remove_at, row_hash, set_at};

/// The Martello rules as a [`Puzzle`]. The board size lives in each [`State`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Martello;

impl Puzzle for Martello {
    type State = State;
    type Move = Move;
    type Features = signature::Features;

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

    /// The components of the whole board: the bound before zones.
    fn base_bound(&self, state: &State) -> u32 {
        bound::components(state.present, state.n)
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
        match state.n {
            1 => successors::<1>(state, bound, fp, cutoff, out),
            2 => successors::<2>(state, bound, fp, cutoff, out),
            3 => successors::<3>(state, bound, fp, cutoff, out),
            4 => successors::<4>(state, bound, fp, cutoff, out),
            5 => successors::<5>(state, bound, fp, cutoff, out),
            6 => successors::<6>(state, bound, fp, cutoff, out),
            7 => successors::<7>(state, bound, fp, cutoff, out),
            _ => successors::<8>(state, bound, fp, cutoff, out),
        }
    }

    /// The owner key: which stones of [`OWNER_STONES`] are still on the board. A move
    /// changes it only when it eats one of them.
    #[inline]
    fn owner_key(&self, state: &State) -> Option<u64> {
        Some(state.present & OWNER_STONES[usize::from(state.n.min(MAX_N))])
    }

    #[inline]
    fn child_owner_key(&self, state: &State, mv: Move) -> Option<u64> {
        let key = self.owner_key(state)?;
        Some(key & !(1u64 << (mv.eaten.0 & 63)))
    }

    const UNDOES: bool = true;

    /// The eater and the eaten stone (6 bits each), then the eater's row and place and
    /// the eaten stone's place before the move (3 bits each): 21 bits.
    #[inline]
    fn undo_code(&self, _parent: &State, mv: Move) -> u32 {
        u32::from(mv.eater.0 & 63)
            | u32::from(mv.eaten.0 & 63) << 6
            | u32::from(mv.eater_row & 7) << 12
            | u32::from(mv.eater_pos & 7) << 15
            | u32::from(mv.eaten_pos & 7) << 18
    }

    fn undo(&self, child: &State, code: u32) -> Option<(State, Move)> {
        state::undo(child, code)
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

/// The stones whose presence picks a state's owner in a search shared by several
/// workers, per board side: the two diagonals of the colour-by-symbol square (stone
/// `c * n + s` has colour `c` and symbol `s`), so that every colour and every symbol has
/// one or two of them. Fewer stones keep more successors with their parent's owner; more
/// spread the states more evenly over the workers, since few states then keep every one
/// of them (science/notes/frontier.md, "An owner by the stones left of two diagonals").
const OWNER_STONES: [u64; MAX_N as usize + 1] = {
    let mut table = [0u64; MAX_N as usize + 1];
    let mut n = 1;
    while n <= MAX_N as usize {
        let mut c = 0;
        while c < n {
            table[n] |= 1 << (c * n + c) | 1 << (c * n + n - 1 - c);
            c += 1;
        }
        n += 1;
    }
    table
};

/// [`Puzzle::successors`] for Martello: the work that depends only on the parent (its
/// row hashes, its zones, which stones are bridges) is done once per parent instead of
/// once per move, no child state is built, and successors that will be pruned get no
/// fingerprint.
fn successors<const N: usize>(
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
    // Each row's zone: its rows and its stones.
    let n = N;
    let rows = &state.rows;
    let mut zone_rows = [(0u8, n as u8); MAX_N as usize];
    let mut zone_stones = [state.present; MAX_N as usize];
    let cut = bound::has_cut(state);
    if cut {
        bound::for_each_zone(rows, 0, n, |from, to| {
            let stones = bound::stones_of_rows(state, from, to);
            for r in from..to {
                zone_rows[r] = (from as u8, to as u8);
                zone_stones[r] = stones;
            }
        });
    }
    // Whether eating a stone splits its component, computed once per eaten stone.
    let (mut known, mut split) = (0u64, 0u64);
    moves::for_each::<N>(state, |mv| {
        let (xr, yr) = (mv.eater_row as usize, mv.eaten_row as usize);
        let child_bound;
        let (y_word, x_word);
        if xr == yr {
            y_word = remove_at(rows[yr], mv.eaten_pos as usize);
            x_word = y_word;
        } else {
            y_word = set_at(rows[yr], mv.eaten_pos as usize, mv.eater.0 + 1);
            x_word = remove_at(rows[xr], mv.eater_pos as usize);
        }
        if xr != yr && x_word == 0 && recount(rows, zone_rows[xr & 7], xr) {
            // The eater's row empties next to an empty row: the zone may split in two.
            // Recount that zone; the others keep their bounds.
            let (from, to) = (zone_rows[xr].0 as usize, zone_rows[xr].1 as usize);
            let mut child_rows = *rows;
            child_rows[yr & 7] = y_word;
            child_rows[xr & 7] = 0;
            let before = if cut {
                bound::zone_bound(rows, from, to, state.n)
            } else {
                bound
            };
            child_bound = bound - before + bound::range_bound(&child_rows, from, to, state.n);
        } else {
            let bit = 1u64 << mv.eaten.0;
            if known & bit == 0 {
                known |= bit;
                if bound::splits_n::<N>(zone_stones[yr & 7], mv.eaten.0) {
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

/// Whether emptying row `xr`, in the zone of rows `zone`, can cut the zone: a
/// neighbouring row of the zone is empty too. Otherwise the zone keeps its stones
/// together (less the eaten one) and only its components can change.
#[inline]
fn recount(rows: &[u64; 8], zone: (u8, u8), xr: usize) -> bool {
    let (from, to) = (zone.0 as usize, zone.1 as usize);
    (xr > from && rows[xr - 1] == 0) || (xr + 1 < to && rows[xr + 1] == 0)
}
