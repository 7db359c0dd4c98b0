//! Stone signatures and move transitions for the learned move order.
//!
//! After the "piece data" of the Arimaa study (seed 004): a stone's signature lists, for
//! each distance `d = 1 ..= R`, what stands at that distance, so that it can be cut at
//! any radius. Distance is counted in the moves' own neighbourhood, not on the grid: two
//! stones are at distance 1 when a move could join them if they were compatible (row
//! neighbours in the normalized row, the white-column neighbours of rows `r` and `r+1`,
//! and the double-jump reach over a row with at most one stone). At each distance the
//! signature counts the stones sharing the stone's colour, those sharing its symbol,
//! the incompatible ones, the empty white cells of the rows `d` rows away and the board
//! edges `d` rows away. Distance 0 says whether the stone ends its row and how long its
//! row is.
//!
//! A move's transition is the eater's and the eaten stone's signatures before the move
//! with the eater's after it, plus the move's kind. It is hashed per radius, each radius
//! folding in the previous one, so that `keys[r - 1]` identifies the transition cut at
//! radius `r`. Everything works on 64-bit stone masks: one adjacency table per state,
//! then a breadth-first walk of at most `R` levels per stone.

use super::Martello;
use super::moves::{LINES, Move};
use super::state::{MAX_N, State, byte_at, row_len};
use crate::mix::mix64;
use crate::{MoveFeatures, Successor};

/// The version of the features: a knowledge base records it and is refused by a build
/// whose features differ. Bump it whenever a signature or a transition hash changes.
pub const FEATURE_VERSION: u32 = 2;

/// The largest radius a transition is hashed to (a 6x6 board is at most about 12
/// move-steps across, and longer radii matched almost nothing in the study).
pub const MAX_RADIUS: usize = 12;

/// A state's move-neighbourhood graph, built once per state.
pub(crate) struct Neighbourhood {
    /// `adj[s]`: the stones at distance 1 from stone `s`.
    adj: [u64; 64],
    /// `cell[s]`: (row, position in the row) of stone `s`.
    cell: [(u8, u8); 64],
    /// Stones per row.
    len: Lens,
    n: u8,
}

impl Neighbourhood {
    pub(crate) fn new(state: &State) -> Neighbourhood {
        let n = state.n as usize;
        let mut nb = Neighbourhood {
            adj: [0; 64],
            cell: [(0, 0); 64],
            len: [0; MAX_N as usize],
            n: state.n,
        };
        // The stone (id) in each row's left and right white cell, if any.
        let mut left = [None; MAX_N as usize];
        let mut right = [None; MAX_N as usize];
        for r in 0..n {
            let word = state.rows[r];
            let len = row_len(word);
            nb.len[r] = len as u8;
            let mut prev: Option<u8> = None;
            for p in 0..len {
                let s = byte_at(word, p) - 1;
                nb.cell[s as usize & 63] = (r as u8, p as u8);
                if let Some(q) = prev {
                    nb.link(q, s);
                }
                prev = Some(s);
            }
            if len > 0 {
                left[r] = Some(byte_at(word, 0) - 1);
                right[r] = Some(byte_at(word, len - 1) - 1);
            }
        }
        for side in [&left, &right] {
            for r in 0..n {
                let Some(a) = side[r] else { continue };
                if let Some(b) = side.get(r + 1).copied().flatten() {
                    nb.link(a, b);
                }
                if r + 2 < n
                    && nb.len[r + 1] <= 1
                    && let Some(b) = side[r + 2]
                {
                    nb.link(a, b);
                }
            }
        }
        nb
    }

    #[inline]
    fn link(&mut self, a: u8, b: u8) {
        if a != b {
            self.adj[a as usize & 63] |= 1u64 << (b & 63);
            self.adj[b as usize & 63] |= 1u64 << (a & 63);
        }
    }

    /// Stone `s`'s features at distances 1 ..= `out.len()`, each packed in a `u64`,
    /// and its distance-0 features as the return value.
    pub fn signature(&self, s: u8, out: &mut [u64]) -> u64 {
        let (row, pos) = self.cell[s as usize & 63];
        let row = row as usize & 7;
        let mut seen = 1u64 << (s & 63);
        let mut frontier = seen;
        for (i, slot) in out.iter_mut().enumerate() {
            let mut next = 0u64;
            let mut f = frontier;
            while f != 0 {
                next |= self.adj[f.trailing_zeros() as usize];
                f &= f - 1;
            }
            next &= !seen;
            seen |= next;
            frontier = next;
            *slot = ring(self.n, s, next, &self.len, row, i + 1);
        }
        head(pos as usize, self.len[row] as usize)
    }
}

/// A stone's distance-0 features: whether it is first and/or last of its row, and the
/// row's length.
#[inline]
fn head(pos: usize, len: usize) -> u64 {
    let end = (pos == 0) as u64 | ((pos + 1 == len) as u64) << 1;
    end | (len as u64) << 2
}

/// Stone `s`'s features at distance `d`, packed in 23 bits: how many of `stones` (those
/// at that distance) share its colour, share its symbol, or neither (6 bits each: at
/// most 63), and the empty white cells (3 bits) and board edges (2 bits) of the rows `d`
/// rows above and below its `row` (`lens`: stones per row).
#[inline]
fn ring(n: u8, s: u8, stones: u64, lens: &Lens, row: usize, d: usize) -> u64 {
    let (colour_mask, symbol_mask) = LINES[n as usize][s as usize & 63];
    let same_colour = (stones & colour_mask).count_ones() as u64;
    let same_symbol = (stones & symbol_mask).count_ones() as u64;
    let other = stones.count_ones() as u64 - same_colour - same_symbol;
    let mut empty = 0u64;
    let mut edges = 0u64;
    for r in [
        row.checked_sub(d),
        Some(row + d).filter(|&r| r < n as usize),
    ] {
        match r {
            Some(r) => empty += 2u64.saturating_sub(lens[r & 7] as u64),
            None => edges += 1,
        }
    }
    same_colour | same_symbol << 6 | other << 12 | empty << 18 | edges << 21
}

/// Signatures of a parent state, reused for every move from it: the whole-graph
/// reference the tests check [`Features::keys`] against.
#[cfg(test)]
struct Transitions<'a> {
    state: &'a State,
    before: Neighbourhood,
}

#[cfg(test)]
impl<'a> Transitions<'a> {
    fn new(state: &'a State) -> Transitions<'a> {
        Transitions {
            state,
            before: Neighbourhood::new(state),
        }
    }

    /// Fills `keys[r - 1]` with the hash of `mv`'s transition cut at radius `r`, for
    /// `r = 1 ..= keys.len()` (at most [`MAX_RADIUS`]). `mv` must be a move of the
    /// state this was built from.
    fn keys(&self, mv: Move, keys: &mut [u64]) {
        graph_keys(&self.before, self.state, mv, keys);
    }
}

/// Fills `keys[r - 1]` with the hash of `mv`'s transition cut at radius `r`, for
/// `r = 1 ..= keys.len()` (at most [`MAX_RADIUS`]); `mv` is a move of `state`, whose
/// graph is `before`.
fn graph_keys(before: &Neighbourhood, state: &State, mv: Move, keys: &mut [u64]) {
    let radius = keys.len().min(MAX_RADIUS);
    let mut eater = [0u64; MAX_RADIUS];
    let mut eaten = [0u64; MAX_RADIUS];
    let mut after = [0u64; MAX_RADIUS];
    let child = state.apply(mv);
    let after_nb = Neighbourhood::new(&child);
    let heads = [
        before.signature(mv.eater.0, &mut eater[..radius]),
        before.signature(mv.eaten.0, &mut eaten[..radius]),
        after_nb.signature(mv.eater.0, &mut after[..radius]),
    ];
    let rings = [&eater[..radius], &eaten[..radius], &after[..radius]];
    hash(state.n, mv, heads, rings, &mut keys[..radius]);
}

/// The features of one state's moves, Martello's [`MoveFeatures`]: a summary of its rows
/// (lengths and end stones), each stone's radius-1 signature once a move asks for it (a
/// stone takes part in several moves, as eater and as eaten), and, for longer radii, its
/// move-neighbourhood graph once built.
///
/// The radius-1 keys ([`Features::key1`]) are `keys[0]` of [`Features::keys`],
/// computed from the three stones' own neighbours instead of two whole neighbourhood
/// graphs, and the eater's signature after the move from the parent's row summary with
/// only the one or two rows the move changes updated, without making the child state:
/// radius 1 is the radius that paid, and the order computes it for every successor of
/// every expansion.
pub struct Features {
    n: u8,
    ends: Ends,
    /// Each stone's radius-1 signature (its distance-0 features and ring), valid where
    /// `known` has its bit.
    before: [(u64, u64); 64],
    known: u64,
    /// The state's graph, valid when `graph_built`.
    graph: Neighbourhood,
    graph_built: bool,
}

/// Stones per row.
type Lens = [u8; MAX_N as usize];

/// What a radius-1 signature needs of the rows besides a stone's own row neighbours:
/// each row's length and the stones at its two ends (as the row bytes store them,
/// stone id + 1; 0 in an empty row).
#[derive(Clone, Copy, Default)]
struct Ends {
    lens: Lens,
    first: [u8; MAX_N as usize],
    last: [u8; MAX_N as usize],
}

impl Default for Features {
    fn default() -> Features {
        Features {
            n: 0,
            ends: Ends::default(),
            before: [(0, 0); 64],
            known: 0,
            graph: Neighbourhood {
                adj: [0; 64],
                cell: [(0, 0); 64],
                len: [0; MAX_N as usize],
                n: 0,
            },
            graph_built: false,
        }
    }
}

impl Features {
    /// Makes these the features of `state`; signatures are computed when a key needs
    /// them.
    pub fn reset(&mut self, state: &State) {
        self.n = state.n;
        self.ends = Ends::default();
        for (r, &word) in state.rows[..state.n as usize].iter().enumerate() {
            let len = row_len(word);
            self.ends.lens[r] = len as u8;
            if len > 0 {
                self.ends.first[r] = byte_at(word, 0);
                self.ends.last[r] = byte_at(word, len - 1);
            }
        }
        self.known = 0;
        self.graph_built = false;
    }

    /// Stone `s`'s signature in the state; it stands at (`row`, `pos`).
    #[inline]
    fn before(&mut self, state: &State, s: u8, row: u8, pos: u8) -> (u64, u64) {
        let bit = 1u64 << (s & 63);
        if self.known & bit == 0 {
            let (row, pos) = (row as usize & 7, pos as usize);
            let len = self.ends.lens[row] as usize;
            let (left, right) = beside(state.rows[row], pos, pos, len);
            self.before[s as usize & 63] = signature1(self.n, &self.ends, s, row, pos, left, right);
            self.known |= bit;
        }
        self.before[s as usize & 63]
    }

    /// The eater's signature after `mv`, a move of `state`. The eater stands in the
    /// eaten stone's cell, and the row it left closes up (`State::apply`): only the
    /// rows of the two stones change.
    #[inline]
    fn after(&self, state: &State, mv: Move) -> (u64, u64) {
        let x = mv.eater.0;
        let (xr, xp) = (mv.eater_row as usize & 7, mv.eater_pos as usize);
        let (yr, yp) = (mv.eaten_row as usize & 7, mv.eaten_pos as usize);
        let mut ends = self.ends;
        let word = state.rows[yr];
        let len = ends.lens[yr] as usize;
        // The eater's cell in the child, and the run of the parent's row it replaces.
        let (lo, hi) = if xr == yr {
            (xp.min(yp), xp.max(yp))
        } else {
            (yp, yp)
        };
        let (left, right) = beside(word, lo, hi, len);
        if lo == 0 {
            ends.first[yr] = x + 1;
        }
        if hi + 1 == len {
            ends.last[yr] = x + 1;
        }
        if xr == yr {
            ends.lens[yr] -= 1;
        } else {
            // The row the eater left loses its stone at `xp`.
            let from = state.rows[xr];
            let len = ends.lens[xr] as usize;
            ends.lens[xr] -= 1;
            if len == 1 {
                ends.first[xr] = 0;
                ends.last[xr] = 0;
            } else if xp == 0 {
                ends.first[xr] = byte_at(from, 1);
            } else if xp + 1 == len {
                ends.last[xr] = byte_at(from, len - 2);
            }
        }
        signature1(self.n, &ends, x, yr, lo, left, right)
    }

    /// The radius-1 key of `mv`, a move of `state` (the state these are the features
    /// of).
    pub fn key1(&mut self, state: &State, mv: Move) -> u64 {
        let (h_eater, eater) = self.before(state, mv.eater.0, mv.eater_row, mv.eater_pos);
        let (h_eaten, eaten) = self.before(state, mv.eaten.0, mv.eaten_row, mv.eaten_pos);
        let (h_after, after) = self.after(state, mv);
        key1_of(
            self.n,
            mv,
            [h_eater, h_eaten, h_after],
            [eater, eaten, after],
        )
    }

    /// Fills `keys[r - 1]` with the hash of `mv`'s transition cut at radius `r`, for
    /// `r = 1 ..= keys.len()` (at most [`MAX_RADIUS`]); `mv` is a move of `state` (the
    /// state these are the features of). The state's graph is built on the first call.
    pub fn keys(&mut self, state: &State, mv: Move, keys: &mut [u64]) {
        if !self.graph_built {
            self.graph = Neighbourhood::new(state);
            self.graph_built = true;
        }
        graph_keys(&self.graph, state, mv, keys);
    }
}

impl MoveFeatures<Martello> for Features {
    const VERSION: Option<u32> = Some(FEATURE_VERSION);
    const MAX_RADIUS: usize = MAX_RADIUS;

    #[inline]
    fn of_state(&mut self, _puzzle: &Martello, state: &State) {
        self.reset(state);
    }

    fn transition_keys(
        &mut self,
        _puzzle: &Martello,
        state: &State,
        succ: &[Successor<Move>],
        radius: usize,
        out: &mut Vec<u64>,
    ) -> bool {
        let radius = radius.min(MAX_RADIUS);
        out.clear();
        if radius == 1 {
            out.extend(succ.iter().map(|s| self.key1(state, s.mv)));
            return true;
        }
        out.resize(succ.len() * radius, 0);
        for (s, keys) in succ.iter().zip(out.chunks_exact_mut(radius.max(1))) {
            self.keys(state, s.mv, keys);
        }
        true
    }
}

/// Hashes a transition: the move's kind, whether the two stones share their colour, and
/// the three signatures (eater before, eaten before, eater after) cut at distance 1
/// (`heads`, their distance-0 features, and `rings[k][0]`) give `keys[0]`; each longer
/// radius folds in the three rings at that distance (`rings`, each at least `keys.len()`
/// long). The fields are packed into two words and mixed once per radius: the radius-1
/// key is computed for every successor of every expansion under the learned order.
fn hash(n: u8, mv: Move, heads: [u64; 3], rings: [&[u64]; 3], keys: &mut [u64]) {
    let [eater, eaten, after] = rings;
    let Some((first, rest)) = keys.split_first_mut() else {
        return;
    };
    let mut key = key1_of(n, mv, heads, [eater[0], eaten[0], after[0]]);
    *first = key;
    for (d, slot) in rest.iter_mut().enumerate() {
        key = fold(key, eater[d + 1], eaten[d + 1], after[d + 1]);
        *slot = key;
    }
}

/// An odd constant: multiplying by it is a bijection that spreads a word's low bits over
/// all 64, so that two packed words combine by XOR without cancelling.
const SPREAD: u64 = 0x9e37_79b9_7f4a_7c15;

/// The radius-1 key of a transition (see [`hash`]). A ring takes 23 bits and a head 6,
/// so the eater's and the eaten stone's fields, the kind (2 bits) and the shared colour
/// fill one word and the eater's after the move a second.
#[inline]
fn key1_of(n: u8, mv: Move, heads: [u64; 3], rings: [u64; 3]) -> u64 {
    let kind = if mv.eater_row == mv.eaten_row {
        0
    } else if mv.eater_row.abs_diff(mv.eaten_row) == 1 {
        1
    } else {
        2
    };
    let colour = LINES[n as usize][mv.eater.0 as usize & 63].0;
    let shares_colour = (colour >> (mv.eaten.0 & 63)) & 1;
    let [h_eater, h_eaten, h_after] = heads;
    let [eater, eaten, after] = rings;
    let own = eater | eaten << 23 | (kind | shares_colour << 2 | h_eater << 3 | h_eaten << 9) << 46;
    let moved = after | h_after << 23;
    mix64(own ^ moved.wrapping_mul(SPREAD))
}

/// The key at one radius more: `key` with the three rings at that distance folded in.
#[inline]
fn fold(key: u64, eater: u64, eaten: u64, after: u64) -> u64 {
    mix64(key ^ (eater | eaten << 23) ^ after.wrapping_mul(SPREAD))
}

/// Stone `s`'s distance-0 features and its ring at distance 1, as
/// [`Neighbourhood::signature`] gives them, from the stone's own neighbours: its row
/// neighbours `left` and `right` (row bytes, 0 for none) and, at a row end, the same end
/// of the rows one and (over a row of at most one stone) two away. The stone stands at
/// (`row`, `pos`) of a board of side `n` whose rows `ends` summarizes.
#[inline]
fn signature1(
    n: u8,
    ends: &Ends,
    s: u8,
    row: usize,
    pos: usize,
    left: u8,
    right: u8,
) -> (u64, u64) {
    let len = ends.lens[row] as usize;
    let mut adj = bit(left) | bit(right);
    if pos == 0 {
        adj |= column(n as usize, ends, &ends.first, row);
    }
    if pos + 1 == len {
        adj |= column(n as usize, ends, &ends.last, row);
    }
    adj &= !(1u64 << (s & 63));
    (head(pos, len), ring(n, s, adj, &ends.lens, row, 1))
}

/// The row bytes just left of position `lo` and just right of position `hi` of a row
/// of `len` stones (0 where the row ends there).
#[inline(always)]
fn beside(word: u64, lo: usize, hi: usize, len: usize) -> (u8, u8) {
    let left = if lo > 0 { byte_at(word, lo - 1) } else { 0 };
    let right = if hi + 1 < len {
        byte_at(word, hi + 1)
    } else {
        0
    };
    (left, right)
}

/// The bit of a stone given as a row byte (stone id + 1); none for 0.
#[inline(always)]
fn bit(byte: u8) -> u64 {
    (1u64 << (byte.wrapping_sub(1) & 63)) & ((byte != 0) as u64).wrapping_neg()
}

/// The stones a row end of `row` reaches in one white column (`side`: the rows' first or
/// last stones): the same end of the rows next to it, and two rows away over a row of at
/// most one stone.
#[inline(always)]
fn column(n: usize, ends: &Ends, side: &[u8; MAX_N as usize], row: usize) -> u64 {
    let mut adj = 0u64;
    if row >= 1 {
        adj |= bit(side[row - 1]);
        if row >= 2 && ends.lens[row - 1] <= 1 {
            adj |= bit(side[row - 2]);
        }
    }
    if row + 1 < n {
        adj |= bit(side[row + 1]);
        if row + 2 < n && ends.lens[row + 1] <= 1 {
            adj |= bit(side[row + 2]);
        }
    }
    adj
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::martello::State;

    fn moves(state: &State) -> Vec<Move> {
        let mut out = Vec::new();
        crate::martello::moves::generate(state, &mut out);
        out
    }

    fn id(token: &str, n: u8) -> u8 {
        let b = token.as_bytes();
        (b[0] - b'A') * n + (b[1] - b'1')
    }

    #[test]
    fn neighbourhood_follows_the_rules_reach() {
        // Row 1 has one stone, so A1 (row 0) and A2 (row 2) are a double jump apart
        // in both white columns; B1 is next to both vertically.
        let s = State::parse("A1C3/B1/A2C2").unwrap();
        let nb = Neighbourhood::new(&s);
        let id = |t: &str| id(t, 3);
        let a1 = id("A1");
        let a2 = id("A2");
        let b1 = id("B1");
        let c3 = id("C3");
        assert_ne!(nb.adj[a1 as usize] & 1 << a2, 0, "double jump on the left");
        assert_ne!(nb.adj[b1 as usize] & 1 << a1, 0, "vertical, left");
        assert_ne!(
            nb.adj[b1 as usize] & 1 << c3,
            0,
            "lone stone in the right column"
        );
        assert_ne!(nb.adj[a1 as usize] & 1 << c3, 0, "row neighbours");
        // Every legal move joins stones at distance 1.
        for mv in moves(&s) {
            assert_ne!(nb.adj[mv.eater.0 as usize] & 1 << mv.eaten.0, 0, "{mv:?}");
        }
    }

    /// Every state on the way down random games of 3x3 to 8x8, and every move of it.
    fn states_and_moves() -> Vec<(State, Move)> {
        let mut out = Vec::new();
        for n in 3..=8u8 {
            for index in 0..20 {
                let mut state = crate::seeded::game(11, n, index).unwrap();
                let mut step = index;
                loop {
                    let ms = moves(&state);
                    if ms.is_empty() {
                        break;
                    }
                    out.extend(ms.iter().map(|&m| (state, m)));
                    step = step
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    state = state.apply(ms[(step >> 33) as usize % ms.len()]);
                }
            }
        }
        out
    }

    #[test]
    fn the_features_keys_are_the_whole_graphs() {
        let all = states_and_moves();
        assert!(all.len() > 10_000, "{}", all.len());
        // One set of features reused from state to state, as the search keeps it.
        let mut fast = Features::default();
        let mut at = 0;
        while at < all.len() {
            let state = all[at].0;
            fast.reset(&state);
            let whole = Transitions::new(&state);
            while at < all.len() && all[at].0 == state {
                let mv = all[at].1;
                let mut key = [0u64; 4];
                whole.keys(mv, &mut key);
                assert_eq!(fast.key1(&state, mv), key[0], "{state:?} {mv:?}");
                let mut cached = [0u64; 4];
                fast.keys(&state, mv, &mut cached);
                assert_eq!(cached, key, "{state:?} {mv:?}");
                at += 1;
            }
        }
    }

    #[test]
    fn keys_extend_by_radius_and_tell_moves_apart() {
        let s = State::parse("A1B2C3/C1A3B1/B3A2C2").unwrap();
        let t = Transitions::new(&s);
        let mut all = Vec::new();
        for mv in moves(&s) {
            let mut long = [0u64; 6];
            let mut short = [0u64; 3];
            t.keys(mv, &mut long);
            t.keys(mv, &mut short);
            assert_eq!(long[..3], short, "a shorter radius is a prefix");
            all.push(long[5]);
        }
        all.sort_unstable();
        all.dedup();
        assert!(all.len() > 1, "different moves, different transitions");
    }
}
