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

/// The fewest stones a row can be brought down to by horizontal moves alone, which is
/// all a row can do once no other row of its zone holds a stone.
///
/// In a line, each stone on the board stands for a contiguous run of the original
/// stones (itself and those it ate, directly or not), and a move joins two neighbouring
/// runs. So `reach[i][j]`, the positions whose stone can be the last one of the run
/// `i..=j`, comes from the splits of `i..=j` into two runs whose last stones are
/// compatible; the answer is the fewest runs that each shrink to one stone.
pub(crate) fn row_min(word: u64, n: u8) -> u32 {
    let len = row_len(word);
    let compat = &super::moves::COMPAT[n as usize & 15];
    if len <= 2 {
        let pair =
            len == 2 && compat[(word as u8 - 1) as usize & 63] >> ((word >> 8) as u8 - 1) & 1 == 1;
        return len as u32 - pair as u32;
    }
    // The same rows come back again and again in one search: remember recent answers
    // (a pure function of the row, so the cache changes no result).
    let slot = (word.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 52) as usize;
    if let Some(hit) = ROW_MINS.with_borrow(|cache| {
        let (k, v) = cache.get(slot).copied().unwrap_or((0, 0));
        (k == word && v >> 8 == n as u32).then_some(v & 0xff)
    }) {
        return hit;
    }
    let min = row_min_uncached(word, len, compat);
    ROW_MINS.with_borrow_mut(|cache| {
        if cache.is_empty() {
            cache.resize(1 << 12, (0, 0));
        }
        cache[slot] = (word, (n as u32) << 8 | min);
    });
    min
}

thread_local! {
    /// Recent `row_min` answers: (row word, board side << 8 | minimum), 4,096 slots.
    static ROW_MINS: std::cell::RefCell<Vec<(u64, u32)>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn row_min_uncached(word: u64, len: usize, compat: &[u64; 64]) -> u32 {
    let stone = |i: usize| (byte_at(word, i) - 1) as usize;
    // `partners[i]`: the positions whose stones are compatible with position i's.
    let mut partners = [0u8; 8];
    for (i, p) in partners.iter_mut().enumerate().take(len) {
        for j in 0..len {
            *p |= ((compat[stone(i)] >> stone(j) & 1) as u8) << j;
        }
    }
    let mut reach = [[0u8; 8]; 8];
    for (i, row) in reach.iter_mut().enumerate().take(len) {
        row[i] = 1 << i;
    }
    for width in 1..len {
        for i in 0..len - width {
            let j = i + width;
            let mut last = 0u8;
            for m in i..j {
                let (left, right) = (reach[i][m], reach[m + 1][j]);
                let mut rest = left;
                while rest != 0 {
                    let a = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let eaten = partners[a] & right;
                    if eaten != 0 {
                        last |= (1 << a) | eaten;
                    }
                }
            }
            reach[i][j] = last;
        }
    }
    // fewest[j]: the fewest runs covering positions 0..j.
    let mut fewest = [u32::MAX; 9];
    fewest[0] = 0;
    for j in 1..=len {
        for i in 0..j {
            if reach[i][j - 1] != 0 && fewest[i] + 1 < fewest[j] {
                fewest[j] = fewest[i] + 1;
            }
        }
    }
    fewest[len]
}

/// The bound of one zone, rows `from..to` of `rows`: its components, or the row's own
/// minimum when a single row holds all its stones (no vertical move can ever happen
/// in it again).
pub(crate) fn zone_bound(rows: &[u64; 8], from: usize, to: usize, n: u8) -> u32 {
    let mut filled = rows[from..to].iter().filter(|&&w| w != 0);
    match (filled.next(), filled.next()) {
        (None, _) => 0,
        (Some(&word), None) => row_min(word, n),
        _ => {
            let mut stones = 0u64;
            for &word in &rows[from..to] {
                for i in 0..row_len(word) {
                    stones |= 1u64 << (byte_at(word, i) - 1);
                }
            }
            components(stones, n)
        }
    }
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
    let n = state.n as usize;
    if !has_cut(state) && state.rows[..n].iter().filter(|&&w| w != 0).count() > 1 {
        return components(state.present, state.n);
    }
    range_bound(&state.rows, 0, n, state.n)
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

    /// The fewest stones of a row by horizontal moves, by trying every move.
    fn brute_row_min(stones: &[u8], n: u8) -> u32 {
        let mut best = stones.len() as u32;
        for i in 1..stones.len() {
            let (a, b) = (stones[i - 1], stones[i]);
            if a / n == b / n || a % n == b % n {
                for eaten in [i - 1, i] {
                    let mut rest = stones.to_vec();
                    rest.remove(eaten);
                    best = best.min(brute_row_min(&rest, n));
                }
            }
        }
        best
    }

    #[test]
    fn row_min_agrees_with_trying_every_move() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..4_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for n in [3u8, 4, 6, 8] {
                // A row of up to n distinct stones of an n x n board.
                let len = (x % (n as u64 + 1)) as usize;
                let mut stones: Vec<u8> = Vec::new();
                let mut y = x;
                while stones.len() < len {
                    y = y.wrapping_mul(0x2545_f491_4f6c_dd1d).wrapping_add(1);
                    // Few colours and symbols in play, so that moves are likely.
                    let s = ((y >> 40) % 3) as u8 * n + ((y >> 50) % 3) as u8;
                    if !stones.contains(&s) {
                        stones.push(s);
                    }
                }
                let word = stones
                    .iter()
                    .enumerate()
                    .fold(0u64, |w, (i, &s)| w | ((s as u64 + 1) << (8 * i)));
                assert_eq!(
                    super::row_min(word, n),
                    brute_row_min(&stones, n),
                    "n {n}, {stones:?}"
                );
            }
        }
    }

    #[test]
    fn a_row_alone_in_its_zone_counts_its_own_minimum() {
        use super::super::State;
        // C6 D4 F6 can never meet another row: C6-D4 and D4-F6 share nothing, so three
        // stones stay although C6 and F6 share a symbol (two components).
        // Below, {B3, F3} and {C2, C5} are two components.
        let alone = State::parse("C6D4F6///B3/C2F3C5/").unwrap();
        assert_eq!(super::lower_bound(&alone), 3 + 2);
        // One empty row can be jumped: a single zone of two components ({D4} alone).
        let joined = State::parse("C6D4F6//B3/C2F3C5//").unwrap();
        assert_eq!(super::lower_bound(&joined), 2);
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
