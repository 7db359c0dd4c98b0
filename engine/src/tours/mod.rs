//! Machinarium slide tours: a token visits every free cell of a square board exactly
//! once, sliding straight until the border, an obstacle or a visited cell stops it.
//!
//! The contract is `shared/spec/machinarium.md` (described in `docs/tours.md`). A state
//! is the set of blocked cells (off the board, obstacles and visited cells behave alike
//! under the rules) and the token's cell, so one [`Tours`] value serves every board and
//! the score, free cells not yet visited, is the number of unblocked grid cells. The
//! first move places the token (and visits its cell); every later move is a slide.

pub mod board;
pub mod cells;
pub mod count;

pub use board::{Board, Dir, MAX_N};
pub use cells::{BLACK, Cells, GRID};
pub use count::{TourCount, count_tours};

use crate::mix::mix64;
use crate::seeded::{bounded, stream};
use crate::{Countable, Puzzle};

/// Why a board, cell or path was refused. The messages follow the spec's rejected
/// inputs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToursError {
    /// The board text is empty.
    #[error("board must be a non-empty string")]
    Empty,
    /// A row whose length differs from the number of rows.
    #[error("row {row} has {len} cells, expected {expected} (board must be square)")]
    RowLength {
        /// The row, from 1.
        row: usize,
        /// Cells in the row.
        len: usize,
        /// Cells every row must have.
        expected: usize,
    },
    /// A character other than `.` and `#` in the board text.
    #[error("bad character '{0}' (use '.' and '#')")]
    Character(char),
    /// The board has more than 16 rows.
    #[error("board larger than 16x16")]
    TooLarge,
    /// A board side out of range.
    #[error("board side {0} is outside 1..=16")]
    Size(u32),
    /// Every cell of the board is an obstacle.
    #[error("board has no free cell")]
    NoFreeCell,
    /// A cell number beyond the board.
    #[error("cell {cell} out of range 1..{cells}")]
    CellRange {
        /// The cell as written.
        cell: String,
        /// Cells of the board.
        cells: u32,
    },
    /// An obstacle cell given twice.
    #[error("obstacle {0} is listed twice")]
    Repeated(u32),
    /// A path that breaks the slide rules.
    #[error("path is not a legal partial tour: {0}")]
    Illegal(String),
}

/// A position: the blocked grid cells and the token's cell (`None` before the first
/// move). The free cells not yet visited are exactly the unblocked ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Cells the token may not enter: obstacles and cells already visited.
    pub blocked: Cells,
    /// The token's cell, once placed.
    pub token: Option<u8>,
}

impl State {
    /// Free cells not yet visited.
    #[inline]
    pub fn open(&self) -> Cells {
        !self.blocked
    }

    /// The state after `step`, pushing the cells it visits onto `visited`.
    pub fn walk(&self, step: Step, visited: &mut Vec<u8>) -> State {
        match step {
            Step::Place(c) => {
                visited.push(c);
                State {
                    blocked: self.blocked.with(c),
                    token: Some(c),
                }
            }
            Step::Slide(d) => {
                let mut blocked = self.blocked;
                let mut at = self.token.unwrap_or(0);
                while let Some(next) = d.step(at).filter(|&i| !blocked.has(i)) {
                    blocked = blocked.with(next);
                    visited.push(next);
                    at = next;
                }
                State {
                    blocked,
                    token: Some(at),
                }
            }
        }
    }
}

/// A move: place the token on a grid cell (the first move), or slide it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Put the token on this cell.
    Place(u8),
    /// Slide the token this way as far as it goes.
    Slide(Dir),
}

/// The rules as a [`Puzzle`]; the board travels in the state.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tours;

impl Puzzle for Tours {
    type State = State;
    type Move = Step;
    type Features = crate::NoFeatures;

    /// Before the first move every free cell in increasing order (so start cells
    /// ascend); then the slides up, left, right, down whose first cell is open. A
    /// search in this order meets tours in the spec's tour order.
    fn moves(&self, state: &State, out: &mut Vec<Step>) {
        out.clear();
        match state.token {
            None => out.extend(state.open().iter().map(Step::Place)),
            Some(t) => out.extend(
                Dir::ALL
                    .into_iter()
                    .filter(|d| d.step(t).is_some_and(|i| !state.blocked.has(i)))
                    .map(Step::Slide),
            ),
        }
    }

    fn apply(&self, state: &State, mv: Step) -> State {
        match mv {
            Step::Place(c) => State {
                blocked: state.blocked.with(c),
                token: Some(c),
            },
            Step::Slide(d) => {
                let mut blocked = state.blocked;
                let mut at = state.token.unwrap_or(0);
                while let Some(next) = d.step(at).filter(|&i| !blocked.has(i)) {
                    blocked = blocked.with(next);
                    at = next;
                }
                State {
                    blocked,
                    token: Some(at),
                }
            }
        }
    }

    #[inline]
    fn score(&self, state: &State) -> u32 {
        state.open().count()
    }

    fn lower_bound(&self, state: &State) -> u32 {
        lower_bound(state)
    }

    /// Both halves depend on every word and the token: the memo picks a state's bucket
    /// from the high half, and boards above 8x8 differ in the upper words too.
    fn fingerprint(&self, state: &State) -> u128 {
        let w = state.blocked.0;
        let t = state.token.map_or(0x1ff, u64::from);
        let a = mix64(w[3] ^ mix64(w[2] ^ mix64(w[1] ^ mix64(w[0] ^ mix64(t)))));
        let b = mix64(w[0] ^ mix64(w[1] ^ mix64(w[2] ^ mix64(w[3] ^ mix64(t ^ 0x5bd1_e995)))));
        u128::from(a) << 64 | u128::from(b)
    }
}

impl Countable for Tours {
    fn state_key(&self, state: &State) -> u128 {
        self.fingerprint(state)
    }

    fn class_size(&self, _state: &State) -> u64 {
        1
    }
}

/// The fewest free cells that must stay unvisited from `state`: a sound lower bound
/// (it never exceeds the best reachable score).
///
/// The cells still to be visited form a path through open cells, starting next to the
/// token (anywhere before the first move), so they lie in one connected part `C` of the
/// open cells. In `C` a path alternates chessboard colours, so it covers at most twice
/// the smaller colour count plus one (and when it must start next to the token, on the
/// colour opposite the token's); and a cell of `C` with at most one open neighbour can
/// only be an end of the path: the last cell, or the first when it is next to the
/// token (before the first move, either end). The bound is the smallest, over the parts
/// the path may enter, of the open cells outside the part plus the part's cells no path
/// can cover.
pub fn lower_bound(state: &State) -> u32 {
    let open = state.open();
    let total = open.count();
    let dead = open & !open.two_neighbours();
    let (mut rest, starts) = match state.token {
        None => (open, None),
        Some(t) => {
            let adj = Cells::single(t).neighbours() & open;
            (adj, Some(adj))
        }
    };
    let mut best = total;
    while let Some(c) = rest.first() {
        let part = Cells::single(c).flood(open);
        rest = rest & !part;
        best = best.min(total - coverable(part, dead & part, starts.map(|s| s & part)));
        if best == 0 {
            break;
        }
    }
    best
}

/// The most cells of `part` one path can visit, by colour parity and dead ends;
/// `starts`: the cells the path must start on (next to the token), or anywhere.
fn coverable(part: Cells, dead: Cells, starts: Option<Cells>) -> u32 {
    let size = part.count();
    let black = (part & BLACK).count();
    let white = size - black;
    let (parity, ends) = match starts {
        None => (2 * black.min(white) + u32::from(black != white), 2),
        Some(starts) => {
            // Every start has the colour opposite the token: count that colour first.
            let first_black = !(starts & BLACK).is_empty();
            let (first, other) = if first_black {
                (black, white)
            } else {
                (white, black)
            };
            let parity = if first > other {
                2 * other + 1
            } else {
                2 * first
            };
            (parity, 1 + u32::from(!(dead & starts).is_empty()))
        }
    };
    let ends = size - dead.count().saturating_sub(ends);
    size.min(parity).min(ends)
}

/// The label of the seeded random obstacle streams.
pub const OBSTACLES_LABEL: &str = "hammer/tours/obstacles";

/// `k` obstacles at seeded random cells among `candidates` (grid cells): a partial
/// Fisher-Yates shuffle of the candidates in increasing order, drawn from the ChaCha20
/// stream labelled [`OBSTACLES_LABEL`] at stream `n << 48 | k << 40 | index`.
/// `index` must be below 2^40 and `k` at most the candidates.
pub fn seeded_obstacles(candidates: Cells, n: u8, seed: u64, k: u32, index: u64) -> Cells {
    let mut cells: Vec<u8> = candidates.iter().collect();
    let stream_no = u64::from(n) << 48 | u64::from(k) << 40 | index;
    let mut rng = stream(seed, OBSTACLES_LABEL, stream_no);
    let k = (k as usize).min(cells.len());
    for i in 0..k {
        let j = i + bounded(&mut rng, (cells.len() - i) as u32) as usize;
        cells.swap(i, j);
    }
    cells[..k].iter().fold(Cells::EMPTY, |m, &c| m.with(c))
}

/// The `index`-th set of `k` cells among `candidates` in lexicographic order of the
/// sorted cell lists (index 0: the first `k` candidates), or `None` past the last.
pub fn placement(candidates: Cells, k: u32, index: u64) -> Option<Cells> {
    let cells: Vec<u8> = candidates.iter().collect();
    let m = cells.len() as u64;
    let k = u64::from(k);
    if k > m {
        return None;
    }
    let mut rest = index;
    let mut out = Cells::EMPTY;
    let mut from = 0u64;
    for left in (1..=k).rev() {
        // Choose the smallest next cell whose block of combinations holds `rest`.
        loop {
            if from + left > m {
                return None;
            }
            let block = binomial(m - from - 1, left - 1)?;
            if rest < block {
                break;
            }
            rest -= block;
            from += 1;
        }
        out = out.with(cells[from as usize]);
        from += 1;
    }
    (rest == 0).then_some(out)
}

/// `n choose k`, or `None` when it does not fit 64 bits.
pub fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut acc: u128 = 1;
    for i in 0..k {
        acc = acc * u128::from(n - i) / u128::from(i + 1);
        if acc > u128::from(u64::MAX) {
            return None;
        }
    }
    Some(acc as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_enumerate_every_combination_in_order() {
        let cand = Board::new(3, &[]).unwrap().free();
        let all: Vec<Vec<u8>> = (0..binomial(9, 2).unwrap())
            .map(|i| placement(cand, 2, i).unwrap().iter().collect())
            .collect();
        assert_eq!(all.len(), 36);
        assert_eq!(all[0], vec![0, 1]);
        assert_eq!(all[35], vec![33, 34]);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, all);
        assert_eq!(placement(cand, 2, 36), None);
        assert_eq!(placement(cand, 0, 0), Some(Cells::EMPTY));
    }

    #[test]
    fn one_free_cell_has_the_one_cell_tour() {
        let board = Board::parse(".").unwrap();
        let s = board.start();
        assert_eq!(Tours.score(&s), 1);
        assert_eq!(Tours.lower_bound(&s), 0);
        let mut moves = Vec::new();
        Tours.moves(&s, &mut moves);
        assert_eq!(moves, vec![Step::Place(0)]);
        assert_eq!(Tours.score(&Tours.apply(&s, moves[0])), 0);
    }

    #[test]
    fn parity_bounds_a_two_by_two_with_a_corner_blocked_diagonal() {
        // `.#/#.`: two free cells in different parts; one must stay unvisited.
        let board = Board::parse(".#/#.").unwrap();
        assert_eq!(lower_bound(&board.start()), 1);
        // 3x3 with the centre-edge cells blocked around a corner: colours 3 vs 1.
        let board = Board::parse("..#/.#./#..").unwrap();
        assert!(lower_bound(&board.start()) >= 1);
    }
}
