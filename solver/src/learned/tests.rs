use super::*;
use hammer_engine::martello::signature::FEATURE_VERSION;
use hammer_engine::{Martello, State};

fn solved(board: &str) -> (State, Vec<hammer_engine::Move>) {
    let state = State::parse(board).unwrap();
    let mut solver = crate::Solver::new(Martello);
    let out = solver.solve(&state, &crate::Config::default(), 0);
    (state, out.solution)
}

fn learned(boards: &[&str], radius: usize) -> Kb {
    let mut learner = Learner::new(3, radius, FEATURE_VERSION);
    for b in boards {
        let (start, solution) = solved(b);
        learner.game(&Martello, &start, &solution).unwrap();
    }
    learner.finish()
}

const BOARDS: &[&str] = &["C2A1B3/A3B1C1/B2C3A2", "A1B2C3/C1A3B1/B3A2C2"];

#[test]
fn learning_counts_one_taken_move_per_step() {
    let kb = learned(BOARDS, 3);
    assert_eq!(kb.games, 2);
    let steps: usize = BOARDS.iter().map(|b| solved(b).1.len()).sum();
    for r in 1..=3 {
        let (_, taken, untaken) = kb.stats(r);
        assert_eq!(taken as usize, steps, "radius {r}");
        assert!(untaken > 0);
    }
}

#[test]
fn bytes_round_trip_and_are_deterministic() {
    let kb = learned(BOARDS, 4);
    let bytes = kb.to_bytes();
    assert_eq!(bytes, learned(BOARDS, 4).to_bytes());
    let (back, digest) = Kb::from_bytes(&bytes, FEATURE_VERSION).unwrap();
    assert_eq!(back, kb);
    assert_eq!(digest, kb.digest());
}

#[test]
fn bad_files_are_refused_with_their_problem() {
    let bytes = learned(BOARDS, 2).to_bytes();
    let problem = |b: &[u8], v: u32| Kb::from_bytes(b, v).unwrap_err().to_string();
    assert!(problem(b"not a kb", FEATURE_VERSION).contains("magic"));
    assert!(problem(&bytes[..20], FEATURE_VERSION).contains("truncated"));
    assert!(problem(&bytes[..bytes.len() - 5], FEATURE_VERSION).contains("digest"));
    let mut flipped = bytes.clone();
    flipped[40] ^= 1;
    assert!(problem(&flipped, FEATURE_VERSION).contains("digest"));
    assert!(problem(&bytes, FEATURE_VERSION + 1).contains("feature version"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(problem(&version, FEATURE_VERSION).contains("format version 9"));
}

#[test]
fn a_replay_error_names_the_move() {
    let (start, mut solution) = solved(BOARDS[0]);
    solution.swap(0, 1);
    let mut learner = Learner::new(3, 2, FEATURE_VERSION);
    let err = learner.game(&Martello, &start, &solution);
    assert!(err.is_err());
}

#[test]
fn rate_prefers_taken_transitions_and_falls_back_by_radius() {
    let mut kb = Kb::new(3, 2, FEATURE_VERSION);
    kb.tables[0].insert(
        1,
        Counts {
            taken: 9,
            untaken: 1,
        },
    );
    kb.tables[0].insert(
        2,
        Counts {
            taken: 1,
            untaken: 9,
        },
    );
    kb.tables[1].insert(
        7,
        Counts {
            taken: 0,
            untaken: 50,
        },
    );
    let prior = vec![0.5, 0.0];
    let l = Loaded {
        path: "x".into(),
        digest: 0,
        kb,
        received: false,
        prior,
    };
    assert!(l.rate(&[1, 0]) > l.rate(&[2, 0]));
    // Radius 2 is known for key 7 and wins over radius 1.
    assert_eq!(l.rate(&[1, 7]), 0.0);
    // Nothing known: the radius-1 prior.
    assert_eq!(l.rate(&[3, 4]), 0.5);
}

/// A knowledge base a coordinator sends is checked against the digest it announced, and
/// once installed, the sweep's path finds it without any file on this machine.
#[test]
fn received_knowledge_bases_are_checked_and_stand_for_the_file() {
    let features = hammer_engine::martello::signature::FEATURE_VERSION;
    let mut kb = Kb::new(4, 2, features);
    kb.tables[0].insert(
        9,
        Counts {
            taken: 3,
            untaken: 1,
        },
    );
    let bytes = kb.to_bytes();
    let digest = kb.digest();
    let path = "/nowhere/received-test.kb";
    let err = super::install(path, &bytes, digest ^ 1, features).unwrap_err();
    assert!(matches!(err.problem, KbProblem::Received { .. }), "{err}");
    assert!(err.to_string().contains(path), "{err}");
    let mut cut = bytes.clone();
    cut.truncate(bytes.len() - 3);
    assert!(super::install(path, &cut, digest, features).is_err());
    let index = super::install(path, &bytes, digest, features).unwrap();
    assert_eq!(super::load(path, features).unwrap(), index);
    let (shipped_path, shipped_digest, shipped_bytes) = super::shipped(index).unwrap();
    assert_eq!((shipped_path.as_str(), shipped_digest), (path, digest));
    assert_eq!(shipped_bytes, bytes);
}
