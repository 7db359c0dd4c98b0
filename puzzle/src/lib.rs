//! The puzzle vocabulary: what a solver needs to know of a one-person puzzle and
//! nothing else. [`Puzzle`] (states, moves, scores, sound lower bounds, fingerprints and
//! successors), [`Countable`] for the counting mode, [`MoveFeatures`] for the learned
//! order, the seeded random streams every random choice comes from ([`seeded`]), and the
//! mixer fingerprints are built with ([`mix`]).
//!
//! `hammer-solver` depends on this crate alone, so the search never compiles or names a
//! family's rules; `hammer-engine` implements the trait for every family.

pub mod mix;
mod puzzle;
pub mod seeded;
mod wire;

pub use puzzle::{Countable, MoveFeatures, NoFeatures, Puzzle, Successor};
pub use wire::{Wire, take_bytes};
