//! What several of the solver's test files share: the configurations they compare, the
//! replay of a solution, and a seeded walk into the middle of a game.

#![allow(dead_code)] // each test file uses only some of these

use hammer_engine::{Martello, Move, Puzzle, State};
use hammer_solver::{Config, Limits, Order, Schedule};

/// Order, schedule and memo limit (MiB) of the configurations the tests run every game
/// under; the last one's memo is too small for 6x6 games, so it forgets states.
pub const CONFIGS: [(Order, &str, Option<u64>); 3] = [
    (Order::Standard, "exact", None),
    (Order::Random, "luby:64", None),
    (Order::Random, "luby:256", Some(1)),
];

pub fn config(order: Order, schedule: &str, memo_mb: Option<u64>) -> Config {
    Config {
        order,
        schedule: schedule.parse::<Schedule>().unwrap(),
        limits: Limits {
            memo_bytes: memo_mb.map(|mb| mb << 20),
            ..Limits::default()
        },
        ..Config::default()
    }
}

/// The state `moves` reaches from `start`, each move checked legal on the way.
pub fn replay(start: &State, moves: &[Move]) -> State {
    let mut state = *start;
    let mut legal = Vec::new();
    for &mv in moves {
        Martello.moves(&state, &mut legal);
        assert!(legal.contains(&mv), "{mv:?} is not legal in {state}");
        state = Martello.apply(&state, mv);
    }
    state
}

/// The next move of a seeded walk: the generator's next `step` picks among `moves`.
pub fn pick(moves: &[Move], step: &mut u64) -> Move {
    *step = step.wrapping_mul(6364136223846793005).wrapping_add(1);
    moves[(*step >> 33) as usize % moves.len()]
}

/// The state at most `moves` moves of a seeded walk (from `step`) into `state`.
pub fn walk(mut state: State, mut step: u64, moves: u32) -> State {
    let mut buf = Vec::new();
    for _ in 0..moves {
        Martello.moves(&state, &mut buf);
        if buf.is_empty() {
            break;
        }
        state = Martello.apply(&state, pick(&buf, &mut step));
    }
    state
}
