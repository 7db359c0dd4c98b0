//! The counting mode against itself: counting modulo the symmetries that fix the start
//! gives the same state and path counts as counting every state on its own.

mod common;

use common::in_gang;
use hammer_engine::peg::{Board, Peg};
use hammer_solver::{Reduction, count};
use proptest::prelude::*;

proptest! {
    #[test]
    fn symmetry_reduction_keeps_the_counts(seed in any::<u64>(), thin in any::<u64>(), european in any::<bool>()) {
        let board = if european { Board::european() } else { Board::english() };
        // About a quarter of the holes filled.
        let pos = seed & thin & board.mask();
        let plain = count(&Peg::new(board.clone()), &pos, Reduction::None);
        let reduced = count(&Peg::new(board.fixing(pos)), &pos, Reduction::Symmetry);
        prop_assert_eq!(plain.states(), reduced.states());
        prop_assert_eq!(plain.min_score, reduced.min_score);
        for (a, b) in plain.levels.iter().zip(&reduced.levels) {
            prop_assert_eq!((a.score, a.states, a.paths), (b.score, b.states, b.paths));
        }
    }
}

#[test]
fn symmetric_start_counts_match_plain_counts() {
    // The English board with its centre cross of 13 holes filled: 8 symmetries.
    let board = Board::english();
    let pos: u64 = (0x08 << 8) | (0x08 << 16) | (0x7f << 24) | (0x08 << 32) | (0x08 << 40);
    let pos = pos & board.mask();
    let plain = count(&Peg::new(board.clone()), &pos, Reduction::None);
    let reduced = count(&Peg::new(board.fixing(pos)), &pos, Reduction::Symmetry);
    assert!(reduced.classes() < plain.classes());
    assert_eq!(plain.states(), reduced.states());
    let paths =
        |c: &hammer_solver::Counts<u64>| c.levels.iter().map(|l| l.paths).collect::<Vec<_>>();
    assert_eq!(paths(&plain), paths(&reduced));
}

/// `count_gang` by `k` threads, each with its own share; every member's counts.
fn count_by_gang(
    board: &Board,
    pos: u64,
    reduction: Reduction,
    k: usize,
) -> Vec<(hammer_solver::Counts<u64>, hammer_solver::GangCountStats)> {
    in_gang(k, |link| {
        let puzzle = Peg::new(board.clone());
        hammer_solver::count_gang(&puzzle, &pos, reduction, link).expect("the gang counts")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// A gang of 1 to 4 members counts what one process counts, with and without the
    /// symmetry reduction, and every member returns the whole gang's counts; the
    /// members' entries add up to the classes.
    #[test]
    fn a_gang_counts_what_one_process_counts(
        seed in any::<u64>(),
        k in 1usize..=4,
        symmetric in any::<bool>(),
    ) {
        let english = Board::english();
        // About half the holes filled.
        let pos = seed & english.mask();
        let (board, reduction) = if symmetric {
            (english.fixing(pos), Reduction::Symmetry)
        } else {
            (english, Reduction::None)
        };
        let alone = count(&Peg::new(board.clone()), &pos, reduction);
        let members = count_by_gang(&board, pos, reduction, k);
        let entries: u64 = members.iter().map(|(_, s)| s.entries).sum();
        prop_assert_eq!(entries, alone.classes());
        for (counts, _) in &members {
            prop_assert_eq!(&counts.levels, &alone.levels);
            prop_assert_eq!(counts.min_score, alone.min_score);
        }
        let lowest: usize = members.iter().map(|(c, _)| c.lowest.len()).sum();
        prop_assert_eq!(lowest, alone.lowest.len());
    }
}

#[test]
fn a_gang_of_three_counts_a_dense_english_position() {
    // The English board with its top arm empty.
    let board = Board::english();
    let pos = board.mask() & !0xff_ffff;
    let alone = count(&Peg::new(board.clone()), &pos, Reduction::None);
    assert!(alone.states() > 10_000, "{}", alone.states());
    let members = count_by_gang(&board, pos, Reduction::None, 3);
    for (counts, stats) in &members {
        assert_eq!(counts.levels, alone.levels);
        assert!(stats.sent > 0, "members exchanged entries");
    }
}
