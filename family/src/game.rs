//! The one generic adapter: positions, moves, replays, scores and instances of any
//! family, over the engine's [`Notation`] of one parameter point.
//!
//! A family gives [`crate::Family::game`] its notation at the point, how a seeded
//! instance starts, and how a position is drawn; [`Game`] does the rest, so the text
//! that `hammer moves`, `hammer replay`, the viewer and the dataset show is written by
//! one piece of code for every family.

use hammer_engine::Notation;

use crate::{FamilyError, Instance};

/// What the command line and the viewer do with positions of one parameter point, in
/// the family's notation. Object-safe: [`crate::Family::game`] returns one boxed.
pub trait Positions {
    /// The start position of an instance.
    fn instance(&self, instance: Instance<'_>) -> Result<String, FamilyError>;

    /// The legal moves of `state` with the state after each, in the standard order.
    fn moves(&self, state: &str) -> Result<Vec<(String, String)>, FamilyError>;

    /// Plays `moves` from `state` and returns every state after the first, one per move;
    /// an illegal or malformed move is an error naming it and its place in the list.
    fn replay(&self, state: &str, moves: &[&str]) -> Result<Vec<String>, FamilyError>;

    /// The score of a state (what the search minimises).
    fn score(&self, state: &str) -> Result<u32, FamilyError>;

    /// A picture of a state (several lines of text), with ANSI colours when `colour`.
    fn draw(&self, state: &str, colour: bool) -> Result<String, FamilyError>;
}

/// How a family draws a position of its notation.
pub type Draw<N> = fn(&N, &<N as Notation>::Position, bool) -> String;

/// How a family makes instance `index` of a sweep seed at one point.
pub type Seeded<N> = Box<dyn Fn(u64, u64) -> Result<<N as Notation>::Position, FamilyError>>;

/// A family at one parameter point: the engine's notation, the seeded starts and the
/// picture.
pub struct Game<N: Notation> {
    /// Parses, prints and plays the family's positions.
    pub notation: N,
    seeded: Seeded<N>,
    draw: Draw<N>,
}

impl<N: Notation> Game<N> {
    pub(crate) fn new(
        notation: N,
        seeded: impl Fn(u64, u64) -> Result<N::Position, FamilyError> + 'static,
        draw: Draw<N>,
    ) -> Self {
        Game {
            notation,
            seeded: Box::new(seeded),
            draw,
        }
    }

    /// Reads a position, naming the token the notation refuses.
    pub fn read(&self, text: &str) -> Result<N::Position, FamilyError> {
        self.notation.read(text).map_err(|e| FamilyError::BadState {
            text: text.to_string(),
            reason: e.to_string(),
        })
    }

    /// The start position of an instance: a seeded one, or any position given as text
    /// (a start, or a later position pasted mid-game: the search is the same from either).
    pub fn start(&self, instance: Instance<'_>) -> Result<N::Position, FamilyError> {
        match instance {
            Instance::Seeded { sweep_seed, index } => (self.seeded)(sweep_seed, index),
            Instance::Given(text) => self.read(text),
        }
    }
}

impl<N: Notation> Positions for Game<N> {
    fn instance(&self, instance: Instance<'_>) -> Result<String, FamilyError> {
        Ok(self.notation.write(&self.start(instance)?))
    }

    fn moves(&self, state: &str) -> Result<Vec<(String, String)>, FamilyError> {
        let pos = self.read(state)?;
        let mut legal = Vec::new();
        self.notation.legal(&pos, &mut legal);
        Ok(legal
            .into_iter()
            .map(|mv| {
                let after = self.notation.play(&pos, mv);
                (
                    self.notation.write_move(&pos, mv),
                    self.notation.write(&after),
                )
            })
            .collect())
    }

    fn replay(&self, state: &str, moves: &[&str]) -> Result<Vec<String>, FamilyError> {
        let mut pos = self.read(state)?;
        let mut out = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = self
                .notation
                .read_move(&pos, text)
                .map_err(|e| FamilyError::BadMove {
                    text: text.to_string(),
                    index: Some(i),
                    reason: format!("{e} in {}", self.notation.write(&pos)),
                })?;
            pos = self.notation.play(&pos, mv);
            out.push(self.notation.write(&pos));
        }
        Ok(out)
    }

    fn score(&self, state: &str) -> Result<u32, FamilyError> {
        Ok(self.notation.score(&self.read(state)?))
    }

    fn draw(&self, state: &str, colour: bool) -> Result<String, FamilyError> {
        Ok((self.draw)(&self.notation, &self.read(state)?, colour))
    }
}
