//! The family's text notation of a position: the holes from hole 1 to hole `2h`,
//! comma-separated, then `|` and the store, then `|end` when the turn has ended.
//! The start of the seed's game is `4,4,4,4,4,4,4,4,4,4,4,4|0`.

use std::fmt;

use super::rules::Rules;
use super::state::{PickError, PositionError, State};

/// Why a position's text did not parse; the message names the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text is not holes and a store separated by `|`.
    #[error("expected HOLES|HOME or HOLES|HOME|end, such as 4,4,4,4|0")]
    Shape,
    /// A hole or store that is not a stone count.
    #[error("'{0}' is not a stone count (a non-negative integer)")]
    Count(String),
    /// Text after the store other than `end`.
    #[error("'{0}' after the store: only 'end' may follow")]
    Suffix(String),
    /// The counts do not fit the rules.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A pick that is not a hole number.
    #[error("'{0}' is not a pick: a pick is a hole number")]
    PickSyntax(String),
    /// A pick that is not legal in the position.
    #[error(transparent)]
    Pick(#[from] PickError),
}

impl State {
    /// Parses the notation for a position of `rules`.
    pub fn parse(rules: Rules, text: &str) -> Result<State, NotationError> {
        let mut parts = text.trim().split('|');
        let (Some(holes), Some(home)) = (parts.next(), parts.next()) else {
            return Err(NotationError::Shape);
        };
        let ended = match parts.next() {
            None => false,
            Some("end") => true,
            Some(other) => return Err(NotationError::Suffix(other.to_string())),
        };
        if parts.next().is_some() {
            return Err(NotationError::Shape);
        }
        let count = |t: &str| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| NotationError::Count(t.trim().to_string()))
        };
        let holes = holes.split(',').map(count).collect::<Result<Vec<_>, _>>()?;
        let home = count(home)?;
        Ok(State::new(rules, &holes, home)?.with_ended(ended))
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, x) in self.holes().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{x}")?;
        }
        write!(f, "|{}", self.home)?;
        if self.ended {
            f.write_str("|end")?;
        }
        Ok(())
    }
}

/// Mancala's notation under one rule set.
impl crate::Notation for Rules {
    type Position = State;
    type Move = u8;
    type Error = NotationError;

    fn read(&self, text: &str) -> Result<State, NotationError> {
        State::parse(*self, text)
    }

    fn write(&self, pos: &State) -> String {
        pos.to_string()
    }

    fn legal(&self, pos: &State, out: &mut Vec<u8>) {
        crate::Puzzle::moves(&super::Mancala, pos, out);
    }

    fn play(&self, pos: &State, mv: u8) -> State {
        pos.apply(usize::from(mv))
    }

    fn read_move(&self, pos: &State, text: &str) -> Result<u8, NotationError> {
        let p: i64 = text
            .trim()
            .parse()
            .map_err(|_| NotationError::PickSyntax(text.to_string()))?;
        Ok(pos.check_pick(p)? as u8)
    }

    fn write_move(&self, _pos: &State, mv: u8) -> String {
        mv.to_string()
    }

    fn score(&self, pos: &State) -> u32 {
        pos.on_board()
    }
}
