//! Can a target position be reached? A depth-first search with a memo of dead positions
//! (canonical under the symmetries that fix the target), pruned by the class invariant
//! and by pagoda functions, that stops at an endgame table ([`super::endgame`]): once a
//! position has as few pegs as the table's top level, the table says exactly whether the
//! target is still reachable.
//!
//! A pagoda function gives each hole a weight `p` with `p(from) + p(over) >= p(to)` for
//! every jump, so no jump raises the total weight of the pegs: a position whose total is
//! below the target's cannot reach it. The ones used here are the Fibonacci weights
//! `F(14 - d)` where `d` is the Manhattan distance to a target peg: a jump towards it
//! spends `F(k + 2) + F(k + 1) = F(k + 2)`'s worth exactly, any other jump loses weight.
//! They cut hopeless branches near the end of a search, where targets are decided.

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashSet;

use super::Peg;
use super::board::{Bits, Board, bits, transform};
use super::endgame::Endgame;
use crate::seeded::{bounded, fast_stream, luby};

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
    /// The pagoda order blurred by seeded noise (uniformly random without a pagoda),
    /// for the restarts after the first attempt: each restart dives somewhere new but
    /// still mostly towards the target.
    Biased,
}

/// `F(0..=14)`.
const FIB: [u32; 15] = [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377];

/// The endgame table built for a target that has none cached: small, since it serves
/// one search.
const OWN_TABLE_LIMIT: usize = 1 << 12;

/// The budget unit of [`race`]'s attempts, in expansions.
const RACE_UNIT: u64 = 5_000;

/// The noise added to a jump's pagoda loss in the biased order (the weights are
/// Fibonacci numbers up to F(14) = 377): the level that took the fewest expansions on the
/// 12 one-peg problems of the European single-vacancy starts, against less noise, more,
/// and none (a uniformly random order; docs/peg.md).
const BIAS_NOISE: u32 = 200;

/// A reachability search towards one target on one board.
pub struct Reach<'a> {
    board: &'a Board,
    target: Bits,
    /// Whether the target is reachable, exactly, for positions of up to its top pegs.
    exact: Arc<Endgame>,
    /// A table for a superset of targets (every hole of the target's class), often
    /// reaching higher: a position it refuses cannot reach the target.
    filter: Option<Arc<Endgame>>,
    /// The symmetries of the board that fix the target.
    syms: Vec<u8>,
    /// Pagoda weights per hole, and the target's total under each.
    pagodas: Vec<([u32; 64], u32)>,
    dead: FxHashSet<Bits>,
    buf: Vec<Vec<u8>>,
    /// Positions expanded so far, over all attempts.
    pub expansions: u64,
    budget: u64,
    order: Order,
    rng: ChaCha8Rng,
}

impl<'a> Reach<'a> {
    /// A search towards `target` with a small endgame table of its own.
    pub fn new(board: &'a Board, target: Bits) -> Reach<'a> {
        let exact = Arc::new(Endgame::new(board, &[target], OWN_TABLE_LIMIT));
        Reach::with_tables(board, target, exact, None)
    }

    /// A search towards the lone peg on `hole`, with `peg`'s cached tables: the hole's
    /// own and its class's.
    pub fn to_hole(peg: &'a Peg, hole: u8) -> Reach<'a> {
        let board = peg.board();
        let target = 1 << hole;
        let filter = peg.class_table(board.class(target));
        Reach::with_tables(board, target, peg.hole_table(hole), filter)
    }

    fn with_tables(
        board: &'a Board,
        target: Bits,
        exact: Arc<Endgame>,
        filter: Option<Arc<Endgame>>,
    ) -> Reach<'a> {
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
        let filter = filter.filter(|f| f.top() > exact.top());
        Reach {
            board,
            target,
            exact,
            filter,
            syms,
            pagodas,
            dead: FxHashSet::default(),
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
        if pegs <= self.exact.top() {
            return if self.exact.reaches(pos) == Some(true) {
                End::Found
            } else {
                End::Dead
            };
        }
        if let Some(filter) = &self.filter
            && filter.reaches(pos) == Some(false)
        {
            return End::Dead;
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
            (Order::Biased, Some((w, _))) => {
                let jumps = self.board.jumps();
                let rng = &mut self.rng;
                let mut keyed: Vec<(u32, u8)> = moves
                    .iter()
                    .map(|&mv| {
                        let j = jumps[mv as usize];
                        let loss = w[j.from as usize] + w[j.over as usize] - w[j.to as usize];
                        (loss + bounded(rng, BIAS_NOISE), mv)
                    })
                    .collect();
                keyed.sort_unstable();
                moves.clear();
                moves.extend(keyed.iter().map(|&(_, mv)| mv));
            }
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
/// runs budgeted attempts (see [`race`]), alternating the problem with its dual: `pos`
/// reaches `target` exactly when the complement of `target` reaches the complement of
/// `pos` (a jump read backwards is a jump of the complement). Each side keeps its dead
/// positions across its attempts, and the budgets grow without end, so an answer of
/// "unreachable" is as exact as one unlimited search.
pub fn reachable(board: &Board, pos: Bits, target: Bits) -> (bool, u64) {
    if board.class(pos) != board.class(target) || target.count_ones() > pos.count_ones() {
        return (false, 0);
    }
    let mask = board.mask();
    let primal = Reach::new(board, target);
    let dual = Reach::new(board, mask & !pos);
    race(primal, pos, dual, mask & !target)
}

/// [`reachable`] for a lone peg on `hole`, with `peg`'s cached endgame tables (and the
/// start hole's own table on the dual side when `pos` has a single empty hole).
pub fn reaches_hole(peg: &Peg, pos: Bits, hole: u8) -> (bool, u64) {
    let board = peg.board();
    let target = 1 << hole;
    if board.class(pos) != board.class(target) || pos == 0 {
        return (false, 0);
    }
    let mask = board.mask();
    let vacant = mask & !pos;
    let dual = if vacant.count_ones() == 1 {
        Reach::to_hole(peg, vacant.trailing_zeros() as u8)
    } else {
        Reach::new(board, vacant)
    };
    race(Reach::to_hole(peg, hole), pos, dual, mask & !target)
}

/// Alternates budgeted attempts of `primal` from `pos` and `dual` from `dual_start`
/// until one side decides: first each side in the pagoda order, then random orders
/// with budgets by Luby's sequence. The work of one order is heavy-tailed (mirror
/// images of one problem can differ a thousandfold in expansions), and dead
/// positions carry over between attempts, so many short random attempts beat a few
/// long ones; Luby's budgets also grow without end, so the race always decides.
fn race(mut primal: Reach<'_>, pos: Bits, mut dual: Reach<'_>, dual_start: Bits) -> (bool, u64) {
    let unit = RACE_UNIT;
    for round in 0u64.. {
        let (order, budget) = if round == 0 {
            (Order::Pagoda, unit)
        } else {
            (Order::Biased, unit.saturating_mul(luby(round)))
        };
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
/// and so are the `known` ones (a finish the solver found), which are taken as found; a
/// hole that a symmetry fixing `pos` maps onto a hole already decided shares its answer.
pub fn finishes(peg: &Peg, pos: Bits, known: Bits) -> (Vec<u8>, u64) {
    let board = peg.board();
    let mut found: Bits = 0;
    let mut decided: Bits = 0;
    let mut expansions = 0;
    if pos == 0 {
        return (Vec::new(), 0);
    }
    let class = board.class(pos);
    let syms: Vec<u8> = board
        .symmetries()
        .iter()
        .copied()
        .filter(|&g| transform(g, pos) == pos)
        .collect();
    for h in bits(board.mask()) {
        if board.class(1 << h) != class {
            continue;
        }
        let images = syms.iter().fold(0, |set, &g| set | transform(g, 1 << h));
        let answer = if known & images != 0 || found & images != 0 {
            true
        } else if decided & images != 0 {
            false
        } else {
            let (reached, work) = reaches_hole(peg, pos, h);
            expansions += work;
            reached
        };
        decided |= 1 << h;
        if answer {
            found |= 1 << h;
        }
    }
    (bits(found).collect(), expansions)
}
