//! Reading a whole dataset: every footer first, then the parts in parallel (rayon), a
//! window at a time, in part order.
//!
//! Footers first, because they are cheap and give the row count: a bad file is refused
//! before any row is read, and a dataset that cannot fit the memory limit is refused up
//! front with the numbers, instead of the machine running out of memory halfway through.
//! Parts are read in parallel in windows, and each window is consumed in part order with
//! the string ids remapped, so the result (and every id) is exactly what reading the
//! parts one by one gives.
//!
//! The analysis ([`stream`]) keeps no row in its first pass: each window feeds the
//! accumulators of `stream.rs` while the next window is read. A second pass re-reads only
//! the parts holding rows of the figures that pair games, window by window of games
//! (`paired.rs`), and keeps none of them past its window.
//! [`load_with`] keeps every row instead, for callers that want them; [`RowSource`] hands
//! every row to a callback and keeps none (the tuner).

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::load::{Data, Names, PartRows, Row, dataset_parts, footer_rows, read_part};
use crate::paired::{self, Paired, WINDOW_ROWS, Window};
use crate::prepare::GameKey;
use crate::prepare::Prepared;
use crate::report::ReadStats;
use crate::stream::{PartNeed, Plan, Stream};
use hammer_dataset::PartInfo;

/// Bytes of memory the analysis needs per row at its peak when no figure pairs games, with
/// room over the peak RSS of `bench-ingest` datasets (docs/benchmarks.md, "Analysis at
/// scale"), mostly the per-game pages (4.25 bytes a game, up to 6.25 with expansions
/// above 65,535). Used only to refuse a dataset that cannot fit `--memory-limit`.
pub const BYTES_PER_ROW: u64 = 8;

/// Bytes per row of a window of the figures that pair games: the row (80 bytes) in the
/// window being fed and in the next one being read, and the window's per-game maps. An
/// estimate with room over what docs/benchmarks.md reports.
pub const BYTES_PER_WINDOW_ROW: u64 = 400;

/// Bytes the paired figures keep per row of theirs after its window: at most one entry per
/// (game, line) of a figure, a few numbers, and usually one for many rows (trials, tries).
pub const BYTES_PER_PAIRED_ROW: u64 = 24;

/// The fewest rows a window is given whatever the memory limit: below this the re-reads
/// of parts that cross windows cost more than the memory saved.
pub const MIN_WINDOW_ROWS: u64 = 1 << 14;

/// The rows of a window: [`WINDOW_ROWS`], or fewer when `limit` leaves less room than that
/// above the memory needed `before` the windows.
fn window_rows(limit: Option<u64>, before: u64) -> u64 {
    match limit {
        None => WINDOW_ROWS,
        Some(limit) => (limit.saturating_sub(before) / BYTES_PER_WINDOW_ROW)
            .clamp(MIN_WINDOW_ROWS, WINDOW_ROWS),
    }
}

/// Bytes per row of a puzzle family with an analysis of its own (`families/`'s `EXTRAS`,
/// the slide tours), which holds whole rows: `ResultRow` is 536 bytes before its strings
/// (board, start, solution, names), so 1.25 KiB is an estimate with room for them, not a
/// measurement. Checked after the first pass, when the family parts are known.
pub const BYTES_PER_FAMILY_ROW: u64 = 1280;

/// Bytes per row of the other families' generic sections, which count as they read: at
/// most an entry of a group's expansions -> rows map and of the header's distinct games
/// per row (an estimate: both are usually far fewer than the rows).
pub const BYTES_PER_FAMILY_COUNTED_ROW: u64 = 64;

/// Bytes per row when every row is held ([`load_with`]): the row and the vector's slack.
pub const BYTES_PER_LOADED_ROW: u64 = 100;

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
    /// Rows of the paired figures held at once, about ([`crate::paired::WINDOW_ROWS`] by
    /// default); tests make it small to cut datasets into many windows.
    pub window_rows: Option<u64>,
}

/// The memory an analysis of `rows` rows needs at its peak, by the measured estimate,
/// before the rows of the figures that pair games (known after the first pass).
pub fn estimated_bytes(rows: u64) -> u64 {
    BASE_BYTES.saturating_add(rows.saturating_mul(BYTES_PER_ROW))
}

/// The memory [`load_with`] needs to hold `rows` rows.
pub fn loaded_bytes(rows: u64) -> u64 {
    BASE_BYTES.saturating_add(rows.saturating_mul(BYTES_PER_LOADED_ROW))
}

fn check_limit(dir: &Path, rows: u64, need: u64, limit: Option<u64>) -> Result<()> {
    match limit {
        Some(limit) if need > limit => Err(Error::MemoryLimit {
            path: dir.to_owned(),
            rows,
            need,
            limit,
        }),
        _ => Ok(()),
    }
}

/// The dataset's parts and the row count of each, from the footers.
fn footers(dir: &Path) -> Result<(Vec<PartInfo>, Vec<u64>)> {
    let parts = dataset_parts(dir)?;
    let counts: Vec<u64> = parts
        .par_iter()
        .map(|p| footer_rows(&p.path))
        .collect::<Result<_>>()?;
    Ok((parts, counts))
}

/// Reads every part of the dataset at `dir`, with no memory limit and no progress report.
///
/// A missing directory or one without any part file is refused: an empty report would look
/// like a successful analysis of a sweep that produced nothing.
pub fn load(dir: &Path) -> Result<Data> {
    load_with(dir, &LoadOptions::default())
}

/// Reads the dataset at `dir` (see [`load`]) as `options` say, keeping every row.
pub fn load_with(dir: &Path, options: &LoadOptions) -> Result<Data> {
    let started = Instant::now();
    let (parts, counts) = footers(dir)?;
    let total: u64 = counts.iter().sum();
    check_limit(dir, total, loaded_bytes(total), options.memory_limit)?;
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

/// What [`stream`] read: the prepared facts and rows, and what the report says of the
/// reading.
pub(crate) struct Streamed {
    pub prepared: Prepared,
    /// The per-game values of the figures that pair games.
    pub paired: Paired,
    pub family_parts: Vec<PathBuf>,
    pub parts: usize,
    pub stats: ReadStats,
}

/// A window of parts read in parallel.
fn read_window(parts: &[PartInfo]) -> Vec<Result<PartRows>> {
    parts.par_iter().map(read_part).collect()
}

/// Reads `parts` in windows of two per thread, each window's parts in parallel and the
/// next window while `feed` consumes this one, and hands `feed` every window in part
/// order with the position of its first part.
fn read_in_windows(
    parts: &[PartInfo],
    mut feed: impl FnMut(usize, &[PartInfo], Vec<Result<PartRows>>) -> Result<()> + Send,
) -> Result<()> {
    let window = 2 * rayon::current_num_threads().max(1);
    let windows: Vec<&[PartInfo]> = parts.chunks(window).collect();
    let mut current = windows.first().map(|w| read_window(w)).unwrap_or_default();
    for (k, chunk) in windows.iter().enumerate() {
        let (next, fed) = rayon::join(
            || windows.get(k + 1).map(|w| read_window(w)),
            || feed(k * window, chunk, std::mem::take(&mut current)),
        );
        fed?;
        current = next.unwrap_or_default();
    }
    Ok(())
}

/// The part's rows with their local string ids mapped to the dataset's (`names`),
/// interning the names it meets first.
fn globalise(names: &mut Names, part: PartRows) -> Vec<Row> {
    let map: Vec<u32> = part.names.all().iter().map(|name| names.id(name)).collect();
    remap(part.rows, &map)
}

/// `rows` with their string ids replaced through `map` (the part's id -> the dataset's);
/// an id outside `map` becomes `u32::MAX`, which names nothing.
fn remap(mut rows: Vec<Row>, map: &[u32]) -> Vec<Row> {
    let global = |id: u32| map.get(id as usize).copied().unwrap_or(u32::MAX);
    for r in &mut rows {
        r.sweep = global(r.sweep);
        r.experiment = global(r.experiment);
        r.config = global(r.config);
        r.order = global(r.order);
        r.schedule = global(r.schedule);
    }
    rows
}

/// The first pass's state besides the accumulators.
struct First {
    stream: Stream,
    names: Names,
    family_parts: Vec<PathBuf>,
    /// The memory their sections need, by the footers' row counts.
    family_bytes: u64,
}

impl First {
    /// Feeds a window of parts, the first numbered `base`, in part order.
    fn feed(
        &mut self,
        base: usize,
        parts: &[PartInfo],
        counts: &[u64],
        rows: Vec<Result<PartRows>>,
    ) -> Result<()> {
        for (i, ((part, result), &count)) in parts.iter().zip(rows).zip(counts).enumerate() {
            let result = result?;
            if result.family {
                // Its rows of another family are for `families/`; the Martello rows read
                // before them (if a foreign writer mixed the two) are fed as ever.
                self.family_parts.push(part.path.clone());
                self.family_bytes +=
                    count.saturating_mul(if crate::families::keeps_rows(&result.family_name) {
                        BYTES_PER_FAMILY_ROW
                    } else {
                        BYTES_PER_FAMILY_COUNTED_ROW
                    });
            }
            let rows = globalise(&mut self.names, result);
            self.stream.add_part(base + i, &rows, &self.names);
        }
        Ok(())
    }
}

/// Reads the dataset at `dir` for the analysis: a first pass that keeps no row, then the
/// rows of the figures that pair games (see the module's comment).
pub(crate) fn stream(dir: &Path, options: &LoadOptions) -> Result<Streamed> {
    let started = Instant::now();
    let (parts, counts) = footers(dir)?;
    let total: u64 = counts.iter().sum();
    check_limit(dir, total, estimated_bytes(total), options.memory_limit)?;
    let mut first = First {
        stream: Stream::default(),
        names: Names::default(),
        family_parts: Vec::new(),
        family_bytes: 0,
    };
    let mut read = 0u64;
    read_in_windows(&parts, |base, window, rows| {
        let window_counts = counts.get(base..base + window.len()).unwrap_or_default();
        first.feed(base, window, window_counts, rows)?;
        read += window_counts.iter().sum::<u64>();
        if let Some(progress) = options.progress {
            progress(read, total);
        }
        Ok(())
    })?;
    let timing = first.stream.timing;
    let (prepared, plan) = first.stream.finish(first.names);
    let mut stats = ReadStats {
        rows_read: total,
        parts: parts.len() as u64,
        read_seconds: started.elapsed().as_secs_f64(),
        ..ReadStats::default()
    };
    stats.stage("deduplicate", timing.deduplicate);
    stats.stage("prepare", timing.prepare);
    stats.stage("overview rows", timing.overview);
    stats.stage("counts", timing.counts);
    let before = estimated_bytes(total)
        .saturating_add(plan.rows().saturating_mul(BYTES_PER_PAIRED_ROW))
        .saturating_add(first.family_bytes);
    let max_rows = options
        .window_rows
        .unwrap_or_else(|| window_rows(options.memory_limit, before));
    let need = before.saturating_add(
        plan.rows()
            .min(max_rows)
            .saturating_mul(BYTES_PER_WINDOW_ROW),
    );
    check_limit(dir, total, need, options.memory_limit)?;
    let second = Instant::now();
    let pass = second_pass(&parts, &plan, &prepared, max_rows)?;
    stats.stage("paired rows", second.elapsed());
    stats.rows_kept = pass.paired.rows;
    stats.parts_reread = pass.reads;
    stats.paired_windows = pass.paired.windows;
    stats.largest_window = pass.paired.largest_window;
    Ok(Streamed {
        prepared,
        paired: pass.paired,
        family_parts: first.family_parts,
        parts: parts.len(),
        stats,
    })
}

/// The part's rows with their ids mapped to the dataset's `names`, which the first pass
/// filled with every name (a name it did not see maps to `u32::MAX`, which no figure
/// looks for).
fn globalise_known(names: &Names, part: PartRows) -> Vec<Row> {
    let map: Vec<u32> = part
        .names
        .all()
        .iter()
        .map(|name| names.find(name).unwrap_or(u32::MAX))
        .collect();
    remap(part.rows, &map)
}

/// What the second pass did, for the report.
pub(crate) struct SecondPass {
    pub paired: Paired,
    /// Part files read (a part crossing a window's edge is read once per window).
    pub reads: u64,
}

/// Feeds the paired figures window by window of games (see `paired.rs`): each window's
/// parts are read in parallel while the previous window is fed.
fn second_pass(
    parts: &[PartInfo],
    plan: &Plan,
    prepared: &Prepared,
    max_rows: u64,
) -> Result<SecondPass> {
    let needed: Vec<&PartNeed> = plan.needed().collect();
    let windows = paired::windows(&needed, max_rows);
    let mut out = SecondPass {
        paired: Paired::new(prepared, &plan.fig13_orders),
        reads: 0,
    };
    // A part's rows of the window, read in parallel: only those are held, so a part that
    // spans many windows costs a read per window, not its rows in each.
    let read = |w: &Window| -> Vec<Result<Vec<Row>>> {
        w.parts
            .par_iter()
            .map(|&i| {
                let Some((need, part)) = needed
                    .get(i)
                    .and_then(|need| Some((need, parts.get(need.part)?)))
                else {
                    return Ok(Vec::new());
                };
                let rows = globalise_known(&prepared.names, read_part(part)?);
                let mut kept = Vec::new();
                keep_rows(plan, &need.dropped, rows, |r| {
                    if w.holds(&GameKey::of(&r)) {
                        kept.push(r);
                    }
                });
                Ok(kept)
            })
            .collect()
    };
    let mut current = windows.first().map(read).unwrap_or_default();
    for (k, window) in windows.iter().enumerate() {
        let (next, fed) = rayon::join(
            || windows.get(k + 1).map(read),
            || -> Result<()> {
                // In part order: the reading order that decides which row of a key wins.
                let mut rows = Vec::new();
                for part in std::mem::take(&mut current) {
                    rows.append(&mut part?);
                }
                out.paired.add(prepared, &rows);
                Ok(())
            },
        );
        fed?;
        out.reads += window.parts.len() as u64;
        current = next.unwrap_or_default();
    }
    Ok(out)
}

/// Passes on the rows of one part the plan keeps, skipping positions in `dropped`
/// (sorted).
pub(crate) fn keep_rows(plan: &Plan, dropped: &[u32], rows: Vec<Row>, mut keep: impl FnMut(Row)) {
    let mut dropped = dropped.iter().peekable();
    for (at, row) in rows.into_iter().enumerate() {
        let at = u32::try_from(at).unwrap_or(u32::MAX);
        if dropped.next_if(|&&d| d == at).is_some() {
            continue;
        }
        if plan.keeps(&row) {
            keep(row);
        }
    }
}

/// The analysis's reading of rows already in memory (one part), as [`stream`] reads a
/// dataset on disk: one window holds every game.
pub(crate) fn stream_rows(data: Data) -> Streamed {
    let mut stream = Stream::default();
    stream.add_part(0, &data.rows, &data.names);
    let (prepared, plan) = stream.finish(data.names);
    let mut paired = Paired::new(&prepared, &plan.fig13_orders);
    if let Some(need) = plan.needed().next() {
        let mut rows = Vec::new();
        keep_rows(&plan, &need.dropped, data.rows, |r| rows.push(r));
        paired.add(&prepared, &rows);
    }
    let mut stats = data.stats;
    stats.rows_kept = paired.rows;
    stats.paired_windows = paired.windows;
    stats.largest_window = paired.largest_window;
    Streamed {
        prepared,
        paired,
        family_parts: data.family_parts,
        parts: data.parts,
        stats,
    }
}

/// Appends one part's rows with their local string ids mapped to the dataset's. Names are
/// interned in the part's first-seen order, which is the order reading the parts one by
/// one would have met them in.
fn append_part(data: &mut Data, path: &Path, part: PartRows) {
    if part.family {
        data.family_parts.push(path.to_owned());
    }
    let mut rows = globalise(&mut data.names, part);
    data.rows.append(&mut rows);
}

/// Where a reader of every row (the tuner) gets its rows: a dataset on disk, streamed part
/// by part so that no row outlives its window.
#[derive(Clone, Copy)]
pub struct RowSource<'a>(pub &'a Path);

impl RowSource<'_> {
    /// The dataset's directory, for messages that name it.
    pub fn dir(&self) -> &Path {
        self.0
    }

    /// Calls `f` with every row in reading order (deduplicated as `load` is not: a reader
    /// that needs it keys its own maps), with the names interned so far; returns the
    /// names, whose ids the rows carry. Two visits of one dataset give the same ids.
    /// Windows of parts are read in parallel, each fed in part order while the next is
    /// read.
    pub fn visit(&self, f: &mut (dyn FnMut(&Names, &Row) + Send)) -> Result<Names> {
        let (parts, _) = footers(self.0)?;
        let mut names = Names::default();
        read_in_windows(&parts, |_, _, window| {
            for result in window {
                let rows = globalise(&mut names, result?);
                for r in &rows {
                    f(&names, r);
                }
            }
            Ok(())
        })?;
        Ok(names)
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
    fn a_family_row_fits_its_estimate_with_room_for_its_strings() {
        let size = std::mem::size_of::<hammer_dataset::ResultRow>() as u64;
        eprintln!("ResultRow: {size} bytes");
        assert!(2 * size <= BYTES_PER_FAMILY_ROW, "{size}");
    }

    #[test]
    fn a_tighter_memory_limit_makes_smaller_windows() {
        assert_eq!(window_rows(None, 0), WINDOW_ROWS);
        assert_eq!(window_rows(Some(u64::MAX), 1 << 30), WINDOW_ROWS);
        let room = 10_000 * MIN_WINDOW_ROWS;
        assert_eq!(
            window_rows(Some((1 << 30) + room), 1 << 30),
            room / BYTES_PER_WINDOW_ROW
        );
        assert_eq!(window_rows(Some(1 << 20), 1 << 30), MIN_WINDOW_ROWS);
    }

    #[test]
    fn the_estimate_grows_with_the_rows() {
        assert_eq!(estimated_bytes(0), BASE_BYTES);
        assert!(estimated_bytes(30_000_000) > estimated_bytes(3_000_000));
        assert_eq!(estimated_bytes(u64::MAX), u64::MAX);
    }
}
