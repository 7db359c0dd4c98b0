//! The SAT model against the independent conformance cases of `shared/spec/machinarium.md`
//! (copied to `testdata/cases/`): every `solve` and `count` answer's solvability, the tour
//! found passes the checker, every `count` case's number of tours and start cells by
//! enumeration, every `check` case through the checker, and every bad board refused.

use std::path::PathBuf;

use hammer_tours_sat::{Board, check, count, solve};
use serde_json::Value;

fn cases(name: &str) -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/cases")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

fn board(case: &Value) -> Board {
    Board::parse(case["board"].as_str().expect("a board")).expect("a good board")
}

/// Enumeration re-solves once per tour: boards with more tours than this, or larger than
/// [`MAX_N`], are counted by the family's DFS only (the SAT solve of a 7x7 board takes
/// about a second; `examples/sat_bench.rs` times them).
const COUNT_LIMIT: u64 = 100;
/// The largest side checked here.
const MAX_N: usize = 6;

#[test]
fn solvability_and_tours_match_every_solve_and_count_case() {
    let mut checked = 0;
    for case in cases("machinarium.jsonl") {
        let kind = case["kind"].as_str().unwrap();
        if kind != "solve" && kind != "count" {
            continue;
        }
        let b = board(&case);
        if b.n() > MAX_N {
            continue;
        }
        let expected = case["answer"]["first"].is_array();
        let outcome = solve(&b, None).unwrap();
        assert_eq!(outcome.tour.is_some(), expected, "{case}");
        if let Some(tour) = &outcome.tour {
            assert!(check(&b, tour), "{case}: {tour:?} is no tour");
        }
        checked += 1;
    }
    assert!(checked >= 80, "{checked} cases");
}

#[test]
fn enumeration_counts_the_tours_and_starts_of_every_count_case() {
    let mut counted = 0;
    for case in cases("machinarium.jsonl") {
        if case["kind"] != "count" {
            continue;
        }
        let tours = case["answer"]["tours"].as_u64().unwrap();
        let b = board(&case);
        if tours > COUNT_LIMIT || b.n() > MAX_N {
            continue;
        }
        let got = count(&b, COUNT_LIMIT + 1).unwrap();
        assert!(!got.truncated, "{case}");
        assert_eq!(got.tours, tours, "{case}");
        let starts: Vec<u32> = case["answer"]["starts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(got.starts, starts, "{case}");
        counted += 1;
    }
    assert!(counted >= 40, "{counted} cases counted");
}

#[test]
fn the_checker_agrees_with_every_check_case() {
    let mut checked = 0;
    for case in cases("machinarium.jsonl") {
        if case["kind"] != "check" {
            continue;
        }
        let path: Vec<u32> = case["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(
            check(&board(&case), &path),
            case["answer"]["valid"].as_bool().unwrap(),
            "{case}"
        );
        checked += 1;
    }
    assert!(checked >= 50, "{checked} cases");
}

#[test]
fn the_checker_refuses_early_turns_revisits_jumps_and_obstacles() {
    let b = Board::parse("#../.../...").unwrap();
    assert!(check(&b, &[2, 3, 6, 9, 8, 7, 4, 5]));
    // Turns at 2 although 3 is free and unvisited.
    assert!(!check(&b, &[2, 5, 8, 9, 6, 3, 4, 7]));
    assert!(!check(&b, &[2, 3, 6, 9, 8, 7, 4, 4]));
    assert!(!check(&b, &[2, 3, 6, 9, 8, 7, 5, 4]));
    assert!(!check(&b, &[1, 2, 3, 6, 9, 8, 7, 4]));
    assert!(!check(&b, &[2, 3, 6, 9, 8, 7, 4]));
}

#[test]
fn a_start_cell_fixes_the_first_step_and_an_obstacle_is_refused() {
    let b = Board::parse("#./..").unwrap();
    assert_eq!(solve(&b, Some(3)).unwrap().tour, Some(vec![3, 4, 2]));
    assert_eq!(solve(&b, Some(4)).unwrap().tour, None);
    assert!(solve(&b, Some(1)).is_err());
    let one = Board::parse(".").unwrap();
    assert_eq!(solve(&one, None).unwrap().tour, Some(vec![1]));
}

#[test]
fn every_bad_board_is_refused() {
    let mut refused = 0;
    for case in cases("machinarium-bad.jsonl") {
        let Some(text) = case["board"].as_str() else {
            continue;
        };
        if case["kind"] != "count" {
            continue;
        }
        assert!(Board::parse(text).is_err(), "{case}");
        refused += 1;
    }
    assert!(refused >= 10, "{refused} bad boards");
}
