//! Seeded instances for sweeps (the spec's `gen` object): a board, a fill percentage,
//! checkerboard or random colours, and a SplitMix64 seed.

use super::ClobberError;
use super::board::Board;
use super::position::Position;

/// SplitMix64 exactly as the spec gives it: the instances must match the reference
/// implementation's bit for bit, so no other generator will do.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// How the stones of an instance are coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colours {
    /// Black where row + column is even, white elsewhere.
    Checker,
    /// Black or white by one draw per stone.
    Random,
}

impl Colours {
    /// The colouring's name in sweep files.
    pub fn name(self) -> &'static str {
        match self {
            Colours::Checker => "checker",
            Colours::Random => "random",
        }
    }

    /// Reads a colouring's name.
    pub fn from_name(text: &str) -> Option<Colours> {
        match text {
            "checker" => Some(Colours::Checker),
            "random" => Some(Colours::Random),
            _ => None,
        }
    }
}

/// The largest fill percentage.
pub const MAX_FILL: u64 = 100;

/// A checked `gen` object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gen {
    board: Board,
    fill: u8,
    colours: Colours,
    seed: u64,
}

impl Gen {
    /// Checks `m, n` in `1..=64` with `m * n <= 64`, and `fill` in `0..=100`.
    pub fn new(
        m: u64,
        n: u64,
        fill: u64,
        colours: Colours,
        seed: u64,
    ) -> Result<Gen, ClobberError> {
        let side = |name: &'static str, value: u64| {
            if (1..=64).contains(&value) {
                Ok(value as u32)
            } else {
                Err(ClobberError::GenValue {
                    name,
                    value,
                    low: 1,
                    high: 64,
                })
            }
        };
        let board = Board::new(side("m", m)?, side("n", n)?)?;
        if fill > MAX_FILL {
            return Err(ClobberError::GenValue {
                name: "fill",
                value: fill,
                low: 0,
                high: MAX_FILL,
            });
        }
        Ok(Gen {
            board,
            fill: fill as u8,
            colours,
            seed,
        })
    }

    /// The board the instances are placed on.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The instance: cells in number order, each a stone when a draw modulo 100 falls
    /// below the fill; a random colour takes one more draw (even: black).
    pub fn position(&self) -> Position {
        let mut rng = SplitMix64::new(self.seed);
        let mut pos = Position::default();
        for i in 0..self.board.cells() {
            if rng.next_u64() % 100 >= u64::from(self.fill) {
                continue;
            }
            let bit = 1u64 << i;
            let black = match self.colours {
                Colours::Checker => self.board.black_squares() & bit != 0,
                Colours::Random => rng.next_u64().is_multiple_of(2),
            };
            if black {
                pos.black |= bit;
            } else {
                pos.white |= bit;
            }
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clobber::notation::position_text;

    #[test]
    fn splitmix_matches_the_spec() {
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 16294208416658607535);
        assert_eq!(rng.next_u64(), 7960286522194355700);
        assert_eq!(rng.next_u64(), 487617019471545679);
    }

    #[test]
    fn the_spec_examples() {
        let text = |g: Gen| position_text(&g.board(), &g.position());
        let g = Gen::new(3, 4, 70, Colours::Random, 1).unwrap();
        assert_eq!(text(g), "o.oo/xo../xox.");
        let g = Gen::new(2, 5, 80, Colours::Checker, 7).unwrap();
        assert_eq!(text(g), ".oxox/o...o");
        assert!(Gen::new(9, 8, 50, Colours::Random, 1).is_err());
        assert!(Gen::new(0, 8, 50, Colours::Random, 1).is_err());
        assert!(Gen::new(3, 4, 101, Colours::Random, 1).is_err());
    }
}
