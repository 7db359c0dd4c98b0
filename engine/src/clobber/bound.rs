//! The sound lower bound on the stones left: the components, the mod-3 invariant and,
//! under the partisan rule, the alternation of the colours.
//!
//! Stones only move onto occupied cells, so the connected groups of stones never
//! interact again: each group's stones are a game of their own under the impartial
//! rule, and under the partisan rule a group's moves are an impartial play of it. So
//! every group keeps at least one stone, and a one-coloured group keeps all of them.
//! Within a group, `(s + k) mod 3` is invariant (`s` stones, `k` of them clashing with
//! their cell's chessboard colour; each move is `s - 1, k + 1` or `s - 1, k - 2`), and
//! a single stone has `s + k` of 1 or 2, so a group with `s + k` a multiple of 3 keeps
//! at least two stones. The groups' bounds add up.
//!
//! Under the partisan rule each move of one colour removes a stone of the other, and
//! the colours alternate, so the stone counts limit the number of moves: see
//! [`alternation_bound`]. The stones of one-coloured groups never take part, so the
//! limit applies to the others; the bound is the larger of the two.

use super::Rule;
use super::board::{Board, Cells};
use super::position::{Colour, Position, State};

/// The least number of stones the group `part` of `pos` can be reduced to, as far as
/// the groups and the invariant tell.
#[inline]
fn part_bound(pos: &Position, clashing: Cells, part: Cells) -> u32 {
    let s = (pos.stones() & part).count_ones();
    if pos.black & part == 0 || pos.white & part == 0 {
        return s;
    }
    let k = (clashing & part).count_ones();
    if (s + k).is_multiple_of(3) { 2 } else { 1 }
}

/// A lower bound on the stones of every state reachable from `state` under `rule`.
pub fn lower_bound(board: &Board, rule: Rule, state: &State) -> u32 {
    let pos = &state.pos;
    let stones = pos.stones();
    // The groups without a stone next to one of the other colour are one-coloured and
    // keep every stone: count them at once, with one flood from all the others.
    let (b, w) = (pos.black, pos.white);
    let active = (b & board.neighbours(w)) | (w & board.neighbours(b));
    let live = board.flood(active, stones);
    let dead = (stones & !live).count_ones();
    let clashing = pos.clashing(board);
    let mut parts = 0;
    let mut rest = live;
    while rest != 0 {
        let seed = rest & rest.wrapping_neg();
        let part = board.flood(seed, stones);
        rest &= !part;
        parts += part_bound(pos, clashing, part);
    }
    let alternation = match rule {
        Rule::Impartial => 0,
        Rule::Partisan => {
            let live = Position {
                black: b & live,
                white: w & live,
            };
            alternation_bound(&live, state.turn)
        }
    };
    dead + parts.max(alternation)
}

/// The fewest stones the partisan rule's alternation allows from `pos` with `turn` to
/// move (`None`: the player picks the first colour), counting stones only.
///
/// With `p` stones of the colour to move and `q` of the other, a play of `j` moves has
/// `ceil(j/2)` moves of the first colour, each removing one of the `q`, and `floor(j/2)`
/// of the other, each removing one of the `p`; after the last move its colour still has
/// the stone that moved. An odd `j` (the first colour moves last) needs
/// `ceil(j/2) <= q` and `p - floor(j/2) >= 1`, so `j <= 2 min(p, q) - 1`; an even `j`
/// needs `q - j/2 >= 1` and `j/2 <= p`, so `j <= 2 min(p, q - 1)`. The bound is `p + q`
/// less the longest play.
pub fn alternation_bound(pos: &Position, turn: Option<Colour>) -> u32 {
    let (black, white) = (pos.black.count_ones(), pos.white.count_ones());
    let left = |p: u32, q: u32| {
        if p == 0 || q == 0 {
            return p + q;
        }
        let longest = (2 * p.min(q) - 1).max(2 * p.min(q - 1));
        p + q - longest
    };
    match turn {
        Some(Colour::Black) => left(black, white),
        Some(Colour::White) => left(white, black),
        None => left(black, white).min(left(white, black)),
    }
}

/// The bound of the components alone (each group keeps one stone, a one-coloured group
/// all of them), without the mod-3 invariant.
pub fn component_bound(board: &Board, pos: &Position) -> u32 {
    let stones = pos.stones();
    let mut bound = 0;
    let mut rest = stones;
    while rest != 0 {
        let seed = rest & rest.wrapping_neg();
        let part = board.flood(seed, stones);
        rest &= !part;
        let one_colour = pos.black & part == 0 || pos.white & part == 0;
        bound += if one_colour { part.count_ones() } else { 1 };
    }
    bound
}

/// The bound of the mod-3 invariant alone over the whole position: 0 without stones,
/// 2 when `s + k` is a multiple of 3, else 1.
pub fn mod3_bound(board: &Board, pos: &Position) -> u32 {
    let s = pos.count();
    let k = pos.clashing(board).count_ones();
    match s {
        0 => 0,
        _ if (s + k).is_multiple_of(3) => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clobber::notation::parse_position;

    fn bound(text: &str) -> u32 {
        let (board, pos) = parse_position(text).unwrap();
        lower_bound(&board, Rule::Impartial, &State { pos, turn: None })
    }

    #[test]
    fn groups_and_the_invariant_add_up() {
        assert_eq!(bound("...."), 0);
        assert_eq!(bound("x.x."), 2);
        assert_eq!(bound("xx/xx"), 4);
        // `xo`: s = 2, k = 0: one stone may be left.
        assert_eq!(bound("xo"), 1);
        // `xox`: s = 3, k = 0: at least two.
        assert_eq!(bound("xox"), 2);
        // Two groups `xox` and `xo`, and a lone stone.
        assert_eq!(bound("xox.ox.x"), 2 + 1 + 1);
        // A one-coloured tail belongs to its group: `xoxxx` has s = 5, k = 1.
        assert_eq!(bound("xoxxx"), 2);
        assert_eq!(bound("xoxxxx"), 1);
        // The 2 x 3 checkerboard: s = 6, k = 0.
        assert_eq!(bound("xox/oxo"), 2);
    }

    #[test]
    fn alternation_counts_the_moves_each_colour_can_make() {
        let (board, pos) = parse_position("xox/oxo/xox").unwrap();
        let state = |turn| State { pos, turn };
        // Five black, four white: black first can make at most 7 moves (the eighth, a
        // white move, would leave no white stone behind it after black took all four).
        assert_eq!(alternation_bound(&pos, Some(Colour::Black)), 2);
        assert_eq!(alternation_bound(&pos, Some(Colour::White)), 1);
        assert_eq!(alternation_bound(&pos, None), 1);
        assert_eq!(
            lower_bound(&board, Rule::Partisan, &state(Some(Colour::Black))),
            2
        );
        // Three black against one white: whoever starts, two black stones stay.
        let (_, pos) = parse_position("xxxo").unwrap();
        assert_eq!(alternation_bound(&pos, Some(Colour::Black)), 3);
        assert_eq!(alternation_bound(&pos, Some(Colour::White)), 2);
        assert_eq!(alternation_bound(&Position::default(), None), 0);
    }

    #[test]
    fn the_combined_bound_is_at_least_each_alone() {
        for text in ["xox/oxo", "xo.ox/.x.o.", "xxo/oxx/.o.", "x", "xoxoxo.xx"] {
            let (board, pos) = parse_position(text).unwrap();
            let b = lower_bound(&board, Rule::Impartial, &State { pos, turn: None });
            assert!(b >= component_bound(&board, &pos), "{text}");
            assert!(b >= mod3_bound(&board, &pos), "{text}");
        }
    }
}
