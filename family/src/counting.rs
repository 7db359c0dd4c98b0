//! Counting as a family capability: every position reachable from a start, level by
//! level (by score), in this process or by a gang of processes that each own a hash
//! share of the positions (`hammer count`, `hammer count --peers`).

use hammer_engine::{Countable, Notation, Wire};
use hammer_solver::{GangCountStats, Level, Link, Reduction, count, count_gang};

use crate::{Instance, OwnersError, Point};

/// Who counts.
pub enum CountTeam<'a> {
    /// This process alone.
    Alone,
    /// This process, as one member of a gang over `link`.
    Gang(&'a mut dyn Link),
}

/// A count: the whole gang's, with a gang.
#[derive(Clone, Debug, PartialEq)]
pub struct Counted {
    /// The start, in the family's notation.
    pub start: String,
    /// Levels by falling score, the start's first.
    pub levels: Vec<Level>,
    /// What this member did, with a gang.
    pub member: Option<GangCountStats>,
}

impl Counted {
    /// Reachable entries: classes modulo symmetry, else positions.
    pub fn classes(&self) -> u64 {
        self.levels.iter().map(|l| l.classes).sum()
    }

    /// Reachable positions.
    pub fn states(&self) -> u64 {
        self.levels.iter().map(|l| l.states).sum()
    }
}

/// What a family that can count gives (`Family::counting`).
pub trait Counting: Send + Sync {
    /// Counts every position reachable from `instance` at `point`; with `symmetry`, one
    /// entry per class of the symmetries that fix the start (the position counts stay
    /// exact). Every member of a gang must call this with the same arguments.
    fn count(
        &self,
        point: &Point,
        instance: Instance<'_>,
        symmetry: bool,
        team: CountTeam<'_>,
    ) -> Result<Counted, OwnersError>;
}

/// The count of `start` under `notation`'s rules: the one implementation behind every
/// family's [`Counting`]. `puzzle` must already merge only the symmetries that fix the
/// start when `symmetry` is asked.
pub(crate) fn count_positions<N, P>(
    notation: &N,
    puzzle: &P,
    start: &N::Position,
    symmetry: bool,
    team: CountTeam<'_>,
) -> Result<Counted, OwnersError>
where
    P: Countable + Wire,
    N: Notation<Position = P::State, Move = P::Move>,
{
    let reduction = if symmetry {
        Reduction::Symmetry
    } else {
        Reduction::None
    };
    let (levels, member) = match team {
        CountTeam::Alone => (count(puzzle, start, reduction).levels, None),
        CountTeam::Gang(link) => {
            let (counts, stats) = count_gang(puzzle, start, reduction, link)?;
            (counts.levels, Some(stats))
        }
    };
    Ok(Counted {
        start: notation.write(start),
        levels,
        member,
    })
}
