//! Legal moves and their standard order.
//!
//! The standard order, which the `standard` move order of the solvers follows, is the
//! order of the report's rules section: first horizontal moves (rows top to bottom,
//! neighbour pairs left to right), then vertical moves (left white column, then right,
//! rows top to bottom), then double jumps (same). Within a pair, the upper or left stone
//! eating comes before being eaten.

use super::state::{MAX_N, State, Stone, byte_at, row_len};

/// `eater` eats `eaten`, written `XxY`. The positions are where the two stones stand
/// in the state the move was generated from, so applying it needs no search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The stone that moves and stays.
    pub eater: Stone,
    /// The stone removed.
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

/// `LINES[n][s]`: the stones of an n x n board that share stone `s`'s colour, and those
/// that share its symbol (both with `s` itself), so that move generation and signatures
/// need no division.
pub(crate) static LINES: [[(u64, u64); 64]; MAX_N as usize + 1] = line_tables();

const fn line_tables() -> [[(u64, u64); 64]; MAX_N as usize + 1] {
    let mut t = [[(0u64, 0u64); 64]; MAX_N as usize + 1];
    let mut n = 1;
    while n <= MAX_N as usize {
        let mut a = 0;
        while a < n * n {
            let mut b = 0;
            while b < n * n {
                if a / n == b / n {
                    t[n][a].0 |= 1u64 << b;
                }
                if a % n == b % n {
                    t[n][a].1 |= 1u64 << b;
                }
                b += 1;
            }
            a += 1;
        }
        n += 1;
    }
    t
}

/// `COMPAT[n][s]`: the stones of an n x n board that share a colour or a symbol with `s`.
pub(crate) static COMPAT: [[u64; 64]; MAX_N as usize + 1] = compat_tables();

const fn compat_tables() -> [[u64; 64]; MAX_N as usize + 1] {
    let mut t = [[0u64; 64]; MAX_N as usize + 1];
    let mut n = 0;
    while n <= MAX_N as usize {
        let mut a = 0;
        while a < 64 {
            let (colour, symbol) = LINES[n][a];
            t[n][a] = (colour | symbol) & !(1u64 << a);
            a += 1;
        }
        n += 1;
    }
    t
}

#[inline(always)]
fn compatible(compat: &[u64; 64], a: u8, b: u8) -> bool {
    compat[a as usize & 63] >> (b & 63) & 1 == 1
}

/// Pushes both directions of a pair of neighbouring cells, given as (row, pos, byte).
#[inline(always)]
fn push_pair(
    out: &mut impl FnMut(Move),
    compat: &[u64; 64],
    p: (usize, usize, u8),
    q: (usize, usize, u8),
) {
    let (a, b) = (p.2.wrapping_sub(1), q.2.wrapping_sub(1));
    if !compatible(compat, a, b) {
        return;
    }
    out(Move {
        eater: Stone(a),
        eaten: Stone(b),
        eater_row: p.0 as u8,
        eater_pos: p.1 as u8,
        eaten_row: q.0 as u8,
        eaten_pos: q.1 as u8,
    });
    out(Move {
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
    out.reserve(4 * state.n as usize * state.n as usize);
    let push = |mv| out.push(mv);
    match state.n {
        1 => for_each::<1>(state, push),
        2 => for_each::<2>(state, push),
        3 => for_each::<3>(state, push),
        4 => for_each::<4>(state, push),
        5 => for_each::<5>(state, push),
        6 => for_each::<6>(state, push),
        7 => for_each::<7>(state, push),
        _ => for_each::<8>(state, push),
    }
}

/// Calls `out` with every legal move of `state`, whose side is `N`, once, in the
/// standard order. The side is a constant so that the loops over rows unroll.
#[inline(always)]
pub(crate) fn for_each<const N: usize>(state: &State, mut out: impl FnMut(Move)) {
    debug_assert_eq!(state.n as usize, N);
    let out = &mut out;
    let n = N.min(MAX_N as usize);
    let compat = &COMPAT[n];
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
        let stone = |i: usize| byte_at(word, i).wrapping_sub(1);
        for i in 1..len {
            let (a, b) = (stone(i - 1), stone(i));
            if !compatible(compat, a, b) {
                continue;
            }
            // a eats b unless b's right neighbour also eats b and has the higher id.
            let right_wins = i + 1 < len && compatible(compat, stone(i + 1), b) && stone(i + 1) > a;
            // b eats a unless a's left neighbour also eats a and has the higher id.
            let left_wins = i >= 2 && compatible(compat, stone(i - 2), a) && stone(i - 2) > b;
            let (r8, i8) = (r as u8, i as u8);
            if !right_wins {
                out(Move {
                    eater: Stone(a),
                    eaten: Stone(b),
                    eater_row: r8,
                    eater_pos: i8 - 1,
                    eaten_row: r8,
                    eaten_pos: i8,
                });
            }
            if !left_wins {
                out(Move {
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

    // The white cells: `cells[side][r]` = (position, byte) of row r's stone in the left
    // (side 0) or right (side 1) white column, byte 0 when empty. A lone stone stands in
    // whichever white column the move needs.
    let mut cells = [[(0u8, 0u8); MAX_N as usize]; 2];
    for r in 0..n {
        let word = state.rows[r];
        match lens[r] {
            0 => {}
            1 => {
                cells[0][r] = (0, word as u8);
                cells[1][r] = (0, word as u8);
            }
            len => {
                cells[0][r] = (0, word as u8);
                cells[1][r] = ((len - 1) as u8, byte_at(word, len - 1));
            }
        }
    }
    #[inline(always)]
    fn pair(
        out: &mut impl FnMut(Move),
        compat: &[u64; 64],
        cells: &[(u8, u8); MAX_N as usize],
        r: usize,
        q: usize,
    ) {
        let (pp, pb) = cells[r & 7];
        let (qp, qb) = cells[q & 7];
        if pb != 0 && qb != 0 {
            push_pair(out, compat, (r, pp as usize, pb), (q, qp as usize, qb));
        }
    }

    // Vertical: the same white column, rows r and r + 1. Two lone stones meet in both
    // columns; the pair is listed once, on the left.
    for r in 0..n - 1 {
        pair(out, compat, &cells[0], r, r + 1);
    }
    for r in 0..n - 1 {
        if !(lens[r] == 1 && lens[r + 1] == 1) {
            pair(out, compat, &cells[1], r, r + 1);
        }
    }

    // Double jumps: rows r and r + 2 when row r + 1's white cell on that side is empty,
    // which is exactly when it holds at most one stone (a lone stone steps aside).
    for r in 0..n.saturating_sub(2) {
        if lens[r + 1] <= 1 {
            pair(out, compat, &cells[0], r, r + 2);
        }
    }
    for r in 0..n.saturating_sub(2) {
        if lens[r + 1] <= 1 && !(lens[r] == 1 && lens[r + 2] == 1) {
            pair(out, compat, &cells[1], r, r + 2);
        }
    }
}
