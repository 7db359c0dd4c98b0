//! The independent conformance cases of `testdata/cases/clobber.jsonl` (exact answers)
//! and `clobber-bad.jsonl` (inputs every one of which must be refused), through
//! `Family::answer` as `hammer ask` uses it.

mod common;

#[test]
fn every_case_is_answered_exactly() {
    assert_eq!(
        common::assert_answered_exactly("clobber", "clobber.jsonl"),
        217
    );
}

#[test]
fn every_bad_case_is_refused() {
    assert_eq!(common::assert_refused("clobber", "clobber-bad.jsonl"), 36);
}

/// The copies in `testdata/cases` must equal the shared originals when those exist.
#[test]
fn case_copies_are_current() {
    common::assert_copies_current(&["clobber.jsonl", "clobber-bad.jsonl"]);
}

#[test]
fn refusals_name_the_field_or_token() {
    let family = hammer_family::by_name("clobber").expect("registered");
    let refuse = |q: &str| {
        let q: serde_json::Value = serde_json::from_str(q).expect("JSON");
        family.answer(&q).expect_err("refused").to_string()
    };
    let msg = refuse(r#"{"kind": "moves", "rule": "impartial", "pos": "xoX/oxo"}"#);
    assert!(
        msg.contains("'X'") && msg.contains("row 1, column 3"),
        "{msg}"
    );
    let msg = refuse(
        r#"{"kind": "replay", "rule": "partisan", "pos": "xox/oxo", "moves": ["1-2", "01-2"]}"#,
    );
    assert!(msg.contains("move 2") && msg.contains("'01'"), "{msg}");
    let msg = refuse(
        r#"{"kind": "replay", "rule": "partisan", "pos": "xox/oxo", "moves": ["2-1", "4-5"]}"#,
    );
    assert!(msg.contains("move 2 (4-5)"), "{msg}");
    let msg = refuse(
        r#"{"kind": "generate", "gen": {"m": 3, "n": 4, "fill": 50.0, "colours": "random", "seed": 1}}"#,
    );
    assert!(msg.contains("fill") && msg.contains("50.0"), "{msg}");
    let msg = refuse(r#"{"kind": "solve", "rule": "partisan", "turn": null, "pos": "xo"}"#);
    assert!(msg.contains("turn") && msg.contains("null"), "{msg}");
}
