//! The counting mode against itself: counting modulo the symmetries that fix the start
//! gives the same state and path counts as counting every state on its own.

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
