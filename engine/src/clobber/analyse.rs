//! The `analyse` question: everything reachable from a start, counted exactly.
//!
//! Every move removes one stone, so the reachable states fall into levels by stone
//! count and every path into a level passes through the level above it. The levels are
//! expanded from the start down, each keeping, for each of its states, the number of
//! distinct move sequences from the start that reach it; only two levels are held at
//! a time. The ends of the lowest level that has ends are the optimal ones.

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::Puzzle;
use rustc_hash::FxBuildHasher;

use super::Clobber;
use super::position::{Colour, Move, Position, State};

/// The answer to `analyse`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Distinct reachable states (positions, with the colour to move under the
    /// partisan rule), the start included.
    pub states: u64,
    /// The fewest stones at any reachable end.
    pub min_stones: u32,
    /// The most stones at any reachable end.
    pub max_stones: u32,
    /// Distinct reachable end positions.
    pub ends: u64,
    /// Distinct move sequences from the start that end with `min_stones` stones
    /// (saturating at `u128::MAX`).
    pub optimal_plays: u128,
    /// The single stones a play can finish with, by cell and then white before black;
    /// empty unless `min_stones` is 1.
    pub lone: Vec<Lone>,
}

/// A single stone left at an end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lone {
    /// The bit index (cell number minus one).
    pub cell: u8,
    /// The stone's colour.
    pub colour: Colour,
}

impl fmt::Display for Lone {
    /// `CELL:COLOUR`, such as `7:x`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.cell + 1, self.colour.letter())
    }
}

/// One level: the states of one stone count with the plays that reach each, kept apart
/// by the colour to move so that a key is just the position (smaller entries make the
/// table's cache misses, which dominate the count, fewer).
struct Level([HashMap<Position, u128, FxBuildHasher>; 3]);

/// The index of a turn in a [`Level`].
#[inline]
fn slot(turn: Option<Colour>) -> usize {
    match turn {
        None => 0,
        Some(Colour::Black) => 1,
        Some(Colour::White) => 2,
    }
}

const TURNS: [Option<Colour>; 3] = [None, Some(Colour::Black), Some(Colour::White)];

impl Level {
    fn new() -> Level {
        Level(Default::default())
    }

    fn len(&self) -> usize {
        self.0.iter().map(HashMap::len).sum()
    }

    fn add(&mut self, state: State, plays: u128) {
        let into = self.0[slot(state.turn)].entry(state.pos).or_insert(0);
        *into = into.saturating_add(plays);
    }

    fn states(&self) -> impl Iterator<Item = (State, u128)> + '_ {
        TURNS.iter().zip(&self.0).flat_map(|(&turn, map)| {
            map.iter()
                .map(move |(&pos, &plays)| (State { pos, turn }, plays))
        })
    }
}

/// Analyses everything reachable from `start` under `game`'s rule.
pub fn analyse(game: &Clobber, start: &State) -> Analysis {
    let mut level = Level::new();
    level.add(*start, 1);
    let mut ends: HashSet<Position, FxBuildHasher> = HashSet::default();
    let mut states = 0u64;
    let (mut min_stones, mut max_stones) = (u32::MAX, 0);
    let mut optimal_plays = 0u128;
    let mut moves: Vec<Move> = Vec::new();
    let mut stones = game.score(start);
    while level.len() > 0 {
        states += level.len() as u64;
        let mut next = Level::new();
        let mut end_plays: Option<u128> = None;
        for (state, plays) in level.states() {
            game.moves(&state, &mut moves);
            if moves.is_empty() {
                ends.insert(state.pos);
                end_plays = Some(end_plays.unwrap_or(0).saturating_add(plays));
                continue;
            }
            for &mv in &moves {
                next.add(game.play(&state, mv), plays);
            }
        }
        if let Some(plays) = end_plays {
            max_stones = max_stones.max(stones);
            min_stones = stones;
            optimal_plays = plays;
        }
        level = next;
        stones = stones.saturating_sub(1);
    }
    let mut lone: Vec<Lone> = match min_stones {
        1 => ends
            .iter()
            .filter(|p| p.count() == 1)
            .map(|p| Lone {
                cell: p.stones().trailing_zeros() as u8,
                colour: if p.black != 0 {
                    Colour::Black
                } else {
                    Colour::White
                },
            })
            .collect(),
        _ => Vec::new(),
    };
    lone.sort_by_key(|l| (l.cell, l.colour == Colour::Black));
    Analysis {
        states,
        min_stones,
        max_stones,
        ends: ends.len() as u64,
        optimal_plays,
        lone,
    }
}
