//! Compaction: many small parts of a partition rewritten as few files of a target size,
//! as Delta Lake's OPTIMIZE and Iceberg's rewrite of data files do.
//!
//! Each `experiment=…/n=…` directory is compacted on its own, so the hive partitioning
//! stays. A compacted file holds its inputs' rows unchanged, in the order a reader of the
//! old parts met them (by part name, which orders by unit, then each part's own order),
//! in the file schema. Its footer lists every unit it holds with the unit's summary
//! ([`Holding`]), so that a coordinator resuming the sweep recognises those units as
//! committed, as it recognises a unit's part. Parts of different sweeps (digests) never
//! share a file.
//!
//! The rewrite is all or nothing across a crash: see [`plan`] for where the argument is
//! kept.

mod holding;
pub mod plan;

use std::collections::BTreeMap;

use hammer_dataset::{PartEncoder, part_batches, part_metadata};
use hammer_store::{Created, Store};

use crate::PartError;
use crate::delta::LoggedPart;
pub use holding::{Holding, holding_of};
pub use plan::recover;
use plan::{Output, Plan, staged_key};

/// The prefix of a compacted file's part id; unit ids start with `e`.
pub const COMPACTED: &str = "compact-";

/// Whether the key names a compacted file, whose footer lists the units it holds.
pub fn is_compacted(key: &str) -> bool {
    holding::part_id_of(key).is_some_and(|id| id.starts_with(COMPACTED))
}

/// How to compact.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The size a compacted file grows to, in bytes of its inputs: a file is closed
    /// before the input that would take it past this. Files this large already stay.
    pub target_size: u64,
}

/// The points between a compaction's steps, which a test may stop the process at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Every output is staged; the plan is not written.
    Staged,
    /// The plan is written: the compaction is committed.
    Planned,
    /// Every output is in place; the inputs are not deleted.
    Published,
}

/// What a compaction did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Unfinished compactions found and finished first.
    pub recovered: usize,
    /// Partition directories that had parts to compact.
    pub partitions: usize,
    /// Parts replaced.
    pub inputs: usize,
    /// Their bytes.
    pub input_bytes: u64,
    /// Compacted files written.
    pub outputs: usize,
    /// Their bytes.
    pub output_bytes: u64,
    /// Rows moved.
    pub rows: u64,
    /// The Delta log's version that records the rewrite, when the dataset has a log.
    pub delta_version: Option<u64>,
}

/// Compacts the dataset at `store`, after finishing any compaction a crash left; `at` is
/// called between the steps. Nothing else may write the dataset meanwhile: neither a
/// coordinator of a sweep writing into it nor another compaction.
pub async fn compact(
    store: &Store,
    options: Options,
    at: &(dyn Fn(Step) + Sync),
) -> Result<Report, PartError> {
    let mut report = Report {
        recovered: recover(store).await?,
        ..Report::default()
    };
    let mut plan = Plan {
        run: run_id(),
        outputs: Vec::new(),
    };
    for ((experiment, n), files) in partitions(store.list_sized("").await?) {
        let small: Vec<_> = files
            .into_iter()
            .filter(|(_, size)| *size < options.target_size)
            .collect();
        if small.len() < 2 {
            continue;
        }
        let before = plan.outputs.len();
        let mut stager = Stager {
            store,
            plan: &mut plan,
            report: &mut report,
            experiment: &experiment,
            n,
        };
        stager.partition(small, options.target_size).await?;
        report.partitions += usize::from(plan.outputs.len() > before);
    }
    if plan.outputs.is_empty() {
        return Ok(report);
    }
    at(Step::Staged);
    plan.commit(store).await?;
    at(Step::Planned);
    report.delta_version = plan.finish(store, at).await?;
    Ok(report)
}

/// The dataset's part files by partition, each partition's in key order.
fn partitions(entries: Vec<(String, u64)>) -> BTreeMap<(String, i32), Vec<(String, u64)>> {
    let mut out: BTreeMap<(String, i32), Vec<(String, u64)>> = BTreeMap::new();
    for (key, size) in entries {
        let parts: Vec<&str> = key.split('/').collect();
        let [experiment, n, file] = parts[..] else {
            continue;
        };
        let (Some(experiment), Some(n)) = (
            experiment.strip_prefix("experiment="),
            n.strip_prefix("n=").and_then(|n| n.parse::<i32>().ok()),
        ) else {
            continue;
        };
        if holding::part_id_of(file).is_some() {
            out.entry((experiment.to_owned(), n))
                .or_default()
                .push((key, size));
        }
    }
    for files in out.values_mut() {
        files.sort();
    }
    out
}

/// A run's id: the time and the process, so that two runs never share staged names.
fn run_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{nanos:x}{:x}", std::process::id())
}

/// One compacted file being written: its encoder, what it holds, and its inputs.
struct Bin {
    encoder: PartEncoder,
    holding: Holding,
    inputs: Vec<LoggedPart>,
    bytes_in: u64,
}

/// Stages the compacted files of one partition into the plan.
struct Stager<'a> {
    store: &'a Store,
    plan: &'a mut Plan,
    report: &'a mut Report,
    experiment: &'a str,
    n: i32,
}

impl Stager<'_> {
    /// Reads the partition's small parts in key order into one bin per sweep digest, and
    /// stages a bin whenever the next part would take it past `target`.
    async fn partition(&mut self, files: Vec<(String, u64)>, target: u64) -> Result<(), PartError> {
        let mut bins: BTreeMap<Option<String>, Bin> = BTreeMap::new();
        for (key, size) in files {
            let bytes = self.store.get(&key).await?;
            let part_id = holding::part_id_of(&key).unwrap_or(&key).to_owned();
            let holding = Holding::of(part_metadata(&part_id, bytes.clone())?, &part_id);
            let digest = holding.digest.clone();
            if let Some(bin) = bins.get(&digest)
                && bin.bytes_in > 0
                && bin.bytes_in + size > target
                && let Some(full) = bins.remove(&digest)
            {
                self.stage(full).await?;
            }
            let bin = match bins.entry(digest) {
                std::collections::btree_map::Entry::Occupied(bin) => bin.into_mut(),
                std::collections::btree_map::Entry::Vacant(slot) => slot.insert(Bin {
                    encoder: PartEncoder::new(&key)?,
                    holding: Holding {
                        digest: holding.digest.clone(),
                        ..Holding::default()
                    },
                    inputs: Vec::new(),
                    bytes_in: 0,
                }),
            };
            for batch in part_batches(bytes, self.experiment, self.n, &key)? {
                bin.encoder.write(&batch)?;
            }
            bin.holding.extend(holding);
            bin.inputs.push(LoggedPart { key, size });
            bin.bytes_in += size;
        }
        for (_, bin) in bins {
            self.stage(bin).await?;
        }
        Ok(())
    }

    /// Writes a bin of two or more parts to its staged name; a bin of one stays as it is.
    async fn stage(&mut self, bin: Bin) -> Result<(), PartError> {
        if bin.inputs.len() < 2 {
            return Ok(());
        }
        let rows = bin.encoder.rows();
        if let Some(games) = bin.holding.games().filter(|&g| g != rows) {
            return Err(PartError::Compaction(format!(
                "the footers of {} and the {} parts after it count {games} rows, their files \
                 hold {rows}",
                bin.inputs[0].key,
                bin.inputs.len() - 1
            )));
        }
        let index = self.plan.outputs.len();
        let part_id = format!("{COMPACTED}{}-{index}", self.plan.run);
        let key = hammer_dataset::part_key(self.experiment, self.n, &part_id);
        let bytes = bin.encoder.finish(&bin.holding.pairs())?;
        let staged = staged_key(&self.plan.run, index);
        let size = bytes.len() as u64;
        if self.store.create(&staged, bytes.into()).await? == Created::Exists {
            return Err(PartError::Compaction(format!("{staged} exists already")));
        }
        self.report.inputs += bin.inputs.len();
        self.report.input_bytes += bin.bytes_in;
        self.report.outputs += 1;
        self.report.output_bytes += size;
        self.report.rows += rows;
        self.plan.outputs.push(Output {
            staged,
            part: LoggedPart { key, size },
            inputs: bin.inputs,
        });
        Ok(())
    }
}
