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

use rand_chacha::ChaCha8Rng;

use super::board::{Bits, Board, bits, transform};
use crate::fasthash::MixBuild;
use crate::seeded::{bounded, fast_stream};

/// How one attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Found,
    Dead,
    Cut,
}

/// The move order of an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// Jumps that lose the least pagoda weight first: they keep pegs near the target,
    /// which usually finds a way there soon when there is one.
    Pagoda,
    /// A seeded random order, for attempts after an unlucky pagoda order.
    Random,
    /// The board's standard order.
    Standard,
}

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
    /// Positions expanded so far, over all attempts.
    pub expansions: u64,
    budget: u64,
    order: Order,
    rng: ChaCha8Rng,
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
            budget: u64::MAX,
            order: Order::Pagoda,
            rng: fast_stream(0, "hammer/peg/reach", 0),
        }
    }

    /// Whether the target can be reached from `pos`: one unlimited search in the pagoda
    /// order. Its work varies wildly with luck; [`reachable`] bounds that.
    pub fn from(&mut self, pos: Bits) -> bool {
        self.attempt(pos, u64::MAX, Order::Pagoda) == End::Found
    }

    /// One attempt of at most `budget` expansions. The dead positions it proves stay in
    /// the memo for the next attempts: they hold whatever the order.
    fn attempt(&mut self, pos: Bits, budget: u64, order: Order) -> End {
        if self.board.class(pos) != self.board.class(self.target) {
            return End::Dead;
        }
        self.budget = self.expansions.saturating_add(budget);
        self.order = order;
        self.search(pos, 0)
    }

    fn key(&self, pos: Bits) -> Bits {
        self.syms
            .iter()
            .map(|&g| transform(g, pos))
            .min()
            .unwrap_or(pos)
    }

    fn search(&mut self, pos: Bits, depth: usize) -> End {
        let pegs = pos.count_ones();
        if pegs <= self.target_pegs {
            return if pos == self.target {
                End::Found
            } else {
                End::Dead
            };
        }
        if self.pagodas.iter().any(|(w, t)| weight(w, pos) < *t) {
            return End::Dead;
        }
        let key = self.key(pos);
        if self.dead.contains(&key) {
            return End::Dead;
        }
        if self.expansions >= self.budget {
            return End::Cut;
        }
        self.expansions += 1;
        if self.buf.len() <= depth {
            self.buf.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buf[depth]);
        self.board.legal_jumps(pos, &mut moves);
        match (self.order, self.pagodas.first()) {
            (Order::Pagoda, Some((w, _))) => {
                let jumps = self.board.jumps();
                moves.sort_by_key(|&mv| {
                    let j = jumps[mv as usize];
                    w[j.from as usize] + w[j.over as usize] - w[j.to as usize]
                });
            }
            (Order::Standard, _) => {}
            _ => {
                for i in (1..moves.len()).rev() {
                    let j = bounded(&mut self.rng, i as u32 + 1) as usize;
                    moves.swap(i, j);
                }
            }
        }
        let mut end = End::Dead;
        for &mv in &moves {
            let j = self.board.jumps()[mv as usize];
            let next = pos ^ (1 << j.from | 1 << j.over | 1 << j.to);
            match self.search(next, depth + 1) {
                End::Dead => {}
                other => {
                    end = other;
                    break;
                }
            }
        }
        self.buf[depth] = moves;
        if end == End::Dead {
            self.dead.insert(key);
        }
        end
    }
}

/// Whether `target` can be reached from `pos` on `board`, and the positions expanded.
///
/// A lucky or unlucky move order changes the work a thousandfold here, so the search
/// runs budgeted attempts of doubling size, alternating the pagoda and a random order,
/// and alternating the problem with its dual: `pos` reaches `target` exactly when the
/// complement of `target` reaches the complement of `pos` (a jump read backwards is a
/// jump of the complement). Each side keeps its dead positions across its attempts, so
/// the last, unlimited-in-effect attempt is exact, and at most a small factor is lost.
pub fn reachable(board: &Board, pos: Bits, target: Bits) -> (bool, u64) {
    if board.class(pos) != board.class(target) || target.count_ones() > pos.count_ones() {
        return (false, 0);
    }
    let mask = board.mask();
    let mut primal = Reach::new(board, target);
    let mut dual = Reach::new(board, mask & !pos);
    let dual_start = mask & !target;
    let mut budget = 20_000u64;
    for round in 0u32.. {
        let order = [Order::Pagoda, Order::Standard, Order::Random][round as usize % 3];
        for side in 0..2 {
            let end = if side == 0 {
                primal.attempt(pos, budget, order)
            } else {
                dual.attempt(dual_start, budget, order)
            };
            match end {
                End::Found => return (true, primal.expansions + dual.expansions),
                End::Dead => return (false, primal.expansions + dual.expansions),
                End::Cut => {}
            }
        }
        budget = budget.saturating_mul(2);
    }
    (false, primal.expansions + dual.expansions)
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
/// searches expanded. Holes of another class than `pos` are skipped without a search,
/// and so are the `known` ones (a finish the solver found), which are taken as found.
pub fn finishes(board: &Board, pos: Bits, known: Bits) -> (Vec<u8>, u64) {
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
        if known >> h & 1 == 1 {
            out.push(h);
            continue;
        }
        let (found, work) = reachable(board, pos, 1 << h);
        if found {
            out.push(h);
        }
        expansions += work;
    }
    (out, expansions)
}
