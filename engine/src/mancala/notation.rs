//! The family's text notation of a position: the holes from hole 1 to hole `2h`,
//! comma-separated, then `|` and the store, then `|end` when the turn has ended.
//! The start of the seed's game is `4,4,4,4,4,4,4,4,4,4,4,4|0`.

use std::fmt;

use super::rules::Rules;
use super::state::{PositionError, State};

/// Why a position's text did not parse; the message names the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("expected HOLES|HOME or HOLES|HOME|end, such as 4,4,4,4|0")]
    Shape,
    #[error("'{0}' is not a stone count (a non-negative integer)")]
    Count(String),
    #[error("'{0}' after the store: only 'end' may follow")]
    Suffix(String),
    #[error(transparent)]
    Position(#[from] PositionError),
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
