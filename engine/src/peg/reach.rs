//! Can a target position be reached? A depth-first search with a memo of dead positions
//! (canonical under the symmetries that fix the target), pruned by the class invariant
//! and by pagoda functions.
//!
//! A pagoda function gives each hole a weight `p` with `p(from) + p(over) >= p(to)` for
//! every jump, so no jump raises the total weight of the pegs: a position whose total is
//! below the target's cannot reach it. The ones used here are the Fibonacci weights
//! `F(14 - d)` where `d` is the Manhattan distance to a target peg: a jump towards it
//! spends `F(k + 2) + F(k + 1) = F(k + 2)`'s worth exactly, any other jump loses weight.
//! They cut hopeless branches near the end of a search, where targets are decided.

use std::collections::HashSet;

use super::board::{Bits, Board, bits, transform};
use crate::fasthash::MixBuild;

/// `F(0..=14)`.
const FIB: [u32; 15] = [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377];

/// A reachability search towards one target on one board.
pub struct Reach<'a> {
    board: &'a Board,
    target: Bits,
    target_pegs: u32,
    /// The symmetries of the board that fix the target.
    syms: Vec<u8>,
    /// Pagoda weights per hole, and the target's total under each.
    pagodas: Vec<([u32; 64], u32)>,
    dead: HashSet<Bits, MixBuild>,
    buf: Vec<Vec<u8>>,
    /// Positions expanded so far.
    pub expansions: u64,
}

impl<'a> Reach<'a> {
    pub fn new(board: &'a Board, target: Bits) -> Reach<'a> {
        let syms = board
            .symmetries()
            .iter()
            .copied()
            .filter(|&g| transform(g, target) == target)
            .collect();
        let mut pagodas = Vec::new();
        for t in bits(target) {
            let mut w = [0u32; 64];
            for h in bits(board.mask()) {
                let d = (h / 8).abs_diff(t / 8) + (h % 8).abs_diff(t % 8);
                w[h as usize] = FIB[14 - d as usize];
            }
            if is_pagoda(board, &w) {
                let total = weight(&w, target);
                pagodas.push((w, total));
            }
        }
        Reach {
            board,
            target,
            target_pegs: target.count_ones(),
            syms,
            pagodas,
            dead: HashSet::default(),
            buf: Vec::new(),
            expansions: 0,
        }
    }

    /// Whether the target can be reached from `pos`.
    pub fn from(&mut self, pos: Bits) -> bool {
        if self.board.class(pos) != self.board.class(self.target) {
            return false;
        }
        self.search(pos, 0)
    }

    fn key(&self, pos: Bits) -> Bits {
        self.syms
            .iter()
            .map(|&g| transform(g, pos))
            .min()
            .unwrap_or(pos)
    }

    fn search(&mut self, pos: Bits, depth: usize) -> bool {
        let pegs = pos.count_ones();
        if pegs <= self.target_pegs {
            return pos == self.target;
        }
        // The target's pegs that no jump can fill again stay put: a target peg on a hole
        // that is empty now needs a jump into it, which is fine; but every peg must stay
        // within the pagoda budget.
        if self.pagodas.iter().any(|(w, t)| weight(w, pos) < *t) {
            return false;
        }
        let key = self.key(pos);
        if self.dead.contains(&key) {
            return false;
        }
        self.expansions += 1;
        if self.buf.len() <= depth {
            self.buf.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buf[depth]);
        self.board.legal_jumps(pos, &mut moves);
        let mut found = false;
        for &mv in &moves {
            let j = self.board.jumps()[mv as usize];
            let next = pos ^ (1 << j.from | 1 << j.over | 1 << j.to);
            if self.search(next, depth + 1) {
                found = true;
                break;
            }
        }
        self.buf[depth] = moves;
        if !found {
            self.dead.insert(key);
        }
        found
    }
}

/// The total weight of the pegs of `pos`.
#[inline]
fn weight(w: &[u32; 64], pos: Bits) -> u32 {
    bits(pos).map(|h| w[h as usize]).sum()
}

/// Whether `w` is a pagoda function of `board`: no jump raises the total.
fn is_pagoda(board: &Board, w: &[u32; 64]) -> bool {
    board
        .jumps()
        .iter()
        .all(|j| w[j.from as usize] + w[j.over as usize] >= w[j.to as usize])
}

/// The holes where a lone peg can be left from `pos`, row-major, and the positions the
/// searches expanded. Holes of another class than `pos` are skipped without a search.
pub fn finishes(board: &Board, pos: Bits) -> (Vec<u8>, u64) {
    let mut out = Vec::new();
    let mut expansions = 0;
    if pos == 0 {
        return (out, 0);
    }
    let class = board.class(pos);
    for h in bits(board.mask()) {
        if board.class(1 << h) != class {
            continue;
        }
        let mut reach = Reach::new(board, 1 << h);
        if reach.from(pos) {
            out.push(h);
        }
        expansions += reach.expansions;
    }
    (out, expansions)
}
