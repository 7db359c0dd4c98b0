//! A family's notation and rules as the command line, the viewer and the conformance
//! questions see them: positions and moves written as the family's spec writes them,
//! the legal moves of a position, the position after a move, and its score.
//!
//! The search does not use this trait (it works on [`crate::Puzzle`]'s compact states);
//! one generic adapter in `hammer-family` implements `moves`, `replay`, `score` and
//! instances over it for every family.

use std::fmt::Display;

/// The notation and rules of one family at one parameter point (a board side, a peg
/// board, a rule set...). A value is cheap to build from the point.
pub trait Notation {
    /// A position as the notation writes it (it may carry more than the search's state:
    /// a slide tour's path so far).
    type Position: Clone;
    /// A move as the notation writes it.
    type Move: Copy;
    /// Why a position or move was refused; the message names the token.
    type Error: Display;

    /// Reads a position of this point.
    fn read(&self, text: &str) -> Result<Self::Position, Self::Error>;

    /// Writes a position; [`Notation::read`] reads it back to an equal position.
    fn write(&self, pos: &Self::Position) -> String;

    /// Clears `out` and pushes the legal moves of `pos` in the family's standard order.
    fn legal(&self, pos: &Self::Position, out: &mut Vec<Self::Move>);

    /// The position after `mv`, which must be legal in `pos`.
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position;

    /// Reads move `text` and checks that it is legal in `pos`.
    fn read_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, Self::Error>;

    /// Writes move `mv` of `pos`.
    fn write_move(&self, pos: &Self::Position, mv: Self::Move) -> String;

    /// What the search minimises.
    fn score(&self, pos: &Self::Position) -> u32;

    /// The moves `moves` from `pos`, written space-separated.
    fn write_moves(&self, pos: &Self::Position, moves: &[Self::Move]) -> String {
        let mut pos = pos.clone();
        let mut out = String::new();
        for (i, &mv) in moves.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&self.write_move(&pos, mv));
            pos = self.play(&pos, mv);
        }
        out
    }

    /// The position after `moves` from `pos`.
    fn after(&self, pos: &Self::Position, moves: &[Self::Move]) -> Self::Position {
        moves.iter().fold(pos.clone(), |p, &mv| self.play(&p, mv))
    }
}
