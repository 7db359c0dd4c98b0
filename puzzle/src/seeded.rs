//! Seeded random streams, stable across versions: every random choice of hammer (seeded
//! start positions, random prefixes, move orders, playouts) comes from a stream keyed by
//! a seed and a purpose label, so results are pure functions of their seeds.
//!
//! A stream is a ChaCha stream cipher ([`rand_chacha::ChaCha20Rng`], or ChaCha8 for the
//! solver's hot paths) with the 32-byte key `seed` (8 bytes, little-endian) followed by
//! the ASCII bytes of the label and zero padding, at a 64-bit stream number. Integers
//! below a bound are drawn from 32-bit words by Lemire's multiply-and-reject method
//! ([`bounded`]). Golden tests in `hammer-engine` guard the seeded games built on it.

use rand_chacha::{ChaCha8Rng, ChaCha20Rng};
use rand_core::{Rng, SeedableRng};

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
