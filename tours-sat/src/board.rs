//! The board and the tour rules, written from `shared/spec/machinarium.md` without any of
//! hammer's engine code, so that the cross-check compares two independent readings of the
//! spec.

/// Why a board text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The text is empty.
    #[error("board must be a non-empty string")]
    Empty,
    /// A row's length differs from the number of rows.
    #[error("row {row} has {len} cells, expected {expected} (board must be square)")]
    NotSquare {
        /// The row, from 1.
        row: usize,
        /// Its cells.
        len: usize,
        /// The number of rows.
        expected: usize,
    },
    /// A character other than `.` and `#` in a row.
    #[error("bad character {0:?} (use '.' and '#')")]
    BadCharacter(char),
    /// More rows than the spec allows.
    #[error("board larger than 16x16")]
    TooLarge,
    /// Every cell is an obstacle.
    #[error("board has no free cell")]
    NoFreeCell,
    /// The requested start is off the board or an obstacle.
    #[error("start cell {cell} is not a free cell of the board (1..{cells})")]
    BadStart {
        /// The requested cell.
        cell: u32,
        /// The board's number of cells.
        cells: u32,
    },
}

/// A square board: `n x n` cells numbered `1..=n*n` row by row, each free or an obstacle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    n: usize,
    /// `free[k - 1]` for cell `k`.
    free: Vec<bool>,
}

/// The four directions as (row, column) steps: up, left, right, down.
pub(crate) const DIRECTIONS: [(isize, isize); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];

impl Board {
    /// Reads the spec's notation: rows top to bottom joined by `/`, `.` free, `#` obstacle.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        if text.is_empty() {
            return Err(BoardError::Empty);
        }
        let rows: Vec<&str> = text.split('/').collect();
        let n = rows.len();
        let mut free = Vec::with_capacity(n * n);
        for (i, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len != n {
                return Err(BoardError::NotSquare {
                    row: i + 1,
                    len,
                    expected: n,
                });
            }
            for c in row.chars() {
                free.push(match c {
                    '.' => true,
                    '#' => false,
                    other => return Err(BoardError::BadCharacter(other)),
                });
            }
        }
        if n > 16 {
            return Err(BoardError::TooLarge);
        }
        if !free.contains(&true) {
            return Err(BoardError::NoFreeCell);
        }
        Ok(Board { n, free })
    }

    /// The side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Whether cell `k` (1-based) exists and is free.
    pub fn is_free(&self, k: u32) -> bool {
        k >= 1 && self.free.get(k as usize - 1).copied().unwrap_or(false)
    }

    /// The free cells, increasing.
    pub fn free_cells(&self) -> Vec<u32> {
        (1..=self.free.len() as u32)
            .filter(|&k| self.is_free(k))
            .collect()
    }

    /// The cell one step from `k` in direction `d` (an index into [`DIRECTIONS`]), if it
    /// is on the board (free or not).
    pub(crate) fn step(&self, k: u32, d: usize) -> Option<u32> {
        let n = self.n as isize;
        let (r, c) = ((k as isize - 1) / n, (k as isize - 1) % n);
        let (dr, dc) = DIRECTIONS[d];
        let (r, c) = (r + dr, c + dc);
        (0..n)
            .contains(&r)
            .then_some(())
            .filter(|_| (0..n).contains(&c))
            .map(|_| (r * n + c + 1) as u32)
    }

    /// The direction from `a` to its orthogonal neighbour `b`, if they are neighbours.
    pub(crate) fn direction(&self, a: u32, b: u32) -> Option<usize> {
        (0..4).find(|&d| self.step(a, d) == Some(b))
    }
}

/// The spec's `check`: is `path` a complete tour of `board`? Every free cell exactly once,
/// orthogonal steps, and a turn only where the cell beyond, in the direction of arrival,
/// is off the board, an obstacle or already visited.
pub fn check(board: &Board, path: &[u32]) -> bool {
    let free = board.free_cells();
    if path.len() != free.len() {
        return false;
    }
    let mut seen = vec![false; board.n * board.n + 1];
    for &k in path {
        if !board.is_free(k) || seen[k as usize] {
            return false;
        }
        seen[k as usize] = true;
    }
    let mut visited = vec![false; board.n * board.n + 1];
    for (i, &k) in path.iter().enumerate() {
        visited[k as usize] = true;
        let Some(&next) = path.get(i + 1) else {
            break;
        };
        let Some(out) = board.direction(k, next) else {
            return false;
        };
        if i == 0 {
            continue;
        }
        let Some(arrival) = board.direction(path[i - 1], k) else {
            return false;
        };
        if out != arrival {
            let beyond = board.step(k, arrival);
            let blocked = beyond.is_none_or(|b| !board.is_free(b) || visited[b as usize]);
            if !blocked {
                return false;
            }
        }
    }
    true
}
