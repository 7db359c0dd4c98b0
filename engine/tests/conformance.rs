//! The independent conformance cases of `testdata/cases/martello-moves.jsonl`: exact
//! move sets and next states. (The solve cases are checked by the solver's tests.)

use std::collections::BTreeMap;
use std::path::PathBuf;

use hammer_engine::{Martello, Puzzle, State};

fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/cases")
}

#[test]
fn every_move_case_matches_exactly() {
    let text = std::fs::read_to_string(cases_dir().join("martello-moves.jsonl")).unwrap();
    let mut checked = 0;
    let mut buf = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let state_text = case["state"].as_str().unwrap();
        let n = case["n"].as_u64().unwrap() as u8;
        let state = State::parse(state_text)
            .unwrap_or_else(|e| panic!("line {}: {state_text}: {e}", line_no + 1));
        assert_eq!(state.n(), n, "line {}", line_no + 1);
        assert_eq!(state.to_string(), state_text, "printing round trip");
        let expected: BTreeMap<String, String> = case["moves"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
            .collect();
        Martello.moves(&state, &mut buf);
        let mut got = BTreeMap::new();
        for mv in &buf {
            let prev = got.insert(mv.notation(n), Martello.apply(&state, *mv).to_string());
            assert!(prev.is_none(), "line {}: move listed twice", line_no + 1);
        }
        assert_eq!(got, expected, "line {}: state {state_text}", line_no + 1);
        checked += 1;
    }
    assert_eq!(checked, 400);
}

/// The copies in `testdata/cases` must equal the shared originals when those exist
/// (a developer's checkout or CI); a user's clone has only the copies.
#[test]
fn case_copies_are_current() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/cases");
    if !shared.is_dir() {
        eprintln!("skipped: {} does not exist", shared.display());
        return;
    }
    for name in ["martello-moves.jsonl", "martello-solve.jsonl"] {
        let original = std::fs::read(shared.join(name)).unwrap();
        let copy = std::fs::read(cases_dir().join(name)).unwrap();
        assert!(
            original == copy,
            "testdata/cases/{name} differs from shared/cases/{name}: copy it again"
        );
    }
    let spec = shared.join("../spec/martello.md");
    if spec.is_file() {
        let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/martello.md");
        assert!(
            std::fs::read(spec).unwrap() == std::fs::read(docs).unwrap(),
            "docs/martello.md differs from shared/spec/martello.md: copy it again"
        );
    }
}
