//! The "Known results" of `shared/spec/clobber.md`, by the generic exact solver over the
//! Solitaire Clobber rules: full checkerboards (black in the top-left corner) under the
//! impartial rule and the partisan rule with each first colour.
//!
//! `cargo test --release -p hammer-solver --test clobber_table -- --ignored --nocapture
//! --test-threads 1` runs the measuring tests, which print how far the solver gets
//! within a minute a game.

use std::time::{Duration, Instant};

use hammer_engine::Puzzle;
use hammer_engine::clobber::{Clobber, Colour, Colours, Gen, Rule, State};
use hammer_solver::{Config, Limits, Order, Outcome, Reduction, Solver, count};

/// The impartial rule and the partisan rule with `any`, `x` and `o` first.
const VARIANTS: [(Rule, Option<Colour>); 4] = [
    (Rule::Impartial, None),
    (Rule::Partisan, None),
    (Rule::Partisan, Some(Colour::Black)),
    (Rule::Partisan, Some(Colour::White)),
];

/// The table's value for a single row of `n` stones: `ceil(n/4)`, plus one when
/// `n = 3 (mod 4)`.
fn row_min(n: u64) -> u32 {
    (n.div_ceil(4) + u64::from(n % 4 == 3)) as u32
}

/// The table's value for `m x n` with `m, n >= 2`: 1, or 2 when 3 divides `m * n`.
fn rectangle_min(m: u64, n: u64) -> u32 {
    if (m * n).is_multiple_of(3) { 2 } else { 1 }
}

/// The value for the full `m x n` checkerboard under `rule` with `turn` first: the
/// table's, except where black moves first on a board with an odd number of cells.
/// There black has one stone more than white; ending on one stone takes an even number
/// of moves, half of them black moves, each removing a white stone, so the last move
/// (white's) would leave no white stone behind it. The spec's table says 1 for `5 x 5`,
/// `5 x 7`, `7 x 7` and `5 x 11` with `x` first; its oracle stopped at 24 cells, where
/// every such board has a multiple of 3 cells and so 2 anyway.
fn expected(m: u64, n: u64, rule: Rule, turn: Option<Colour>) -> u32 {
    if m == 1 || n == 1 {
        return row_min(m * n);
    }
    let black_first_on_odd =
        rule == Rule::Partisan && turn == Some(Colour::Black) && m * n % 2 == 1;
    if black_first_on_odd {
        2
    } else {
        rectangle_min(m, n)
    }
}

/// The game and start of the full `m x n` checkerboard.
fn checkerboard(m: u64, n: u64, rule: Rule, turn: Option<Colour>) -> (Clobber, State) {
    let instance = Gen::new(m, n, 100, Colours::Checker, 0).expect("a board of at most 64 cells");
    let game = Clobber::new(instance.board(), rule);
    (game, game.state(instance.position(), turn))
}

/// The default configuration with `order`, and a time limit if given.
fn config(order: Order, limit: Option<Duration>) -> Config {
    Config {
        order,
        limits: Limits {
            max_time: limit,
            ..Limits::default()
        },
        ..Config::default()
    }
}

/// Solves the checkerboard and checks that the solution replays to a state with that
/// many stones, an end when the result is exact.
fn solve(m: u64, n: u64, rule: Rule, turn: Option<Colour>, config: &Config) -> Outcome<Clobber> {
    let (game, start) = checkerboard(m, n, rule, turn);
    let out = Solver::new(game).solve(&start, config, 0);
    let mut state = start;
    for &mv in &out.solution {
        assert!(game.is_legal(&state, mv), "{m} x {n}: {mv} does not replay");
        state = game.apply(&state, mv);
    }
    assert_eq!(game.score(&state), out.min_score, "{m} x {n}");
    if out.exhaustive {
        assert!(
            game.is_over(&state),
            "{m} x {n}: the solution stops before the end"
        );
    }
    out
}

/// Checks `m x n` under the given variants with `order` and no limit.
fn assert_min(m: u64, n: u64, variants: &[(Rule, Option<Colour>)], order: Order) {
    for &(rule, turn) in variants {
        let out = solve(m, n, rule, turn, &config(order, None));
        let ctx = format!("{m} x {n} {} {}", rule.name(), turn_name(turn));
        assert!(out.exhaustive, "{ctx}: not exhaustive");
        assert_eq!(out.min_score, expected(m, n, rule, turn), "{ctx}");
    }
}

fn turn_name(turn: Option<Colour>) -> &'static str {
    match turn {
        None => "any",
        Some(Colour::Black) => "x",
        Some(Colour::White) => "o",
    }
}

#[test]
fn single_rows_and_columns_leave_about_a_quarter() {
    for n in 1..=24 {
        assert_min(1, n, &VARIANTS, Order::Standard);
        assert_min(n, 1, &VARIANTS, Order::Standard);
    }
}

#[test]
fn rectangles_up_to_24_cells_leave_one_stone_or_two() {
    for m in 2..=12u64 {
        for n in 2..=24 / m {
            assert_min(m, n, &VARIANTS, Order::Standard);
        }
    }
}

/// Past about 30 cells the standard order wanders into positions that have fallen
/// apart; the most-options order keeps the stones together and finds the table's
/// plays at once.
#[test]
fn larger_boards_settle_with_the_most_options_order() {
    for (m, n) in [(5, 5), (5, 7), (6, 6), (7, 7)] {
        assert_min(m, n, &VARIANTS, Order::MostOptions);
    }
    assert_min(8, 8, &VARIANTS[..3], Order::MostOptions);
}

/// The solver's level-by-level count over the rules' [`hammer_engine::Countable`]
/// agrees with the spec's anchors for `analyse` (states, min stones, optimal plays).
#[test]
fn the_count_agrees_with_the_anchors() {
    let anchors = [
        (1, 16, Rule::Partisan, None, 74_439, 4, 102_384),
        (1, 16, Rule::Impartial, None, 111_625, 4, 94_617_600),
        (3, 4, Rule::Partisan, Some(Colour::Black), 13_343, 2, 44_684),
    ];
    for (m, n, rule, turn, states, min, plays) in anchors {
        let (game, start) = checkerboard(m, n, rule, turn);
        let counts = count(&game, &start, Reduction::None);
        let optimal: u128 = counts.lowest.iter().map(|&(_, p)| p).sum();
        let got = (counts.states(), counts.min_score, optimal);
        assert_eq!(got, (states, min, plays), "{m} x {n} {rule:?} {turn:?}");
    }
}

/// Solves `m x n` within `limit` under each variant that `run` marks, printing a line
/// for each; returns which were settled.
fn measure(m: u64, n: u64, order: Order, limit: Duration, run: [bool; 4]) -> [bool; 4] {
    let mut settled = [false; 4];
    for (i, (rule, turn)) in VARIANTS.into_iter().enumerate() {
        if !run[i] {
            continue;
        }
        let t = Instant::now();
        let out = solve(m, n, rule, turn, &config(order, Some(limit)));
        let want = expected(m, n, rule, turn);
        println!(
            "{order:?} {m:>2} x {n:<2} {:<9} {:<3} min {:>2} (expected {want:>2}) \
             exact {:<5} expansions {:>11} {:>7.2} s",
            rule.name(),
            turn_name(turn),
            out.min_score,
            out.exhaustive,
            out.counters.expansions,
            t.elapsed().as_secs_f64()
        );
        if out.exhaustive {
            assert_eq!(out.min_score, want, "{m} x {n} {rule:?} {turn:?}");
        }
        settled[i] = out.exhaustive;
    }
    settled
}

/// A minute a game, for the measuring tests.
const MEASURE_LIMIT: Duration = Duration::from_secs(60);

/// How far the standard order gets on single rows within a minute a game: every
/// variant, up to the first row one of them does not settle.
#[test]
#[ignore = "measures the solver's reach; run in release with --nocapture"]
fn measure_rows() {
    for n in 1..=64 {
        if measure(1, n, Order::Standard, MEASURE_LIMIT, [true; 4]) != [true; 4] {
            break;
        }
    }
}

/// How far `order` gets on rectangles within a minute a game: for each number of rows
/// `m` from 2 to 8, the boards `m x n` with `n >= m` by growing `n`, each variant until
/// two boards in a row are not settled.
fn measure_rectangles(order: Order) {
    for m in 2..=8u64 {
        let mut misses = [0; 4];
        for n in m..=64 / m {
            let run = misses.map(|k| k < 2);
            if run == [false; 4] {
                break;
            }
            let settled = measure(m, n, order, MEASURE_LIMIT, run);
            for i in 0..4 {
                if run[i] {
                    misses[i] = if settled[i] { 0 } else { misses[i] + 1 };
                }
            }
        }
    }
}

#[test]
#[ignore = "measures the solver's reach; run in release with --nocapture"]
fn measure_rectangles_standard_order() {
    measure_rectangles(Order::Standard);
}

#[test]
#[ignore = "measures the solver's reach; run in release with --nocapture"]
fn measure_rectangles_most_options_order() {
    measure_rectangles(Order::MostOptions);
}
