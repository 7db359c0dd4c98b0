//! The rule point of a Mancala first turn: board size, start stones and the four
//! variant switches of `docs/mancala.md`.

use std::fmt;

/// Largest number of holes per side.
pub const MAX_H: u8 = 12;
/// Largest number of stones per hole at the start.
pub const MAX_S: u8 = 12;
/// Largest number of holes on the board (`2 * MAX_H`).
pub const MAX_HOLES: usize = 2 * MAX_H as usize;
/// Most stones a position may hold (board and store together), per the spec; it keeps
/// every count inside a `u16`.
pub const MAX_STONES: u32 = 1000;

/// Which holes the player may pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Picks {
    /// Any of the `2h` holes (the seed's driver).
    All,
    /// Only holes `1..=h`, the side that feeds the store.
    Own,
}

/// How a sowing is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Arith {
    /// The seed's MATLAB arithmetic: a store pass every `2h` stones.
    Matlab,
    /// The physical process: the store is one more position on the ring.
    Ring,
}

impl Picks {
    /// The option's name in sweep files.
    pub fn name(self) -> &'static str {
        match self {
            Picks::All => "all",
            Picks::Own => "own",
        }
    }

    /// Reads the option's name.
    pub fn from_name(text: &str) -> Option<Picks> {
        match text {
            "all" => Some(Picks::All),
            "own" => Some(Picks::Own),
            _ => None,
        }
    }
}

impl Arith {
    /// The option's name in sweep files.
    pub fn name(self) -> &'static str {
        match self {
            Arith::Matlab => "matlab",
            Arith::Ring => "ring",
        }
    }

    /// Reads the option's name.
    pub fn from_name(text: &str) -> Option<Arith> {
        match text {
            "matlab" => Some(Arith::Matlab),
            "ring" => Some(Arith::Ring),
            _ => None,
        }
    }
}

/// Why a rule point was refused; the message names the rule and its range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The number of holes is out of range.
    #[error("h must be in 1..{MAX_H}, got {0}")]
    Holes(i64),
    /// The stones per hole are out of range.
    #[error("s must be in 0..{MAX_S}, got {0}")]
    Stones(i64),
}

/// One rule point. Small and `Copy`: every [`super::State`] carries its rules, so one
/// solver (and its memo) serves every point of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rules {
    h: u8,
    s: u8,
    /// Which holes the player may pick.
    pub picks: Picks,
    /// A pick that ends in the store gives another pick.
    pub free: bool,
    /// A sowing that ends in an occupied hole continues from it.
    pub relay: bool,
    /// How the stones of a pick are counted out.
    pub arith: Arith,
}

impl Default for Rules {
    /// The seed's game: 6 holes a side, 4 stones each, every switch as in its code.
    fn default() -> Self {
        Rules {
            h: 6,
            s: 4,
            picks: Picks::All,
            free: true,
            relay: true,
            arith: Arith::Matlab,
        }
    }
}

impl Rules {
    /// Checks `h` in `1..=12` and `s` in `0..=12`.
    pub fn new(
        h: i64,
        s: i64,
        picks: Picks,
        free: bool,
        relay: bool,
        arith: Arith,
    ) -> Result<Rules, RulesError> {
        if !(1..=i64::from(MAX_H)).contains(&h) {
            return Err(RulesError::Holes(h));
        }
        if !(0..=i64::from(MAX_S)).contains(&s) {
            return Err(RulesError::Stones(s));
        }
        Ok(Rules {
            h: h as u8,
            s: s as u8,
            picks,
            free,
            relay,
            arith,
        })
    }

    /// Holes per side.
    pub fn h(&self) -> u8 {
        self.h
    }

    /// Stones per hole at the start.
    pub fn s(&self) -> u8 {
        self.s
    }

    /// Holes on the board, `N = 2h`.
    #[inline]
    pub fn holes(&self) -> usize {
        2 * self.h as usize
    }

    /// How many holes, counted from hole 1, the player may pick.
    #[inline]
    pub fn pickable(&self) -> usize {
        match self.picks {
            Picks::All => self.holes(),
            Picks::Own => self.h as usize,
        }
    }

    /// Stones in play at the start.
    pub fn total(&self) -> u32 {
        self.holes() as u32 * u32::from(self.s)
    }
}

impl fmt::Display for Rules {
    /// `h=6 s=4 picks=all free=true relay=true arith=matlab`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "h={} s={} picks={} free={} relay={} arith={}",
            self.h,
            self.s,
            self.picks.name(),
            self.free,
            self.relay,
            self.arith.name()
        )
    }
}
