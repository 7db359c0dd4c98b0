//! The independent conformance cases of `testdata/cases/peg.jsonl` (exact answers) and
//! `peg-bad.jsonl` (inputs every one of which must be refused), through
//! `Family::answer` as `hammer ask` uses it.

mod common;

#[test]
fn every_case_is_answered_exactly() {
    assert_eq!(common::assert_answered_exactly("peg", "peg.jsonl"), 216);
}

#[test]
fn every_bad_case_is_refused() {
    assert_eq!(common::assert_refused("peg", "peg-bad.jsonl"), 22);
}

/// The copies in `testdata/cases` must equal the shared originals when those exist.
#[test]
fn case_copies_are_current() {
    common::assert_copies_current(&["peg.jsonl", "peg-bad.jsonl"]);
}
