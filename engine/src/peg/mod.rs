//! Peg solitaire on the English (33 holes) and European (37) boards, or any hole mask of
//! the 7x7 grid.
//!
//! The contract is `shared/spec/peg.md`: notation, jumps, questions. A position is a
//! `u64` peg mask (see [`board`]); a move is the index of a jump in the board's
//! precomputed list ([`Board::jumps`]), so applying it is one XOR.

pub mod board;
pub mod notation;
pub mod reach;

pub use board::{Bits, Board, BoardKind, Jump};
pub use notation::PegError;
pub use reach::{Reach, finishes, reachable};

use crate::fasthash::mix64;
use crate::seeded::{bounded, stream};
use crate::{Countable, Puzzle, Successor};

/// The label of the seeded random positions' streams.
pub const GAMES_LABEL: &str = "hammer/peg/games";

/// Peg solitaire on one board, as a [`Puzzle`]: the score is the pegs left.
#[derive(Clone, Debug)]
pub struct Peg {
    board: Board,
}

impl Peg {
    pub fn new(board: Board) -> Peg {
        Peg { board }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The position after jump `mv`.
    #[inline]
    pub fn jump(&self, pos: Bits, mv: u8) -> Bits {
        let j = self.board.jumps()[mv as usize];
        pos ^ (1 << j.from | 1 << j.over | 1 << j.to)
    }

    /// The exact (injective) fingerprint of the canonical image: the canonical mask in
    /// the low half, a bijective mix of it in the high half that the memo indexes by.
    #[inline]
    fn fp_of(canonical: Bits) -> u128 {
        (u128::from(mix64(canonical)) << 64) | u128::from(canonical)
    }
}

impl Puzzle for Peg {
    type State = Bits;
    type Move = u8;

    #[inline]
    fn moves(&self, state: &Bits, out: &mut Vec<u8>) {
        self.board.legal_jumps(*state, out);
    }

    #[inline]
    fn apply(&self, state: &Bits, mv: u8) -> Bits {
        self.jump(*state, mv)
    }

    #[inline]
    fn score(&self, state: &Bits) -> u32 {
        state.count_ones()
    }

    /// The class floor (no jump changes the class) and at least one peg while any is
    /// left; never above the pegs on the board.
    #[inline]
    fn lower_bound(&self, state: &Bits) -> u32 {
        let pegs = state.count_ones();
        if pegs == 0 {
            return 0;
        }
        self.board.class_floor(*state).max(1).min(pegs)
    }

    /// The class is the parent's, so only the cap by the pegs left changes.
    #[inline]
    fn child_lower_bound(&self, _parent: &Bits, parent_bound: u32, _mv: u8, child: &Bits) -> u32 {
        parent_bound.min(child.count_ones())
    }

    #[inline]
    fn fingerprint(&self, state: &Bits) -> u128 {
        Peg::fp_of(self.board.canonical(*state))
    }

    /// Skips the fingerprint (eight symmetry images) of children the search will prune.
    #[inline]
    fn successors(
        &self,
        state: &Bits,
        bound: u32,
        _fp: u128,
        cutoff: u32,
        moves: &mut Vec<u8>,
        out: &mut Vec<Successor<u8>>,
    ) {
        self.board.legal_jumps(*state, moves);
        out.clear();
        let pegs = state.count_ones() - 1;
        let child_bound = bound.min(pegs);
        for &mv in moves.iter() {
            let fp = if child_bound < cutoff {
                Peg::fp_of(self.board.canonical(self.jump(*state, mv)))
            } else {
                0
            };
            out.push(Successor {
                mv,
                bound: child_bound,
                fp,
            });
        }
    }
}

impl Countable for Peg {
    #[inline]
    fn state_key(&self, state: &Bits) -> u128 {
        Peg::fp_of(*state)
    }

    fn class_size(&self, state: &Bits) -> u64 {
        self.board.orbit_size(*state)
    }
}

/// The single-vacancy start `index` of `board`: every hole filled but the `index`-th in
/// row-major order; `None` past the last hole.
pub fn single_vacancy(board: &Board, index: u64) -> Option<Bits> {
    let hole = board::bits(board.mask()).nth(usize::try_from(index).ok()?)?;
    Some(board.mask() & !(1 << hole))
}

/// A seeded random position of `pegs` pegs on `board`: a partial Fisher-Yates shuffle
/// of the holes (row-major) drawn from the ChaCha20 stream labelled [`GAMES_LABEL`] at
/// stream number `pegs << 56 | index` of `seed`; the first `pegs` holes get a peg.
/// `index` must be below 2^56 and `pegs` at most the holes.
pub fn seeded_position(board: &Board, seed: u64, pegs: u32, index: u64) -> Bits {
    let mut holes: Vec<u8> = board::bits(board.mask()).collect();
    let mut rng = stream(seed, GAMES_LABEL, u64::from(pegs) << 56 | index);
    let pegs = (pegs as usize).min(holes.len());
    for i in 0..pegs {
        let j = i + bounded(&mut rng, (holes.len() - i) as u32) as usize;
        holes.swap(i, j);
    }
    holes[..pegs].iter().fold(0, |pos, &h| pos | 1 << h)
}
