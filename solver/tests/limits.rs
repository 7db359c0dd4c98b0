//! Per-game limits: a capped game brackets its answer honestly, a limited memo keeps
//! results exact and deterministic, and a time limit says that it stopped the game.

use std::time::Duration;

use hammer_engine::{Martello, seeded};
use hammer_solver::{Cap, Config, Limits, Order, Schedule, Solver};
use proptest::prelude::*;

fn config(order: Order, schedule: &str, limits: Limits) -> Config {
    Config {
        order,
        schedule: schedule.parse::<Schedule>().unwrap(),
        prefix: 0,
        limits,
        cancel: None,
        profile: false,
    }
}

proptest! {
    // A fixed seed: a 6x6 game searched with a memo far too small can take minutes (the
    // cost is heavy-tailed), so the cases are the same on every run and CI's time is too.
    #![proptest_config(ProptestConfig {
        cases: 48,
        rng_seed: proptest::test_runner::RngSeed::Fixed(17),
        ..ProptestConfig::default()
    })]

    /// Under an expansion cap the proved lower bound and the best score found bracket
    /// the exact minimum, the cap is named, and the game spent no more than the cap.
    #[test]
    fn a_capped_game_brackets_the_exact_answer(
        n in 4u8..=6, index in 0u64..10_000, cap in 1u64..3_000, random in any::<bool>(),
    ) {
        let board = seeded::game(5, n, index).unwrap();
        let seed = seeded::run_seed(5, n, index, 0);
        let exact = Solver::new(Martello).solve(&board, &Config::default(), 0);
        let order = if random { Order::Random } else { Order::Standard };
        let schedule = if random { "luby:16" } else { "exact" };
        let limits = Limits { max_expansions: Some(cap), ..Limits::default() };
        let out = Solver::new(Martello).solve(&board, &config(order, schedule, limits), seed);
        prop_assert!(out.counters.expansions <= cap);
        if out.exhaustive {
            prop_assert_eq!(out.min_score, exact.min_score);
            prop_assert_eq!(out.capped_by, None);
        } else {
            prop_assert_eq!(out.capped_by, Some(Cap::Expansions));
            prop_assert!(out.lower_bound <= exact.min_score, "bound {} above the minimum {}", out.lower_bound, exact.min_score);
            prop_assert!(exact.min_score <= out.min_score);
            prop_assert!(out.lower_bound >= exact.lower_bound);
        }
    }

    /// A memo far too small for the game forgets states but never changes the answer,
    /// and the same game under the same limit gives the same result bit for bit, also
    /// on a solver that solved another game before.
    #[test]
    fn a_limited_memo_keeps_results_exact_and_deterministic(
        index in 0u64..10_000, random in any::<bool>(), before in 0u64..10_000,
    ) {
        let board = seeded::game(9, 6, index).unwrap();
        let seed = seeded::run_seed(9, 6, index, 0);
        let exact = Solver::new(Martello).solve(&board, &Config::default(), 0);
        let order = if random { Order::Random } else { Order::Standard };
        let schedule = if random { "luby:64" } else { "exact" };
        // 256 KiB: the smallest table, about 13,000 states.
        let limits = Limits { memo_bytes: Some(256 << 10), ..Limits::default() };
        let cfg = config(order, schedule, limits);
        let out = Solver::new(Martello).solve(&board, &cfg, seed);
        prop_assert!(out.exhaustive);
        prop_assert_eq!(out.min_score, exact.min_score);
        prop_assert!(out.memo_bytes <= 256 << 10);
        let mut used = Solver::new(Martello);
        let other = seeded::game(9, 6, before).unwrap();
        used.solve(&other, &Config::default(), 0);
        prop_assert_eq!(used.solve(&board, &cfg, seed), out);
    }
}

/// A seeded 6x6 game whose plain search fills more than 4 MiB of memo (hundreds of
/// thousands of expansions).
fn hard_game() -> (hammer_engine::State, hammer_solver::Outcome<Martello>) {
    for index in 0..200 {
        let board = seeded::game(2013, 6, index).unwrap();
        let out = Solver::new(Martello).solve(&board, &Config::default(), 0);
        if out.memo_bytes > 4 << 20 {
            return (board, out);
        }
    }
    panic!("no game with more than 4 MiB of memo among the first 200");
}

#[test]
fn memo_and_time_limits_on_a_hard_game() {
    let (board, plain) = hard_game();
    // The memo forgets states, and the answer stays exact.
    let limits = Limits {
        memo_bytes: Some(1 << 20),
        ..Limits::default()
    };
    let small = Solver::new(Martello).solve(&board, &config(Order::Standard, "exact", limits), 0);
    assert!(small.exhaustive);
    assert_eq!(small.min_score, plain.min_score);
    assert!(small.memo_evictions > 0);
    assert_eq!(small.memo_bytes, 1 << 20);
    assert!(small.counters.expansions >= plain.counters.expansions);

    // A millisecond is far less than the search needs: the time limit stops it, names
    // itself, and the answer is bracketed.
    let limits = Limits {
        max_time: Some(Duration::from_millis(1)),
        ..Limits::default()
    };
    let out = Solver::new(Martello).solve(&board, &config(Order::Standard, "exact", limits), 0);
    assert!(!out.exhaustive);
    assert_eq!(out.capped_by, Some(Cap::Time));
    assert!(out.lower_bound <= plain.min_score && plain.min_score <= out.min_score);
    assert!(out.counters.expansions < plain.counters.expansions);
}

#[test]
fn a_finite_schedule_that_runs_out_is_not_a_cap() {
    let board = seeded::game(3, 6, 1).unwrap();
    let out =
        Solver::new(Martello).solve(&board, &config(Order::Random, "5", Limits::default()), 1);
    assert!(!out.exhaustive);
    assert_eq!(out.capped_by, None);
}

/// A game whose caller gave it up stops at the search's next slow-path check, says so,
/// and still brackets the answer; the same solver then solves the next game whole.
#[test]
fn a_cancelled_game_stops_and_says_so() {
    // 8x8 game 10 of seed 2013: about 100 million expansions when searched whole.
    let board = seeded::game(2013, 8, 10).unwrap();
    let cancel = hammer_solver::Cancel::new();
    cancel.set();
    let mut cfg = config(Order::Random, "luby:256", Limits::default());
    cfg.cancel = Some(cancel.clone());
    let mut solver = Solver::new(Martello);
    let out = solver.solve(&board, &cfg, seeded::run_seed(2013, 8, 10, 0));
    assert_eq!(out.capped_by, Some(Cap::Cancelled));
    assert!(!out.exhaustive);
    assert!(
        out.counters.expansions <= 1 << 15,
        "{}",
        out.counters.expansions
    );
    assert!(out.lower_bound <= out.min_score);
    // The flag is the caller's, not the solver's: a game without it runs to its end.
    let small = seeded::game(2013, 5, 1).unwrap();
    let whole = solver.solve(&small, &Config::default(), 0);
    assert!(whole.exhaustive);
    assert_eq!(whole.capped_by, None);
    // A "cancelled" cap is never a dataset value: it names no limit.
    assert_eq!(Cap::from_name("cancelled"), None);
    // A search's record still names it, and reads back as the cap it is.
    for cap in [Cap::Expansions, Cap::Time, Cap::Cancelled] {
        assert_eq!(Cap::parse(cap.name()), Some(cap));
    }
    assert_eq!(Cap::from_name("time"), Some(Cap::Time));
}
