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

/// `MASKS[n].colour[set]`: every cell of an n x n board whose colour is in `set`;
/// `.symbol[set]` likewise for symbols. Built at compile time, 4 KiB per size.
struct Masks {
    colour: [u64; 256],
    symbol: [u64; 256],
}

static MASKS: [Masks; 9] = build_masks();

const fn build_masks() -> [Masks; 9] {
    let mut all = [const {
        Masks {
            colour: [0; 256],
            symbol: [0; 256],
        }
    }; 9];
    let mut n = 1;
    while n <= 8 {
        let mut set = 0;
        while set < 256 {
            let mut stone = 0;
            while stone < n * n {
                if set >> (stone / n) & 1 == 1 {
                    all[n].colour[set] |= 1u64 << stone;
                }
                if set >> (stone % n) & 1 == 1 {
                    all[n].symbol[set] |= 1u64 << stone;
                }
                stone += 1;
            }
            set += 1;
        }
        n += 1;
    }
    all
}

/// Number of connected components among the stones in `present` on an `n` x `n` board.
///
/// Grows one component at a time from its lowest stone: all stones sharing a colour or
/// a symbol with the component so far join it, until nothing changes.
#[inline]
pub(crate) fn components(present: u64, n: u8) -> u32 {
    let n = n as usize;
    let masks = &MASKS[n];
    let block = (1u64 << n) - 1;
    let mut rest = present;
    let mut count = 0;
    while rest != 0 {
        count += 1;
        let first = rest.trailing_zeros() as usize;
        let mut comp = rest & (masks.colour[1 << (first / n)] | masks.symbol[1 << (first % n)]);
        loop {
            let mut colours = 0usize;
            let mut symbols = 0u64;
            for c in 0..n {
                let part = (comp >> (c * n)) & block;
                colours |= ((part != 0) as usize) << c;
                symbols |= part;
            }
            let grown = rest & (masks.colour[colours] | masks.symbol[symbols as usize]);
            if grown == comp {
                break;
            }
            comp = grown;
        }
        rest &= !comp;
    }
    count
}

use super::state::{State, byte_at, row_len};

/// Whether rows `r` and `r + 1` are both empty somewhere: the board has several zones.
#[inline]
pub(crate) fn has_cut(state: &State) -> bool {
    let n = state.n as usize;
    (0..n.saturating_sub(1)).any(|r| state.rows[r] == 0 && state.rows[r + 1] == 0)
}

/// The stones of the rows `from..to`.
fn stones_of_rows(state: &State, from: usize, to: usize) -> u64 {
    let mut stones = 0u64;
    for r in from..to {
        let word = state.rows[r];
        for i in 0..row_len(word) {
            stones |= 1u64 << (byte_at(word, i) - 1);
        }
    }
    stones
}

/// The zones of the board as half-open row ranges, split at pairs of empty rows.
fn zones(state: &State) -> impl Iterator<Item = (usize, usize)> + '_ {
    let n = state.n as usize;
    let mut start = 0;
    std::iter::from_fn(move || {
        while start < n {
            let from = start;
            let mut r = from;
            while r < n && !(r + 1 < n && state.rows[r] == 0 && state.rows[r + 1] == 0) {
                r += 1;
            }
            start = r + 2;
            if r > from || (r == from && r < n && state.rows[r] != 0) {
                return Some((from, r.min(n)));
            }
        }
        None
    })
}

/// The stones that share a zone with row `row`.
pub(crate) fn zone_of_row(state: &State, row: usize) -> u64 {
    for (from, to) in zones(state) {
        if (from..to).contains(&row) {
            return stones_of_rows(state, from, to);
        }
    }
    0
}

/// The lower bound of a state: the sum over zones of their component counts.
pub(crate) fn lower_bound(state: &State) -> u32 {
    if !has_cut(state) {
        return components(state.present, state.n);
    }
    zones(state)
        .map(|(from, to)| components(stones_of_rows(state, from, to), state.n))
        .sum()
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
/// anything. Otherwise search from colour c without the edge, symbol by symbol, until
/// symbol s is reached (no split) or nothing grows (a split).
#[inline]
pub(crate) fn splits(present: u64, n: u8, stone: super::Stone) -> bool {
    let nn = n as usize;
    let masks = &MASKS[nn];
    let block = (1u64 << nn) - 1;
    let (c, s) = (stone.0 as usize / nn, stone.0 as usize % nn);
    let after = present & !(1u64 << stone.0);
    let mut symbols = (after >> (c * nn)) & block;
    if symbols == 0 || after & masks.symbol[1 << s] == 0 {
        return false;
    }
    loop {
        if symbols >> s & 1 == 1 {
            return false;
        }
        let reached = after & masks.symbol[symbols as usize];
        let mut colours = 0usize;
        for c2 in 0..nn {
            colours |= ((((reached >> (c2 * nn)) & block) != 0) as usize) << c2;
        }
        let stones = after & masks.colour[colours];
        let mut grown = 0u64;
        for c2 in 0..nn {
            grown |= (stones >> (c2 * nn)) & block;
        }
        if grown == symbols {
            return true;
        }
        symbols = grown;
    }
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
        let zones: Vec<_> = super::zones(&State::parse("A1B1//C1/D1/").unwrap()).collect();
        assert_eq!(zones, [(0, 5)]);
        let zones: Vec<_> = super::zones(&State::parse("A1B1///C1D2/E5/").unwrap()).collect();
        assert_eq!(zones, [(0, 1), (3, 6)]);
        let zones: Vec<_> = super::zones(&State::parse("///A1").unwrap()).collect();
        assert_eq!(zones, [(2, 4)]);
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
