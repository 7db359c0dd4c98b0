//! Stones, positions, moves and states, with bit-parallel move generation: the stones
//! that can clobber in each direction are found for the whole board at once by
//! shifting one colour's mask onto the other's.

use std::fmt;

use super::board::{Board, Cells};

/// A stone's colour: `x` black, `o` white.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// The `x` stones.
    Black,
    /// The `o` stones.
    White,
}

impl Colour {
    /// The other colour.
    #[inline]
    pub fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// The notation's letter: `x` or `o`.
    pub fn letter(self) -> char {
        match self {
            Colour::Black => 'x',
            Colour::White => 'o',
        }
    }

    /// Reads `x` or `o`.
    pub fn from_letter(text: &str) -> Option<Colour> {
        match text {
            "x" => Some(Colour::Black),
            "o" => Some(Colour::White),
            _ => None,
        }
    }
}

/// The stones of a board: two disjoint masks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Position {
    /// Cells holding a black stone.
    pub black: Cells,
    /// Cells holding a white stone.
    pub white: Cells,
}

/// A move: the stone on `from` clobbers the stone on `to`. Both are bit indices (cell
/// number minus one); the derived order, by `from` then `to`, is the spec's move order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The cell of the moving stone.
    pub from: u8,
    /// The cell of the stone clobbered, where the moving stone ends.
    pub to: u8,
}

impl fmt::Display for Move {
    /// The notation `F-T` with cell numbers from 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from + 1, self.to + 1)
    }
}

/// A position and the colour to move. `turn` is `None` under the impartial rule, and
/// at a partisan start whose first colour is the player's choice (`any`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The stones on the board.
    pub pos: Position,
    /// The colour to move, if one is fixed.
    pub turn: Option<Colour>,
}

/// The stones of each colour that can clobber in each direction.
struct Clobberers {
    up: Cells,
    left: Cells,
    right: Cells,
    down: Cells,
}

impl Position {
    /// Every stone.
    #[inline]
    pub fn stones(&self) -> Cells {
        self.black | self.white
    }

    /// The number of stones: the score.
    #[inline]
    pub fn count(&self) -> u32 {
        self.stones().count_ones()
    }

    /// The stones of `colour`.
    #[inline]
    pub fn of(&self, colour: Colour) -> Cells {
        match colour {
            Colour::Black => self.black,
            Colour::White => self.white,
        }
    }

    /// The colour of the stone on bit `cell`, if any.
    #[inline]
    pub fn colour_at(&self, cell: u8) -> Option<Colour> {
        if self.black >> cell & 1 == 1 {
            Some(Colour::Black)
        } else if self.white >> cell & 1 == 1 {
            Some(Colour::White)
        } else {
            None
        }
    }

    /// The stones whose colour differs from their cell's chessboard colour.
    #[inline]
    pub fn clashing(&self, board: &Board) -> Cells {
        let black_squares = board.black_squares();
        (self.black & !black_squares) | (self.white & black_squares)
    }

    /// Each pair of neighbours of different colours is found once, from its left or
    /// upper stone; the stone on the other side of the pair can clobber back.
    #[inline]
    fn clobberers(&self, board: &Board) -> Clobberers {
        let (b, w) = (self.black, self.white);
        let right = (b & board.left_of(w)) | (w & board.left_of(b));
        let down = (b & board.above(w)) | (w & board.above(b));
        Clobberers {
            up: board.below(down),
            left: board.right_of(right),
            right,
            down,
        }
    }

    /// Whether no two neighbouring stones differ in colour: then neither colour can
    /// move, so the game is over under both rules, whoever is to move.
    #[inline]
    pub fn is_over(&self, board: &Board) -> bool {
        let (b, w) = (self.black, self.white);
        let pairs =
            (b & (board.left_of(w) | board.above(w))) | (w & (board.left_of(b) | board.above(b)));
        pairs == 0
    }

    /// Clears `out` and pushes the moves of the stones in `movable`, by `from` and then
    /// `to`: for one stone up, left, right, down.
    #[inline]
    pub fn moves(&self, board: &Board, movable: Cells, out: &mut Vec<Move>) {
        out.clear();
        let c = self.clobberers(board);
        let (up, left, right, down) = (
            c.up & movable,
            c.left & movable,
            c.right & movable,
            c.down & movable,
        );
        let n = board.n() as u8;
        let mut from = up | left | right | down;
        while from != 0 {
            let f = from.trailing_zeros() as u8;
            let bit = from & from.wrapping_neg();
            from ^= bit;
            if up & bit != 0 {
                out.push(Move { from: f, to: f - n });
            }
            if left & bit != 0 {
                out.push(Move { from: f, to: f - 1 });
            }
            if right & bit != 0 {
                out.push(Move { from: f, to: f + 1 });
            }
            if down & bit != 0 {
                out.push(Move { from: f, to: f + n });
            }
        }
    }

    /// The position after `mv`, which must be legal: the stone on `from` moves onto
    /// `to`, replacing the stone of the other colour there.
    #[inline]
    pub fn apply(&self, mv: Move) -> Position {
        let (f, t) = (1u64 << mv.from, 1u64 << mv.to);
        if self.black & f != 0 {
            Position {
                black: self.black ^ f ^ t,
                white: self.white ^ t,
            }
        } else {
            Position {
                black: self.black ^ t,
                white: self.white ^ f ^ t,
            }
        }
    }

    /// Whether `mv` is a move of this position for some colour: a stone on `from`, a
    /// stone of the other colour on `to`, and the two cells neighbours.
    pub fn allows(&self, board: &Board, mv: Move) -> bool {
        match (self.colour_at(mv.from), self.colour_at(mv.to)) {
            (Some(a), Some(b)) => a != b && board.adjacent(mv.from, mv.to),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(black: &[u8], white: &[u8]) -> Position {
        Position {
            black: black.iter().fold(0, |m, &c| m | 1 << c),
            white: white.iter().fold(0, |m, &c| m | 1 << c),
        }
    }

    #[test]
    fn moves_come_by_from_then_up_left_right_down() {
        // `xox/oxo`: bits 0 2 4 black, 1 3 5 white.
        let board = Board::new(2, 3).unwrap();
        let p = pos(&[0, 2, 4], &[1, 3, 5]);
        let mut out = Vec::new();
        p.moves(&board, p.stones(), &mut out);
        let text: Vec<String> = out.iter().map(Move::to_string).collect();
        assert_eq!(
            text,
            [
                "1-2", "1-4", "2-1", "2-3", "2-5", "3-2", "3-6", "4-1", "4-5", "5-2", "5-4", "5-6",
                "6-3", "6-5"
            ]
        );
        let mut sorted = out.clone();
        sorted.sort();
        assert_eq!(sorted, out);
        p.moves(&board, p.black, &mut out);
        assert!(out.iter().all(|m| p.black >> m.from & 1 == 1));
        assert_eq!(out.len(), 7);
    }

    #[test]
    fn apply_moves_the_stone_and_removes_one() {
        let board = Board::new(1, 3).unwrap();
        let p = pos(&[0], &[1, 2]);
        let q = p.apply(Move { from: 0, to: 1 });
        assert_eq!(q, pos(&[1], &[2]));
        assert!(!q.is_over(&board));
        let r = q.apply(Move { from: 2, to: 1 });
        assert_eq!(r, pos(&[], &[1]));
        assert!(r.is_over(&board));
        assert!(p.allows(&board, Move { from: 1, to: 0 }));
        assert!(!p.allows(&board, Move { from: 1, to: 2 }));
    }
}
