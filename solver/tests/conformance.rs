//! The independent solve cases of `testdata/cases/martello-solve.jsonl`: exact minimum
//! stone counts, under every move order and schedule, with solutions that replay.

use std::path::PathBuf;

use hammer_engine::{Martello, State};
use hammer_solver::{Config, Order, Schedule, Solver};

struct Case {
    line: usize,
    board: String,
    min_stones: u32,
}

fn cases() -> Vec<Case> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/cases/martello-solve.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            Case {
                line: i + 1,
                board: v["board"].as_str().unwrap().to_string(),
                min_stones: v["min_stones"].as_u64().unwrap() as u32,
            }
        })
        .collect()
}

/// Replays `moves` from `start` through the notation (parse each `XxY` anew, as a user
/// would) and returns the final state.
fn replay(start: &State, moves: &[String]) -> State {
    let mut state = *start;
    for (i, text) in moves.iter().enumerate() {
        let mv = state.parse_move(text).unwrap_or_else(|e| {
            panic!(
                "move {} ({text}) of the solution does not replay: {e}",
                i + 1
            )
        });
        state = state.apply(mv);
    }
    state
}

fn check_all(config: &Config, max_n: u8) -> usize {
    let mut solver = Solver::new(Martello);
    let mut checked = 0;
    for case in cases() {
        let board = State::parse_board(&case.board).unwrap();
        if board.n() > max_n {
            continue;
        }
        let out = solver.solve(&board, config, case.line as u64);
        let ctx = format!("line {} ({}), {:?}", case.line, case.board, config);
        assert!(out.exhaustive, "{ctx}: not exhaustive");
        assert_eq!(out.min_score, case.min_stones, "{ctx}");
        let n = board.n();
        let notation: Vec<String> = out.solution.iter().map(|m| m.notation(n)).collect();
        let end = replay(&board, &notation);
        assert_eq!(
            end.stone_count(),
            case.min_stones,
            "{ctx}: solution ends with another count"
        );
        checked += 1;
    }
    checked
}

#[test]
fn exact_standard_order_matches_every_case() {
    let config = Config::default();
    assert_eq!(check_all(&config, 8), 345);
}

#[test]
fn paper_schedule_with_random_order_matches_every_case() {
    let config = Config {
        order: Order::Random,
        schedule: Schedule::Paper,
        prefix: 0,
        limits: Default::default(),
        cancel: None,
        profile: false,
    };
    assert_eq!(check_all(&config, 8), 345);
}

#[test]
fn luby_and_geometric_schedules_match_every_case() {
    for schedule in ["luby:32", "geometric:50,1.5"] {
        let config = Config {
            order: Order::Random,
            schedule: schedule.parse().unwrap(),
            prefix: 0,
            limits: Default::default(),
            cancel: None,
            profile: false,
        };
        assert_eq!(check_all(&config, 8), 345);
    }
}

#[test]
fn heuristic_orders_match_every_case() {
    for order in [
        Order::MostOptions,
        Order::MonteCarlo {
            playouts: 5,
            levels: 2,
        },
    ] {
        let config = Config {
            order,
            schedule: Schedule::Exact,
            prefix: 0,
            limits: Default::default(),
            cancel: None,
            profile: false,
        };
        assert_eq!(check_all(&config, 8), 345);
    }
}
