//! The optional capabilities of `Family`: Martello's, through the trait as the command
//! line and the viewer use them, and the "not supported" answers of the others.

use hammer_family::{
    CountTeam, FamilyError, FamilyRef, Instance, Job, ParamValue, point_from_pairs,
};
use hammer_solver::Config;
use hammer_solver::learned::Learner;

fn martello() -> FamilyRef {
    FamilyRef::named("martello").unwrap()
}

#[test]
fn martello_aliases_lead_to_the_same_state_and_are_not_listed() {
    let family = martello();
    let point = point_from_pairs(&*family, &[("n".to_string(), ParamValue::Int(3))]).unwrap();
    // Every state reachable from two seeded 3x3 games.
    let mut todo: Vec<String> = (0..2)
        .map(|index| {
            let seeded = Instance::Seeded {
                sweep_seed: 1,
                index,
            };
            family.instance(&point, seeded).unwrap()
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    while let Some(state) = todo.pop() {
        if !seen.insert(state.clone()) {
            continue;
        }
        let listed = family.moves(&point, &state).unwrap();
        for (mv, after) in &listed {
            for alias in family.move_aliases(&point, &state, mv, after) {
                assert!(listed.iter().all(|(m, _)| *m != alias), "{alias} is listed");
                let replayed = family.replay(&point, &state, &[alias.as_str()]).unwrap();
                assert_eq!(&replayed[0], after, "{alias} stands for {mv} in {state}");
            }
            todo.push(after.clone());
        }
    }
    // `State::parse_move` accepts only the listed spelling of a move today, so no other
    // spelling replays and none is offered; should it accept both (docs/martello.md),
    // the checks above hold each alias to the state its move leads to.
    // Not a move at all: no alias.
    let start = family
        .instance(
            &point,
            Instance::Seeded {
                sweep_seed: 1,
                index: 0,
            },
        )
        .unwrap();
    assert!(family.move_aliases(&point, &start, "A1", &start).is_empty());
}

#[test]
fn martello_learns_a_solved_game_and_names_a_bad_move() {
    let family = martello();
    let learning = family.learning().expect("Martello has transition features");
    assert!(learning.max_radius() >= 1);
    let point = family.default_point().expect("Martello's n has no default");
    assert_eq!(point.to_string(), "n=6");
    let solved = family
        .solver()
        .solve(Job {
            point: &point,
            instance: Instance::Seeded {
                sweep_seed: 3,
                index: 0,
            },
            config: &Config::default(),
            run_seed: 0,
            program: None,
        })
        .unwrap()
        .game;
    let solution: Vec<&str> = solved.solution.split_whitespace().collect();
    let mut learner = Learner::new(6, 2, learning.feature_version());
    learning
        .learn_game(&mut learner, &solved.start, &solution)
        .unwrap();
    let kb = learner.finish();
    assert_eq!(kb.games, 1);
    assert_eq!(kb.feature_version, learning.feature_version());
    assert_eq!(kb.stats(1).1 as usize, solution.len());

    let mut learner = Learner::new(6, 2, learning.feature_version());
    let mut wrong = solution.clone();
    wrong[1] = "A1xA1";
    match learning.learn_game(&mut learner, &solved.start, &wrong) {
        Err(FamilyError::BadMove { index, .. }) => assert_eq!(index, Some(1)),
        other => panic!("{other:?}"),
    }
    let err = learning.learn_game(&mut learner, "Z9", &[]).unwrap_err();
    assert!(matches!(err, FamilyError::BadState { .. }), "{err}");
    assert_eq!(family.score_unit(), Some("stone"));
    assert!(family.page_draws_board());
}

#[test]
fn families_without_a_capability_say_so() {
    for (name, pairs) in [
        ("peg", vec![]),
        ("mancala", vec![]),
        ("tours", vec![("n", 4)]),
    ] {
        let family = FamilyRef::named(name).unwrap();
        let pairs: Vec<(String, ParamValue)> = pairs
            .into_iter()
            .map(|(k, v)| (k.to_string(), ParamValue::Int(v)))
            .collect();
        assert!(family.learning().is_none(), "{name}");
        assert!(family.default_point().is_none(), "{name}");
        assert!(family.score_unit().is_none(), "{name}");
        assert!(!family.page_draws_board(), "{name}");
        let point = point_from_pairs(&*family, &pairs).unwrap();
        let start = family
            .instance(
                &point,
                Instance::Seeded {
                    sweep_seed: 1,
                    index: 0,
                },
            )
            .unwrap();
        for (mv, after) in family.moves(&point, &start).unwrap() {
            assert!(family.move_aliases(&point, &start, &mv, &after).is_empty());
        }
    }
}

/// Peg counts through the capability what the solver's count gives; the families that
/// cannot count say so.
#[test]
fn peg_counts_through_its_capability_and_the_others_refuse() {
    let peg = FamilyRef::named("peg").unwrap();
    let point = point_from_pairs(&*peg, &[]).unwrap();
    let counting = peg.counting().expect("peg counts");
    let start = ".../.../......./ooooooo/ooooooo/ooo/ooo";
    let plain = counting
        .count(&point, Instance::Given(start), false, CountTeam::Alone)
        .unwrap();
    let reduced = counting
        .count(&point, Instance::Given(start), true, CountTeam::Alone)
        .unwrap();
    assert_eq!(plain.start, start);
    assert_eq!(plain.states(), 528_083);
    assert_eq!(reduced.states(), plain.states());
    assert!(reduced.classes() < plain.classes());
    assert!(plain.member.is_none());
    for name in ["martello", "mancala", "tours", "clobber"] {
        assert!(
            FamilyRef::named(name).unwrap().counting().is_none(),
            "{name}"
        );
    }
}
