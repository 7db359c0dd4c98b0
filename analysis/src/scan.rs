//! Reading a whole dataset: every footer first, then the parts in parallel (rayon), a
//! window at a time, appended in part order.
//!
//! Footers first, because they are cheap and give the row count: a bad file is refused
//! before any row is read, the row vector is allocated once at its final size (growing it
//! by doubling would need three times its size at the last step), and a dataset that
//! cannot fit the memory limit is refused up front with the numbers, instead of the
//! machine running out of memory halfway through. Parts are read in parallel in windows,
//! and each window is appended in part order with the string ids remapped, so the result
//! (and every id) is exactly what reading the parts one by one gives.

use std::path::Path;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::load::{Data, PartRows, Row, dataset_parts, footer_rows, read_part};

/// Bytes of memory the analysis needs per Martello row at its peak, measured on
/// `bench-ingest` datasets of 3 and 30 million rows (203 and 197 bytes a row of peak RSS;
/// docs/benchmarks.md, "Analysis at scale"): the row itself (80 bytes) plus the per-game
/// facts and what the figures build from them. Used only to refuse a dataset that cannot
/// fit `--memory-limit`.
pub const BYTES_PER_ROW: u64 = 210;

/// Memory the analysis needs besides the rows: buffers of the parts being read, names,
/// the figures of a small dataset.
pub const BASE_BYTES: u64 = 64 << 20;

/// How to read a dataset.
#[derive(Default)]
pub struct LoadOptions<'a> {
    /// Refuse a dataset whose estimated peak memory is above this many bytes.
    pub memory_limit: Option<u64>,
    /// Called after each window of parts with (rows read, rows in all footers).
    pub progress: Option<&'a (dyn Fn(u64, u64) + Sync)>,
}

/// What reading the dataset took: the report says it, so that a slow analysis shows
/// whether the time went into reading or into a figure.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct ReadStats {
    /// Rows in the part files (every family).
    pub rows_read: u64,
    pub parts: u64,
    /// Wall time of reading the parts, in seconds.
    pub read_seconds: f64,
    /// Wall time of each stage after reading (deduplication, each figure), in seconds.
    pub stages: Vec<(String, f64)>,
}

impl ReadStats {
    pub(crate) fn stage(&mut self, name: &str, took: Duration) {
        self.stages.push((name.to_owned(), took.as_secs_f64()));
    }
}

/// The memory an analysis of `rows` rows needs at its peak, by the measured estimate.
pub fn estimated_bytes(rows: u64) -> u64 {
    BASE_BYTES.saturating_add(rows.saturating_mul(BYTES_PER_ROW))
}

/// Reads the dataset at `dir` (see [`crate::load::load`]) as `options` say.
pub fn load_with(dir: &Path, options: &LoadOptions) -> Result<Data> {
    let started = Instant::now();
    let parts = dataset_parts(dir)?;
    let counts: Vec<u64> = parts
        .par_iter()
        .map(|p| footer_rows(&p.path))
        .collect::<Result<_>>()?;
    let total: u64 = counts.iter().sum();
    if let Some(limit) = options.memory_limit {
        let need = estimated_bytes(total);
        if need > limit {
            return Err(Error::MemoryLimit {
                path: dir.to_owned(),
                rows: total,
                need,
                limit,
            });
        }
    }
    let mut data = Data {
        dir: dir.to_owned(),
        parts: parts.len(),
        rows: Vec::with_capacity(usize::try_from(total).unwrap_or(0)),
        ..Data::default()
    };
    let window = 4 * rayon::current_num_threads().max(1);
    let mut read = 0u64;
    for (chunk, chunk_counts) in parts.chunks(window).zip(counts.chunks(window)) {
        let results: Vec<Result<PartRows>> = chunk.par_iter().map(read_part).collect();
        for (part, result) in chunk.iter().zip(results) {
            append_part(&mut data, &part.path, result?);
        }
        read += chunk_counts.iter().sum::<u64>();
        if let Some(progress) = options.progress {
            progress(read, total);
        }
    }
    data.stats.rows_read = total;
    data.stats.parts = parts.len() as u64;
    data.stats.read_seconds = started.elapsed().as_secs_f64();
    Ok(data)
}

/// Appends one part's rows with their local string ids mapped to the dataset's. Names are
/// interned in the part's first-seen order, which is the order reading the parts one by
/// one would have met them in.
fn append_part(data: &mut Data, path: &Path, part: PartRows) {
    let map: Vec<u32> = part
        .names
        .all()
        .iter()
        .map(|name| data.names.id(name))
        .collect();
    let global = |id: u32| map.get(id as usize).copied().unwrap_or(id);
    data.rows.extend(part.rows.into_iter().map(|r| Row {
        sweep: global(r.sweep),
        experiment: global(r.experiment),
        config: global(r.config),
        order: global(r.order),
        schedule: global(r.schedule),
        ..r
    }));
    if part.family {
        data.family_parts.push(path.to_owned());
    }
}

/// Parses a size such as `512M`, `4G`, `1.5G` or `1000000` (bytes; K, M, G, T are powers
/// of 1024, an optional trailing `B` or `iB` is accepted).
pub fn parse_size(text: &str) -> std::result::Result<u64, String> {
    let t = text.trim();
    let upper = t.to_ascii_uppercase();
    let body = upper
        .strip_suffix("IB")
        .or_else(|| upper.strip_suffix('B'))
        .unwrap_or(&upper);
    let (number, shift) = match body.chars().last() {
        Some('K') => (&body[..body.len() - 1], 10),
        Some('M') => (&body[..body.len() - 1], 20),
        Some('G') => (&body[..body.len() - 1], 30),
        Some('T') => (&body[..body.len() - 1], 40),
        _ => (body, 0),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a size (such as 512M, 4G or 1000000)"))?;
    if !value.is_finite() || value <= 0.0 {
        return Err(format!("{text:?}: a size must be positive"));
    }
    Ok((value * (1u64 << shift) as f64) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("4GiB"), Ok(4 << 30));
        assert_eq!(parse_size("1.5g"), Ok(3 << 29));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("-1G").is_err());
    }

    #[test]
    fn the_estimate_grows_with_the_rows() {
        assert_eq!(estimated_bytes(0), BASE_BYTES);
        assert!(estimated_bytes(30_000_000) > estimated_bytes(3_000_000));
        assert_eq!(estimated_bytes(u64::MAX), u64::MAX);
    }
}
