//! The spec's `count` question: every board at which the player is to move in some
//! first turn, found by a depth-first walk over the picks that give another pick.
//!
//! Kept here rather than in the solver: it is a plain reachability walk, not a search
//! for a best score, and it needs the family's notion of "a board reached by a free
//! pick".

use std::collections::HashSet;

use hammer_engine::Puzzle;
use hammer_engine::mancala::{Mancala, State};

/// What [`count`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Distinct boards at which the player is to move: the start and every board reached
    /// by a free pick (while the rule `free` is on).
    pub states: u64,
    /// The best store count among those boards.
    pub max_home_open: u32,
    /// The best store count at the end of any turn.
    pub max_home: u32,
    /// Picks played (successor boards generated), the walk's cost.
    pub picks: u64,
}

/// Walks every turn from `start` (a position with the player to move). Boards are told
/// apart by their 128-bit fingerprint, which keeps the set small enough for the 29.5
/// million boards of the seed's game; two boards share one with probability ~2^-128.
pub fn count(start: &State) -> Count {
    let mut seen: HashSet<u128> = HashSet::new();
    let mut stack = vec![*start];
    seen.insert(Mancala.fingerprint(start));
    let mut out = Count {
        states: 0,
        max_home_open: 0,
        max_home: start.home(),
        picks: 0,
    };
    let mut moves = Vec::new();
    while let Some(state) = stack.pop() {
        out.states += 1;
        out.max_home_open = out.max_home_open.max(state.home());
        out.max_home = out.max_home.max(state.home());
        Mancala.moves(&state, &mut moves);
        for &p in &moves {
            let next = state.apply(usize::from(p));
            out.picks += 1;
            out.max_home = out.max_home.max(next.home());
            if !next.ended() && seen.insert(Mancala.fingerprint(&next)) {
                stack.push(next);
            }
        }
    }
    out
}
