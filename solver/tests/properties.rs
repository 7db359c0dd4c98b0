//! Property tests: every configuration gives the same exact minimum, solutions replay,
//! and (seed, game, configuration) reproduces a result bit for bit.

use hammer_engine::{Martello, State, seeded};
use hammer_solver::{Config, Order, Schedule, Solver};
use proptest::prelude::*;

fn config(order: usize, schedule: usize, prefix: u32) -> Config {
    let orders = [
        Order::Standard,
        Order::Random,
        Order::MostOptions,
        Order::MonteCarlo {
            playouts: 3,
            levels: 2,
        },
    ];
    let schedules = [
        "exact",
        "paper",
        "luby:8",
        "geometric:20,1.5",
        "fixed:50",
        "3x10,exact",
    ];
    Config {
        order: orders[order % orders.len()],
        schedule: schedules[schedule % schedules.len()]
            .parse::<Schedule>()
            .unwrap(),
        prefix,
        limits: Default::default(),
        cancel: None,
        profile: false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn all_configurations_agree_and_solutions_replay(
        n in 2u8..=5, index in 0u64..100_000, order in 0usize..4, schedule in 0usize..6, prefix in 0u32..4,
    ) {
        let board = seeded::game(11, n, index).unwrap();
        let seed = seeded::run_seed(11, n, index, 0);
        let mut solver = Solver::new(Martello);
        let cfg = config(order, schedule, prefix);
        let out = solver.solve(&board, &cfg, seed);
        prop_assert!(out.exhaustive);
        // The prefix replays from the board, the solution from the start.
        let mut state = board;
        for mv in out.prefix_moves.iter().chain(&out.solution) {
            let text = mv.notation(n);
            let parsed: hammer_engine::Move = state.parse_move(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            state = state.apply(parsed);
        }
        prop_assert_eq!(state.stone_count(), out.min_score);
        prop_assert_eq!(State::parse(&out.start.to_string()).unwrap(), out.start);

        // The same start solved by the plain exact search gives the same minimum.
        let plain = Solver::new(Martello).solve(&out.start, &Config::default(), 0);
        prop_assert_eq!(plain.min_score, out.min_score);

        // Bit for bit: a fresh solver (and a reused one) reproduce the result.
        let again = Solver::new(Martello).solve(&board, &cfg, seed);
        prop_assert_eq!(&again, &out);
        let reused = solver.solve(&board, &cfg, seed);
        prop_assert_eq!(&reused, &out);
    }
}

#[test]
fn budgeted_attempts_say_when_they_are_only_an_upper_bound() {
    // A single attempt of 5 expansions cannot prove most 6x6 games.
    let mut solver = Solver::new(Martello);
    let cfg = Config {
        order: Order::Random,
        schedule: "5".parse().unwrap(),
        prefix: 0,
        limits: Default::default(),
        cancel: None,
        profile: false,
    };
    let mut cut = 0;
    for index in 0..20 {
        let board = seeded::game(3, 6, index).unwrap();
        let out = solver.solve(&board, &cfg, seeded::run_seed(3, 6, index, 0));
        assert!(out.counters.expansions <= 5);
        assert_eq!(out.counters.attempts, 1);
        if !out.exhaustive {
            cut += 1;
            assert!(out.min_score > out.lower_bound);
        }
    }
    assert!(cut > 0);
}

#[test]
fn restarts_keep_finished_work() {
    // Luby restarts over the same memo finish with the exact answer, and the memo
    // grows across attempts (states of cut attempts' stacks are not kept).
    let board = seeded::game(2013, 6, 9).unwrap();
    let exact = Solver::new(Martello).solve(&board, &Config::default(), 0);
    let cfg = Config {
        order: Order::Random,
        schedule: "luby:4".parse().unwrap(),
        prefix: 0,
        limits: Default::default(),
        cancel: None,
        profile: false,
    };
    let out = Solver::new(Martello).solve(&board, &cfg, 1);
    assert!(out.exhaustive);
    assert_eq!(out.min_score, exact.min_score);
    assert!(out.counters.attempts > 1);
}

/// The exact minimum stone count by plain exhaustive search, without bounds.
fn brute_min(state: &State, seen: &mut std::collections::HashMap<State, u32>) -> u32 {
    use hammer_engine::Puzzle;
    if let Some(&m) = seen.get(state) {
        return m;
    }
    let mut moves = Vec::new();
    Martello.moves(state, &mut moves);
    let mut best = Martello.score(state);
    for mv in moves {
        best = best.min(brute_min(&Martello.apply(state, mv), seen));
    }
    seen.insert(*state, best);
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The lower bound never exceeds the exact minimum, and the solver finds that
    /// minimum, on mid-game states (where empty rows cut boards into zones).
    #[test]
    fn lower_bound_is_sound_and_results_exact_mid_game(
        n in 3u8..=7, index in 0u64..100_000, left in 4u32..11,
        choice in proptest::collection::vec(any::<u16>(), 64),
    ) {
        use hammer_engine::Puzzle;
        let mut state = seeded::game(11, n, index).unwrap();
        let mut buf = Vec::new();
        for &c in &choice {
            if Martello.score(&state) <= left {
                break;
            }
            Martello.moves(&state, &mut buf);
            if buf.is_empty() {
                break;
            }
            state = Martello.apply(&state, buf[c as usize % buf.len()]);
        }
        let exact = brute_min(&state, &mut Default::default());
        prop_assert!(Martello.lower_bound(&state) <= exact, "{state}: bound {} > {exact}", Martello.lower_bound(&state));
        let out = Solver::new(Martello).solve(&state, &Config::default(), 1);
        prop_assert!(out.exhaustive);
        prop_assert_eq!(out.min_score, exact, "{}", state);
    }
}
