//! The lower bound on the stones left on the board at the end of the turn, and the
//! fingerprint of a position.
//!
//! What the bound knows, each part sound on its own:
//! - An ended turn, or one with no pick left, keeps its board: the bound is exact.
//! - With the rule `free` off only one pick remains, so the bound is exact too: the
//!   fewest stones any single pick leaves (at most `2h` picks are tried, and only at the
//!   start of a turn, the one position of that kind).
//! - With `picks = own` and relays off, nothing ever sows an opponent hole: its stones
//!   are frozen and stay on the board, however the turn goes on.
//!
//! With `free` and relays on, a turn can end with an empty board (the seed's 48 of 48),
//! so no cheap bound above 0 is known there; the search relies on its memo instead (see
//! `docs/mancala.md`, "Measured").

use super::rules::Picks;
use super::state::State;

/// A sound lower bound on the final board count of every turn that goes on from `state`.
pub(crate) fn lower_bound(state: &State) -> u32 {
    if !state.has_pick() {
        return state.on_board();
    }
    let rules = state.rules;
    if !rules.free {
        return (1..=rules.pickable())
            .filter(|&p| state.can_pick(p))
            .map(|p| state.apply(p).on_board())
            .min()
            .unwrap_or_else(|| state.on_board());
    }
    if rules.picks == Picks::Own && !rules.relay {
        return state.holes[rules.h() as usize..rules.holes()]
            .iter()
            .map(|&x| u32::from(x))
            .sum();
    }
    0
}

const K1: u64 = 0x9E37_79B9_7F4A_7C15;
const K2: u64 = 0xC2B2_AE3D_27D4_EB4F;

/// The finaliser of MurmurHash3 / SplitMix64: every input bit reaches every output bit.
#[inline]
fn fmix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ (x >> 33)
}

/// Two independent 64-bit lanes over the holes packed four to a word, then the store,
/// the ended flag and the rule point, so that states of different points never meet
/// in one memo.
#[inline]
pub(crate) fn fingerprint(state: &State) -> u128 {
    let mut a = K1;
    let mut b = K2;
    for chunk in state.holes.chunks_exact(4) {
        let w = u64::from(chunk[0])
            | u64::from(chunk[1]) << 16
            | u64::from(chunk[2]) << 32
            | u64::from(chunk[3]) << 48;
        a = (a ^ w).wrapping_mul(K2).rotate_left(31);
        b = (b ^ w.rotate_left(23)).wrapping_mul(K1).rotate_left(27);
    }
    let r = state.rules;
    let tail = u64::from(state.home)
        | u64::from(state.ended) << 16
        | u64::from(r.h()) << 17
        | u64::from(r.s()) << 22
        | (r.picks as u64) << 27
        | u64::from(r.free) << 28
        | u64::from(r.relay) << 29
        | (r.arith as u64) << 30;
    a = fmix(a ^ tail);
    b = fmix(b ^ tail.wrapping_mul(K1));
    (u128::from(a) << 64) | u128::from(b)
}
