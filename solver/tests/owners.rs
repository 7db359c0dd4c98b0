//! One game searched by several owners: the exact minimum of the usual search, a
//! solution that replays, and each state admitted by one owner only.

mod common;

use common::{in_gang, replay, walk};
use hammer_engine::{Martello, Puzzle, seeded};

use hammer_solver::{Config, Solver, solve_gang, solve_owned};

#[test]
fn owners_find_the_exact_minimum_and_a_solution_that_replays() {
    let mut solver = Solver::new(Martello);
    let mut sent = 0;
    for n in [1u8, 2, 3, 4, 5, 6, 7] {
        for index in 0..24 {
            let game = seeded::game(11, n, index).unwrap();
            // 7x7 from the middle game, where a 7x7 game takes a moment.
            let start = if n == 7 { walk(game, index, 22) } else { game };
            let exact = solver.solve(&start, &Config::default(), 1);
            assert!(exact.exhaustive);
            for workers in [1, 2, 3, 4] {
                let owned = solve_owned(&Martello, &start, workers);
                let what = format!("n {n}, game {index}, {workers} workers");
                assert_eq!(owned.min_score, exact.min_score, "{what}");
                let end = replay(&start, &owned.solution);
                assert_eq!(Martello.score(&end), owned.min_score, "{what}");
                assert_eq!(owned.expansions.len(), workers, "{what}");
                // No state is expanded twice: the expansions never exceed the states the
                // tables admitted (the leader's also count the probe that chose the owner
                // hash's salt, which has a table of its own).
                let expanded: u64 = owned.expansions.iter().sum::<u64>() - owned.probed;
                let admitted: u64 = owned.table_states.iter().sum();
                assert!(expanded <= admitted, "{what}: {expanded} > {admitted}");
                if workers == 1 {
                    assert_eq!((owned.sent, owned.probed), (0, 0), "{what}");
                }
                sent += owned.sent;
            }
        }
    }
    assert!(
        sent > 10_000,
        "the workers sent only {sent} states: the test lost its point"
    );
}

/// The messages written as bytes and read back, as between processes: every member
/// returns the exact minimum and the same solution, and the leader every member's counts;
/// each member's progress reports end at its own expansions.
#[test]
fn a_gang_over_bytes_finds_the_exact_minimum() {
    let mut solver = Solver::new(Martello);
    for n in [4u8, 5, 6] {
        for index in 0..8 {
            let start = seeded::game(5, n, index).unwrap();
            let exact = solver.solve(&start, &Config::default(), 1);
            for k in [2, 3] {
                let members = in_gang(k, |link| {
                    (solve_gang(&Martello, &start, link), link.expanded)
                });
                let (outcomes, reported): (Vec<_>, Vec<_>) = members.into_iter().unzip();
                let what = format!("n {n}, game {index}, {k} members");
                let leader = outcomes[0].as_ref().expect("the leader ends well");
                assert_eq!(leader.min_score, exact.min_score, "{what}");
                assert_eq!(
                    Martello.score(&replay(&start, &leader.solution)),
                    leader.min_score
                );
                // The leader alone probes for the owner hash's salt, and no state is
                // expanded twice: the expansions but the probe's never exceed the states
                // the members' tables admitted.
                let expanded: u64 = leader.expansions.iter().sum::<u64>() - leader.probed;
                let admitted: u64 = leader.table_states.iter().sum();
                assert!(expanded <= admitted, "{what}: {expanded} > {admitted}");
                assert!(leader.probed > 0, "{what}: the leader probed");
                for (rank, outcome) in outcomes.iter().enumerate() {
                    let outcome = outcome.as_ref().expect("every member ends well");
                    if rank > 0 {
                        assert_eq!(outcome.probed, 0, "{what}, member {rank}");
                    }
                    assert_eq!(outcome.min_score, leader.min_score, "{what}, member {rank}");
                    assert_eq!(outcome.solution, leader.solution, "{what}, member {rank}");
                    assert_eq!(outcome.expansions[rank], leader.expansions[rank], "{what}");
                    assert_eq!(
                        reported[rank], outcome.expansions[rank],
                        "{what}, member {rank}"
                    );
                }
            }
        }
    }
}

/// A puzzle without an owner key (Clobber) has its states' owners picked by their
/// fingerprints; on random fillings, the exact minimum and a solution that replays.
#[test]
fn owners_by_fingerprint_find_the_exact_minimum() {
    use hammer_engine::clobber::{Clobber, Colours, Gen, Rule};
    let mut sent = 0;
    for index in 0..12 {
        let instance = Gen::new(4, 5, 80, Colours::Random, index).expect("a 4x5 board");
        let game = Clobber::new(instance.board(), Rule::Partisan);
        let start = game.state(instance.position(), None);
        assert_eq!(game.owner_key(&start), None);
        let exact = Solver::new(game).solve(&start, &Config::default(), 1);
        for workers in [2, 3] {
            let owned = solve_owned(&game, &start, workers);
            let what = format!("filling {index}, {workers} workers");
            assert_eq!(owned.min_score, exact.min_score, "{what}");
            let mut end = start;
            for &mv in &owned.solution {
                end = game.apply(&end, mv);
            }
            assert_eq!(game.score(&end), owned.min_score, "{what}");
            sent += owned.sent;
        }
    }
    assert!(sent > 100, "the workers sent only {sent} states");
}
