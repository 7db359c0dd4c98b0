//! The browse index: a few small columns of every row, held in memory as plain vectors.
//!
//! The page filters and sorts millions of rows on every keystroke, so the columns it
//! filters on are read once (through a Parquet projection: the board, start and solution
//! strings that dominate the files are never read here) and kept column by column, about
//! 40 bytes a row. The strings of a row (sweep, config, params, ...) are the same for
//! every row of a work unit, so they are interned as one "group" id per row. A game's
//! full row is read from its part file only when the page opens it (`game.rs`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use arrow::array::RecordBatch;
use hammer_dataset::{
    ColumnError, FileProblem, PartInfo, booleans, col, fill, for_each_str, int32s, int64s,
};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use rayon::prelude::*;
use serde::Serialize;

use crate::error::ViewError;

/// The strings shared by the rows of a work unit.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Group {
    pub sweep: String,
    pub experiment: String,
    pub config: String,
    pub params: String,
    pub puzzle: String,
    pub n: i32,
    pub order: String,
    pub schedule: String,
}

/// Per-row flags, packed in one byte.
pub const SOLVABLE: u8 = 1;
pub const EXHAUSTIVE: u8 = 2;

/// The dataset's rows, column by column, in part order (parts sorted by path).
#[derive(Debug, Default)]
pub struct Index {
    pub parts: Vec<PathBuf>,
    pub groups: Vec<Group>,
    pub group: Vec<u32>,
    pub part: Vec<u32>,
    /// The row's place in its part file.
    pub row: Vec<u32>,
    pub game_index: Vec<i64>,
    pub score: Vec<i32>,
    pub flags: Vec<u8>,
    pub expansions: Vec<i64>,
    pub wall_ns: Vec<i64>,
}

impl Index {
    pub fn len(&self) -> usize {
        self.group.len()
    }

    /// Approximate bytes held by the row columns.
    pub fn bytes(&self) -> usize {
        self.len() * (4 + 4 + 4 + 8 + 4 + 1 + 8 + 8)
    }
}

/// Columns read from every part; `experiment` and `n` come from the path.
const READ: &[&str] = &[
    col::SWEEP,
    col::CONFIG,
    col::ORDER,
    col::SCHEDULE,
    col::GAME_INDEX,
    col::MIN_STONES,
    col::SOLVABLE,
    col::EXHAUSTIVE,
    col::EXPANSIONS,
    col::WALL_NS,
];

/// Read when present: files written before puzzle families lack them (see
/// `hammer_dataset::fill`).
const OPTIONAL: &[&str] = &[col::PUZZLE, col::PARAMS, col::SCORE];

/// One part's rows, with group ids local to the part.
#[derive(Default)]
struct PartRows {
    groups: Vec<Group>,
    group: Vec<u32>,
    row: Vec<u32>,
    game_index: Vec<i64>,
    score: Vec<i32>,
    flags: Vec<u8>,
    expansions: Vec<i64>,
    wall_ns: Vec<i64>,
}

/// Reads the index of the dataset at `dir`; `progress` counts the parts read.
pub fn load(dir: &Path, progress: &AtomicU64) -> Result<Index, ViewError> {
    let parts = hammer_dataset::dataset_parts(dir)?;
    let read: Vec<PartRows> = parts
        .par_iter()
        .map(|part| {
            let rows = read_part(part);
            progress.fetch_add(1, Ordering::Relaxed);
            rows
        })
        .collect::<Result<_, _>>()?;
    let mut index = Index {
        parts: parts.iter().map(|p| p.path.clone()).collect(),
        ..Index::default()
    };
    let total: usize = read.iter().map(|p| p.group.len()).sum();
    index.group.reserve_exact(total);
    index.part.reserve_exact(total);
    let mut ids: HashMap<Group, u32> = HashMap::new();
    for (part_no, rows) in read.into_iter().enumerate() {
        let map: Vec<u32> = rows
            .groups
            .into_iter()
            .map(|g| {
                *ids.entry(g.clone()).or_insert_with(|| {
                    index.groups.push(g);
                    (index.groups.len() - 1) as u32
                })
            })
            .collect();
        index
            .group
            .extend(rows.group.iter().map(|&g| map[g as usize]));
        index
            .part
            .extend(std::iter::repeat_n(part_no as u32, rows.group.len()));
        index.row.extend(rows.row);
        index.game_index.extend(rows.game_index);
        index.score.extend(rows.score);
        index.flags.extend(rows.flags);
        index.expansions.extend(rows.expansions);
        index.wall_ns.extend(rows.wall_ns);
    }
    Ok(index)
}

fn file_error(path: &Path, problem: FileProblem) -> ViewError {
    ViewError::Dataset(hammer_dataset::Error::File {
        path: path.to_owned(),
        problem,
    })
}

fn read_part(part: &PartInfo) -> Result<PartRows, ViewError> {
    let path = part.path.as_path();
    let corrupt = |e: &dyn std::fmt::Display| file_error(path, FileProblem::Corrupt(e.to_string()));
    let file = hammer_dataset::open_part_file(path)?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| corrupt(&e))?;
    let has = |c: &str| builder.schema().column_with_name(c).is_some();
    if let Some(column) = READ.iter().copied().find(|c| !has(c)) {
        return Err(file_error(path, ColumnError::Missing { column }.into()));
    }
    let optional: Vec<&str> = OPTIONAL.iter().copied().filter(|c| has(c)).collect();
    let mask = ProjectionMask::columns(
        builder.parquet_schema(),
        READ.iter().copied().chain(optional.iter().copied()),
    );
    let reader = builder
        .with_projection(mask)
        .build()
        .map_err(|e| corrupt(&e))?;
    let mut out = PartRows::default();
    let mut base = 0u32;
    for batch in reader {
        let batch = batch.map_err(|e| corrupt(&e))?;
        append(part, &batch, base, &mut out).map_err(|e| file_error(path, e.into()))?;
        base += batch.num_rows() as u32;
    }
    Ok(out)
}

/// A string column as one id per row and the distinct values the ids point into.
type Interned = (Vec<u32>, Vec<String>);

/// A string column as ids into its distinct values (consecutive rows usually repeat a
/// value, so the last one is checked first), or `None` when the file predates it.
fn interned(batch: &RecordBatch, column: &'static str) -> Result<Option<Interned>, ColumnError> {
    if batch.column_by_name(column).is_none() {
        return Ok(None);
    }
    let mut ids = Vec::with_capacity(batch.num_rows());
    let mut values: Vec<String> = Vec::new();
    for_each_str(batch, column, |v| {
        let id = match values.last() {
            Some(last) if last == v => values.len() - 1,
            _ => match values.iter().position(|x| x == v) {
                Some(p) => p,
                None => {
                    values.push(v.to_owned());
                    values.len() - 1
                }
            },
        };
        ids.push(id as u32);
    })?;
    Ok(Some((ids, values)))
}

fn append(
    part: &PartInfo,
    batch: &RecordBatch,
    base: u32,
    out: &mut PartRows,
) -> Result<(), ColumnError> {
    let rows = batch.num_rows();
    let required = |c| interned(batch, c).map(Option::unwrap_or_default);
    let sweep = required(col::SWEEP)?;
    let config = required(col::CONFIG)?;
    let order = required(col::ORDER)?;
    let schedule = required(col::SCHEDULE)?;
    let puzzle = interned(batch, col::PUZZLE)?;
    let params = interned(batch, col::PARAMS)?;
    let min_stones = int32s(batch, col::MIN_STONES)?;
    let score = match batch.column_by_name(col::SCORE) {
        Some(_) => int32s(batch, col::SCORE)?,
        // A file written before families: the score is `fill::SCORE_FROM`, `min_stones`.
        None => min_stones,
    };
    let solvable = booleans(batch, col::SOLVABLE)?;
    let exhaustive = booleans(batch, col::EXHAUSTIVE)?;
    out.game_index
        .extend_from_slice(int64s(batch, col::GAME_INDEX)?);
    out.expansions
        .extend_from_slice(int64s(batch, col::EXPANSIONS)?);
    out.wall_ns.extend_from_slice(int64s(batch, col::WALL_NS)?);
    out.score.extend_from_slice(score);
    let at = |c: &Option<Interned>, i: usize| c.as_ref().map_or(u32::MAX, |(ids, _)| ids[i]);
    let mut keys: HashMap<[u32; 6], u32> = HashMap::new();
    for i in 0..rows {
        let key = [
            sweep.0[i],
            config.0[i],
            order.0[i],
            schedule.0[i],
            at(&puzzle, i),
            at(&params, i),
        ];
        let id = *keys.entry(key).or_insert_with(|| {
            let text = |c: &Option<Interned>| {
                c.as_ref()
                    .map(|(ids, values)| values[ids[i] as usize].clone())
            };
            let group = Group {
                sweep: sweep.1[key[0] as usize].clone(),
                experiment: part.experiment.clone(),
                config: config.1[key[1] as usize].clone(),
                params: text(&params).unwrap_or_else(|| fill::params(part.n)),
                puzzle: text(&puzzle).unwrap_or_else(|| fill::PUZZLE.to_owned()),
                n: part.n,
                order: order.1[key[2] as usize].clone(),
                schedule: schedule.1[key[3] as usize].clone(),
            };
            match out.groups.iter().position(|g| *g == group) {
                Some(p) => p as u32,
                None => {
                    out.groups.push(group);
                    (out.groups.len() - 1) as u32
                }
            }
        });
        out.group.push(id);
        out.row.push(base + i as u32);
        out.flags.push(
            u8::from(solvable.value(i)) * SOLVABLE + u8::from(exhaustive.value(i)) * EXHAUSTIVE,
        );
    }
    Ok(())
}
