//! The content digest of an instance: SHA-256 of its bytes as stored.

use std::fmt;
use std::io::{self, Read};
use std::path::Path;
use std::str::FromStr;

use sha2::{Digest as _, Sha256};
use thiserror::Error;

/// The SHA-256 of an instance file's bytes as stored (compressed, if the file is),
/// shown as 64 lowercase hex digits.
///
/// A sweep's identity covers the files it names through their digests, and a worker
/// checks a file against its digest before running it. The stored bytes are digested,
/// not the formula, so that the check needs no decompression and no parse, and so that
/// a recompressed file (the same formula in other bytes) counts as a different file, as
/// it is one to every tool that digests files.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest([u8; 32]);

/// Text that is not a digest's 64 hex digits.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{text}` is not a SHA-256 digest (64 hex digits)")]
pub struct DigestParseError {
    /// The text, cut to a readable length.
    pub text: String,
}

impl Digest {
    /// The digest of `bytes`.
    pub fn of_bytes(bytes: &[u8]) -> Self {
        Digest(Sha256::digest(bytes).into())
    }

    /// The digest of everything `reader` yields, read in blocks.
    pub fn of_reader<R: Read>(mut reader: R) -> io::Result<Self> {
        let mut hasher = Sha256::new();
        let mut block = vec![0u8; 1 << 16];
        loop {
            match reader.read(&mut block) {
                Ok(0) => break,
                Ok(n) => hasher.update(&block[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(Digest(hasher.finalize().into()))
    }

    /// The digest of the file at `path`, read in blocks (the file is not held in memory).
    pub fn of_file(path: &Path) -> io::Result<Self> {
        Self::of_reader(std::fs::File::open(path)?)
    }

    /// The 32 bytes.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The 64 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for byte in self.0 {
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({self})")
    }
}

impl FromStr for Digest {
    type Err = DigestParseError;

    /// Reads 64 hex digits, either case.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = || DigestParseError {
            text: crate::dimacs::quote(text.as_bytes()),
        };
        let digits = text.as_bytes();
        if digits.len() != 64 {
            return Err(error());
        }
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(digits.chunks_exact(2)) {
            let high = nibble(pair[0]).ok_or_else(error)?;
            let low = nibble(pair[1]).ok_or_else(error)?;
            *byte = high << 4 | low;
        }
        Ok(Digest(bytes))
    }
}

fn nibble(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digests() {
        // FIPS 180-2's examples: the empty string and "abc".
        assert_eq!(
            Digest::of_bytes(b"").to_hex(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let abc = Digest::of_bytes(b"abc");
        assert_eq!(
            abc.to_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(Digest::of_reader(&b"abc"[..]).expect("read"), abc);
    }

    #[test]
    fn hex_reads_back() {
        let digest = Digest::of_bytes(b"p cnf 0 0\n");
        assert_eq!(digest.to_hex().parse::<Digest>(), Ok(digest));
        assert_eq!(digest.to_hex().to_uppercase().parse::<Digest>(), Ok(digest));
        assert!("abc".parse::<Digest>().is_err());
        assert!("g".repeat(64).parse::<Digest>().is_err());
        assert!("+f".repeat(32).parse::<Digest>().is_err(), "no signs");
        assert!("é".repeat(32).parse::<Digest>().is_err());
    }
}
