//! A compaction's plan: the journal that makes it all or nothing across a crash.
//!
//! The compacted files are first written under `.hammer-compact/RUN/K.staged`, a hidden
//! directory that hive readers and the dataset's own listing skip, and whose files do
//! not end in `.parquet`, so no glob of part files matches them either. Once every one
//! of them is durable, the plan `.hammer-compact/RUN.plan` is put create-only: it names
//! each output's staged file, its place in the dataset and the parts it replaces. The
//! plan's put is the commit point.
//!
//! - Before it, nothing a reader sees has changed; recovery deletes the staged files of
//!   a run without a plan (roll back).
//! - After it, recovery finishes the plan (roll forward), each step idempotent: move
//!   every staged file to its place (one already in place stays), write one Delta log
//!   version that removes the inputs and adds the outputs (when the dataset has a log
//!   and it lacks them), delete the inputs, then the plan.
//!
//! An output is in place before any input is deleted, so no crash loses a row.
//!
//! - In a local directory each partition is swapped whole: its next contents (the
//!   outputs, and the files that were not inputs) are hard-linked into a work directory
//!   under `.hammer-compact/RUN/`, which `renameat2(RENAME_EXCHANGE)` exchanges with the
//!   partition. A reader listing the partition sees the old parts or the new files,
//!   never both, and the old parts are then removed with the work directory. A Delta
//!   reader between the exchange and the log's version finds the old parts gone (an
//!   error it reports, not a wrong row) until the version is written, just after.
//! - In an object store, which has no such step, each output is copied into place and
//!   the inputs are deleted after the log's version: a reader of the Delta log sees the
//!   old parts or the new files, one version apart, while a reader that lists the
//!   prefix in between sees both for that moment. A crash in that moment leaves the
//!   dataset so until the next `hammer compact`, or the coordinator's start on the
//!   dataset, finishes the plan.

use hammer_store::{Created, Store, Swap};
use serde_json::{Value, json};

use super::Step;
use crate::PartError;
use crate::delta::{DeltaLog, LoggedPart};

/// The hidden directory of staged files and plans, below the dataset's location.
pub const DIR: &str = ".hammer-compact";

/// One compacted file to publish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Output {
    /// Where it is staged.
    pub staged: String,
    /// Its key in the dataset, and its size.
    pub part: LoggedPart,
    /// The parts whose rows it holds, which it replaces.
    pub inputs: Vec<LoggedPart>,
}

/// A run's outputs, in the order they were staged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Plan {
    pub run: String,
    pub outputs: Vec<Output>,
}

fn plan_key(run: &str) -> String {
    format!("{DIR}/{run}.plan")
}

pub(crate) fn staged_key(run: &str, index: usize) -> String {
    format!("{DIR}/{run}/{index}.staged")
}

impl Plan {
    /// Commits the run: from now on it is finished, never rolled back.
    pub(crate) async fn commit(&self, store: &Store) -> Result<(), PartError> {
        let text = self.to_json().to_string();
        match store.create(&plan_key(&self.run), text.into()).await? {
            Created::New => Ok(()),
            Created::Exists => Err(PartError::Compaction(format!(
                "{} exists already",
                plan_key(&self.run)
            ))),
        }
    }

    /// Publishes the outputs, logs the change and deletes the inputs and the plan;
    /// returns the Delta log's new version, if one was written.
    pub(crate) async fn finish(
        &self,
        store: &Store,
        at: &(dyn Fn(Step) + Sync),
    ) -> Result<Option<u64>, PartError> {
        self.publish(store).await?;
        at(Step::Published);
        let version = match DeltaLog::existing(store).await? {
            Some(mut log) => {
                let adds: Vec<LoggedPart> = self.outputs.iter().map(|o| o.part.clone()).collect();
                let removes: Vec<LoggedPart> =
                    self.outputs.iter().flat_map(|o| o.inputs.clone()).collect();
                log.rewrite(&adds, &removes).await?
            }
            None => None,
        };
        for input in self.outputs.iter().flat_map(|o| &o.inputs) {
            store.delete(&input.key).await?;
        }
        store.delete(&plan_key(&self.run)).await?;
        Ok(version)
    }

    /// Puts the outputs in place, partition by partition. Where the store can swap a
    /// directory (a local one), a partition's inputs give way to its outputs in one step,
    /// so that a reader listing it never sees both; elsewhere each output is moved to its
    /// place, and the inputs go after the Delta log's version.
    async fn publish(&self, store: &Store) -> Result<(), PartError> {
        let mut partitions: Vec<(&str, Vec<&Output>)> = Vec::new();
        for output in &self.outputs {
            let dir = parent(&output.part.key);
            match partitions.iter_mut().find(|(d, _)| *d == dir) {
                Some((_, outputs)) => outputs.push(output),
                None => partitions.push((dir, vec![output])),
            }
        }
        for (index, (dir, outputs)) in partitions.iter().enumerate() {
            let work = format!("{DIR}/{}/swap-{index}", self.run);
            if swap_partition(store, dir, &work, outputs).await? == Swap::Done {
                continue;
            }
            // Unsupported here, or swapped before a crash: any leftover of the swap goes,
            // and each output is put (or found) in place.
            store.discard_swap(&work).await?;
            for output in outputs {
                publish(store, output).await?;
            }
        }
        Ok(())
    }

    fn to_json(&self) -> Value {
        let part = |p: &LoggedPart| json!([p.key, p.size]);
        let outputs: Vec<Value> = self
            .outputs
            .iter()
            .map(|o| {
                json!({
                    "staged": o.staged,
                    "part": part(&o.part),
                    "inputs": o.inputs.iter().map(part).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({"hammer-compact": 1, "run": self.run, "outputs": outputs})
    }

    fn from_json(key: &str, text: &[u8]) -> Result<Plan, PartError> {
        let bad = || PartError::Compaction(format!("{key} is not a compaction plan"));
        let value: Value = serde_json::from_slice(text).map_err(|_| bad())?;
        let part = |v: &Value| -> Option<LoggedPart> {
            Some(LoggedPart {
                key: v.get(0)?.as_str()?.to_owned(),
                size: v.get(1)?.as_u64()?,
            })
        };
        let output = |v: &Value| -> Option<Output> {
            Some(Output {
                staged: v.get("staged")?.as_str()?.to_owned(),
                part: part(v.get("part")?)?,
                inputs: v
                    .get("inputs")?
                    .as_array()?
                    .iter()
                    .map(part)
                    .collect::<Option<_>>()?,
            })
        };
        let plan = || -> Option<Plan> {
            Some(Plan {
                run: value.get("run")?.as_str()?.to_owned(),
                outputs: value
                    .get("outputs")?
                    .as_array()?
                    .iter()
                    .map(output)
                    .collect::<Option<_>>()?,
            })
        };
        plan().ok_or_else(bad)
    }
}

/// The directory part of a key (`experiment=e/n=5` of `experiment=e/n=5/part-a.parquet`).
fn parent(key: &str) -> &str {
    key.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// The file-name part of a key.
fn file_name(key: &str) -> &str {
    key.rsplit_once('/').map_or(key, |(_, name)| name)
}

/// Swaps a partition's inputs for its outputs in one step, when none of the outputs is
/// in place yet (a swap a crash interrupted after the exchange left them there) and the
/// store can; then deletes their staged files.
async fn swap_partition(
    store: &Store,
    dir: &str,
    work: &str,
    outputs: &[&Output],
) -> Result<Swap, PartError> {
    for output in outputs {
        let placed = store.size(&output.part.key).await?.is_some();
        if placed || store.size(&output.staged).await?.is_none() {
            return Ok(Swap::Unsupported);
        }
    }
    let removed: Vec<String> = outputs
        .iter()
        .flat_map(|o| &o.inputs)
        .filter(|input| parent(&input.key) == dir)
        .map(|input| file_name(&input.key).to_owned())
        .collect();
    let added: Vec<(String, String)> = outputs
        .iter()
        .map(|o| (o.staged.clone(), file_name(&o.part.key).to_owned()))
        .collect();
    let swap = store.swap_dir(dir, work, &removed, &added).await?;
    if swap == Swap::Done {
        for output in outputs {
            store.delete(&output.staged).await?;
        }
    }
    Ok(swap)
}

/// Moves an output from its staged name to its place, unless it is there already.
async fn publish(store: &Store, output: &Output) -> Result<(), PartError> {
    if store.size(&output.part.key).await?.is_some() {
        // Moved before a crash: an object store's copy may have left the staged one.
        return Ok(store.delete(&output.staged).await?);
    }
    if store.size(&output.staged).await?.is_none() {
        return Err(PartError::Compaction(format!(
            "{} is neither staged at {} nor in place; the plan cannot be finished, and no \
             input was deleted",
            output.part.key, output.staged
        )));
    }
    Ok(store.rename(&output.staged, &output.part.key).await?)
}

/// Finishes every committed plan and deletes the staged files of runs without one;
/// returns how many plans were finished. Call it while nothing else writes the dataset.
pub async fn recover(store: &Store) -> Result<usize, PartError> {
    let keys = store.list(DIR).await?;
    let plans: Vec<&String> = keys.iter().filter(|k| k.ends_with(".plan")).collect();
    for key in &plans {
        let plan = Plan::from_json(key, &store.get(key).await?)?;
        plan.finish(store, &|_| {}).await?;
    }
    let committed = |key: &str| {
        let run = key
            .strip_prefix(DIR)
            .and_then(|k| k.trim_start_matches('/').split('/').next());
        run.is_some_and(|run| keys.contains(&plan_key(run)))
    };
    for key in keys.iter().filter(|k| k.ends_with(".staged")) {
        if !committed(key) {
            store.delete(key).await?;
        }
    }
    Ok(plans.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_reads_back() {
        let part = |key: &str, size| LoggedPart {
            key: key.to_owned(),
            size,
        };
        let plan = Plan {
            run: "r1".into(),
            outputs: vec![Output {
                staged: staged_key("r1", 0),
                part: part("experiment=e/n=5/part-compact-r1-0.parquet", 30),
                inputs: vec![part("experiment=e/n=5/part-a.parquet", 10)],
            }],
        };
        let text = plan.to_json().to_string();
        assert_eq!(Plan::from_json("k", text.as_bytes()).unwrap(), plan);
        assert!(Plan::from_json("k", b"{}").is_err());
    }
}
