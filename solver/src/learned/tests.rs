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
        rates1: rates::Rates1::new(std::iter::empty(), 0.5),
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

/// Two sweeps holding one received knowledge base: it lives until both release it, a
/// search's own reference outlives the release, and installing it again after the last
/// release gives it a new index.
#[test]
fn received_knowledge_bases_are_freed_by_their_last_holder() {
    let mut kb = Kb::new(4, 2, FEATURES);
    kb.tables[0].insert(
        11,
        Counts {
            taken: 2,
            untaken: 5,
        },
    );
    let (bytes, digest) = (kb.to_bytes(), kb.digest());
    let path = "/nowhere/released-test.kb";
    let first = super::install(path, &bytes, digest).unwrap();
    assert_eq!(super::install(path, &bytes, digest).unwrap(), first);
    let searching = super::get(first).unwrap();
    assert!(!super::release(path, digest), "one holder is left");
    assert!(super::get(first).is_some());
    assert!(super::release(path, digest), "the last holder frees it");
    assert!(super::get(first).is_none());
    assert!(
        super::load(path).is_err(),
        "the path names no file and no base now"
    );
    assert_eq!(searching.path, path, "a running search keeps its reference");
    assert!(!super::release(path, digest), "nothing left to release");
    let again = super::install(path, &bytes, digest).unwrap();
    assert_ne!(again, first);
    assert!(super::release(path, digest));
}

/// The flat radius-1 table gives what the maps give: every key learned (colliding home
/// slots and key 0 among them) and keys never seen.
#[test]
fn flat_rates_agree_with_the_maps() {
    let mut kb = Kb::new(3, 1, FEATURES);
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut keys = vec![0u64, 1, u64::MAX];
    for i in 0..5_000u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // Every third key shares its top bits (its home slot) with the one before.
        keys.push(if i % 3 == 0 { x } else { x ^ (i & 0xff) });
    }
    for (i, &key) in keys.iter().enumerate() {
        let counts = Counts {
            taken: (i % 7) as u32,
            untaken: (i % 11) as u32 + 1,
        };
        kb.tables[0].insert(key, counts);
    }
    let digest = kb.digest();
    let index = register("flat-rates-test", kb, digest, false);
    let loaded = get(index).unwrap();
    let mut unseen: Vec<u64> = keys.iter().map(|k| k.wrapping_add(0x1234_5678)).collect();
    unseen.retain(|k| !keys.contains(k));
    for probe in [&keys, &unseen] {
        loaded.prefetch1(probe);
        for &key in probe.iter() {
            let (flat, map) = (loaded.rate1(key), loaded.rate(&[key]));
            assert_eq!(flat.to_bits(), map.to_bits(), "key {key:#x}");
        }
    }
}
