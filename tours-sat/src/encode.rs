//! The CNF model of a tour, after the seed's constraint model (a cell per step, steps
//! between neighbours, every cell once, straight on unless blocked), in plain clauses.
//!
//! Variables (DIMACS numbering from 1):
//! - `x(t, c)`: free cell number `c` (an index into the free cells) is visited at step
//!   `t`, for `t, c` in `0..F`;
//! - `v(t, c)`: cell `c` is visited at some step `<= t` (a prefix OR of the `x`);
//! - the auxiliary variables of the at-most-one constraints.
//!
//! Clauses:
//! 1. every step has exactly one cell and every cell exactly one step (sequential-counter
//!    at-most-one, linear in size, plus one at-least-one clause each);
//! 2. `x(t, c) -> OR x(t + 1, d)` over the free neighbours `d` of `c`;
//! 3. `v` is the prefix OR of `x`;
//! 4. straight on unless blocked: for `x(t - 1, a)` and `x(t, b)` with `b` one step from
//!    `a` in direction `D`, and `e` the cell one step further in `D`, free: `x(t + 1, e)`
//!    or `v(t - 1, e)`. When `e` is off the board or an obstacle there is no clause.
//!    This is rule 3 of the spec by contraposition: a turn at `b` is allowed exactly when
//!    `e` is blocked or visited; otherwise the next cell must be `e`.

use crate::board::Board;

/// A CNF formula of a board's tours, with the map back from a model to a tour.
pub struct Encoding {
    /// The free cells; index `c` is cell `cells[c]` of the board.
    pub cells: Vec<u32>,
    pub clauses: Vec<Vec<i32>>,
    pub variables: i32,
}

impl Encoding {
    /// The model of `board`'s tours; with `start`, of the tours from that cell (which
    /// must be free).
    pub fn new(board: &Board, start: Option<u32>) -> Encoding {
        let cells = board.free_cells();
        let f = cells.len();
        let mut e = Encoding {
            cells,
            clauses: Vec::new(),
            variables: 2 * (f * f) as i32,
        };
        let index_of = |cells: &[u32], k: u32| cells.binary_search(&k).ok();
        let neighbours: Vec<Vec<usize>> = e
            .cells
            .iter()
            .map(|&k| {
                (0..4)
                    .filter_map(|d| board.step(k, d))
                    .filter_map(|n| index_of(&e.cells, n))
                    .collect()
            })
            .collect();
        for t in 0..f {
            let row: Vec<i32> = (0..f).map(|c| e.x(t, c)).collect();
            e.exactly_one(&row);
        }
        for c in 0..f {
            let column: Vec<i32> = (0..f).map(|t| e.x(t, c)).collect();
            e.exactly_one(&column);
        }
        for t in 0..f.saturating_sub(1) {
            for (c, ns) in neighbours.iter().enumerate() {
                let mut clause = vec![-e.x(t, c)];
                clause.extend(ns.iter().map(|&d| e.x(t + 1, d)));
                e.clauses.push(clause);
            }
        }
        e.prefix_or(f);
        e.straight_on(board, f);
        if let Some(k) = start
            && let Some(c) = index_of(&e.cells, k)
        {
            e.clauses.push(vec![e.x(0, c)]);
        }
        e
    }

    fn x(&self, t: usize, c: usize) -> i32 {
        (t * self.cells.len() + c + 1) as i32
    }

    fn v(&self, t: usize, c: usize) -> i32 {
        let f = self.cells.len();
        (f * f + t * f + c + 1) as i32
    }

    fn fresh(&mut self) -> i32 {
        self.variables += 1;
        self.variables
    }

    /// At least one, and at most one by a sequential counter: `s_i` says one of the first
    /// `i + 1` literals is true.
    fn exactly_one(&mut self, lits: &[i32]) {
        self.clauses.push(lits.to_vec());
        if lits.len() < 2 {
            return;
        }
        let s: Vec<i32> = (0..lits.len() - 1).map(|_| self.fresh()).collect();
        for i in 0..lits.len() {
            if i < s.len() {
                self.clauses.push(vec![-lits[i], s[i]]);
            }
            if i > 0 {
                if i < s.len() {
                    self.clauses.push(vec![-s[i - 1], s[i]]);
                }
                self.clauses.push(vec![-lits[i], -s[i - 1]]);
            }
        }
    }

    /// `v(t, c) <-> v(t - 1, c) or x(t, c)`, with `v(-1, c)` false.
    fn prefix_or(&mut self, f: usize) {
        for t in 0..f {
            for c in 0..f {
                let (v, x) = (self.v(t, c), self.x(t, c));
                self.clauses.push(vec![-x, v]);
                if t == 0 {
                    self.clauses.push(vec![-v, x]);
                } else {
                    let before = self.v(t - 1, c);
                    self.clauses.push(vec![-before, v]);
                    self.clauses.push(vec![-v, before, x]);
                }
            }
        }
    }

    /// Rule 3: see the module comment.
    fn straight_on(&mut self, board: &Board, f: usize) {
        for t in 1..f.saturating_sub(1) {
            for a in 0..f {
                for d in 0..4 {
                    let Some(b) = board.step(self.cells[a], d) else {
                        continue;
                    };
                    let Some(beyond) = board.step(b, d) else {
                        continue;
                    };
                    let (Ok(b), Ok(e)) = (
                        self.cells.binary_search(&b),
                        self.cells.binary_search(&beyond),
                    ) else {
                        continue;
                    };
                    self.clauses.push(vec![
                        -self.x(t - 1, a),
                        -self.x(t, b),
                        self.x(t + 1, e),
                        self.v(t - 1, e),
                    ]);
                }
            }
        }
    }

    /// The tour a model describes (cell numbers by step).
    pub fn tour(&self, model: &[i32]) -> Vec<u32> {
        let f = self.cells.len();
        let truth = |var: i32| model.get(var as usize - 1).is_some_and(|&l| l > 0);
        (0..f)
            .map(|t| {
                (0..f)
                    .find(|&c| truth(self.x(t, c)))
                    .map_or(0, |c| self.cells[c])
            })
            .collect()
    }

    /// The clause that forbids exactly this tour again.
    pub fn block(&self, tour: &[u32]) -> Vec<i32> {
        tour.iter()
            .enumerate()
            .filter_map(|(t, k)| self.cells.binary_search(k).ok().map(|c| -self.x(t, c)))
            .collect()
    }
}
