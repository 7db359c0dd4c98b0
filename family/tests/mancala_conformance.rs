//! The independent conformance cases of `testdata/cases/mancala.jsonl` (exact answers
//! to every question kind) and `mancala-bad.jsonl` (inputs to refuse), through the
//! family's `answer`, as `hammer ask` sees it.

use serde_json::Value;

mod common;

use common::cases_dir;

fn cases(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(cases_dir().join(name)).expect("read the cases");
    text.lines()
        .map(|line| serde_json::from_str(line).expect("a case is JSON"))
        .collect()
}

/// The question: the case without its answer.
fn question(case: &Value, drop: &str) -> Value {
    let mut q = case.clone();
    q.as_object_mut().expect("a case is an object").remove(drop);
    q
}

#[test]
fn every_case_is_answered_exactly() {
    let family = hammer_family::by_name("mancala").expect("mancala is registered");
    let mut kinds = std::collections::BTreeMap::new();
    for (i, case) in cases("mancala.jsonl").iter().enumerate() {
        let got = family
            .answer(&question(case, "answer"))
            .unwrap_or_else(|e| panic!("line {}: refused: {e}", i + 1));
        assert_eq!(got, case["answer"], "line {}: {case}", i + 1);
        *kinds
            .entry(case["kind"].as_str().unwrap_or("?").to_string())
            .or_insert(0) += 1;
    }
    let total: usize = kinds.values().sum();
    assert_eq!(total, 219, "{kinds:?}");
}

/// A `best` witness must replay to its `max_home` as one complete turn.
#[test]
fn best_witnesses_replay() {
    let family = hammer_family::by_name("mancala").expect("mancala is registered");
    for case in cases("mancala.jsonl")
        .iter()
        .filter(|c| c["kind"] == "best")
    {
        let mut q = question(case, "answer");
        q["kind"] = "replay".into();
        q["picks"] = case["answer"]["witness"].clone();
        if q["picks"].as_array().is_some_and(Vec::is_empty) {
            continue;
        }
        let got = family.answer(&q).expect("the witness replays");
        assert_eq!(got["home"], case["answer"]["max_home"], "{case}");
    }
}

#[test]
fn every_bad_case_is_refused() {
    let family = hammer_family::by_name("mancala").expect("mancala is registered");
    let bad = cases("mancala-bad.jsonl");
    for case in &bad {
        let result = family.answer(&question(case, "error"));
        let err = result.expect_err(&format!("accepted: {case}"));
        assert!(!err.to_string().is_empty());
        eprintln!("{} -> {err}", case["error"]);
    }
    assert_eq!(bad.len(), 21);
}

/// The copies in `testdata/cases` must equal the shared originals when those exist.
#[test]
fn case_copies_are_current() {
    common::assert_copies_current(&["mancala.jsonl", "mancala-bad.jsonl"]);
}
