//! Property tests of the peg solitaire rules: moves, notation, symmetries, the lower
//! bound and the reachability search, checked against plain brute force.

use std::collections::{HashMap, HashSet};

use hammer_engine::peg::board::{Bits, bits, transform};
use hammer_engine::peg::notation::{
    cell_name, jump_text, mask_text, parse_any, parse_jump, parse_mask, parse_position,
    position_text,
};
use hammer_engine::peg::{Board, BoardKind, Peg, reachable};
use hammer_engine::{Countable, Puzzle};
use proptest::prelude::*;

fn boards() -> [Board; 3] {
    // A custom board: the 5x5 square in the middle of the grid plus one arm, which
    // keeps only the symmetries of a flip across the arm's axis.
    let custom = parse_mask("-------/-xxxxx-/-xxxxx-/-xxxxxx/-xxxxx-/-xxxxx-/-------").unwrap();
    [
        Board::english(),
        Board::european(),
        Board::new(BoardKind::Custom(custom)),
    ]
}

/// The slow, obvious definition of symmetry `g` on the 7x7 grid.
fn naive(g: u8, pos: Bits) -> Bits {
    let mut out = 0;
    for h in bits(pos) {
        let (mut r, mut c) = ((h / 8) as usize, (h % 8) as usize);
        if g & 4 != 0 {
            (r, c) = (c, r);
        }
        if g & 1 != 0 {
            c = 6 - c;
        }
        if g & 2 != 0 {
            r = 6 - r;
        }
        out |= 1 << (r * 8 + c);
    }
    out
}

/// The fewest pegs reachable, by plain recursion over every jump (with a memo of
/// visited positions only to keep it quick; no bound, no symmetry).
fn brute_min(board: &Board, pos: Bits, seen: &mut HashMap<Bits, u32>) -> u32 {
    if let Some(&m) = seen.get(&pos) {
        return m;
    }
    let mut best = pos.count_ones();
    for j in board.jumps() {
        if pos >> j.from & 1 == 1 && pos >> j.over & 1 == 1 && pos >> j.to & 1 == 0 {
            let next = pos ^ (1 << j.from | 1 << j.over | 1 << j.to);
            best = best.min(brute_min(board, next, seen));
        }
    }
    seen.insert(pos, best);
    best
}

fn brute_reachable(board: &Board, pos: Bits, out: &mut HashSet<Bits>) {
    if !out.insert(pos) {
        return;
    }
    for j in board.jumps() {
        if pos >> j.from & 1 == 1 && pos >> j.over & 1 == 1 && pos >> j.to & 1 == 0 {
            brute_reachable(board, pos ^ (1 << j.from | 1 << j.over | 1 << j.to), out);
        }
    }
}

/// A position of `board` with each hole filled when its bit of `seed` is set, thinned
/// to about `keep` in 64 holes by `thin`.
fn position(board: &Board, seed: u64, thin: u64) -> Bits {
    seed & !thin & board.mask()
}

#[test]
fn boards_have_the_spec_jump_counts() {
    let [english, european, _] = boards();
    assert_eq!((english.holes(), english.jumps().len()), (33, 76));
    assert_eq!((european.holes(), european.jumps().len()), (37, 92));
    assert_eq!(english.symmetries().len(), 8);
    assert_eq!(european.symmetries().len(), 8);
    assert_eq!(boards()[2].symmetries(), &[0, 2]);
}

proptest! {
    #[test]
    fn every_listed_move_replays_and_removes_one_peg(seed in any::<u64>(), b in 0usize..3) {
        let board = &boards()[b];
        let pos = position(board, seed, 0);
        let peg = Peg::new(board.clone());
        let mut moves = Vec::new();
        peg.moves(&pos, &mut moves);
        let expected: Vec<u8> = (0..board.jumps().len() as u8)
            .filter(|&i| {
                let j = board.jumps()[i as usize];
                pos >> j.from & 1 == 1 && pos >> j.over & 1 == 1 && pos >> j.to & 1 == 0
            })
            .collect();
        let mut sorted = moves.clone();
        sorted.sort_unstable();
        prop_assert_eq!(&sorted, &expected);
        for &mv in &moves {
            let text = jump_text(board, mv);
            prop_assert_eq!(parse_jump(board, &text), Ok(mv));
            let next = peg.apply(&pos, mv);
            prop_assert_eq!(next.count_ones() + 1, pos.count_ones());
            prop_assert_eq!(next & !board.mask(), 0);
        }
    }

    #[test]
    fn printing_and_parsing_round_trip(seed in any::<u64>(), b in 0usize..3) {
        let board = &boards()[b];
        let pos = position(board, seed, 0);
        let text = position_text(board, pos);
        prop_assert_eq!(parse_position(board, &text), Ok(pos));
        if b < 2 {
            prop_assert_eq!(parse_any(&text), Ok((board.kind(), pos)));
        }
        prop_assert_eq!(parse_mask(&mask_text(board.mask())), Ok(board.mask()));
        for h in bits(board.mask()) {
            prop_assert_eq!(hammer_engine::peg::notation::parse_cell(&cell_name(h)), Ok(h));
        }
    }

    #[test]
    fn fingerprints_are_invariant_under_the_symmetries(seed in any::<u64>(), b in 0usize..3) {
        let board = &boards()[b];
        let pos = position(board, seed, 0);
        let peg = Peg::new(board.clone());
        for g in 0..8u8 {
            prop_assert_eq!(transform(g, pos), naive(g, pos));
        }
        let mut images = HashSet::new();
        for &g in board.symmetries() {
            let image = transform(g, pos);
            images.insert(image);
            prop_assert_eq!(peg.fingerprint(&image), peg.fingerprint(&pos));
            prop_assert_eq!(peg.lower_bound(&image), peg.lower_bound(&pos));
        }
        prop_assert_eq!(peg.class_size(&pos), images.len() as u64);
    }

    #[test]
    fn the_bound_never_exceeds_the_exhaustive_minimum(
        seed in any::<u64>(), thin in any::<u64>(), thin2 in any::<u64>(), b in 0usize..3,
    ) {
        let board = &boards()[b];
        let pos = position(board, seed, thin | thin2);
        let peg = Peg::new(board.clone());
        let min = brute_min(board, pos, &mut HashMap::new());
        prop_assert!(peg.lower_bound(&pos) <= min, "bound {} > min {min}", peg.lower_bound(&pos));
        let mut solver = hammer_solver_free::solve(&peg, pos);
        prop_assert_eq!(solver.pop(), Some(min));
    }

    #[test]
    fn reachability_agrees_with_brute_force(
        seed in any::<u64>(), thin in any::<u64>(), thin2 in any::<u64>(), b in 0usize..3,
    ) {
        let board = &boards()[b];
        let pos = position(board, seed, thin | thin2);
        let mut all = HashSet::new();
        brute_reachable(board, pos, &mut all);
        // Every reachable position is found, and a few unreachable ones are refused.
        for &target in all.iter().take(20) {
            prop_assert!(reachable(board, pos, target).0);
        }
        for h in bits(board.mask()) {
            let target = 1 << h;
            prop_assert_eq!(reachable(board, pos, target).0, all.contains(&target));
        }
    }
}

/// A tiny exhaustive minimiser through the `Puzzle` trait alone, to check that the
/// trait's moves and bound agree with the brute force above.
mod hammer_solver_free {
    use hammer_engine::Puzzle;
    use hammer_engine::peg::Peg;
    use hammer_engine::peg::board::Bits;

    pub fn solve(peg: &Peg, pos: Bits) -> Vec<u32> {
        let mut best = u32::MAX;
        let mut seen = std::collections::HashSet::new();
        walk(peg, pos, &mut best, &mut seen);
        vec![best]
    }

    fn walk(peg: &Peg, pos: Bits, best: &mut u32, seen: &mut std::collections::HashSet<u128>) {
        if !seen.insert(peg.fingerprint(&pos)) {
            return;
        }
        *best = (*best).min(peg.score(&pos));
        let mut moves = Vec::new();
        peg.moves(&pos, &mut moves);
        for mv in moves {
            walk(peg, peg.apply(&pos, mv), best, seen);
        }
    }
}
