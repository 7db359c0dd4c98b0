//! The strong bound (Martello: frozen stones) changes expansions, never an answer.

use hammer_engine::{Martello, Puzzle, State, seeded};
use hammer_solver::{Config, Limits, Order, Schedule, Solver};

fn config(order: Order, schedule: &str, memo_mb: Option<u64>, strong: bool) -> Config {
    Config {
        order,
        schedule: schedule.parse::<Schedule>().unwrap(),
        limits: Limits {
            memo_bytes: memo_mb.map(|mb| mb << 20),
            ..Limits::default()
        },
        profile: true,
        strong_bound: strong,
        ..Config::default()
    }
}

/// A state `moves` random moves into seeded game `index`.
fn mid_game(n: u8, index: u64, moves: u32) -> State {
    let mut state = seeded::game(5, n, index).unwrap();
    let mut buf = Vec::new();
    let mut step = index;
    for _ in 0..moves {
        Martello.moves(&state, &mut buf);
        if buf.is_empty() {
            break;
        }
        step = step.wrapping_mul(6364136223846793005).wrapping_add(1);
        state = Martello.apply(&state, buf[(step >> 33) as usize % buf.len()]);
    }
    state
}

#[test]
fn the_strong_bound_keeps_every_minimum_and_its_solutions_replay() {
    let configs = [
        (Order::Standard, "exact", None),
        (Order::Random, "luby:64", None),
        (Order::Random, "luby:256", Some(1)),
    ];
    let mut plain = Solver::new(Martello);
    let mut strong = Solver::new(Martello);
    let (mut cut, mut fewer, mut games) = (0, 0, 0);
    for n in [4u8, 5, 6, 7] {
        for index in 0..30 {
            // 7x7 games from the middle, where they take a moment, not minutes.
            let board = if n == 7 {
                mid_game(n, index, 20)
            } else {
                seeded::game(5, n, index).unwrap()
            };
            for (order, schedule, memo) in configs {
                let seed = seeded::run_seed(5, n, index, 0);
                let a = plain.solve(&board, &config(order, schedule, memo, false), seed);
                let b = strong.solve(&board, &config(order, schedule, memo, true), seed);
                let what = format!("n {n}, game {index}, {order}/{schedule}");
                assert!(a.exhaustive && b.exhaustive, "{what}");
                assert_eq!(a.min_score, b.min_score, "{what}");
                assert!(b.lower_bound <= b.min_score, "{what}");
                let mut state = b.start;
                for &mv in &b.solution {
                    let mut legal = Vec::new();
                    Martello.moves(&state, &mut legal);
                    assert!(
                        legal.contains(&mv),
                        "{what}: {mv:?} is not legal in {state}"
                    );
                    state = Martello.apply(&state, mv);
                }
                assert_eq!(Martello.score(&state), b.min_score, "{what}");
                let profile = b.profile.expect("profiled");
                let strong_cuts: u64 = profile.levels.iter().map(|l| l.strong_pruned).sum();
                cut += strong_cuts;
                fewer += (b.counters.expansions < a.counters.expansions) as u32;
                games += 1;
            }
        }
    }
    // The bound must have been at work, or the test would prove nothing (when written:
    // 458,403 states cut; 311 of the 360 searches took fewer expansions).
    assert!(
        cut > 100_000 && fewer > games / 2,
        "{cut} states cut, {fewer} of {games} cheaper"
    );
}
