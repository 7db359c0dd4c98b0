//! The independent conformance cases of `testdata/cases/machinarium.jsonl` (exact
//! answers: counts, start cells, first tours, next cells, checks) and
//! `machinarium-bad.jsonl` (inputs every one of which must be refused), through
//! `Family::answer` as `hammer ask` uses it.

use serde_json::Value;

mod common;

use common::cases_dir;

fn cases(name: &str) -> Vec<(usize, Value)> {
    let text = std::fs::read_to_string(cases_dir().join(name)).expect("case file");
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, serde_json::from_str(line).expect("a JSON line")))
        .collect()
}

#[test]
fn every_case_is_answered_exactly() {
    let family = hammer_family::by_name("tours").expect("tours is registered");
    let mut checked = 0;
    for (line, case) in cases("machinarium.jsonl") {
        let got = family
            .answer(&case)
            .unwrap_or_else(|e| panic!("line {line}: refused: {e}"));
        assert_eq!(got, case["answer"], "line {line}: {case}");
        checked += 1;
    }
    assert_eq!(checked, 198);
}

#[test]
fn every_bad_case_is_refused() {
    let family = hammer_family::by_name("tours").expect("tours is registered");
    let mut checked = 0;
    for (line, case) in cases("machinarium-bad.jsonl") {
        match family.answer(&case) {
            Ok(answer) => panic!("line {line}: answered {answer} to {case}"),
            Err(e) => assert!(!e.to_string().is_empty(), "line {line}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 23);
}

/// The copies in `testdata/cases` must equal the shared originals when those exist.
#[test]
fn case_copies_are_current() {
    common::assert_copies_current(&["machinarium.jsonl", "machinarium-bad.jsonl"]);
}
