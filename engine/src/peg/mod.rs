//! Peg solitaire on the English (33 holes) and European (37) boards, or any hole mask of
//! the 7x7 grid.
//!
//! The contract is `shared/spec/peg.md`: notation, jumps, questions. A position is a
//! `u64` peg mask (see [`board`]); a move is the index of a jump in the board's
//! precomputed list ([`Board::jumps`]), so applying it is one XOR.

pub mod board;
pub mod endgame;
pub mod notation;
pub mod reach;
mod wire;

pub use board::{Bits, Board, BoardKind, Jump};
pub use endgame::Endgame;
pub use notation::PegError;
pub use reach::{Reach, finishes, reachable, reaches_hole};

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::mix::mix64;
use crate::seeded::{bounded, stream};
use crate::{Countable, Puzzle};

/// The label of the seeded random positions' streams.
pub const GAMES_LABEL: &str = "hammer/peg/games";

/// The size limit of a class's endgame table (positions a level), which bounds the time
/// and memory a table takes to build.
const CLASS_TABLE_LIMIT: usize = 1 << 19;
/// The size limit of a lone target hole's table.
const HOLE_TABLE_LIMIT: usize = 1 << 16;

/// Peg solitaire on one board, as a [`Puzzle`]: the score is the pegs left.
///
/// Its lower bound is the class floor (the fewest pegs of any position of the class),
/// raised by one where the class's endgame table shows that no position of the floor
/// can be reached. The tables are built on first use and shared by every `Peg` of the
/// same board in the process.
#[derive(Clone, Debug)]
pub struct Peg {
    board: Board,
    tables: Arc<Tables>,
}

/// Endgame tables, built on first use: per class, towards every position of the
/// class's fewest pegs; per hole, towards a lone peg there.
#[derive(Debug)]
struct Tables {
    classes: [OnceLock<Option<Arc<Endgame>>>; 16],
    holes: [OnceLock<Arc<Endgame>>; 64],
}

impl Peg {
    /// The tables are shared by every `Peg` of the same holes in the process: each
    /// worker thread keeps a solver of its own, and building a class's table costs time
    /// and memory that should be paid once, not once a thread.
    pub fn new(board: Board) -> Peg {
        static SHARED: Mutex<Vec<(Bits, Arc<Tables>)>> = Mutex::new(Vec::new());
        let mut shared = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
        let tables = match shared.iter().find(|(mask, _)| *mask == board.mask()) {
            Some((_, tables)) => Arc::clone(tables),
            None => {
                let tables = Arc::new(Tables {
                    classes: std::array::from_fn(|_| OnceLock::new()),
                    holes: std::array::from_fn(|_| OnceLock::new()),
                });
                shared.push((board.mask(), Arc::clone(&tables)));
                tables
            }
        };
        drop(shared);
        Peg { board, tables }
    }

    /// The endgame table of `class` towards its positions of fewest pegs, or `None`
    /// when those have more than 3 pegs (too many targets to be worth a table).
    pub fn class_table(&self, class: usize) -> Option<Arc<Endgame>> {
        self.tables.classes[class & 15]
            .get_or_init(|| {
                let floor = self.board.class_floor_of(class);
                (1..=3).contains(&floor).then(|| {
                    let targets = endgame::positions_of_class(&self.board, class, floor);
                    Arc::new(Endgame::new(&self.board, &targets, CLASS_TABLE_LIMIT))
                })
            })
            .clone()
    }

    /// The endgame table towards a lone peg on `hole`.
    pub fn hole_table(&self, hole: u8) -> Arc<Endgame> {
        self.tables.holes[hole as usize & 63]
            .get_or_init(|| Arc::new(Endgame::new(&self.board, &[1 << hole], HOLE_TABLE_LIMIT)))
            .clone()
    }

    /// 1 when the class table proves that `state` (with more pegs than `floor`, the
    /// fewest of its class) cannot reach a position of `floor` pegs, else 0.
    #[inline]
    fn beyond_floor(&self, state: Bits, pegs: u32, floor: u32) -> u32 {
        if pegs <= floor {
            return 0;
        }
        match self.class_table(self.board.class(state)) {
            Some(table) if table.reaches(state) == Some(false) => 1,
            _ => 0,
        }
    }

    /// The board the pegs stand on.
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
    type Features = crate::NoFeatures;

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
    /// left, plus one where the class's endgame table rules the floor out; never above
    /// the pegs on the board.
    #[inline]
    fn lower_bound(&self, state: &Bits) -> u32 {
        let pegs = state.count_ones();
        if pegs == 0 {
            return 0;
        }
        let floor = self.board.class_floor(*state).max(1).min(pegs);
        floor + self.beyond_floor(*state, pegs, floor)
    }

    #[inline]
    fn fingerprint(&self, state: &Bits) -> u128 {
        Peg::fp_of(self.board.canonical(*state))
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
