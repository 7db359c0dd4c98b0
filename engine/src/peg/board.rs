//! The boards: which holes exist, the jumps between them, their symmetries and the
//! position-class invariant.
//!
//! A position is a `u64` with bit `8 * row + column` set for a peg (rows and columns
//! 0..7). The grid is 7x7 inside an 8x8 word so that the board's eight symmetries are a
//! handful of word operations (byte swap, bit reversal, a diagonal flip) instead of a
//! loop over the holes: the canonical fingerprint computes all of them per successor.

use std::fmt;

/// The grid side: boards live in a 7x7 grid.
pub const SIDE: usize = 7;

/// A set of holes or pegs: bit `8 * row + column`.
pub type Bits = u64;

/// The bit of hole `(row, column)`.
#[inline]
pub const fn bit(row: usize, col: usize) -> Bits {
    1 << (row * 8 + col)
}

/// Which board: the two of the spec, or a hole mask of the 7x7 grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// The 33-hole cross.
    English,
    /// The 37-hole board.
    European,
    /// Any other set of holes of the grid.
    Custom(Bits),
}

/// One jump: the peg on `from` passes over `over` into the empty `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    /// The hole the peg jumps from.
    pub from: u8,
    /// The hole of the peg jumped over and removed.
    pub over: u8,
    /// The empty hole the peg lands in.
    pub to: u8,
}

/// Directions in the standard move order (up, left, right, down) as (row, column) steps.
const DIRS: [(i32, i32); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];

/// A board with everything the rules and the search precompute for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    kind: BoardKind,
    mask: Bits,
    /// Jumps in standard order: by `from` hole row-major, then up, left, right, down.
    jumps: Vec<Jump>,
    /// `index[d][from]`: the index in `jumps` of the jump from `from` in direction `d`.
    index: [[u8; 64]; 4],
    /// `starts[d]`: holes from which a jump in direction `d` stays on the board.
    starts: [Bits; 4],
    /// The symmetries (numbers 0..8, see [`transform`]) that map the mask to itself.
    syms: Vec<u8>,
    /// The colour classes: `colours[k][i]` holds the holes of colour `i` in colouring `k`
    /// (`(r + c) mod 3` and `(r - c) mod 3`).
    colours: [[Bits; 3]; 2],
    /// `class_min[class]`: the fewest pegs of any position of that class on this board.
    class_min: [u8; 16],
}

/// The English cross: `|r - 3| <= 1 or |c - 3| <= 1`.
pub const ENGLISH_MASK: Bits = english_mask();
/// The English holes plus b2, f2, b6 and f6.
pub const EUROPEAN_MASK: Bits = ENGLISH_MASK | bit(1, 1) | bit(1, 5) | bit(5, 1) | bit(5, 5);

const fn english_mask() -> Bits {
    let mut mask = 0;
    let mut r = 0;
    while r < SIDE {
        let mut c = 0;
        while c < SIDE {
            if r.abs_diff(3) <= 1 || c.abs_diff(3) <= 1 {
                mask |= bit(r, c);
            }
            c += 1;
        }
        r += 1;
    }
    mask
}

/// The 7x7 grid itself: every bit a hole may use.
pub const GRID: Bits = 0x007f_7f7f_7f7f_7f7f;

impl BoardKind {
    /// The holes of the board, as bits of the 7x7 grid.
    pub fn mask(self) -> Bits {
        match self {
            BoardKind::English => ENGLISH_MASK,
            BoardKind::European => EUROPEAN_MASK,
            BoardKind::Custom(mask) => mask,
        }
    }
}

impl fmt::Display for BoardKind {
    /// `english`, `european`, or the mask notation of a custom board.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardKind::English => f.write_str("english"),
            BoardKind::European => f.write_str("european"),
            BoardKind::Custom(mask) => f.write_str(&super::notation::mask_text(*mask)),
        }
    }
}

impl Board {
    /// The 33-hole English board.
    pub fn english() -> Board {
        Board::new(BoardKind::English)
    }

    /// The 37-hole European board.
    pub fn european() -> Board {
        Board::new(BoardKind::European)
    }

    /// The board of `kind`. A custom mask is cut to the 7x7 grid.
    pub fn new(kind: BoardKind) -> Board {
        let kind = match kind {
            BoardKind::Custom(m) if m & GRID == ENGLISH_MASK => BoardKind::English,
            BoardKind::Custom(m) if m & GRID == EUROPEAN_MASK => BoardKind::European,
            BoardKind::Custom(m) => BoardKind::Custom(m & GRID),
            other => other,
        };
        let mask = kind.mask();
        let mut starts = [0; 4];
        let mut jumps = Vec::new();
        let mut index = [[u8::MAX; 64]; 4];
        for from in bits(mask) {
            let (r, c) = ((from / 8) as i32, (from % 8) as i32);
            for (d, (dr, dc)) in DIRS.into_iter().enumerate() {
                let (r1, c1, r2, c2) = (r + dr, c + dc, r + 2 * dr, c + 2 * dc);
                let inside =
                    |r: i32, c: i32| (0..SIDE as i32).contains(&r) && (0..SIDE as i32).contains(&c);
                if !inside(r2, c2) {
                    continue;
                }
                let (over, to) = ((r1 * 8 + c1) as u8, (r2 * 8 + c2) as u8);
                if mask >> over & 1 == 1 && mask >> to & 1 == 1 {
                    starts[d] |= 1 << from;
                    index[d][from as usize] = jumps.len() as u8;
                    jumps.push(Jump { from, over, to });
                }
            }
        }
        let syms = (0..8u8).filter(|&g| transform(g, mask) == mask).collect();
        let mut colours = [[0; 3]; 2];
        for h in bits(mask) {
            let (r, c) = ((h / 8) as usize, (h % 8) as usize);
            colours[0][(r + c) % 3] |= 1 << h;
            colours[1][(r + 6 - c) % 3] |= 1 << h;
        }
        let mut board = Board {
            kind,
            mask,
            jumps,
            index,
            starts,
            syms,
            colours,
            class_min: [u8::MAX; 16],
        };
        board.class_min = board.class_minima();
        board
    }

    /// The fewest pegs of each class's non-empty positions, found by trying every set of
    /// 1 to 4 holes (every class that has a position has one of at most 4 pegs: two per
    /// colouring suffice). The empty board is left out: no jump empties the board, so
    /// the class of the empty board (which holds starts such as the European centre)
    /// has a floor of 2, not 0.
    fn class_minima(&self) -> [u8; 16] {
        let holes: Vec<u8> = bits(self.mask).collect();
        // A class with no position of 1 to 4 pegs has none of fewer than 5.
        let mut min = [5u8; 16];
        let mut visit = |set: Bits, k: u8| {
            let c = self.class(set);
            min[c] = min[c].min(k);
        };
        for (i, &a) in holes.iter().enumerate() {
            visit(1 << a, 1);
            for (j, &b) in holes.iter().enumerate().skip(i + 1) {
                visit(1 << a | 1 << b, 2);
                for (k, &c) in holes.iter().enumerate().skip(j + 1) {
                    visit(1 << a | 1 << b | 1 << c, 3);
                    for &d in &holes[k + 1..] {
                        visit(1 << a | 1 << b | 1 << c | 1 << d, 4);
                    }
                }
            }
        }
        min
    }

    /// Which board this is.
    pub fn kind(&self) -> BoardKind {
        self.kind
    }

    /// The holes.
    pub fn mask(&self) -> Bits {
        self.mask
    }

    /// The number of holes.
    pub fn holes(&self) -> u32 {
        self.mask.count_ones()
    }

    /// Every jump of the board, in standard order.
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// The index of the jump `from -> to`, if the board has it.
    pub fn jump_index(&self, from: u8, to: u8) -> Option<u8> {
        let d = match to as i32 - from as i32 {
            -16 => 0,
            -2 => 1,
            2 => 2,
            16 => 3,
            _ => return None,
        };
        let i = *self.index[d].get(from as usize)?;
        (i != u8::MAX).then_some(i)
    }

    /// The symmetries of the board (numbers for [`transform`]); 0 is the identity.
    pub fn symmetries(&self) -> &[u8] {
        &self.syms
    }

    /// The board with only the symmetries that also fix `pos`. Everything reachable from
    /// `pos` is mapped onto reachable positions by them (and only by them, in general),
    /// so counting modulo these symmetries counts the reachable positions exactly.
    pub fn fixing(&self, pos: Bits) -> Board {
        let mut board = self.clone();
        board.syms.retain(|&g| transform(g, pos) == pos);
        board
    }

    /// The legal jumps of `pos`, as a set of `from` holes per direction.
    #[inline]
    pub fn legal_froms(&self, pos: Bits) -> [Bits; 4] {
        let empty = self.mask & !pos;
        [
            self.starts[0] & pos & (pos << 8) & (empty << 16),
            self.starts[1] & pos & (pos << 1) & (empty << 2),
            self.starts[2] & pos & (pos >> 1) & (empty >> 2),
            self.starts[3] & pos & (pos >> 8) & (empty >> 16),
        ]
    }

    /// Pushes the indices of the legal jumps of `pos` in standard order.
    #[inline]
    pub fn legal_jumps(&self, pos: Bits, out: &mut Vec<u8>) {
        out.clear();
        let l = self.legal_froms(pos);
        for from in bits(l[0] | l[1] | l[2] | l[3]) {
            for (d, set) in l.iter().enumerate() {
                if set >> from & 1 == 1 {
                    out.push(self.index[d][from as usize]);
                }
            }
        }
    }

    /// The position class of `pos` (0..16): per colouring, the parities of the three
    /// colours' peg counts up to flipping all three, as two bits. Jumps keep it.
    #[inline]
    pub fn class(&self, pos: Bits) -> usize {
        let mut class = 0;
        for (k, colours) in self.colours.iter().enumerate() {
            let p = |i: usize| (pos & colours[i]).count_ones() as usize & 1;
            let (p0, p1, p2) = (p(0), p(1), p(2));
            class |= ((p1 ^ p0) | (p2 ^ p0) << 1) << (2 * k);
        }
        class
    }

    /// The fewest pegs of any non-empty position of `pos`'s class: no sequence of jumps
    /// from a non-empty `pos` leaves fewer.
    #[inline]
    pub fn class_floor(&self, pos: Bits) -> u32 {
        u32::from(self.class_min[self.class(pos)])
    }

    /// The fewest pegs of any non-empty position of class `class` (5 stands for "5 or
    /// more").
    #[inline]
    pub fn class_floor_of(&self, class: usize) -> u32 {
        u32::from(self.class_min[class & 15])
    }

    /// The least image of `pos` under the board's symmetries.
    #[inline]
    pub fn canonical(&self, pos: Bits) -> Bits {
        if self.syms.len() == 8 {
            // Every symmetry: the four images of pos and of its transpose.
            let t = transpose(pos);
            let a = pos.min(mirror(pos)).min(flip(pos)).min(rotate_half(pos));
            let b = t.min(mirror(t)).min(flip(t)).min(rotate_half(t));
            a.min(b)
        } else {
            self.syms
                .iter()
                .map(|&g| transform(g, pos))
                .min()
                .unwrap_or(pos)
        }
    }

    /// How many distinct positions the images of `pos` under the symmetries are.
    pub fn orbit_size(&self, pos: Bits) -> u64 {
        let mut images = [0; 8];
        let mut len = 0;
        for &g in &self.syms {
            let image = transform(g, pos);
            if !images[..len].contains(&image) {
                images[len] = image;
                len += 1;
            }
        }
        len as u64
    }
}

/// The set bits of `set`, lowest first.
#[inline]
pub fn bits(mut set: Bits) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let b = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(b)
    })
}

/// Row `r` to `6 - r`.
#[inline]
pub fn flip(x: Bits) -> Bits {
    x.swap_bytes() >> 8
}

/// Column `c` to `6 - c`.
#[inline]
pub fn mirror(x: Bits) -> Bits {
    x.reverse_bits().swap_bytes() >> 1
}

/// Both: the half turn.
#[inline]
pub fn rotate_half(x: Bits) -> Bits {
    x.reverse_bits() >> 9
}

/// `(r, c)` to `(c, r)`: the flip about the main diagonal, by three delta swaps.
#[inline]
pub fn transpose(mut x: Bits) -> Bits {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// Symmetry `g` (0..8) of the 7x7 grid: transpose if bit 2, then mirror the columns if
/// bit 0, then flip the rows if bit 1. 0 is the identity.
#[inline]
pub fn transform(g: u8, x: Bits) -> Bits {
    let x = if g & 4 != 0 { transpose(x) } else { x };
    let x = if g & 1 != 0 { mirror(x) } else { x };
    if g & 2 != 0 { flip(x) } else { x }
}
