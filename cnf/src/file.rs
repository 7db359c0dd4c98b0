//! Instance files: plain DIMACS, or compressed with gzip or xz, told apart by their
//! first bytes (not their names, which are often wrong: `.cnf` files that are gzip,
//! `.xz` files renamed to `.cnf.xz.bak`).
//!
//! The xz decoder is `lzma-rust2`, a port of XZ for Java in Rust, rather than `xz2` or
//! `liblzma`, which bind the C library. hammer's worker images are static binaries
//! on `FROM scratch`, and a C library is one more static build to get right for them;
//! the pure-Rust decoder needs nothing. `lzma-rust2` is kept current, verifies the
//! checksums of the blocks (CRC32, CRC64 and SHA-256), and reads concatenated streams as
//! `xz` does. gzip goes through `flate2` (with its Rust backend), also with concatenated
//! members read as `gzip -d` reads them.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::digest::Digest;
use crate::dimacs::{self, ParseError};
use crate::formula::Cnf;

/// How an instance file's bytes are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Plain DIMACS text.
    Plain,
    /// gzip (`.gz`).
    Gzip,
    /// xz (`.xz`).
    Xz,
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compression::Plain => "plain",
            Compression::Gzip => "gzip",
            Compression::Xz => "xz",
        })
    }
}

/// An instance read from a file.
#[derive(Clone, Debug)]
pub struct InstanceFile {
    /// The formula.
    pub cnf: Cnf,
    /// The digest of the file's bytes as stored.
    pub digest: Digest,
    /// How the file was stored.
    pub compression: Compression,
    /// The size of the file as stored, in bytes.
    pub stored_bytes: u64,
    /// The size of the DIMACS text, in bytes.
    pub text_bytes: u64,
}

/// Why an instance file could not be read or written.
#[derive(Debug, Error)]
pub enum FileError {
    /// The file could not be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The failure.
        #[source]
        source: io::Error,
    },
    /// The file's bytes are not valid in the compression its first bytes announce.
    #[error("{} is not a valid {compression} file", path.display())]
    Decompress {
        /// The file.
        path: PathBuf,
        /// The compression announced.
        compression: Compression,
        /// The decoder's complaint.
        #[source]
        source: io::Error,
    },
    /// The file is compressed in a form this crate does not read.
    #[error("{} is compressed with {format}; instances are read plain, as gzip or as xz", path.display())]
    UnreadCompression {
        /// The file.
        path: PathBuf,
        /// The form its first bytes announce.
        format: &'static str,
    },
    /// The (decompressed) text is not DIMACS CNF. The line and column count in the
    /// decompressed text.
    #[error("{}:{error}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and how.
        error: ParseError,
    },
    /// The file could not be written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The failure.
        #[source]
        source: io::Error,
    },
}

/// Reads, digests and parses the instance file at `path`.
pub fn read_instance(path: &Path) -> Result<InstanceFile, FileError> {
    let stored = std::fs::read(path).map_err(|source| FileError::Read {
        path: path.to_owned(),
        source,
    })?;
    let digest = Digest::of_bytes(&stored);
    let (compression, text) = decompress(&stored).map_err(|e| e.at(path))?;
    let cnf = dimacs::parse(&text).map_err(|error| FileError::Parse {
        path: path.to_owned(),
        error,
    })?;
    Ok(InstanceFile {
        cnf,
        digest,
        compression,
        stored_bytes: stored.len() as u64,
        text_bytes: text.len() as u64,
    })
}

/// Why stored bytes could not be decompressed (the file's name is added by the caller).
#[derive(Debug, Error)]
pub enum DecompressError {
    /// Not valid in the compression the first bytes announce.
    #[error("not a valid {compression} stream")]
    Invalid {
        /// The compression announced.
        compression: Compression,
        /// The decoder's complaint.
        #[source]
        source: io::Error,
    },
    /// Compressed in a form this crate does not read.
    #[error("compressed with {format}")]
    Unread {
        /// The form the first bytes announce.
        format: &'static str,
    },
}

impl DecompressError {
    fn at(self, path: &Path) -> FileError {
        let path = path.to_owned();
        match self {
            DecompressError::Invalid {
                compression,
                source,
            } => FileError::Decompress {
                path,
                compression,
                source,
            },
            DecompressError::Unread { format } => FileError::UnreadCompression { path, format },
        }
    }
}

const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];
const XZ_MAGIC: &[u8] = &[0xfd, b'7', b'z', b'X', b'Z', 0];

/// Compressions recognised only to be refused with their name.
const UNREAD: &[(&[u8], &str)] = &[
    (b"BZh", "bzip2"),
    (&[0x28, 0xb5, 0x2f, 0xfd], "zstd"),
    (b"LZIP", "lzip"),
    (&[0x5d, 0, 0], "lzma (the old .lzma form)"),
    (&[b'P', b'K', 3, 4], "zip"),
];

/// The compression `stored` starts with.
pub fn compression_of(stored: &[u8]) -> Compression {
    if stored.starts_with(GZIP_MAGIC) {
        Compression::Gzip
    } else if stored.starts_with(XZ_MAGIC) {
        Compression::Xz
    } else {
        Compression::Plain
    }
}

/// The text of stored instance bytes: themselves if plain, else decompressed.
pub fn decompress(stored: &[u8]) -> Result<(Compression, Cow<'_, [u8]>), DecompressError> {
    let compression = compression_of(stored);
    let invalid = |source| DecompressError::Invalid {
        compression,
        source,
    };
    let mut text = Vec::new();
    match compression {
        Compression::Plain => {
            if let Some(&(_, format)) = UNREAD.iter().find(|(magic, _)| stored.starts_with(magic)) {
                return Err(DecompressError::Unread { format });
            }
            return Ok((compression, Cow::Borrowed(stored)));
        }
        Compression::Gzip => {
            text.reserve(stored.len().saturating_mul(4));
            flate2::read::MultiGzDecoder::new(stored)
                .read_to_end(&mut text)
                .map_err(invalid)?;
        }
        Compression::Xz => {
            text.reserve(stored.len().saturating_mul(4));
            lzma_rust2::XzReader::new(stored, true)
                .read_to_end(&mut text)
                .map_err(invalid)?;
        }
    }
    Ok((compression, Cow::Owned(text)))
}

/// Writes `cnf` to `path` as plain DIMACS ([`dimacs::write()`]'s canonical form) and
/// returns the file's digest.
///
/// The text goes to a temporary file in the same directory, which is then renamed onto
/// `path`: a reader (a solver started on the file) never sees half an instance, even if
/// the writer is killed.
pub fn write_instance(cnf: &Cnf, path: &Path) -> Result<Digest, FileError> {
    let write_error = |source| FileError::Write {
        path: path.to_owned(),
        source,
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let text = dimacs::to_bytes(cnf);
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(write_error)?;
    file.write_all(&text).map_err(write_error)?;
    file.as_file().sync_all().map_err(write_error)?;
    file.persist(path).map_err(|e| write_error(e.error))?;
    Ok(Digest::of_bytes(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Cnf {
        let mut cnf = Cnf::new(3);
        cnf.push_clause(&[1, -2]).expect("fits");
        cnf.push_clause(&[2, 3]).expect("fits");
        cnf
    }

    #[test]
    fn gzip_members_are_read_in_a_row() {
        let text = dimacs::to_bytes(&small());
        let (head, tail) = text.split_at(7);
        let mut stored = Vec::new();
        for part in [head, tail] {
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            encoder.write_all(part).expect("compress");
            stored.extend(encoder.finish().expect("compress"));
        }
        let (compression, read) = decompress(&stored).expect("valid gzip");
        assert_eq!(compression, Compression::Gzip);
        assert_eq!(&*read, &text[..]);
    }

    #[test]
    fn xz_streams_are_read_and_checked() {
        let text = dimacs::to_bytes(&small());
        let mut writer =
            lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(6))
                .expect("encoder");
        writer.write_all(&text).expect("compress");
        let mut stored = writer.finish().expect("compress");
        let (compression, read) = decompress(&stored).expect("valid xz");
        assert_eq!(compression, Compression::Xz);
        assert_eq!(&*read, &text[..]);
        // A flipped byte in the compressed data is caught by the decoder or the check.
        let middle = stored.len() / 2;
        stored[middle] ^= 0x40;
        assert!(matches!(
            decompress(&stored),
            Err(DecompressError::Invalid {
                compression: Compression::Xz,
                ..
            })
        ));
    }

    #[test]
    fn other_compressions_are_named() {
        let refused = decompress(b"BZh91AY&SY").expect_err("bzip2 is not read");
        assert_eq!(refused.to_string(), "compressed with bzip2");
        let (compression, text) = decompress(b"p cnf 0 0\n").expect("plain");
        assert_eq!(compression, Compression::Plain);
        assert!(matches!(text, Cow::Borrowed(_)), "plain text is not copied");
    }

    #[test]
    fn a_truncated_gzip_file_is_an_error() {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder
            .write_all(&dimacs::to_bytes(&small()))
            .expect("compress");
        let stored = encoder.finish().expect("compress");
        assert!(decompress(&stored[..stored.len() - 6]).is_err());
    }
}
