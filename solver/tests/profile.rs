//! The search profile: it changes nothing the search does, and its counts add up.

mod common;

use common::{CONFIGS, config, pick};
use hammer_engine::{Martello, Puzzle, seeded};
use hammer_solver::{Config, Order, Solver};

fn profiled(order: Order, schedule: &str, memo_mb: Option<u64>, profile: bool) -> Config {
    Config {
        profile,
        ..config(order, schedule, memo_mb)
    }
}

#[test]
fn profiling_changes_no_result_and_its_counts_add_up() {
    let mut plain = Solver::new(Martello);
    let mut profiler = Solver::new(Martello);
    let mut evictions = 0;
    for n in [4u8, 5, 6] {
        for index in 0..40 {
            let board = seeded::game(7, n, index).unwrap();
            for (order, schedule, memo) in CONFIGS {
                let seed = seeded::run_seed(7, n, index, 0);
                let a = plain.solve(&board, &profiled(order, schedule, memo, false), seed);
                let mut b = profiler.solve(&board, &profiled(order, schedule, memo, true), seed);
                assert!(a.profile.is_none());
                let profile = b.profile.take().expect("a profile was asked for");
                assert_eq!(a, b, "n {n}, game {index}, {order}/{schedule}");

                let total = profile.total();
                assert_eq!(total.expanded, b.counters.expansions);
                assert_eq!(profile.start_bound, Martello.lower_bound(&b.start));
                assert_eq!(profile.memo_evictions, b.memo_evictions);
                evictions += profile.memo_evictions;
                for (score, level) in profile.levels.iter().enumerate() {
                    assert!(level.pruned_base <= level.pruned);
                    assert!(level.pruned + level.memo_hits <= level.children);
                    // A state's bound never exceeds its score.
                    assert!(level.bound_sum <= level.expanded * score as u64);
                }
                assert_eq!(profile.levels.len() as u32, b.start.stone_count() + 1);
            }
        }
    }
    assert!(
        evictions > 0,
        "the small memo forgot nothing: the test lost its point"
    );
}

/// The base bound (components without zones) is sound and never above the bound.
#[test]
fn the_base_bound_is_a_weaker_bound() {
    for n in 3..=8u8 {
        for index in 0..30 {
            let mut state = seeded::game(3, n, index).unwrap();
            let mut moves = Vec::new();
            let mut step = index;
            loop {
                assert!(Martello.base_bound(&state) <= Martello.lower_bound(&state));
                assert!(Martello.base_bound(&state) >= 1);
                Martello.moves(&state, &mut moves);
                if moves.is_empty() {
                    break;
                }
                state = Martello.apply(&state, pick(&moves, &mut step));
            }
        }
    }
}
