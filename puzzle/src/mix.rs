//! The mixing function of the fingerprints and signatures that reach files and memo
//! keys. Hash maps use `rustc_hash` instead: a map's hash needs no avalanche of its own,
//! and one hasher serves the whole workspace (science/notes/benchmarks-history.md, "One hasher").

/// The splitmix64 finaliser: a bijection of `u64` whose every output bit depends on
/// every input bit.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
