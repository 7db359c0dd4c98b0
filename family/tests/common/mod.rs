//! Helpers shared by the families' conformance tests.

use std::path::PathBuf;

/// The project's copies of the conformance cases.
pub fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/cases")
}

/// The copies in `testdata/cases` must equal the shared originals when those exist (a
/// developer's checkout or CI); a user's clone has only the copies.
pub fn assert_copies_current(names: &[&str]) {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/cases");
    if !shared.is_dir() {
        eprintln!("skipped: {} does not exist", shared.display());
        return;
    }
    for name in names {
        let original = std::fs::read(shared.join(name)).expect("read the shared case file");
        let copy = std::fs::read(cases_dir().join(name)).expect("read the copied case file");
        assert!(
            original == copy,
            "testdata/cases/{name} differs from shared/cases/{name}: copy it again"
        );
    }
}

/// The cases of `name` with their line numbers.
pub fn cases(name: &str) -> Vec<(usize, serde_json::Value)> {
    let text = std::fs::read_to_string(cases_dir().join(name)).expect("read the case file");
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, serde_json::from_str(line).expect("a case is JSON")))
        .collect()
}

/// The question of a case: the case without `drop` (its answer or error), so that no
/// answer can be read from the question.
pub fn question(case: &serde_json::Value, drop: &str) -> serde_json::Value {
    let mut q = case.clone();
    q.as_object_mut().expect("a case is an object").remove(drop);
    q
}

/// Every case of `name` gets exactly its `answer` from `family`; returns how many.
pub fn assert_answered_exactly(family: &str, name: &str) -> usize {
    let family = hammer_family::by_name(family).expect("the family is registered");
    let cases = cases(name);
    for (line, case) in &cases {
        let got = family
            .answer(&question(case, "answer"))
            .unwrap_or_else(|e| panic!("{name}:{line}: refused: {e}"));
        assert_eq!(got, case["answer"], "{name}:{line}: {case}");
    }
    cases.len()
}

/// Every case of `name` is refused by `family` with a message; returns how many.
pub fn assert_refused(family: &str, name: &str) -> usize {
    let family = hammer_family::by_name(family).expect("the family is registered");
    let cases = cases(name);
    for (line, case) in &cases {
        match family.answer(&question(case, "error")) {
            Ok(answer) => panic!("{name}:{line}: answered {answer} to {case}"),
            Err(e) => assert!(!e.to_string().is_empty(), "{name}:{line}"),
        }
    }
    cases.len()
}
