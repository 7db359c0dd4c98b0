//! The board: an `m x n` rectangle of at most 64 cells, one bit per cell (bit `i` is
//! cell number `i + 1`, row by row from the top left), and the shifts that move a whole
//! set of cells one step in a direction without wrapping across a row end.

use super::ClobberError;

/// The most cells a board may have: a position is two 64-bit masks.
pub const MAX_CELLS: u32 = 64;

/// A set of cells, bit `i` for cell number `i + 1`.
pub type Cells = u64;

/// An `m x n` board with the masks its shifts need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    m: u8,
    n: u8,
    /// Every cell of the board.
    all: Cells,
    /// The cells with a left neighbour (column > 0).
    has_left: Cells,
    /// The cells with a right neighbour (column < n - 1).
    has_right: Cells,
    /// The cells whose chessboard colour is black: row + column even.
    black_squares: Cells,
}

/// `x >> k`, 0 when `k` is 64 (a `1 x 64` board has no vertical neighbours).
#[inline]
fn shr(x: Cells, k: u32) -> Cells {
    x.checked_shr(k).unwrap_or(0)
}

/// `x << k`, 0 when `k` is 64.
#[inline]
fn shl(x: Cells, k: u32) -> Cells {
    x.checked_shl(k).unwrap_or(0)
}

impl Board {
    /// An `m x n` board: `m, n >= 1` and `m * n <= 64`.
    pub fn new(m: u32, n: u32) -> Result<Board, ClobberError> {
        if m == 0 || n == 0 {
            return Err(ClobberError::Shape { m, n });
        }
        if u64::from(m) * u64::from(n) > u64::from(MAX_CELLS) {
            return Err(ClobberError::TooLarge {
                m: m as usize,
                n: n as usize,
            });
        }
        let cells = m * n;
        let all = if cells == 64 { !0 } else { (1u64 << cells) - 1 };
        let (mut has_left, mut has_right, mut black_squares) = (0, 0, 0);
        for i in 0..cells {
            let (r, c) = (i / n, i % n);
            if c > 0 {
                has_left |= 1 << i;
            }
            if c + 1 < n {
                has_right |= 1 << i;
            }
            if (r + c) % 2 == 0 {
                black_squares |= 1 << i;
            }
        }
        Ok(Board {
            m: m as u8,
            n: n as u8,
            all,
            has_left,
            has_right,
            black_squares,
        })
    }

    /// Rows.
    #[inline]
    pub fn m(&self) -> u32 {
        u32::from(self.m)
    }

    /// Columns.
    #[inline]
    pub fn n(&self) -> u32 {
        u32::from(self.n)
    }

    /// Cells, `m * n`.
    #[inline]
    pub fn cells(&self) -> u32 {
        self.m() * self.n()
    }

    /// Every cell of the board.
    #[inline]
    pub fn all(&self) -> Cells {
        self.all
    }

    /// The cells whose chessboard colour is black (row + column even): where a black
    /// stone is matching and a white one clashing.
    #[inline]
    pub fn black_squares(&self) -> Cells {
        self.black_squares
    }

    /// The cells whose upper neighbour is in `s`.
    #[inline]
    pub fn below(&self, s: Cells) -> Cells {
        shl(s, self.n()) & self.all
    }

    /// The cells whose lower neighbour is in `s`.
    #[inline]
    pub fn above(&self, s: Cells) -> Cells {
        shr(s, self.n())
    }

    /// The cells whose left neighbour is in `s`.
    #[inline]
    pub fn right_of(&self, s: Cells) -> Cells {
        (s << 1) & self.has_left
    }

    /// The cells whose right neighbour is in `s`.
    #[inline]
    pub fn left_of(&self, s: Cells) -> Cells {
        (s >> 1) & self.has_right
    }

    /// The cells with a neighbour in `s`.
    #[inline]
    pub fn neighbours(&self, s: Cells) -> Cells {
        self.above(s) | self.below(s) | self.left_of(s) | self.right_of(s)
    }

    /// The connected part of `within` that holds `seed` (a subset of `within`).
    #[inline]
    pub fn flood(&self, seed: Cells, within: Cells) -> Cells {
        let mut part = seed;
        loop {
            let grown = (part | self.neighbours(part)) & within;
            if grown == part {
                return part;
            }
            part = grown;
        }
    }

    /// Whether cells `a` and `b` (bit indices) share a side.
    pub fn adjacent(&self, a: u8, b: u8) -> bool {
        let (a, b) = (u32::from(a), u32::from(b));
        let (ra, ca) = (a / self.n(), a % self.n());
        let (rb, cb) = (b / self.n(), b % self.n());
        ra.abs_diff(rb) + ca.abs_diff(cb) == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_do_not_wrap_across_row_ends() {
        let b = Board::new(2, 3).unwrap();
        // Cell 3 (bit 2) ends the top row: cell 4 (bit 3) is not its right neighbour.
        assert_eq!(b.right_of(1 << 2), 0);
        assert_eq!(b.left_of(1 << 3), 0);
        assert_eq!(b.below(1 << 2), 1 << 5);
        assert_eq!(b.above(1 << 5), 1 << 2);
        assert_eq!(b.below(1 << 5), 0);
        assert_eq!(b.neighbours(1 << 4), 0b10_1010);
    }

    #[test]
    fn extreme_shapes_have_only_their_neighbours() {
        let row = Board::new(1, 64).unwrap();
        assert_eq!(row.all(), !0);
        assert_eq!(row.neighbours(1), 2);
        assert_eq!(row.neighbours(1 << 63), 1 << 62);
        let column = Board::new(64, 1).unwrap();
        assert_eq!(column.neighbours(1 << 5), 1 << 4 | 1 << 6);
        assert!(column.adjacent(5, 6));
        assert!(!Board::new(2, 3).unwrap().adjacent(2, 3));
        assert_eq!(Board::new(8, 9), Err(ClobberError::TooLarge { m: 8, n: 9 }));
    }

    #[test]
    fn flood_follows_sides_only() {
        let b = Board::new(3, 3).unwrap();
        // The diagonal 1, 5, 9 is three parts.
        let diag = 1 | 1 << 4 | 1 << 8;
        assert_eq!(b.flood(1, diag), 1);
        assert_eq!(b.flood(1, diag | 2), 1 | 2 | 1 << 4);
    }
}
