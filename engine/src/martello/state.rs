use super::moves::Move;

/// The largest board side the engine supports: 8 x 8 = 64 stones fit one `u64` mask.
pub const MAX_N: u8 = 8;

/// A stone: id `colour * n + symbol`, both 0-based. Written `A1` for colour 0, symbol 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Stone(pub u8);

impl Stone {
    /// The stone's colour, from 0, on a board of side `n`.
    pub fn colour(self, n: u8) -> u8 {
        self.0 / n
    }

    pub(crate) fn symbol(self, n: u8) -> u8 {
        self.0 % n
    }

    /// Two stones may eat each other when they share their colour or their symbol.
    pub fn compatible(self, other: Stone, n: u8) -> bool {
        self.colour(n) == other.colour(n) || self.symbol(n) == other.symbol(n)
    }

    /// The two-character token of the spec, such as `A1` or `F6`.
    pub fn token(self, n: u8) -> [char; 2] {
        [
            (b'A' + self.colour(n)) as char,
            (b'1' + self.symbol(n)) as char,
        ]
    }

    /// The token as a string, such as `A1`.
    pub fn to_string(self, n: u8) -> String {
        self.token(n).iter().collect()
    }
}

/// A normalized Martello state.
///
/// `rows[r]` holds row `r`'s stones left to right, one per byte from the low byte up,
/// each as stone id + 1; the first zero byte ends the row. `present` mirrors the set of
/// stones on the board, which is all the component bound needs.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) rows: [u64; MAX_N as usize],
    pub(crate) present: u64,
    pub(crate) n: u8,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "State({self})")
    }
}

#[inline]
pub(crate) fn row_len(word: u64) -> usize {
    (64 - word.leading_zeros() as usize).div_ceil(8)
}

#[inline]
pub(crate) fn byte_at(word: u64, pos: usize) -> u8 {
    (word >> (8 * pos)) as u8
}

/// Removes the byte at `pos` and shifts the later ones down: the row closes up.
#[inline]
pub(crate) fn remove_at(word: u64, pos: usize) -> u64 {
    let low_mask = (1u64 << (8 * pos)) - 1;
    let low = word & low_mask;
    let high = if pos >= 7 {
        0
    } else {
        (word >> (8 * (pos + 1))) << (8 * pos)
    };
    low | high
}

/// Inserts `byte` at `pos` and shifts the later bytes up: the row opens a place.
#[inline]
pub(crate) fn insert_at(word: u64, pos: usize, byte: u8) -> u64 {
    let low = word & ((1u64 << (8 * pos)) - 1);
    let high = (word >> (8 * pos))
        .checked_shl(8 * (pos as u32 + 1))
        .unwrap_or(0);
    low | u64::from(byte) << (8 * pos) | high
}

/// `word` with `byte` inserted at `pos`, if the row has room for one more stone of an
/// `n`-stone row and `pos` is within it or just past its end.
fn insert_within(word: u64, pos: u8, byte: u8, n: u8) -> Option<u64> {
    let len = row_len(word);
    (usize::from(pos) <= len && len < usize::from(n)).then(|| insert_at(word, pos.into(), byte))
}

/// The state before the move whose [`crate::Puzzle::undo_code`] is `code` and that led
/// to `child`, and that move; `None` when the code does not fit `child` (the eaten stone
/// is on the board, the eater is not where the move would leave it, or a row has no
/// room for the stone put back).
pub(crate) fn undo(child: &State, code: u32) -> Option<(State, Move)> {
    let field = |shift: u32, bits: u32| (code >> shift & ((1 << bits) - 1)) as u8;
    let (eater, eaten) = (Stone(field(0, 6)), Stone(field(6, 6)));
    let (xr, xp, yp) = (field(12, 3), field(15, 3), field(18, 3));
    let n = child.n;
    if code >> 21 != 0 || eaten.0 >= n * n || xr >= n || child.present >> eaten.0 & 1 == 1 {
        return None;
    }
    // The eater stands where the eaten stone stood, one place to the left of it when it
    // came from there along the row (the row closed up behind it).
    let (yr, at) = child.locate(eater)?;
    let horizontal = usize::from(xr) == yr;
    let expected = if horizontal && xp < yp { yp - 1 } else { yp };
    if at != usize::from(expected) || (horizontal && xp.abs_diff(yp) != 1) {
        return None;
    }
    let mut parent = *child;
    if horizontal {
        parent.rows[yr] = insert_within(child.rows[yr], yp, eaten.0 + 1, n)?;
    } else {
        let from = usize::from(xr);
        parent.rows[from] = insert_within(child.rows[from], xp, eater.0 + 1, n)?;
        parent.rows[yr] = set_at(child.rows[yr], usize::from(yp), eaten.0 + 1);
    }
    parent.present |= 1u64 << eaten.0;
    let mv = Move {
        eater,
        eaten,
        eater_row: xr,
        eater_pos: xp,
        eaten_row: yr as u8,
        eaten_pos: yp,
    };
    Some((parent, mv))
}

#[inline]
pub(crate) fn set_at(word: u64, pos: usize, byte: u8) -> u64 {
    (word & !(0xffu64 << (8 * pos))) | ((byte as u64) << (8 * pos))
}

impl State {
    /// A state from its rows of stones. The caller guarantees the invariants the
    /// parser checks (unique stones of this board, rows no longer than `n`).
    pub(crate) fn from_rows(n: u8, rows: &[Vec<Stone>]) -> State {
        let mut state = State {
            rows: [0; MAX_N as usize],
            present: 0,
            n,
        };
        for (r, row) in rows.iter().enumerate() {
            for (i, stone) in row.iter().enumerate() {
                state.rows[r] = set_at(state.rows[r], i, stone.0 + 1);
                state.present |= 1u64 << stone.0;
            }
        }
        state
    }

    /// The start position whose cells, in row-major order, hold `stones`.
    ///
    /// Returns `None` unless `stones` is a permutation of the `n * n` stones.
    pub fn from_permutation(n: u8, stones: &[u8]) -> Option<State> {
        if n == 0 || n > MAX_N || stones.len() != (n as usize) * (n as usize) {
            return None;
        }
        let mut seen = 0u64;
        for &s in stones {
            if s as usize >= stones.len() || seen & (1u64 << s) != 0 {
                return None;
            }
            seen |= 1u64 << s;
        }
        let rows: Vec<Vec<Stone>> = stones
            .chunks(n as usize)
            .map(|row| row.iter().map(|&s| Stone(s)).collect())
            .collect();
        Some(State::from_rows(n, &rows))
    }

    /// The board side.
    pub fn n(&self) -> u8 {
        self.n
    }

    /// Bit `s` is set when stone `s` is on the board.
    pub fn present(&self) -> u64 {
        self.present
    }

    /// Stones on the board: the score.
    pub fn stone_count(&self) -> u32 {
        self.present.count_ones()
    }

    /// Whether every row holds `n` stones, as in a start position.
    pub fn is_full(&self) -> bool {
        self.stone_count() == (self.n as u32) * (self.n as u32)
    }

    pub(crate) fn row_len(&self, r: usize) -> usize {
        row_len(self.rows[r])
    }

    /// The stones of row `r`, left to right.
    pub fn row(&self, r: usize) -> impl Iterator<Item = Stone> + '_ {
        let word = self.rows[r];
        (0..row_len(word)).map(move |i| Stone(byte_at(word, i) - 1))
    }

    /// Row and list position of `stone`, if it is on the board.
    pub fn locate(&self, stone: Stone) -> Option<(usize, usize)> {
        if self.present & (1u64 << stone.0) == 0 {
            return None;
        }
        for r in 0..self.n as usize {
            let word = self.rows[r];
            for i in 0..row_len(word) {
                if byte_at(word, i) == stone.0 + 1 {
                    return Some((r, i));
                }
            }
        }
        None
    }

    /// The state after `mv`: the eaten stone leaves, the eater takes its place in its
    /// row list and the eater's old place closes up.
    #[inline]
    pub fn apply(&self, mv: Move) -> State {
        let mut next = *self;
        let (xr, xp, yr, yp) = (
            mv.eater_row as usize,
            mv.eater_pos as usize,
            mv.eaten_row as usize,
            mv.eaten_pos as usize,
        );
        if xr == yr {
            next.rows[yr] = remove_at(self.rows[yr], yp);
        } else {
            next.rows[yr] = set_at(self.rows[yr], yp, mv.eater.0 + 1);
            next.rows[xr] = remove_at(self.rows[xr], xp);
        }
        next.present &= !(1u64 << mv.eaten.0);
        next
    }

    /// The 128-bit fingerprint: the XOR over rows of [`row_hash`]. A move changes at
    /// most two rows, so a successor's fingerprint costs two or four row hashes
    /// ([`State::child_fingerprint`]) instead of hashing the whole board.
    #[inline]
    pub fn fingerprint(&self) -> u128 {
        let mut fp = 0u128;
        for r in 0..self.n as usize {
            fp ^= row_hash(r, self.rows[r]);
        }
        fp
    }

    /// The fingerprint of `child = self.apply(mv)`, given `self`'s fingerprint.
    #[inline]
    pub fn child_fingerprint(&self, fp: u128, mv: Move, child: &State) -> u128 {
        let (xr, yr) = (mv.eater_row as usize, mv.eaten_row as usize);
        let mut fp = fp ^ row_hash(yr, self.rows[yr]) ^ row_hash(yr, child.rows[yr]);
        if xr != yr {
            fp ^= row_hash(xr, self.rows[xr]) ^ row_hash(xr, child.rows[xr]);
        }
        fp
    }
}

/// Per-row keys of the two fingerprint lanes (splitmix64 outputs).
const KEYS_A: [u64; 8] = [
    0xe220a8397b1dcdaf,
    0x6e789e6aa1b965f4,
    0x06c45d188009454f,
    0xf88bb8a8724c81ec,
    0x1b39896a51a8749b,
    0x53cb9f0c747ea2ea,
    0x2c829abe1f4532e1,
    0xc584133ac916ab3c,
];
const KEYS_B: [u64; 8] = [
    0x3ee5789041c98ac3,
    0xf3b8488c368cb0a6,
    0x657eecdd3cb13d09,
    0xc2d326e0055bdef6,
    0x8621a03fe0523ff3,
    0x5a7d6d8f8f4b6b34,
    0x3b2a4b4e8f0a1c5d,
    0x9d1b1c3e5f6a7b8c,
];

/// A 128-bit hash of row `r` holding `word`: two 64-bit lanes, each a different
/// bijective finalizer (MurmurHash3's fmix64 and Evensen's rrmxmx) of the word keyed
/// by the row. XORed over rows it is a Zobrist-style fingerprint.
#[inline(always)]
pub(crate) fn row_hash(r: usize, word: u64) -> u128 {
    let mut a = word ^ KEYS_A[r & 7];
    a ^= a >> 33;
    a = a.wrapping_mul(0xff51_afd7_ed55_8ccd);
    a ^= a >> 33;
    a = a.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    a ^= a >> 33;
    let mut b = word ^ KEYS_B[r & 7];
    b ^= b.rotate_right(49) ^ b.rotate_right(24);
    b = b.wrapping_mul(0x9fb2_1c65_1e98_df25);
    b ^= b >> 28;
    b = b.wrapping_mul(0x9fb2_1c65_1e98_df25);
    b ^= b >> 28;
    ((a as u128) << 64) | b as u128
}
