use super::*;

/// The feature version of the hand-made knowledge bases below.
const FEATURES: u32 = 1;

/// A small knowledge base with a few counts at each of two radii.
fn small() -> Kb {
    let mut kb = Kb::new(3, 2, FEATURES);
    kb.games = 2;
    for (r, key, taken, untaken) in [(0, 5, 3, 1), (0, 2, 0, 7), (1, 9, 1, 1)] {
        kb.tables[r].insert(key, Counts { taken, untaken });
    }
    kb
}

#[test]
fn bytes_round_trip_and_are_deterministic() {
    let kb = small();
    let bytes = kb.to_bytes();
    assert_eq!(bytes, small().to_bytes());
    let (back, digest) = Kb::from_bytes(&bytes).unwrap();
    assert_eq!(back, kb);
    assert_eq!(digest, kb.digest());
}

#[test]
fn bad_files_are_refused_with_their_problem() {
    let bytes = small().to_bytes();
    let problem = |b: &[u8]| Kb::from_bytes(b).unwrap_err().to_string();
    assert!(problem(b"not a kb").contains("magic"));
    assert!(problem(&bytes[..20]).contains("truncated"));
    assert!(problem(&bytes[..bytes.len() - 5]).contains("digest"));
    let mut flipped = bytes.clone();
    flipped[40] ^= 1;
    assert!(problem(&flipped).contains("digest"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(problem(&version).contains("format version 9"));
    // Other features: refused where the knowledge base meets a puzzle.
    let (kb, _) = Kb::from_bytes(&bytes).unwrap();
    assert!(kb.check_features(FEATURES).is_ok());
    let other = kb.check_features(FEATURES + 1).unwrap_err().to_string();
    assert!(other.contains("feature version"), "{other}");
}

#[test]
fn rate_prefers_taken_transitions_and_falls_back_by_radius() {
    let mut kb = Kb::new(3, 2, FEATURES);
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
    let mut kb = Kb::new(4, 2, FEATURES);
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
    let err = super::install(path, &bytes, digest ^ 1).unwrap_err();
    assert!(matches!(err.problem, KbProblem::Received { .. }), "{err}");
    assert!(err.to_string().contains(path), "{err}");
    let mut cut = bytes.clone();
    cut.truncate(bytes.len() - 3);
    assert!(super::install(path, &cut, digest).is_err());
    let index = super::install(path, &bytes, digest).unwrap();
    assert_eq!(super::load(path).unwrap(), index);
    let (shipped_path, shipped_digest, shipped_bytes) = super::shipped(index).unwrap();
    assert_eq!((shipped_path.as_str(), shipped_digest), (path, digest));
    assert_eq!(shipped_bytes, bytes);
}
