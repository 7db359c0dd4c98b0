//! Solitaire Clobber, partisan and impartial: stones on an `m x n` board (at most 64
//! cells) clobber a neighbouring stone of the other colour, removing it, until no two
//! neighbours differ in colour; the fewer stones left, the better.
//!
//! The contract is `shared/spec/clobber.md`. A position is two 64-bit masks, so move
//! generation works on the whole board at once. Under the partisan rule the colours
//! alternate and a [`State`] carries the colour to move (`None` at a start where the
//! first colour is the player's choice); under the impartial rule any stone may move
//! and the turn stays `None`. [`Clobber`] is the rules of one board under one rule as a
//! [`Puzzle`], and [`solve`], [`analyse`], [`moves`], [`replay`] and [`Gen`] answer the
//! spec's questions with typed values.

mod analyse;
mod answers;
mod board;
mod bound;
mod generate;
mod notation;
mod position;
mod solve;

pub use analyse::{Analysis, Lone, analyse};
pub use answers::{Replay, moves, replay};
pub use board::{Board, Cells, MAX_CELLS};
pub use bound::{alternation_bound, component_bound, lower_bound, mod3_bound};
pub use generate::{Colours, Gen, MAX_FILL};
pub use notation::{Setup, parse_cell, parse_move, parse_position, position_text};
pub use position::{Colour, Move, Position, State};
pub use solve::{Solution, solve};

use crate::mix::mix64;
use crate::{Countable, Puzzle};

/// Why a position, move or `gen` object was refused; each message names the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClobberError {
    /// A row of the board text has no cells.
    #[error("empty row (a board has at least one column)")]
    EmptyRow,
    /// The rows have different lengths (given in order).
    #[error("rows of unequal length {0:?}")]
    RowLengths(Vec<usize>),
    /// A character other than `x`, `o` or `.` in the board text.
    #[error("bad character '{ch}' in row {row}, column {column} (use 'x', 'o' and '.')")]
    BadChar {
        /// The offending character.
        ch: char,
        /// Its row, from 1.
        row: usize,
        /// Its column, from 1.
        column: usize,
    },
    /// The board has more cells than a position's masks hold.
    #[error("a board has at most 64 cells, got {m}x{n}")]
    TooLarge {
        /// Rows of the board.
        m: usize,
        /// Columns of the board.
        n: usize,
    },
    /// A board size with no rows or no columns.
    #[error("a board has at least one row and one column, got {m}x{n}")]
    Shape {
        /// Rows asked for.
        m: u32,
        /// Columns asked for.
        n: u32,
    },
    /// A move that is not two cell numbers joined by `-`.
    #[error("bad move '{0}': a move is F-T, two cell numbers such as 1-2")]
    MoveSyntax(String),
    /// A cell number that is not plain decimal from 1.
    #[error("bad cell number '{0}': plain decimal from 1, no sign or leading zero")]
    CellNumber(String),
    /// A cell number beyond the board.
    #[error("cell {cell} is off the {m}x{n} board")]
    OffBoard {
        /// The cell number, from 1.
        cell: u64,
        /// Rows of the board.
        m: u32,
        /// Columns of the board.
        n: u32,
    },
    /// A move between cells that do not touch.
    #[error("{0}: the cells are not orthogonal neighbours")]
    NotNeighbours(String),
    /// A move that clobbers nothing or moves a stone that may not move.
    #[error(
        "not legal here: the stone moved must be one that may move (of the colour to move) and the stone clobbered of the other colour"
    )]
    NotLegal,
    /// A position whose size differs from the parameter point's board.
    #[error("a {m}x{n} position, but the board is {want_m}x{want_n}")]
    WrongBoard {
        /// Rows of the position.
        m: u32,
        /// Columns of the position.
        n: u32,
        /// Rows of the board.
        want_m: u32,
        /// Columns of the board.
        want_n: u32,
    },
    /// Text after the position that is no colour to move.
    #[error("'{0}' after the position: the colour to move is ':x', ':o' or ':any'")]
    TurnSuffix(String),
    /// A colour to move under the impartial rule.
    #[error("the impartial rule has no colour to move, got ':{0}'")]
    ImpartialSuffix(String),
    /// A move of a replayed play that is not legal where it is played.
    #[error("move {number} ({mv}) is not legal here")]
    Illegal {
        /// The move's place in the play, from 1.
        number: usize,
        /// The move as written.
        mv: String,
    },
    /// A `gen` parameter out of its range.
    #[error("{name} must be an integer in {low}..{high}, got {value}")]
    GenValue {
        /// The parameter's name.
        name: &'static str,
        /// The value given.
        value: u64,
        /// The smallest value allowed.
        low: u64,
        /// The largest value allowed.
        high: u64,
    },
}

/// Which stones may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The colours alternate.
    Partisan,
    /// Any stone may move at any time.
    Impartial,
}

impl Rule {
    /// The rule's name in sweep files and the notation.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Partisan => "partisan",
            Rule::Impartial => "impartial",
        }
    }

    /// Reads a rule's name.
    pub fn from_name(text: &str) -> Option<Rule> {
        match text {
            "partisan" => Some(Rule::Partisan),
            "impartial" => Some(Rule::Impartial),
            _ => None,
        }
    }
}

/// The rules of one board under one rule, as a [`Puzzle`]: the score is the stones left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clobber {
    board: Board,
    rule: Rule,
}

impl Clobber {
    /// The puzzle of `board` under `rule`.
    pub fn new(board: Board, rule: Rule) -> Clobber {
        Clobber { board, rule }
    }

    /// The board the stones stand on.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Which stones may move.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The state of `pos` with `turn` to move; the impartial rule has no turn, so it
    /// drops `turn`.
    pub fn state(&self, pos: Position, turn: Option<Colour>) -> State {
        let turn = match self.rule {
            Rule::Partisan => turn,
            Rule::Impartial => None,
        };
        State { pos, turn }
    }

    /// The stones that may move in `state`.
    #[inline]
    pub fn movable(&self, state: &State) -> Cells {
        match state.turn {
            None => state.pos.stones(),
            Some(colour) => state.pos.of(colour),
        }
    }

    /// The state after `mv`, which must be legal in `state`.
    #[inline]
    pub fn play(&self, state: &State, mv: Move) -> State {
        let turn = match self.rule {
            Rule::Impartial => None,
            Rule::Partisan if state.pos.black >> mv.from & 1 == 1 => Some(Colour::White),
            Rule::Partisan => Some(Colour::Black),
        };
        State {
            pos: state.pos.apply(mv),
            turn,
        }
    }

    /// Whether `mv` is legal in `state`: a stone that may move on `from`, a stone of the
    /// other colour on `to`, and the two cells neighbours.
    pub fn is_legal(&self, state: &State, mv: Move) -> bool {
        self.movable(state) >> mv.from & 1 == 1 && state.pos.allows(&self.board, mv)
    }

    /// Whether the game is over in `state`: no two neighbouring stones differ in colour.
    #[inline]
    pub fn is_over(&self, state: &State) -> bool {
        state.pos.is_over(&self.board)
    }
}

impl Puzzle for Clobber {
    type State = State;
    type Move = Move;
    type Features = crate::NoFeatures;

    /// By the moving stone's cell, then the clobbered stone's.
    #[inline]
    fn moves(&self, state: &State, out: &mut Vec<Move>) {
        state.pos.moves(&self.board, self.movable(state), out);
    }

    #[inline]
    fn apply(&self, state: &State, mv: Move) -> State {
        self.play(state, mv)
    }

    #[inline]
    fn score(&self, state: &State) -> u32 {
        state.pos.count()
    }

    #[inline]
    fn lower_bound(&self, state: &State) -> u32 {
        lower_bound(&self.board, self.rule, state)
    }

    /// Both halves depend on both masks and the turn.
    #[inline]
    fn fingerprint(&self, state: &State) -> u128 {
        let t = match state.turn {
            None => 0x51,
            Some(Colour::Black) => 0x6a,
            Some(Colour::White) => 0x93,
        };
        let (b, w) = (state.pos.black, state.pos.white);
        let hi = mix64(b ^ mix64(w ^ mix64(t)));
        let lo = mix64(w ^ mix64(b.rotate_left(29) ^ mix64(t ^ 0x5bd1_e995)));
        u128::from(hi) << 64 | u128::from(lo)
    }
}

impl Countable for Clobber {
    fn state_key(&self, state: &State) -> u128 {
        self.fingerprint(state)
    }

    fn class_size(&self, _state: &State) -> u64 {
        1
    }
}
