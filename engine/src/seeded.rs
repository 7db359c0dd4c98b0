//! Seeded Martello games and run seeds, stable across versions, on the streams of
//! [`hammer_puzzle::seeded`] (re-exported here).
//!
//! Game number `index` of size `n` under sweep seed `seed` is a pure function of those
//! three numbers, so datasets made months apart, on any number of machines, agree on
//! every board. The scheme, which golden tests guard, is:
//!
//! 1. A ChaCha20 stream cipher ([`rand_chacha::ChaCha20Rng`]) with the 32-byte key
//!    `seed` (8 bytes, little-endian) followed by the ASCII bytes `hammer/martello/games`
//!    and zero padding, and the 64-bit stream number `n << 56 | index`
//!    (so `index < 2^56`).
//! 2. A Fisher-Yates shuffle of the stones `0..n*n`: for `i` from `n*n - 1` down to 1,
//!    swap element `i` with element `j`, where `j` is uniform in `0..=i`, drawn from
//!    32-bit words of the stream by Lemire's multiply-and-reject method (see
//!    [`bounded`]).
//! 3. The shuffled list fills the board row by row.
//!
//! Solver randomness (random prefixes, random move orders, playouts) uses the same
//! construction with other key labels, through [`stream`].

pub use hammer_puzzle::seeded::*;

use rand_core::Rng;

use crate::martello::{MAX_N, State};

/// Errors of [`game`]: the size or index is out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeededError {
    /// The board side is not one the generator supports.
    #[error("board size {0} is outside 1..={max}", max = MAX_N)]
    Size(u8),
    /// The game index is beyond the last game.
    #[error("game index {0} is larger than the largest index {max}", max = MAX_INDEX)]
    Index(u64),
}

/// The permutation of game `index` of size `n` under sweep seed `seed`, row-major.
pub fn permutation(seed: u64, n: u8, index: u64) -> Result<Vec<u8>, SeededError> {
    if n == 0 || n > MAX_N {
        return Err(SeededError::Size(n));
    }
    if index > MAX_INDEX {
        return Err(SeededError::Index(index));
    }
    let mut rng = stream(seed, "hammer/martello/games", (n as u64) << 56 | index);
    let len = n as usize * n as usize;
    let mut stones: Vec<u8> = (0..len as u8).collect();
    for i in (1..len).rev() {
        let j = bounded(&mut rng, i as u32 + 1) as usize;
        stones.swap(i, j);
    }
    Ok(stones)
}

/// The start position of game `index` of size `n` under sweep seed `seed`.
pub fn game(seed: u64, n: u8, index: u64) -> Result<State, SeededError> {
    let stones = permutation(seed, n, index)?;
    State::from_permutation(n, &stones).ok_or(SeededError::Size(n))
}

/// The seed of one run: game `index` of size `n`, try `trial`, under sweep seed `seed`.
///
/// Every random choice of a solve (prefix moves, move orders, playouts) comes from
/// streams keyed by this value, so (sweep seed, n, index, trial) and the solver
/// configuration reproduce a result bit for bit. The prefix length is deliberately not
/// part of it: the random prefix of length I+1 extends the one of length I.
pub fn run_seed(seed: u64, n: u8, index: u64, trial: u32) -> u64 {
    let mut rng = stream(seed, "hammer/martello/runs", (n as u64) << 56 | index);
    rng.set_word_pos(2 * trial as u128);
    rng.next_u64()
}
