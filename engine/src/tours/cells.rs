//! Sets of cells of a 16x16 grid as 256-bit masks: cell `(r, c)` is bit `16 r + c`.
//!
//! Every board of side `n <= 16` sits in the top-left corner of the grid. A fixed row
//! stride of 16 makes the four neighbour shifts plain bit shifts (by 1 and by 16), so a
//! flood fill or a neighbour count costs a few word operations per step, whatever `n`.

use std::ops::{BitAnd, BitOr, Not};

/// The grid's side: the largest board.
pub const GRID: u8 = 16;

/// Cells in column 0 of every row, per 64-bit word (four rows of 16 bits a word).
const COL0: u64 = 0x0001_0001_0001_0001;
/// Cells in column 15.
const COL15: u64 = 0x8000_8000_8000_8000;

/// A set of cells of the 16x16 grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cells(pub [u64; 4]);

impl Cells {
    /// The set of no cell.
    pub const EMPTY: Cells = Cells([0; 4]);
    /// Every cell of the grid.
    pub const ALL: Cells = Cells([u64::MAX; 4]);

    /// The one-cell set of grid cell `i`.
    #[inline]
    pub const fn single(i: u8) -> Cells {
        let mut w = [0u64; 4];
        w[(i >> 6) as usize] = 1 << (i & 63);
        Cells(w)
    }

    /// Whether grid cell `i` is in the set.
    #[inline]
    pub fn has(self, i: u8) -> bool {
        self.0[(i >> 6) as usize] >> (i & 63) & 1 == 1
    }

    /// The set with grid cell `i` added.
    #[inline]
    pub fn with(mut self, i: u8) -> Cells {
        self.0[(i >> 6) as usize] |= 1 << (i & 63);
        self
    }

    /// The number of cells in the set.
    #[inline]
    pub fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set has no cell.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }

    /// The lowest cell of the set.
    #[inline]
    pub fn first(self) -> Option<u8> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(k, w)| (k as u32 * 64 + w.trailing_zeros()) as u8)
    }

    /// The cells in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut rest = self;
        std::iter::from_fn(move || {
            let i = rest.first()?;
            rest.0[(i >> 6) as usize] &= !(1 << (i & 63));
            Some(i)
        })
    }

    #[inline]
    fn shl(self, k: u32) -> Cells {
        let w = self.0;
        Cells([
            w[0] << k,
            w[1] << k | w[0] >> (64 - k),
            w[2] << k | w[1] >> (64 - k),
            w[3] << k | w[2] >> (64 - k),
        ])
    }

    #[inline]
    fn shr(self, k: u32) -> Cells {
        let w = self.0;
        Cells([
            w[0] >> k | w[1] << (64 - k),
            w[1] >> k | w[2] << (64 - k),
            w[2] >> k | w[3] << (64 - k),
            w[3] >> k,
        ])
    }

    #[inline]
    fn mask(self, m: u64) -> Cells {
        Cells(self.0.map(|w| w & !m))
    }

    /// The cells whose lower neighbour is in the set (the set moved one row up).
    #[inline]
    pub fn up(self) -> Cells {
        self.shr(16)
    }

    /// The cells whose upper neighbour is in the set.
    #[inline]
    pub fn down(self) -> Cells {
        self.shl(16)
    }

    /// The cells whose right neighbour is in the set.
    #[inline]
    pub fn left(self) -> Cells {
        self.shr(1).mask(COL15)
    }

    /// The cells whose left neighbour is in the set.
    #[inline]
    pub fn right(self) -> Cells {
        self.shl(1).mask(COL0)
    }

    /// The cells next to at least one cell of the set.
    #[inline]
    pub fn neighbours(self) -> Cells {
        self.up() | self.down() | self.left() | self.right()
    }

    /// The cells with at least two neighbours in the set.
    #[inline]
    pub fn two_neighbours(self) -> Cells {
        let (a, b, c, d) = (self.up(), self.down(), self.left(), self.right());
        (a & b) | (c & d) | ((a | b) & (c | d))
    }

    /// The connected part of `within` (orthogonal steps) that contains `self`'s cells
    /// in `within`.
    pub fn flood(self, within: Cells) -> Cells {
        let mut x = self & within;
        loop {
            let y = (x | x.neighbours()) & within;
            if y == x {
                return x;
            }
            x = y;
        }
    }
}

impl BitAnd for Cells {
    type Output = Cells;
    #[inline]
    fn bitand(self, o: Cells) -> Cells {
        Cells([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }
}

impl BitOr for Cells {
    type Output = Cells;
    #[inline]
    fn bitor(self, o: Cells) -> Cells {
        Cells([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }
}

impl Not for Cells {
    type Output = Cells;
    #[inline]
    fn not(self) -> Cells {
        Cells(self.0.map(|w| !w))
    }
}

/// The grid cells `(r, c)` with `r + c` even (a chessboard colouring).
pub const BLACK: Cells = {
    let mut w = [0u64; 4];
    let mut i = 0;
    while i < 256 {
        if (i / 16 + i % 16) % 2 == 0 {
            w[i / 64] |= 1 << (i % 64);
        }
        i += 1;
    }
    Cells(w)
};

#[cfg(test)]
mod tests {
    use super::*;

    fn at(r: u8, c: u8) -> u8 {
        r * 16 + c
    }

    #[test]
    fn shifts_move_one_step_and_stop_at_the_grid_edge() {
        let x = Cells::single(at(3, 0)) | Cells::single(at(3, 15)) | Cells::single(at(0, 5));
        assert_eq!(
            x.left().iter().collect::<Vec<_>>(),
            vec![at(0, 4), at(3, 14)]
        );
        assert_eq!(
            x.right().iter().collect::<Vec<_>>(),
            vec![at(0, 6), at(3, 1)]
        );
        assert_eq!(x.up().iter().collect::<Vec<_>>(), vec![at(2, 0), at(2, 15)]);
        let bottom = Cells::single(at(15, 15));
        assert!(bottom.down().is_empty());
        assert_eq!(bottom.up().first(), Some(at(14, 15)));
        // Word boundaries: row 3 -> row 4 crosses from word 0 to word 1.
        assert_eq!(Cells::single(at(3, 7)).down().first(), Some(at(4, 7)));
        assert_eq!(Cells::single(at(4, 7)).up().first(), Some(at(3, 7)));
    }

    #[test]
    fn flood_stays_in_its_component() {
        // Two cells of row 0 separated by a missing cell.
        let within = Cells::single(at(0, 0)) | Cells::single(at(0, 1)) | Cells::single(at(0, 3));
        let comp = Cells::single(at(0, 0)).flood(within);
        assert_eq!(comp.count(), 2);
        assert!(!comp.has(at(0, 3)));
    }

    #[test]
    fn black_is_a_chessboard() {
        assert!(BLACK.has(at(0, 0)) && !BLACK.has(at(0, 1)) && BLACK.has(at(1, 1)));
        assert_eq!(BLACK.count(), 128);
    }
}
