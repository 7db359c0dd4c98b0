//! The independent conformance cases of `testdata/cases/mancala.jsonl` (exact answers
//! to every question kind) and `mancala-bad.jsonl` (inputs to refuse), through the
//! family's `answer`, as `hammer ask` sees it.

mod common;

use common::{cases, question};

#[test]
fn every_case_is_answered_exactly() {
    assert_eq!(
        common::assert_answered_exactly("mancala", "mancala.jsonl"),
        219
    );
}

/// A `best` witness must replay to its `max_home` as one complete turn.
#[test]
fn best_witnesses_replay() {
    let family = hammer_family::by_name("mancala").expect("mancala is registered");
    for (_, case) in cases("mancala.jsonl")
        .iter()
        .filter(|(_, c)| c["kind"] == "best")
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
    assert_eq!(common::assert_refused("mancala", "mancala-bad.jsonl"), 21);
}

/// The copies in `testdata/cases` must equal the shared originals when those exist.
#[test]
fn case_copies_are_current() {
    common::assert_copies_current(&["mancala.jsonl", "mancala-bad.jsonl"]);
}
