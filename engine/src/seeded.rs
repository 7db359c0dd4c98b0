//! Seeded start positions and seeded random streams, stable across versions.
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

use rand_chacha::{ChaCha8Rng, ChaCha20Rng};
use rand_core::{Rng, SeedableRng};

use crate::martello::{MAX_N, State};

/// The largest game index: the stream number keeps 56 bits for it.
pub const MAX_INDEX: u64 = (1 << 56) - 1;

/// A ChaCha20 stream keyed by `seed` and a purpose label, at stream number `stream`.
///
/// Different labels give independent streams for different purposes, so adding a new
/// random choice somewhere never shifts the numbers drawn for an old one.
pub fn stream(seed: u64, label: &str, stream: u64) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::from_seed(key(seed, label));
    rng.set_stream(stream);
    rng
}

/// Like [`stream`] but ChaCha with 8 rounds: the solvers draw a random number for
/// nearly every move they consider, and 8 rounds are plenty for simulation while
/// costing less than half as much.
pub fn fast_stream(seed: u64, label: &str, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::from_seed(key(seed, label));
    rng.set_stream(stream);
    rng
}

/// The 32-byte key: `seed` little-endian, then up to 24 bytes of `label`, zero-padded.
fn key(seed: u64, label: &str) -> [u8; 32] {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    let label = label.as_bytes();
    let len = label.len().min(24);
    key[8..8 + len].copy_from_slice(&label[..len]);
    key
}

/// A uniform integer in `0..bound` (`bound >= 1`) from 32-bit words of `rng`.
///
/// Lemire's method: `m = x * bound` for a random 32-bit `x`; the high half of `m` is the
/// answer unless the low half falls below `2^32 mod bound`, in which case `x` is drawn
/// again. Unbiased, and fixed here so that no library update can change a game.
pub fn bounded<R: Rng + ?Sized>(rng: &mut R, bound: u32) -> u32 {
    debug_assert!(bound >= 1);
    let mut m = rng.next_u32() as u64 * bound as u64;
    if (m as u32) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * bound as u64;
        }
    }
    (m >> 32) as u32
}

/// Errors of [`game`]: the size or index is out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeededError {
    #[error("board size {0} is outside 1..={max}", max = MAX_N)]
    Size(u8),
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

/// The `i`-th term (1-based) of Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...
pub fn luby(mut i: u64) -> u64 {
    loop {
        // k such that 2^(k-1) <= i < 2^k
        let k = 64 - i.leading_zeros() as u64;
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}
