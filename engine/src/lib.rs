//! The rules of the puzzles hammer searches, starting with Martello solo.
//!
//! The contract is `shared/spec/martello.md` (copied into `docs/martello.md`): notation,
//! legal moves and their effect. Solvers never touch a Martello type directly; they go
//! through the small [`Puzzle`] trait so that other puzzle families can plug in later.
//!
//! Peg solitaire ([`peg`], contract `shared/spec/peg.md`, described in `docs/peg.md`) is
//! the second family: English, European and custom boards. Machinarium slide tours
//! ([`tours`], contract `shared/spec/machinarium.md`, described in `docs/tours.md`) is
//! another.

pub mod clobber;
pub mod mancala;
pub mod martello;
mod notation;
pub mod peg;
pub mod seeded;
pub mod tours;

pub use hammer_puzzle::{Countable, MoveFeatures, NoFeatures, Puzzle, Successor, Wire, mix};
pub use martello::{MAX_N, Martello, Move, ParseError, State, Stone};
pub use notation::Notation;
