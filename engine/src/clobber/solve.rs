//! The `solve` question: the fewest stones at an end, and the first play in move order
//! that ends with that many.
//!
//! The search asks, for a rising target `t` from the start's lower bound, whether some
//! state with at most `t` stones is reachable, trying the moves of each state in order.
//! The first target that succeeds is the minimum, and since the moves are tried in
//! order and a state with the minimum number of stones has no move left, the path of
//! the first success is the first complete optimal play. A state that failed for `t`
//! fails for every smaller target too, so the table of failures (the largest failed
//! target of each state) serves every later, larger target as far as it goes.

use std::collections::HashMap;

use crate::Puzzle;
use rustc_hash::FxBuildHasher;

use super::Clobber;
use super::position::{Move, State};

/// The answer to `solve`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The fewest stones any play can end with.
    pub min_stones: u32,
    /// The first play in move order that ends with `min_stones` stones.
    pub witness: Vec<Move>,
}

struct Reach<'a> {
    game: &'a Clobber,
    /// The largest target each state is known to miss.
    failed: HashMap<State, u32, FxBuildHasher>,
    /// Moves of the path to the state being searched, in reverse once a search succeeds.
    path: Vec<Move>,
    bufs: Vec<Vec<Move>>,
}

impl Reach<'_> {
    /// Whether a state with at most `target` stones is reachable from `state`; on
    /// success `path` holds the moves of the first such play, last move first.
    fn reach(&mut self, state: &State, target: u32, depth: usize) -> bool {
        if self.game.score(state) <= target {
            return true;
        }
        if self.game.lower_bound(state) > target
            || self.failed.get(state).is_some_and(|&t| t >= target)
        {
            return false;
        }
        if self.bufs.len() <= depth {
            self.bufs.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.bufs[depth]);
        self.game.moves(state, &mut moves);
        let mut found = false;
        for &mv in &moves {
            if self.reach(&self.game.play(state, mv), target, depth + 1) {
                self.path.push(mv);
                found = true;
                break;
            }
        }
        self.bufs[depth] = moves;
        if !found {
            self.failed.insert(*state, target);
        }
        found
    }
}

/// Solves `start` under `game`'s rule.
pub fn solve(game: &Clobber, start: &State) -> Solution {
    let mut search = Reach {
        game,
        failed: HashMap::default(),
        path: Vec::new(),
        bufs: Vec::new(),
    };
    // The score is always reachable (it is the start's), so the loop ends.
    let mut target = game.lower_bound(start);
    while !search.reach(start, target, 0) {
        target += 1;
    }
    search.path.reverse();
    Solution {
        min_stones: target,
        witness: search.path,
    }
}
