//! A board: its side and obstacles; the spec's notation and cell numbers; and the
//! checks of a path of cells against rules 1 to 3 of `shared/spec/machinarium.md`.

use std::fmt;

use super::cells::{Cells, GRID};
use super::{State, ToursError};

/// The largest board side of the spec.
pub const MAX_N: u8 = 16;

/// A square board of side `n` with obstacles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    n: u8,
    obstacles: Cells,
}

/// A direction, in the spec's order: the order of the neighbours' cell numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Towards row 1.
    Up,
    /// Towards column 1.
    Left,
    /// Towards the last column.
    Right,
    /// Towards the last row.
    Down,
}

impl Dir {
    pub(crate) const ALL: [Dir; 4] = [Dir::Up, Dir::Left, Dir::Right, Dir::Down];

    /// The grid cell next to `i` in this direction, if the 16x16 grid has one.
    #[inline]
    pub fn step(self, i: u8) -> Option<u8> {
        let (r, c) = (i / GRID, i % GRID);
        match self {
            Dir::Up => (r > 0).then(|| i - GRID),
            Dir::Left => (c > 0).then(|| i - 1),
            Dir::Right => (c + 1 < GRID).then(|| i + 1),
            Dir::Down => (r + 1 < GRID).then(|| i + GRID),
        }
    }

    /// The direction from grid cell `a` to its neighbour `b`.
    pub fn between(a: u8, b: u8) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.step(a) == Some(b))
    }

    /// The one-letter name: `U`, `L`, `R`, `D`.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Left => 'L',
            Dir::Right => 'R',
            Dir::Down => 'D',
        }
    }

    /// Reads `U`, `L`, `R`, `D` (either case) or `up`, `left`, `right`, `down`.
    pub fn parse(text: &str) -> Option<Dir> {
        match text.to_ascii_lowercase().as_str() {
            "u" | "up" => Some(Dir::Up),
            "l" | "left" => Some(Dir::Left),
            "r" | "right" => Some(Dir::Right),
            "d" | "down" => Some(Dir::Down),
            _ => None,
        }
    }
}

impl Board {
    /// An `n x n` board with obstacles at the given cell numbers (`1..=n*n`): each must
    /// be on the board and listed once, and a cell must stay free.
    pub fn new(n: u8, obstacles: &[u32]) -> Result<Board, ToursError> {
        if n == 0 || n > MAX_N {
            return Err(ToursError::Size(u32::from(n)));
        }
        let mut board = Board {
            n,
            obstacles: Cells::EMPTY,
        };
        for &k in obstacles {
            let i = board.index(k).ok_or(ToursError::CellRange {
                cell: k.to_string(),
                cells: board.cells(),
            })?;
            if board.obstacles.has(i) {
                return Err(ToursError::Repeated(k));
            }
            board.obstacles = board.obstacles.with(i);
        }
        if board.free().is_empty() {
            return Err(ToursError::NoFreeCell);
        }
        Ok(board)
    }

    /// Reads the spec's notation: rows top to bottom joined by `/`, `.` free, `#`
    /// obstacle, each row `n` characters for `n` rows.
    pub fn parse(text: &str) -> Result<Board, ToursError> {
        if text.is_empty() {
            return Err(ToursError::Empty);
        }
        let rows: Vec<&str> = text.split('/').collect();
        let n = rows.len();
        if n > usize::from(MAX_N) {
            return Err(ToursError::TooLarge);
        }
        let mut obstacles = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len != n {
                return Err(ToursError::RowLength {
                    row: r + 1,
                    len,
                    expected: n,
                });
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '.' => {}
                    '#' => obstacles.push((r * n + c + 1) as u32),
                    other => return Err(ToursError::Character(other)),
                }
            }
        }
        Board::new(n as u8, &obstacles)
    }

    /// The board side.
    pub fn n(&self) -> u8 {
        self.n
    }

    /// Cells of the board, `n * n`.
    pub fn cells(&self) -> u32 {
        u32::from(self.n) * u32::from(self.n)
    }

    /// The obstacle cells.
    pub fn obstacles(&self) -> Cells {
        self.obstacles
    }

    /// The grid cells of the board.
    pub fn inside(&self) -> Cells {
        let row: u64 = (1u64 << self.n) - 1;
        let mut w = [0u64; 4];
        for r in 0..self.n as usize {
            w[r / 4] |= row << (16 * (r % 4));
        }
        Cells(w)
    }

    /// The free cells.
    pub fn free(&self) -> Cells {
        self.inside() & !self.obstacles
    }

    /// The grid cell of cell number `k` (`1..=n*n`).
    pub fn index(&self, k: u32) -> Option<u8> {
        if k == 0 || k > self.cells() {
            return None;
        }
        let (r, c) = ((k - 1) / u32::from(self.n), (k - 1) % u32::from(self.n));
        Some((r * u32::from(GRID) + c) as u8)
    }

    /// The cell number of grid cell `i`.
    pub fn number(&self, i: u8) -> u32 {
        u32::from(i / GRID) * u32::from(self.n) + u32::from(i % GRID) + 1
    }

    /// The state before the first move: every cell off the board or on an obstacle is
    /// blocked, and no token is placed.
    pub fn start(&self) -> State {
        State {
            blocked: !self.free(),
            token: None,
        }
    }

    /// The grid cells of a path of cell numbers, each checked to be on the board.
    pub fn indices(&self, path: &[u32]) -> Result<Vec<u8>, ToursError> {
        path.iter()
            .map(|&k| {
                self.index(k).ok_or(ToursError::CellRange {
                    cell: k.to_string(),
                    cells: self.cells(),
                })
            })
            .collect()
    }

    /// Checks a path of grid cells against rules 1 to 3 (no obstacle, no revisit,
    /// neighbour steps, no early turn) and returns the state it leaves, with the token
    /// on its last cell and the direction it arrived in (`None` for a single cell).
    pub fn walk(&self, path: &[u8]) -> Result<(State, Option<Dir>), ToursError> {
        let illegal = ToursError::Illegal;
        if path.is_empty() {
            return Err(illegal("empty path".to_string()));
        }
        let mut blocked = !self.free();
        let mut arrived: Option<Dir> = None;
        for (i, &cell) in path.iter().enumerate() {
            if self.obstacles.has(cell) {
                return Err(illegal(format!(
                    "cell {} is an obstacle",
                    self.number(cell)
                )));
            }
            if blocked.has(cell) {
                return Err(illegal(format!(
                    "cell {} is visited twice",
                    self.number(cell)
                )));
            }
            if i > 0 {
                let prev = path[i - 1];
                let bad = || {
                    illegal(format!(
                        "step {} -> {} breaks the rules",
                        self.number(prev),
                        self.number(cell)
                    ))
                };
                let dir = Dir::between(prev, cell).ok_or_else(bad)?;
                if let Some(before) = arrived
                    && before != dir
                    && before.step(prev).is_some_and(|ahead| !blocked.has(ahead))
                {
                    return Err(bad());
                }
                arrived = Some(dir);
            }
            blocked = blocked.with(cell);
        }
        Ok((
            State {
                blocked,
                token: path.last().copied(),
            },
            arrived,
        ))
    }

    /// The cells the token may step to after `path` (a legal partial tour): only the
    /// cell straight ahead when it is free and unvisited, else every free unvisited
    /// neighbour; in increasing order.
    pub fn next_cells(&self, path: &[u8]) -> Result<Vec<u8>, ToursError> {
        let (state, arrived) = self.walk(path)?;
        let token = state.token.unwrap_or(0);
        let open = |i: &u8| !state.blocked.has(*i);
        if let Some(ahead) = arrived.and_then(|d| d.step(token)).filter(open) {
            return Ok(vec![ahead]);
        }
        let mut next: Vec<u8> = Dir::ALL
            .iter()
            .filter_map(|d| d.step(token))
            .filter(open)
            .collect();
        next.sort_unstable();
        Ok(next)
    }

    /// Whether `path` is a complete tour: legal and visiting every free cell.
    pub fn is_tour(&self, path: &[u8]) -> bool {
        self.walk(path)
            .is_ok_and(|(state, _)| (!state.blocked).is_empty())
    }
}

impl fmt::Display for Board {
    /// The spec's notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.n {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..self.n {
                let blocked = self.obstacles.has(r * GRID + c);
                f.write_str(if blocked { "#" } else { "." })?;
            }
        }
        Ok(())
    }
}
