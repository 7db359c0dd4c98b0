//! The independent conformance cases of `testdata/cases/machinarium.jsonl` (exact
//! answers: counts, start cells, first tours, next cells, checks) and
//! `machinarium-bad.jsonl` (inputs every one of which must be refused), through
//! `Family::answer` as `hammer ask` uses it.

mod common;

#[test]
fn every_case_is_answered_exactly() {
    assert_eq!(
        common::assert_answered_exactly("tours", "machinarium.jsonl"),
        198
    );
}

#[test]
fn every_bad_case_is_refused() {
    assert_eq!(common::assert_refused("tours", "machinarium-bad.jsonl"), 23);
}

/// The copies in `testdata/cases` must equal the shared originals when those exist.
#[test]
fn case_copies_are_current() {
    common::assert_copies_current(&["machinarium.jsonl", "machinarium-bad.jsonl"]);
}
