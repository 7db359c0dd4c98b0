//! Endgame tables: every position of few pegs from which a set of targets can still be
//! reached, found backwards from the targets.
//!
//! A jump read backwards (an "unjump") takes a peg off `to` and puts pegs on `over` and
//! `from`; the unjumps of a position are exactly the jumps of its complement. So the
//! positions of `p + 1` pegs that reach a level of `p` pegs are one step of unjumps
//! away, and a table of the levels from the targets up to some peg count `top` answers
//! "can this position still get there?" exactly for every position of `top` pegs.
//!
//! A forward search that stops at `top` pegs and looks the position up loses nothing:
//! it no longer wanders through the last, widest part of the game, where almost every
//! position is dead and the pagoda and class tests cannot tell which. The levels grow
//! by about five to ten times a peg near the targets, so `top` is set by a size limit.

use rustc_hash::{FxBuildHasher, FxHashSet};

use super::board::{Bits, Board, transform};

/// The levels of canonical positions (under the symmetries that fix the target set)
/// from which a target can be reached, from the targets' peg count up to `top`.
#[derive(Clone, Debug)]
pub struct Endgame {
    syms: Vec<u8>,
    bottom: u32,
    levels: Vec<FxHashSet<Bits>>,
}

impl Endgame {
    /// The table for `targets` (positions of one peg count) on `board`, with levels
    /// added while a level holds at most `limit` positions. The level that passes the
    /// limit is dropped, so the work and memory stay within a few times `limit`.
    pub fn new(board: &Board, targets: &[Bits], limit: usize) -> Endgame {
        let bottom = targets.first().map_or(0, |t| t.count_ones());
        debug_assert!(targets.iter().all(|t| t.count_ones() == bottom));
        let set: FxHashSet<Bits> = targets.iter().copied().collect();
        let syms: Vec<u8> = board
            .symmetries()
            .iter()
            .copied()
            .filter(|&g| set.iter().all(|&t| set.contains(&transform(g, t))))
            .collect();
        let canon = |pos: Bits| syms.iter().map(|&g| transform(g, pos)).min().unwrap_or(pos);
        let first: FxHashSet<Bits> = set.iter().map(|&t| canon(t)).collect();
        let mut levels = vec![first];
        let mut moves = Vec::new();
        let mask = board.mask();
        while let Some(last) = levels.last() {
            if bottom + levels.len() as u32 > board.holes() {
                break;
            }
            let mut next = FxHashSet::with_capacity_and_hasher(last.len() * 4, FxBuildHasher);
            for &pos in last {
                board.legal_jumps(mask & !pos, &mut moves);
                for &mv in &moves {
                    let j = board.jumps()[mv as usize];
                    next.insert(canon(pos ^ (1 << j.from | 1 << j.over | 1 << j.to)));
                }
                if next.len() > limit {
                    break;
                }
            }
            if next.len() > limit || next.is_empty() {
                break;
            }
            levels.push(next);
        }
        Endgame {
            syms,
            bottom,
            levels,
        }
    }

    /// The peg count of the targets.
    pub fn bottom(&self) -> u32 {
        self.bottom
    }

    /// The most pegs of a position the table answers for.
    pub fn top(&self) -> u32 {
        self.bottom + self.levels.len() as u32 - 1
    }

    /// The symmetries of the board that map the target set to itself.
    pub fn symmetries(&self) -> &[u8] {
        &self.syms
    }

    /// How many canonical positions the table holds.
    pub fn len(&self) -> usize {
        self.levels.iter().map(FxHashSet::len).sum()
    }

    /// Whether the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether a target can be reached from `pos`, if the table knows: `None` for a
    /// position of more than `top` pegs (or fewer than the targets').
    #[inline]
    pub fn reaches(&self, pos: Bits) -> Option<bool> {
        let level = pos.count_ones().checked_sub(self.bottom)?;
        let set = self.levels.get(level as usize)?;
        let key = self
            .syms
            .iter()
            .map(|&g| transform(g, pos))
            .min()
            .unwrap_or(pos);
        Some(set.contains(&key))
    }
}

/// Every position of `pegs` pegs on `board` whose class is `class`.
pub fn positions_of_class(board: &Board, class: usize, pegs: u32) -> Vec<Bits> {
    let holes: Vec<u8> = super::board::bits(board.mask()).collect();
    let mut out = Vec::new();
    let mut pick = Vec::with_capacity(pegs as usize);
    combinations(&holes, pegs as usize, 0, &mut pick, &mut |set| {
        if board.class(set) == class {
            out.push(set);
        }
    });
    out
}

fn combinations(
    holes: &[u8],
    k: usize,
    from: usize,
    pick: &mut Vec<u8>,
    visit: &mut dyn FnMut(Bits),
) {
    if pick.len() == k {
        visit(pick.iter().fold(0, |s, &h| s | 1 << h));
        return;
    }
    for i in from..holes.len() {
        if holes.len() - i < k - pick.len() {
            break;
        }
        pick.push(holes[i]);
        combinations(holes, k, i + 1, pick, visit);
        pick.pop();
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::peg::board::bits;

    /// Forward reachability by brute force over every path, for small positions.
    fn reaches_brute(board: &Board, pos: Bits, targets: &HashSet<Bits>) -> bool {
        if targets.contains(&pos) {
            return true;
        }
        let mut moves = Vec::new();
        board.legal_jumps(pos, &mut moves);
        moves.iter().any(|&mv| {
            let j = board.jumps()[mv as usize];
            reaches_brute(
                board,
                pos ^ (1 << j.from | 1 << j.over | 1 << j.to),
                targets,
            )
        })
    }

    #[test]
    fn the_table_agrees_with_brute_force_forward_search() {
        let board = Board::english();
        let centre = 1u64 << 27;
        let targets = [centre];
        let table = Endgame::new(&board, &targets, 50_000);
        assert!(table.top() >= 4, "top {}", table.top());
        let set: HashSet<Bits> = targets.into_iter().collect();
        let holes: Vec<u8> = bits(board.mask()).collect();
        // Every 3-peg position, and a sample of 4-peg ones.
        let mut checked = 0;
        for (a, &x) in holes.iter().enumerate() {
            for (b, &y) in holes.iter().enumerate().skip(a + 1) {
                for &z in &holes[b + 1..] {
                    let pos = 1 << x | 1 << y | 1 << z;
                    assert_eq!(table.reaches(pos), Some(reaches_brute(&board, pos, &set)));
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 5456);
        assert_eq!(table.reaches(board.mask()), None);
    }

    #[test]
    fn positions_of_a_class_are_all_there() {
        let board = Board::european();
        let total: usize = (0..16)
            .map(|c| positions_of_class(&board, c, 2).len())
            .sum();
        assert_eq!(total, 37 * 36 / 2);
    }
}
