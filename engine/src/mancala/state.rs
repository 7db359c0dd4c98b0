//! A position of the turn and the two rules that change it: one sowing and one pick
//! (a sowing and its relays), exactly as `docs/mancala.md` gives them.

use super::rules::{Arith, MAX_HOLES, MAX_STONES, Rules};

/// A position: the holes (`holes[0]` is hole 1), the store, and whether the turn has
/// ended. It carries its [`Rules`], so that the solver needs no per-point puzzle value.
/// About 60 bytes and `Copy`, as the search keeps one per depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) holes: [u16; MAX_HOLES],
    pub(crate) home: u16,
    pub(crate) ended: bool,
    pub(crate) rules: Rules,
}

/// Why a position does not fit its rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The position has the wrong number of holes.
    #[error("holes must be a list of {expected} integers, got {got}")]
    Length {
        /// Holes the rules ask for.
        expected: usize,
        /// Holes the position has.
        got: usize,
    },
    /// The position has more stones than a state can count.
    #[error("more than {MAX_STONES} stones ({0})")]
    TooMany(u64),
}

/// Why a pick is illegal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PickError {
    /// The hole may not be picked under the rules.
    #[error("pick {0} is not a hole the player may pick")]
    NotPickable(i64),
    /// The hole holds no stone.
    #[error("pick {0} is an empty hole")]
    Empty(i64),
    /// The turn is over.
    #[error("the turn has ended: no pick is possible")]
    Ended,
}

/// What one sowing did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sowing {
    /// Stones that went to the store.
    pub gain: u32,
    /// Whether the last stone went to the store.
    pub free: bool,
    /// The hole (1-based) of the last stone; meaningless when `free`.
    pub last: usize,
}

/// What one pick did: the spec's `move` answer without the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Stones the pick put in the store, over all its sowings.
    pub gain: u32,
    /// The last sowing's flag, whatever the rule `free` says.
    pub free: bool,
    /// The holes relayed from, in order.
    pub relays: Vec<u8>,
}

/// Sows hole `p` (1-based, non-empty) of the first `n` holes under `arith`.
#[inline]
pub(crate) fn sow(holes: &mut [u16; MAX_HOLES], n: usize, arith: Arith, p: usize) -> Sowing {
    let k = usize::from(holes[p - 1]);
    holes[p - 1] = 0;
    match arith {
        Arith::Matlab => {
            // The seed's `floor((k - p) / 12) + 1`, which is 0 for k < p.
            let gain = if k >= p { (k - p) / n + 1 } else { 0 };
            let free = k % n == p;
            let r = k - gain;
            let laps = r / n;
            if laps > 0 {
                let laps = laps as u16;
                for x in &mut holes[..n] {
                    *x += laps;
                }
            }
            scatter_down(holes, n, p, r % n);
            let back = r % n;
            let last = if back < p { p - back } else { p + n - back };
            Sowing {
                gain: gain as u32,
                free,
                last,
            }
        }
        Arith::Ring => {
            // Positions after p: holes p-1..1 (1..p-1), the store (p), holes N..p.
            let ring = n + 1;
            let laps = k / ring;
            let rem = k % ring;
            if laps > 0 {
                let laps = laps as u16;
                for x in &mut holes[..n] {
                    *x += laps;
                }
            }
            let below = rem.min(p - 1);
            for x in &mut holes[p - 1 - below..p - 1] {
                *x += 1;
            }
            if rem > p {
                for x in &mut holes[n - (rem - p)..n] {
                    *x += 1;
                }
            }
            let gain = laps + usize::from(rem >= p);
            let j = if rem == 0 { ring } else { rem };
            let last = if j < p { p - j } else { n + p + 1 - j };
            Sowing {
                gain: gain as u32,
                free: j == p,
                last,
            }
        }
    }
}

/// One stone each into holes `p-1, p-2, ...` (1-based), wrapping from hole 1 to hole
/// `n`, `count < n` stones in all.
#[inline]
fn scatter_down(holes: &mut [u16; MAX_HOLES], n: usize, p: usize, count: usize) {
    let below = count.min(p - 1);
    for x in &mut holes[p - 1 - below..p - 1] {
        *x += 1;
    }
    let wrapped = count - below;
    if wrapped > 0 {
        for x in &mut holes[n - wrapped..n] {
            *x += 1;
        }
    }
}

impl State {
    /// The start position of `rules`: `s` stones in every hole, the store empty.
    pub fn start(rules: Rules) -> State {
        let mut holes = [0; MAX_HOLES];
        for x in &mut holes[..rules.holes()] {
            *x = u16::from(rules.s());
        }
        State {
            holes,
            home: 0,
            ended: false,
            rules,
        }
    }

    /// A position of `rules` with the player to move.
    pub fn new(rules: Rules, holes: &[u64], home: u64) -> Result<State, PositionError> {
        if holes.len() != rules.holes() {
            return Err(PositionError::Length {
                expected: rules.holes(),
                got: holes.len(),
            });
        }
        let total = holes.iter().fold(home, |acc, &x| acc.saturating_add(x));
        if total > u64::from(MAX_STONES) {
            return Err(PositionError::TooMany(total));
        }
        let mut out = [0; MAX_HOLES];
        for (o, &x) in out.iter_mut().zip(holes) {
            *o = x as u16;
        }
        Ok(State {
            holes: out,
            home: home as u16,
            ended: false,
            rules,
        })
    }

    /// The same position marked as ended (`true`) or with the player to move.
    pub fn with_ended(mut self, ended: bool) -> State {
        self.ended = ended;
        self
    }

    /// The rule point the state is played under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The holes, hole 1 first.
    pub fn holes(&self) -> &[u16] {
        &self.holes[..self.rules.holes()]
    }

    /// Stones in the store.
    pub fn home(&self) -> u32 {
        u32::from(self.home)
    }

    /// Whether the turn is over (the last pick did not give another one).
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Stones on the board: what the search minimises.
    #[inline]
    pub fn on_board(&self) -> u32 {
        self.holes.iter().map(|&x| u32::from(x)).sum()
    }

    /// Stones in play, board and store.
    pub fn total(&self) -> u32 {
        self.on_board() + self.home()
    }

    /// Whether hole `p` (1-based) may be picked now.
    #[inline]
    pub fn can_pick(&self, p: usize) -> bool {
        !self.ended && (1..=self.rules.pickable()).contains(&p) && self.holes[p - 1] > 0
    }

    /// Whether the player has a pick (the turn goes on).
    pub fn has_pick(&self) -> bool {
        !self.ended && self.holes[..self.rules.pickable()].iter().any(|&x| x > 0)
    }

    /// Checks pick `p` as given by a user.
    pub fn check_pick(&self, p: i64) -> Result<usize, PickError> {
        if self.ended {
            return Err(PickError::Ended);
        }
        if p < 1 || p > self.rules.pickable() as i64 {
            return Err(PickError::NotPickable(p));
        }
        if self.holes[p as usize - 1] == 0 {
            return Err(PickError::Empty(p));
        }
        Ok(p as usize)
    }

    /// Plays pick `p` (legal: see [`State::can_pick`]), calling `relayed` with every
    /// hole relayed from; returns the next state, the pick's gain and its free flag.
    /// The next state is ended unless the pick was free and the rule `free` is on.
    #[inline]
    pub fn pick_with(&self, p: usize, mut relayed: impl FnMut(usize)) -> (State, u32, bool) {
        let rules = self.rules;
        let n = rules.holes();
        let mut next = *self;
        let mut gain = 0;
        let mut from = p;
        let free = loop {
            let sown = sow(&mut next.holes, n, rules.arith, from);
            gain += sown.gain;
            if sown.free || !rules.relay || next.holes[sown.last - 1] <= 1 {
                break sown.free;
            }
            from = sown.last;
            relayed(from);
        };
        next.home += gain as u16;
        next.ended = !(free && rules.free);
        (next, gain, free)
    }

    /// Plays pick `p` (legal) for the search.
    #[inline]
    pub fn apply(&self, p: usize) -> State {
        self.pick_with(p, |_| {}).0
    }

    /// Plays pick `p` (legal) and says what it did, for the spec's `move` question.
    pub fn pick_traced(&self, p: usize) -> (State, Pick) {
        let mut relays = Vec::new();
        let (next, gain, free) = self.pick_with(p, |q| relays.push(q as u8));
        (next, Pick { gain, free, relays })
    }
}
