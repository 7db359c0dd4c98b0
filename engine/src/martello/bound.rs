//! The lower bound: components, within zones.
//!
//! Stones only ever interact with stones that share their colour or their symbol, and
//! the eater survives every move. So each connected component of the "shares a colour
//! or a symbol" graph of the stones on the board keeps at least one stone forever: the
//! number of components is a sound lower bound on the minimum stone count.
//!
//! Seen as a bipartite graph, each stone is an edge between its colour and its symbol,
//! and the components of stones are the components of that graph with at least one
//! edge. With at most 8 colours and 8 symbols this is a few mask operations.
//!
//! Position adds a second, independent reason. A row never gains a stone once it is
//! empty (a stone enters a row only by eating one there), and no move reaches over two
//! rows. So two neighbouring empty rows cut the board for good into zones whose stones
//! never meet, and the bound is the sum over zones of their components.

/// `rows[c]`: the symbols of colour `c` among `stones` (bit s for stone (c, s)).
///
/// Two colours are linked when their rows share a symbol, and the stones of one colour
/// are linked through it, so components of stones are components of this small graph
/// on at most 8 colours. The functions below take the board side as a constant so
/// that their loops unroll into a few branch-free mask operations.
#[inline(always)]
fn colour_rows<const N: usize>(stones: u64) -> [u8; 8] {
    let block = (1u64 << N) - 1;
    let mut rows = [0u8; 8];
    for (c, row) in rows.iter_mut().enumerate().take(N) {
        *row = ((stones >> (c * N)) & block) as u8;
    }
    rows
}

/// The symbols and colours reachable from the symbols `symbols`, stopping early once a
/// symbol of `target` is reached.
#[inline(always)]
fn reach<const N: usize>(rows: &[u8; 8], mut symbols: u8, target: u8) -> (u8, u8) {
    loop {
        let mut next = symbols;
        let mut colours = 0u8;
        for (c, &row) in rows.iter().enumerate().take(N) {
            let hit = (row & next != 0) as u8;
            next |= row & hit.wrapping_neg();
            colours |= hit << c;
        }
        if next == symbols || next & target != 0 {
            return (next, colours);
        }
        symbols = next;
    }
}

fn components_n<const N: usize>(present: u64) -> u32 {
    let rows = colour_rows::<N>(present);
    let mut rest = 0u8;
    for (c, &row) in rows.iter().enumerate().take(N) {
        rest |= ((row != 0) as u8) << c;
    }
    let mut count = 0;
    while rest != 0 {
        count += 1;
        let c = rest.trailing_zeros() as usize;
        rest &= !reach::<N>(&rows, rows[c & 7], 0).1;
    }
    count
}

pub(crate) fn splits_n<const N: usize>(present: u64, stone: u8) -> bool {
    let (c, s) = (stone as usize / N, stone as usize % N);
    let rows = colour_rows::<N>(present & !(1u64 << stone));
    let all_symbols = rows.iter().fold(0, |acc, &row| acc | row);
    let own = rows[c & 7];
    // A pendant edge (colour c or symbol s has no other stone) splits nothing.
    if own == 0 || all_symbols >> s & 1 == 0 {
        return false;
    }
    let target = 1u8 << s;
    reach::<N>(&rows, own, target).0 & target == 0
}

/// Calls `$f::<n>($args)` with the board side as a constant.
macro_rules! by_side {
    ($n:expr, $f:ident($($arg:expr),*)) => {
        match $n {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*),
            5 => $f::<5>($($arg),*),
            6 => $f::<6>($($arg),*),
            7 => $f::<7>($($arg),*),
            _ => $f::<8>($($arg),*),
        }
    };
}

/// Number of connected components among the stones in `present` on an `n` x `n` board.
#[inline]
pub(crate) fn components(present: u64, n: u8) -> u32 {
    by_side!(n, components_n(present))
}

use super::state::{State, byte_at, row_len};

/// Whether rows `r` and `r + 1` are both empty somewhere: the board has several zones.
#[inline]
pub(crate) fn has_cut(state: &State) -> bool {
    let n = state.n as usize;
    (0..n.saturating_sub(1)).any(|r| state.rows[r] == 0 && state.rows[r + 1] == 0)
}

/// The stones of the rows `from..to`.
pub(crate) fn stones_of_rows(state: &State, from: usize, to: usize) -> u64 {
    let mut stones = 0u64;
    for r in from..to {
        let word = state.rows[r];
        for i in 0..row_len(word) {
            stones |= 1u64 << (byte_at(word, i) - 1);
        }
    }
    stones
}

/// The bound of one zone, rows `from..to` of `rows`: its components.
pub(crate) fn zone_bound(rows: &[u64; 8], from: usize, to: usize, n: u8) -> u32 {
    let mut stones = 0u64;
    for &word in &rows[from..to] {
        for i in 0..row_len(word) {
            stones |= 1u64 << (byte_at(word, i) - 1);
        }
    }
    components(stones, n)
}

/// Calls `f(from, to)` for each zone of the rows `from..to`: the runs of rows between
/// pairs of empty rows.
#[inline]
pub(crate) fn for_each_zone(
    rows: &[u64; 8],
    from: usize,
    to: usize,
    mut f: impl FnMut(usize, usize),
) {
    let mut start = from;
    let mut r = from;
    while r < to {
        if r + 1 < to && rows[r] == 0 && rows[r + 1] == 0 {
            if start < r {
                f(start, r);
            }
            while r < to && rows[r] == 0 {
                r += 1;
            }
            start = r;
        } else {
            r += 1;
        }
    }
    if start < to {
        f(start, to);
    }
}

/// The sum of the zone bounds of the rows `from..to`, which share no zone with rows
/// outside them.
pub(crate) fn range_bound(rows: &[u64; 8], from: usize, to: usize, n: u8) -> u32 {
    let mut total = 0;
    for_each_zone(rows, from, to, |a, b| total += zone_bound(rows, a, b, n));
    total
}

/// The lower bound of a state: the sum over zones of their bounds.
pub(crate) fn lower_bound(state: &State) -> u32 {
    if !has_cut(state) {
        return components(state.present, state.n);
    }
    range_bound(&state.rows, 0, state.n as usize, state.n)
}

/// Whether eating `stone` splits its component, given that it has a partner (the
/// eater) in `present`.
///
/// The stone is the edge (colour c, symbol s) of the bipartite graph. Removing one edge
/// splits at most one component, into exactly two when the edge was a bridge between
/// two parts that keep stones. So the child's component count is the parent's plus
/// one exactly when this returns true, and the search never recounts from scratch.
///
/// A pendant edge (the only stone of its colour or of its symbol) never splits
/// anything. Otherwise grow from colour c's other symbols, colour by colour, until
/// symbol s is reached (no split) or nothing grows (a split).
#[cfg(test)]
pub(crate) fn splits(present: u64, n: u8, stone: super::Stone) -> bool {
    by_side!(n, splits_n(present, stone.0))
}

#[cfg(test)]
mod tests {
    use super::components;

    #[test]
    fn full_board_is_one_component() {
        for n in 1..=8u8 {
            let all = if n == 8 {
                u64::MAX
            } else {
                (1u64 << (n * n)) - 1
            };
            assert_eq!(components(all, n), 1, "n = {n}");
        }
    }

    #[test]
    fn splits_agrees_with_recounting() {
        // Every 3x3 stone set and stone with a partner; random 5x5, 6x6 and 8x8 sets.
        use super::super::Stone;
        let check = |present: u64, n: u8| {
            for s in 0..(n * n) {
                let alone = components(present & !(1u64 << s), n) + 1 == components(present, n);
                if present >> s & 1 == 0 || alone {
                    continue;
                }
                let after = components(present & !(1u64 << s), n);
                let expected = after == components(present, n) + 1;
                assert_eq!(
                    super::splits(present, n, Stone(s)),
                    expected,
                    "n {n}, set {present:#x}, stone {s}"
                );
            }
        };
        for present in 0..(1u64 << 9) {
            check(present, 3);
        }
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            check(x & ((1u64 << 25) - 1) & (x >> 20), 5);
            check(x & ((1u64 << 36) - 1), 6);
            check(x & (x >> 3), 8);
        }
    }

    #[test]
    fn two_empty_rows_cut_the_board() {
        use super::super::State;
        // A1 and A2 share colour A but can never meet across two empty rows.
        let cut = State::parse("A1///A2").unwrap();
        assert_eq!(super::lower_bound(&cut), 2);
        // One empty row between them can be jumped.
        let jump = State::parse("A1//A2/").unwrap();
        assert_eq!(super::lower_bound(&jump), 1);
        let zones = |text: &str| {
            let state = State::parse(text).unwrap();
            let mut zones = Vec::new();
            super::for_each_zone(&state.rows, 0, state.n as usize, |a, b| zones.push((a, b)));
            zones
        };
        assert_eq!(zones("A1B1//C1/D1/"), [(0, 5)]);
        assert_eq!(zones("A1B1///C1D2/E5/"), [(0, 1), (3, 6)]);
        assert_eq!(zones("///A1"), [(3, 4)]);
    }

    /// Components counted the plain way: stones linked when they share a colour or a
    /// symbol, grown one stone at a time.
    fn naive_components(present: u64, n: u8) -> u32 {
        let mut rest = present;
        let mut count = 0;
        while rest != 0 {
            count += 1;
            let mut comp = 1u64 << rest.trailing_zeros();
            loop {
                let mut grown = comp;
                for a in (0..64).filter(|a| comp >> a & 1 == 1) {
                    for b in (0..64).filter(|b| rest >> b & 1 == 1) {
                        if a / n == b / n || a % n == b % n {
                            grown |= 1u64 << b;
                        }
                    }
                }
                if grown == comp {
                    break;
                }
                comp = grown;
            }
            rest &= !comp;
        }
        count
    }

    #[test]
    fn components_agree_with_the_plain_count() {
        for present in 0..(1u64 << 9) {
            assert_eq!(components(present, 3), naive_components(present, 3));
        }
        let mut x = 0x0123_4567_89ab_cdefu64;
        for _ in 0..3_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for n in 1..=8u8 {
                let all = if n == 8 {
                    u64::MAX
                } else {
                    (1u64 << (n * n)) - 1
                };
                // Sparse sets, where several components are likely.
                let set = x & (x >> 11) & (x >> 23) & all;
                assert_eq!(
                    components(set, n),
                    naive_components(set, n),
                    "n {n}, {set:#x}"
                );
            }
        }
    }

    #[test]
    fn stones_sharing_nothing_are_separate() {
        // 3x3: A1 (id 0), B2 (id 4), C3 (id 8) share no colour and no symbol.
        assert_eq!(components(1 | 1 << 4 | 1 << 8, 3), 3);
        // Adding A2 (id 1) links A1 (colour A) and B2 (symbol 2).
        assert_eq!(components(1 | 1 << 1 | 1 << 4 | 1 << 8, 3), 2);
        assert_eq!(components(0, 3), 0);
    }
}
