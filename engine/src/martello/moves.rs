//! Legal moves and their standard order.
//!
//! The standard order, which the `standard` move order of the solvers follows, is the
//! order of the report's rules section: first horizontal moves (rows top to bottom,
//! neighbour pairs left to right), then vertical moves (left white column, then right,
//! rows top to bottom), then double jumps (same). Within a pair, the upper or left stone
//! eating comes before being eaten.

use super::state::{byte_at, row_len, State, Stone, MAX_N};

/// `eater` eats `eaten`, written `XxY`. The positions are where the two stones stand
/// in the state the move was generated from, so applying it needs no search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub eater: Stone,
    pub eaten: Stone,
    pub(crate) eater_row: u8,
    pub(crate) eater_pos: u8,
    pub(crate) eaten_row: u8,
    pub(crate) eaten_pos: u8,
}

impl Move {
    /// The spec's notation, such as `A1xB1`.
    pub fn notation(&self, n: u8) -> String {
        let [a, b] = self.eater.token(n);
        let [c, d] = self.eaten.token(n);
        [a, b, 'x', c, d].iter().collect()
    }
}

/// `COMPAT[n][s]`: the stones of an n x n board that share a colour or a symbol with `s`.
static COMPAT: [[u64; 64]; MAX_N as usize + 1] = compat_tables();

const fn compat_tables() -> [[u64; 64]; MAX_N as usize + 1] {
    let mut t = [[0u64; 64]; MAX_N as usize + 1];
    let mut n = 1;
    while n <= MAX_N as usize {
        let mut a = 0;
        while a < n * n {
            let mut b = 0;
            while b < n * n {
                if a != b && (a / n == b / n || a % n == b % n) {
                    t[n][a] |= 1u64 << b;
                }
                b += 1;
            }
            a += 1;
        }
        n += 1;
    }
    t
}

#[inline]
fn compatible(n: usize, a: u8, b: u8) -> bool {
    COMPAT[n][a as usize] >> b & 1 == 1
}

/// Pushes both directions of a pair of neighbouring cells, given as (row, pos, byte).
#[inline]
fn push_pair(out: &mut Vec<Move>, n: usize, p: (usize, usize, u8), q: (usize, usize, u8)) {
    let (a, b) = (p.2 - 1, q.2 - 1);
    if !compatible(n, a, b) {
        return;
    }
    out.push(Move {
        eater: Stone(a),
        eaten: Stone(b),
        eater_row: p.0 as u8,
        eater_pos: p.1 as u8,
        eaten_row: q.0 as u8,
        eaten_pos: q.1 as u8,
    });
    out.push(Move {
        eater: Stone(b),
        eaten: Stone(a),
        eater_row: q.0 as u8,
        eater_pos: q.1 as u8,
        eaten_row: p.0 as u8,
        eaten_pos: p.1 as u8,
    });
}

/// Clears `out` and pushes every legal move of `state` once, in the standard order.
pub(crate) fn generate(state: &State, out: &mut Vec<Move>) {
    out.clear();
    let n = state.n as usize;
    let mut lens = [0usize; MAX_N as usize];
    for (r, len) in lens.iter_mut().enumerate().take(n) {
        *len = row_len(state.rows[r]);
    }

    // Horizontal: neighbours in a row's list. A stone eaten by its left neighbour or by
    // its right one leaves the same state behind, and moves are transitions between
    // states, so such a pair of moves is listed once: the one whose eater has the
    // higher id (the conformance cases' choice).
    for (r, &len) in lens.iter().enumerate().take(n) {
        let word = state.rows[r];
        let stone = |i: usize| byte_at(word, i) - 1;
        for i in 1..len {
            let (a, b) = (stone(i - 1), stone(i));
            if !compatible(n, a, b) {
                continue;
            }
            // a eats b unless b's right neighbour also eats b and has the higher id.
            let right_wins = i + 1 < len && compatible(n, stone(i + 1), b) && stone(i + 1) > a;
            // b eats a unless a's left neighbour also eats a and has the higher id.
            let left_wins = i >= 2 && compatible(n, stone(i - 2), a) && stone(i - 2) > b;
            let (r8, i8) = (r as u8, i as u8);
            if !right_wins {
                out.push(Move {
                    eater: Stone(a),
                    eaten: Stone(b),
                    eater_row: r8,
                    eater_pos: i8 - 1,
                    eaten_row: r8,
                    eaten_pos: i8,
                });
            }
            if !left_wins {
                out.push(Move {
                    eater: Stone(b),
                    eaten: Stone(a),
                    eater_row: r8,
                    eater_pos: i8,
                    eaten_row: r8,
                    eaten_pos: i8 - 1,
                });
            }
        }
    }
    if n < 2 {
        return;
    }

    // The white cell of row r on the left (side 0) or right (side 1), as (row, pos, byte).
    // A lone stone stands in whichever white column the move needs.
    let cell = |r: usize, side: usize| -> Option<(usize, usize, u8)> {
        match (lens[r], side) {
            (0, _) => None,
            (_, 0) | (1, _) => Some((r, 0, byte_at(state.rows[r], 0))),
            (len, _) => Some((r, len - 1, byte_at(state.rows[r], len - 1))),
        }
    };

    // Vertical: the same white column, rows r and r + 1. Two lone stones meet in both
    // columns; the pair is listed once, on the left.
    for side in 0..2 {
        for r in 0..n - 1 {
            if side == 1 && lens[r] == 1 && lens[r + 1] == 1 {
                continue;
            }
            if let (Some(p), Some(q)) = (cell(r, side), cell(r + 1, side)) {
                push_pair(out, n, p, q);
            }
        }
    }

    // Double jumps: rows r and r + 2 when row r + 1's white cell on that side is empty,
    // which is exactly when it holds at most one stone (a lone stone steps aside).
    for side in 0..2 {
        for r in 0..n.saturating_sub(2) {
            if lens[r + 1] > 1 || (side == 1 && lens[r] == 1 && lens[r + 2] == 1) {
                continue;
            }
            if let (Some(p), Some(q)) = (cell(r, side), cell(r + 2, side)) {
                push_pair(out, n, p, q);
            }
        }
    }
}
