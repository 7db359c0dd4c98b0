//! A split game: the parts together give the exact answer of the whole game, whatever
//! the number of parts and whatever better scores the parts were told of.

use hammer_engine::{Martello, Puzzle, seeded};
use hammer_solver::{Config, Limits, Order, Schedule, SharedBest, Solver, SplitMode, SplitPart};
use proptest::prelude::*;

fn config(random: bool, limits: Limits, split: Option<SplitPart>) -> Config {
    Config {
        order: if random {
            Order::Random
        } else {
            Order::Standard
        },
        schedule: (if random { "luby:64" } else { "exact" })
            .parse::<Schedule>()
            .unwrap(),
        prefix: 0,
        limits,
        split,
        cancel: None,
        profile: false,
    }
}

fn part(index: u32, count: u32, shared: &SharedBest) -> Option<SplitPart> {
    Some(SplitPart {
        index,
        count,
        mode: SplitMode::Subtrees,
        shared: shared.clone(),
    })
}

fn racer(index: u32, count: u32, shared: &SharedBest) -> Option<SplitPart> {
    Some(SplitPart {
        mode: SplitMode::Race,
        ..part(index, count, shared)?
    })
}

/// The moves of `solution` from `board` reach a state of score `score`.
fn replays_to(
    board: &hammer_engine::martello::State,
    solution: &[hammer_engine::martello::Move],
    score: u32,
) -> bool {
    let mut state = *board;
    for &mv in solution {
        let mut moves = Vec::new();
        Martello.moves(&state, &mut moves);
        if !moves.contains(&mv) {
            return false;
        }
        state = Martello.apply(&state, mv);
    }
    Martello.score(&state) == score
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The least score of the parts is the exact minimum, every part is exhaustive and
    /// its solution replays to its score, for any number of parts.
    #[test]
    fn the_parts_give_the_exact_answer(
        n in 4u8..=6, index in 0u64..10_000, count in 1u32..=5, random in any::<bool>(),
    ) {
        let board = seeded::game(17, n, index).unwrap();
        let seed = seeded::run_seed(17, n, index, 0);
        let exact = Solver::new(Martello).solve(&board, &Config::default(), 0);
        let mut solver = Solver::new(Martello);
        let mut least = u32::MAX;
        let mut nodes = None;
        for i in 0..count {
            let out = solver.solve(&board, &config(random, Limits::default(), part(i, count, &SharedBest::new())), seed);
            prop_assert!(out.exhaustive);
            prop_assert_eq!(out.lower_bound, exact.lower_bound);
            prop_assert!(out.min_score >= exact.min_score);
            prop_assert!(replays_to(&board, &out.solution, out.min_score));
            // Every part works out the same frontier.
            let shape = out.split.unwrap();
            prop_assert!(nodes.is_none_or(|s| s == shape));
            nodes = Some(shape);
            least = least.min(out.min_score);
        }
        prop_assert_eq!(least, exact.min_score);
    }

    /// A part told of a score another part proved prunes against it: it stays exact
    /// (nothing below the told score is missed) and never costs more.
    #[test]
    fn a_told_score_prunes_and_keeps_the_answer(
        index in 0u64..10_000, count in 2u32..=4,
    ) {
        let board = seeded::game(19, 6, index).unwrap();
        let seed = seeded::run_seed(19, 6, index, 0);
        let exact = Solver::new(Martello).solve(&board, &Config::default(), 0);
        let mut solver = Solver::new(Martello);
        for i in 0..count {
            let alone = solver.solve(&board, &config(false, Limits::default(), part(i, count, &SharedBest::new())), seed);
            let told = SharedBest::new();
            told.tell(exact.min_score, "(a witness elsewhere)");
            let helped = solver.solve(&board, &config(false, Limits::default(), part(i, count, &told)), seed);
            prop_assert!(helped.exhaustive);
            prop_assert!(helped.counters.expansions <= alone.counters.expansions);
            // What the part found alone below the told score would contradict the answer.
            prop_assert!(alone.min_score >= exact.min_score);
        }
    }

    /// A part stopped by an expansion cap brackets the answer of its subtrees: its bound
    /// is at most the exact minimum of the game when every other part is exact.
    #[test]
    fn a_capped_part_brackets_the_answer(
        index in 0u64..10_000, cap in 1u64..2_000, count in 2u32..=4,
    ) {
        let board = seeded::game(23, 6, index).unwrap();
        let seed = seeded::run_seed(23, 6, index, 0);
        let exact = Solver::new(Martello).solve(&board, &Config::default(), 0);
        let limits = Limits { max_expansions: Some(cap), ..Limits::default() };
        let mut solver = Solver::new(Martello);
        let mut least = u32::MAX;
        let mut bound = u32::MAX;
        let mut all = true;
        for i in 0..count {
            let out = solver.solve(&board, &config(true, limits, part(i, count, &SharedBest::new())), seed);
            prop_assert!(out.lower_bound <= out.min_score);
            prop_assert!(out.lower_bound >= exact.lower_bound);
            least = least.min(out.min_score);
            if !out.exhaustive {
                all = false;
                bound = bound.min(out.lower_bound);
            }
        }
        prop_assert!(least >= exact.min_score);
        if all {
            prop_assert_eq!(least, exact.min_score);
        } else {
            prop_assert!(bound.min(least) <= exact.min_score);
        }
    }

    /// Every part of a race searches the whole game: alone, each is exhaustive with the
    /// exact answer, and when one is capped its proved bound holds for the whole game.
    #[test]
    fn every_racer_alone_gives_the_exact_answer(
        n in 4u8..=6, index in 0u64..10_000, count in 2u32..=4, cap in 1u64..3_000,
    ) {
        let board = seeded::game(29, n, index).unwrap();
        let seed = seeded::run_seed(29, n, index, 0);
        let exact = Solver::new(Martello).solve(&board, &Config::default(), 0);
        let mut solver = Solver::new(Martello);
        for i in 0..count {
            let out = solver.solve(&board, &config(true, Limits::default(), racer(i, count, &SharedBest::new())), seed);
            prop_assert!(out.exhaustive);
            prop_assert_eq!(out.min_score, exact.min_score);
            prop_assert!(replays_to(&board, &out.solution, out.min_score));
            let limits = Limits { max_expansions: Some(cap), ..Limits::default() };
            let capped = solver.solve(&board, &config(true, limits, racer(i, count, &SharedBest::new())), seed);
            prop_assert!(capped.lower_bound <= exact.min_score);
            prop_assert!(capped.min_score >= exact.min_score);
        }
    }
}

/// The first racer is the search of the game unsplit, expansion for expansion, capped or
/// not: so a race of K costs no more than one worker's search of the same run seed (but
/// for what the racers tell each other), and the two can be compared seed by seed.
#[test]
fn the_first_racer_is_the_whole_search() {
    let mut solver = Solver::new(Martello);
    for (n, index, cap) in [
        (5, 3, None),
        (6, 7, None),
        (6, 11, Some(5_000)),
        (7, 2, None),
    ] {
        let board = seeded::game(37, n, index).unwrap();
        let seed = seeded::run_seed(37, n, index, 1);
        let limits = Limits {
            max_expansions: cap,
            ..Limits::default()
        };
        let whole = solver.solve(&board, &config(true, limits, None), seed);
        let first = solver.solve(
            &board,
            &config(true, limits, racer(0, 2, &SharedBest::new())),
            seed,
        );
        let case = format!("{n}x{n} game {index}, cap {cap:?}");
        assert_eq!(first.counters, whole.counters, "{case}");
        assert_eq!(first.min_score, whole.min_score, "{case}");
        assert_eq!(first.solution, whole.solution, "{case}");
        assert_eq!(first.exhaustive, whole.exhaustive, "{case}");
        assert_eq!(first.lower_bound, whole.lower_bound, "{case}");
        assert!(
            first.split.is_some(),
            "{case}: the row says how the game was split"
        );
    }
}

/// The racers of one game draw from streams of their own, so that they sample the tree
/// differently: over a few hard 6x6 games, two racers do not repeat each other's work.
#[test]
fn racers_search_differently() {
    let mut solver = Solver::new(Martello);
    let mut differ = 0;
    for index in 0..20 {
        let board = seeded::game(31, 6, index).unwrap();
        let seed = seeded::run_seed(31, 6, index, 0);
        let costs: Vec<u64> = (0..2)
            .map(|i| {
                let out = solver.solve(
                    &board,
                    &config(true, Limits::default(), racer(i, 2, &SharedBest::new())),
                    seed,
                );
                out.counters.expansions
            })
            .collect();
        differ += usize::from(costs[0] != costs[1]);
    }
    assert!(
        differ >= 15,
        "only {differ} of 20 games searched differently"
    );
}
