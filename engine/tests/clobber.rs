//! Solitaire Clobber's rules: the spec's anchors, and property tests of the rules, the
//! bound and the searches against plain brute force. The conformance cases go through
//! the family (`family/tests/clobber_conformance.rs`), as `hammer ask` answers them.

use std::collections::HashMap;

use hammer_engine::clobber::{
    self, Board, Clobber, Colour, Colours, Gen, Move, Position, Rule, State, alternation_bound,
    component_bound, mod3_bound, parse_position, position_text,
};
use hammer_engine::{Countable, Puzzle, Successor};
use proptest::prelude::*;

/// The start of the full checkerboard `m x n`.
fn checkerboard(m: u64, n: u64) -> (Board, Position) {
    let instance = Gen::new(m, n, 100, Colours::Checker, 0).unwrap();
    (instance.board(), instance.position())
}

#[test]
fn the_small_anchors() {
    let (board, pos) = parse_position("xoxo").unwrap();
    let game = Clobber::new(board, Rule::Partisan);
    let start = game.state(pos, None);
    let a = clobber::analyse(&game, &start);
    assert_eq!(
        (
            a.states,
            a.min_stones,
            a.max_stones,
            a.ends,
            a.optimal_plays
        ),
        (13, 1, 3, 5, 2)
    );
    let lone: Vec<String> = a.lone.iter().map(ToString::to_string).collect();
    assert_eq!(lone, ["2:o", "3:x"]);
    let s = clobber::solve(&game, &start);
    let witness: Vec<String> = s.witness.iter().map(Move::to_string).collect();
    assert_eq!(
        (s.min_stones, witness),
        (1, vec!["1-2".into(), "4-3".into(), "2-3".into()])
    );

    let (board, pos) = parse_position("xox/oxo").unwrap();
    let game = Clobber::new(board, Rule::Impartial);
    let s = clobber::solve(&game, &game.state(pos, None));
    let witness: Vec<String> = s.witness.iter().map(Move::to_string).collect();
    assert_eq!(
        (s.min_stones, witness),
        (
            2,
            vec!["1-2".into(), "3-6".into(), "4-5".into(), "2-5".into()]
        )
    );
}

/// A full checkerboard `m x n` under a rule with a first colour.
type Checkerboard = (u64, u64, Rule, Option<Colour>);
/// States, min stones, max stones, ends, optimal plays.
type Counts = (u64, u32, u32, u64, u128);

#[test]
fn the_larger_anchors() {
    let anchors: [(Checkerboard, Counts); 7] = [
        (
            (1, 16, Rule::Partisan, None),
            (74_439, 4, 11, 5_772, 102_384),
        ),
        (
            (1, 16, Rule::Impartial, None),
            (111_625, 4, 11, 13_474, 94_617_600),
        ),
        (
            (3, 4, Rule::Partisan, Some(Colour::Black)),
            (13_343, 2, 8, 996, 44_684),
        ),
        (
            (2, 8, Rule::Partisan, None),
            (784_973, 1, 10, 26_294, 14_544),
        ),
        (
            (4, 4, Rule::Partisan, None),
            (1_200_321, 1, 10, 28_589, 5_131_120),
        ),
        (
            (4, 4, Rule::Partisan, Some(Colour::Black)),
            (600_161, 1, 10, 18_037, 2_565_560),
        ),
        (
            (4, 4, Rule::Impartial, None),
            (1_809_927, 1, 10, 82_769, 10_335_043_840),
        ),
    ];
    for ((m, n, rule, turn), want) in anchors {
        let (board, pos) = checkerboard(m, n);
        let game = Clobber::new(board, rule);
        let start = game.state(pos, turn);
        let a = clobber::analyse(&game, &start);
        let got = (
            a.states,
            a.min_stones,
            a.max_stones,
            a.ends,
            a.optimal_plays,
        );
        assert_eq!(got, want, "{m} x {n} {rule:?} {turn:?}");
        assert_eq!(clobber::solve(&game, &start).min_stones, want.1);
        if (m, n, turn) == (4, 4, Some(Colour::Black)) {
            assert!(a.lone.iter().all(|l| l.colour == Colour::Black));
        }
    }
}

// ---- brute force ----

/// The moves by the definition: each stone of a colour that may move, in cell order,
/// onto each side-neighbour of the other colour, up, left, right, down.
fn naive_moves(board: &Board, state: &State) -> Vec<Move> {
    let (m, n) = (board.m() as i32, board.n() as i32);
    let mut out = Vec::new();
    for cell in 0..(m * n) as u8 {
        let Some(colour) = state.pos.colour_at(cell) else {
            continue;
        };
        if state.turn.is_some_and(|t| t != colour) {
            continue;
        }
        let (r, c) = (cell as i32 / n, cell as i32 % n);
        for (dr, dc) in [(-1, 0), (0, -1), (0, 1), (1, 0)] {
            let (r2, c2) = (r + dr, c + dc);
            if r2 < 0 || r2 >= m || c2 < 0 || c2 >= n {
                continue;
            }
            let to = (r2 * n + c2) as u8;
            if state.pos.colour_at(to) == Some(colour.other()) {
                out.push(Move { from: cell, to });
            }
        }
    }
    out
}

/// The fewest stones reachable from `state`, over every move, with no bound.
fn brute_min(game: &Clobber, state: &State, memo: &mut HashMap<State, u32>) -> u32 {
    if let Some(&m) = memo.get(state) {
        return m;
    }
    let mut best = state.pos.count();
    for mv in naive_moves(game.board(), state) {
        best = best.min(brute_min(game, &game.play(state, mv), memo));
    }
    memo.insert(*state, best);
    best
}

/// Every state reachable from `start`, the start included.
fn reachable(game: &Clobber, start: &State) -> Vec<State> {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![*start];
    let mut out = Vec::new();
    while let Some(s) = stack.pop() {
        if !seen.insert(s) {
            continue;
        }
        out.push(s);
        for mv in naive_moves(game.board(), &s) {
            stack.push(game.play(&s, mv));
        }
    }
    out
}

/// `(s + k) mod 3`: stones plus stones clashing with their cell's chessboard colour.
fn invariant(board: &Board, pos: &Position) -> u32 {
    (pos.count() + pos.clashing(board).count_ones()) % 3
}

/// A random position of at most 12 cells, a rule and a first colour.
fn small_game() -> impl Strategy<Value = (Board, Position, Rule, Option<Colour>)> {
    let shapes: Vec<(u32, u32)> = (1..=12u32)
        .flat_map(|m| (1..=12 / m).map(move |n| (m, n)))
        .collect();
    (
        proptest::sample::select(shapes),
        proptest::collection::vec(0..3u8, 12),
        prop_oneof![Just(Rule::Partisan), Just(Rule::Impartial)],
        prop_oneof![
            Just(None),
            Just(Some(Colour::Black)),
            Just(Some(Colour::White))
        ],
    )
        .prop_map(|((m, n), cells, rule, turn)| {
            let board = Board::new(m, n).unwrap();
            let mut pos = Position::default();
            for (i, &c) in cells.iter().take((m * n) as usize).enumerate() {
                match c {
                    1 => pos.black |= 1 << i,
                    2 => pos.white |= 1 << i,
                    _ => {}
                }
            }
            (board, pos, rule, turn)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_bound_never_exceeds_the_minimum(game in small_game()) {
        let (board, pos, rule, turn) = game;
        let game = Clobber::new(board, rule);
        let start = game.state(pos, turn);
        let mut memo = HashMap::new();
        for s in reachable(&game, &start) {
            let min = brute_min(&game, &s, &mut memo);
            let bound = game.lower_bound(&s);
            prop_assert!(bound <= min, "{} {s:?}: bound {bound} > min {min}", position_text(&board, &s.pos));
            prop_assert!(component_bound(&board, &s.pos) <= bound);
            prop_assert!(mod3_bound(&board, &s.pos) <= bound);
            if rule == Rule::Partisan {
                prop_assert!(alternation_bound(&s.pos, s.turn) <= bound);
            }
        }
        let min = brute_min(&game, &start, &mut memo);
        let solved = clobber::solve(&game, &start);
        prop_assert_eq!(solved.min_stones, min);
        let end = clobber::replay(&game, &start, &solved.witness).unwrap();
        prop_assert!(end.over);
        prop_assert_eq!(end.state.pos.count(), min);
        let a = clobber::analyse(&game, &start);
        prop_assert_eq!(a.min_stones, min);
        prop_assert_eq!(a.states, reachable(&game, &start).len() as u64);
    }

    #[test]
    fn the_puzzle_agrees_with_the_typed_moves(game in small_game()) {
        let (board, pos, rule, turn) = game;
        let game = Clobber::new(board, rule);
        let start = game.state(pos, turn);
        let (mut moves, mut succ): (Vec<Move>, Vec<Successor<Move>>) = (Vec::new(), Vec::new());
        for s in reachable(&game, &start) {
            let typed = clobber::moves(&game, &s);
            let naive = naive_moves(&board, &s);
            prop_assert_eq!(typed.iter().map(|&(mv, _)| mv).collect::<Vec<_>>(), naive.clone());
            prop_assert_eq!(naive.is_empty(), game.is_over(&s));
            let bound = game.lower_bound(&s);
            let fp = game.fingerprint(&s);
            prop_assert_eq!(game.state_key(&s), fp);
            game.successors(&s, bound, fp, u32::MAX, &mut moves, &mut succ);
            prop_assert_eq!(&moves, &naive);
            prop_assert_eq!(succ.len(), typed.len());
            for (child, &(mv, after)) in succ.iter().zip(&typed) {
                let next = game.apply(&s, mv);
                prop_assert_eq!(child.mv, mv);
                prop_assert_eq!(next.pos, after);
                prop_assert_eq!(child.bound, game.lower_bound(&next));
                prop_assert_eq!(child.fp, game.fingerprint(&next));
                prop_assert_eq!(game.score(&next) + 1, game.score(&s));
                prop_assert_eq!(invariant(&board, &next.pos), invariant(&board, &s.pos));
                prop_assert!(game.is_legal(&s, mv));
                match rule {
                    Rule::Impartial => prop_assert_eq!(next.turn, None),
                    Rule::Partisan => prop_assert_eq!(next.turn, s.pos.colour_at(mv.from).map(Colour::other)),
                }
            }
        }
    }

    #[test]
    fn impartial_is_never_worse_than_partisan(game in small_game()) {
        let (board, pos, _, _) = game;
        let impartial = Clobber::new(board, Rule::Impartial);
        let partisan = Clobber::new(board, Rule::Partisan);
        let min_impartial = brute_min(&impartial, &impartial.state(pos, None), &mut HashMap::new());
        for turn in [None, Some(Colour::Black), Some(Colour::White)] {
            let min = brute_min(&partisan, &partisan.state(pos, turn), &mut HashMap::new());
            prop_assert!(min_impartial <= min);
        }
        // The first colour is the player's choice: the better of the two.
        let any = brute_min(&partisan, &partisan.state(pos, None), &mut HashMap::new());
        let x = brute_min(&partisan, &partisan.state(pos, Some(Colour::Black)), &mut HashMap::new());
        let o = brute_min(&partisan, &partisan.state(pos, Some(Colour::White)), &mut HashMap::new());
        prop_assert_eq!(any, x.min(o));
    }

    #[test]
    fn positions_round_trip(game in small_game()) {
        let (board, pos, _, _) = game;
        let text = position_text(&board, &pos);
        prop_assert_eq!(parse_position(&text).unwrap(), (board, pos));
    }
}
