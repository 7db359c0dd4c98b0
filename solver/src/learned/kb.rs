//! The knowledge base file: per radius, how often a move transition was taken on a
//! solution path and how often it belonged to a legal move that was not taken.
//!
//! Layout, all integers little-endian:
//!
//! ```text
//! "HAMMERKB"            8 bytes of magic
//! format version        u32 (FORMAT_VERSION)
//! feature version       u32 (the puzzle's signature version it was learned with)
//! n, radius             u8, u8, then 2 zero bytes
//! games                 u64: solutions replayed
//! per radius 1..=R:     u64 count, then count x (key u64, taken u32, untaken u32),
//!                       keys strictly increasing
//! digest                16 bytes: xxh3-128 of everything before it
//! ```
//!
//! The entries are sorted, so the same counts always give the same bytes and digest.

use std::path::Path;

use rustc_hash::FxHashMap;

/// The version of this layout.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"HAMMERKB";
const HEADER: usize = 8 + 4 + 4 + 4 + 8;
const ENTRY: usize = 16;

/// Counts of one transition: on a solution path, and on a legal move not taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Times the transition was on a solution path.
    pub taken: u32,
    /// Times it was a legal move not taken.
    pub untaken: u32,
}

/// A knowledge base in memory: one table per radius, the transition hash as key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kb {
    /// The board side it was learned on.
    pub n: u8,
    /// The puzzle's feature version the keys were hashed with.
    pub feature_version: u32,
    /// Solutions replayed.
    pub games: u64,
    /// `tables[r - 1]`: the transitions cut at radius `r`.
    pub(crate) tables: Vec<FxHashMap<u64, Counts>>,
}

/// What is wrong with a knowledge base file.
#[derive(Debug, thiserror::Error)]
pub enum KbProblem {
    /// The file could not be read.
    #[error("cannot read it")]
    Read(#[source] std::io::Error),
    /// The file could not be written.
    #[error("cannot write it")]
    Write(#[source] std::io::Error),
    /// The file does not start with the format's magic.
    #[error("not a hammer knowledge base (no HAMMERKB magic)")]
    Magic,
    /// A format version this build does not read.
    #[error("format version {0}, this build reads version {FORMAT_VERSION}")]
    Format(u32),
    /// Keys computed by other move features than this build's.
    #[error("feature version {found}, this build computes version {expected}: learn it again")]
    Features {
        /// The file's feature version.
        found: u32,
        /// This build's feature version.
        expected: u32,
    },
    /// The file is shorter than its contents say; the text says where.
    #[error("truncated: {0}")]
    Truncated(&'static str),
    /// The trailing digest does not match the contents.
    #[error("digest mismatch: the file is truncated or corrupted")]
    Digest,
    /// A knowledge base received from a coordinator whose bytes do not have the digest
    /// the coordinator announced.
    #[error("received with digest {found:032x}, but the coordinator announced {announced:032x}")]
    Received {
        /// The digest of the bytes received.
        found: u128,
        /// The digest the coordinator announced.
        announced: u128,
    },
    /// The keys of this radius are out of order.
    #[error("keys of radius {0} are not strictly increasing")]
    Unsorted(usize),
    /// Contents that break the format in another way.
    #[error("{0}")]
    Invalid(String),
}

/// A knowledge base file and what is wrong with it.
#[derive(Debug, thiserror::Error)]
#[error("knowledge base {path}")]
pub struct KbError {
    /// The file's path.
    pub path: String,
    /// What is wrong with it.
    #[source]
    pub problem: KbProblem,
}

impl KbError {
    fn new(path: &Path, problem: KbProblem) -> KbError {
        KbError {
            path: path.display().to_string(),
            problem,
        }
    }
}

impl Kb {
    /// An empty knowledge base for boards of side `n`, up to `radius`.
    pub fn new(n: u8, radius: usize, feature_version: u32) -> Kb {
        Kb {
            n,
            feature_version,
            games: 0,
            tables: (0..radius).map(|_| FxHashMap::default()).collect(),
        }
    }

    /// Checks that it was learned with feature version `expected`, the version of the
    /// puzzle's features (`hammer_puzzle::MoveFeatures::VERSION`) it is to order.
    pub fn check_features(&self, expected: u32) -> Result<(), KbProblem> {
        if self.feature_version != expected {
            return Err(KbProblem::Features {
                found: self.feature_version,
                expected,
            });
        }
        Ok(())
    }

    /// The longest radius it holds.
    pub fn radius(&self) -> usize {
        self.tables.len()
    }

    /// The counts of a transition hash at radius `r` (1-based), if it was ever seen.
    #[inline]
    pub fn get(&self, r: usize, key: u64) -> Option<Counts> {
        self.tables.get(r.wrapping_sub(1))?.get(&key).copied()
    }

    /// Distinct transitions and their total counts at radius `r` (1-based).
    pub fn stats(&self, r: usize) -> (usize, u64, u64) {
        let table = &self.tables[r - 1];
        let (t, u) = table.values().fold((0u64, 0u64), |(t, u), c| {
            (t + c.taken as u64, u + c.untaken as u64)
        });
        (table.len(), t, u)
    }

    /// The file's bytes, digest included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let entries: usize = self.tables.iter().map(FxHashMap::len).sum();
        let mut out = Vec::with_capacity(HEADER + 8 * self.tables.len() + ENTRY * entries + 16);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&self.feature_version.to_le_bytes());
        out.extend_from_slice(&[self.n, self.tables.len() as u8, 0, 0]);
        out.extend_from_slice(&self.games.to_le_bytes());
        for table in &self.tables {
            let mut keys: Vec<(&u64, &Counts)> = table.iter().collect();
            keys.sort_unstable_by_key(|(k, _)| **k);
            out.extend_from_slice(&(keys.len() as u64).to_le_bytes());
            for (k, c) in keys {
                out.extend_from_slice(&k.to_le_bytes());
                out.extend_from_slice(&c.taken.to_le_bytes());
                out.extend_from_slice(&c.untaken.to_le_bytes());
            }
        }
        let digest = xxhash_rust::xxh3::xxh3_128(&out);
        out.extend_from_slice(&digest.to_le_bytes());
        out
    }

    /// The digest the file ends with (xxh3-128 of the rest of it).
    pub fn digest(&self) -> u128 {
        let bytes = self.to_bytes();
        let mut d = [0u8; 16];
        d.copy_from_slice(&bytes[bytes.len() - 16..]);
        u128::from_le_bytes(d)
    }

    /// Writes the file atomically and durably: a temporary file, synced, renamed over
    /// `path`, and the directory synced, so a crash leaves the old file or the new one.
    pub fn write(&self, path: &Path) -> Result<(), KbError> {
        use std::io::Write;
        let tmp = path.with_extension("kb.tmp");
        let write = || -> std::io::Result<()> {
            let mut file = std::fs::File::create(&tmp)?;
            file.write_all(&self.to_bytes())?;
            file.sync_all()?;
            std::fs::rename(&tmp, path)?;
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
            std::fs::File::open(dir.unwrap_or(Path::new(".")))?.sync_all()
        };
        write().map_err(|e| KbError::new(path, KbProblem::Write(e)))
    }

    /// Reads and checks a file. Its feature version is checked where it meets a puzzle
    /// ([`Kb::check_features`]).
    pub fn read(path: &Path) -> Result<(Kb, u128), KbError> {
        let bytes = std::fs::read(path).map_err(|e| KbError::new(path, KbProblem::Read(e)))?;
        Kb::from_bytes(&bytes).map_err(|p| KbError::new(path, p))
    }

    /// Parses and checks a file's bytes; returns the knowledge base and its digest.
    pub fn from_bytes(bytes: &[u8]) -> Result<(Kb, u128), KbProblem> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(KbProblem::Magic);
        }
        if bytes.len() < HEADER + 16 {
            return Err(KbProblem::Truncated("shorter than its header"));
        }
        let (body, tail) = bytes.split_at(bytes.len() - 16);
        let mut reader = Reader { bytes: body, at: 8 };
        let format = reader.u32()?;
        if format != FORMAT_VERSION {
            return Err(KbProblem::Format(format));
        }
        let digest = u128::from_le_bytes(tail.try_into().map_err(|_| KbProblem::Digest)?);
        if xxhash_rust::xxh3::xxh3_128(body) != digest {
            return Err(KbProblem::Digest);
        }
        let feature_version = reader.u32()?;
        let head = reader.take(4)?;
        let (n, radius) = (head[0], head[1] as usize);
        if n == 0 || radius == 0 {
            return Err(KbProblem::Invalid(format!(
                "board side {n} and radius {radius}: both must be at least 1"
            )));
        }
        let mut kb = Kb::new(n, radius, feature_version);
        kb.games = reader.u64()?;
        for r in 1..=radius {
            let count = reader.u64()? as usize;
            if count > (body.len() - reader.at) / ENTRY {
                return Err(KbProblem::Truncated("fewer entries than its count says"));
            }
            let table = &mut kb.tables[r - 1];
            table.reserve(count);
            let mut last = None;
            for _ in 0..count {
                let key = reader.u64()?;
                if last.is_some_and(|l| l >= key) {
                    return Err(KbProblem::Unsorted(r));
                }
                last = Some(key);
                let taken = reader.u32()?;
                let untaken = reader.u32()?;
                table.insert(key, Counts { taken, untaken });
            }
        }
        if reader.at != body.len() {
            return Err(KbProblem::Invalid(format!(
                "{} bytes after the last table",
                body.len() - reader.at
            )));
        }
        Ok((kb, digest))
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, k: usize) -> Result<&[u8], KbProblem> {
        let end = self.at.checked_add(k).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(KbProblem::Truncated("ends inside a table"))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, KbProblem> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> Result<u64, KbProblem> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}
