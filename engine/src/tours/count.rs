//! Counting tours: the number of distinct tours from a state, the start cells that
//! begin one, and the first tour in the spec's order.
//!
//! A tour is determined by its moves (the start cell, then the slides), and the moves
//! by the tour, so counting move sequences that visit every free cell counts tours. The
//! count is a depth-first search with a table of the tours below every state met (a
//! state, the blocked cells and the token, fixes everything below it), which prunes
//! every state whose lower bound proves that a cell must stay unvisited. Unlike the
//! level-by-level `hammer_solver::count`, it never stores a state that cannot reach a
//! tour, which on open boards is nearly all of them.

use rustc_hash::FxHashMap;

use crate::Puzzle;

use super::{State, Step, Tours, lower_bound};

/// What [`count_tours`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourCount {
    /// Tours from the state (saturating at `u128::MAX`).
    pub tours: u128,
    /// Before the first move: the grid cells that begin at least one tour, increasing.
    /// After it: the token's cell when a tour exists.
    pub starts: Vec<u8>,
    /// The first tour in the spec's order, as grid cells from the state on (the cells
    /// visited before the state are not included).
    pub first: Option<Vec<u8>>,
    /// States expanded: the count's cost.
    pub nodes: u64,
}

struct Counter {
    table: FxHashMap<State, u128>,
    path: Vec<u8>,
    first: Option<Vec<u8>>,
    nodes: u64,
    moves: Vec<Vec<Step>>,
}

impl Counter {
    /// Tours below `state`, `depth` moves from the count's start.
    fn below(&mut self, state: &State, depth: usize) -> u128 {
        if state.blocked == super::Cells::ALL {
            if self.first.is_none() {
                self.first = Some(self.path.clone());
            }
            return 1;
        }
        if lower_bound(state) > 0 {
            return 0;
        }
        if let Some(&n) = self.table.get(state) {
            return n;
        }
        self.nodes += 1;
        if self.moves.len() <= depth {
            self.moves.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[depth]);
        Tours.moves(state, &mut moves);
        let mut total = 0u128;
        for &mv in &moves {
            let mark = self.path.len();
            let child = state.walk(mv, &mut self.path);
            total = total.saturating_add(self.below(&child, depth + 1));
            self.path.truncate(mark);
        }
        self.moves[depth] = moves;
        self.table.insert(*state, total);
        total
    }
}

/// Counts the tours from `state` (see [`TourCount`]).
pub fn count_tours(state: &State) -> TourCount {
    let mut counter = Counter {
        table: FxHashMap::default(),
        path: Vec::new(),
        first: None,
        nodes: 0,
        moves: Vec::new(),
    };
    let mut starts = Vec::new();
    let tours = match state.token {
        Some(t) => {
            let n = counter.below(state, 0);
            if n > 0 {
                starts.push(t);
            }
            n
        }
        None if state.blocked == super::Cells::ALL => 0,
        None => {
            let mut moves = Vec::new();
            Tours.moves(state, &mut moves);
            let mut total = 0u128;
            for mv in moves {
                let Step::Place(c) = mv else { continue };
                counter.path.clear();
                let child = state.walk(mv, &mut counter.path);
                let n = counter.below(&child, 1);
                if n > 0 {
                    starts.push(c);
                }
                total = total.saturating_add(n);
            }
            total
        }
    };
    TourCount {
        tours,
        starts,
        first: counter.first,
        nodes: counter.nodes,
    }
}
