//! The writer threads: turn each complete unit into one part, then journal it; or, for a
//! part a worker put itself, journal it.
//!
//! Order matters for exactly-once: the part is put, created only if absent and durable,
//! before the journal line is appended and fsynced. A crash between the two leaves a part
//! without a journal line; the next start finds it and commits it from its footer
//! (`parts::adopt`), and a unit that runs again anyway finds its name taken and keeps the
//! part in place, whose rows are the same. No key is ever written twice.

use std::sync::{Arc, Mutex, RwLock};

use hammer_store::Store;
use hammer_sweep::Sweep;
use tokio::runtime::Handle;
use tokio::sync::{mpsc, watch};
use tracing::{debug, error};

use hammer_parts::delta::LoggedPart;

use crate::core::Core;
use crate::delta::DeltaWriter;
use crate::error::CoordinatorError;
use crate::state::{CommitEntry, StateDir};
use crate::sync::lock;

pub(crate) mod job;

use job::{Events, Part, Stored, WriteJob};

/// What the writer threads write one sweep's parts with.
pub(crate) struct SweepWriting {
    pub out: Store,
    pub state: Mutex<StateDir>,
    pub core: Arc<Mutex<Core>>,
    pub sweep: Arc<Sweep>,
    pub events: watch::Sender<Events>,
    /// The Delta log that each committed part is queued for, when it is kept.
    pub delta: Option<Arc<DeltaWriter>>,
    /// Set when the sweep is cancelled. Commits hold it for reading, so a cancel, which
    /// takes it for writing, returns only after the commits under way, and no unit is
    /// committed after it.
    pub cancelled: RwLock<bool>,
}

/// A complete unit for the writer threads, with the sweep it belongs to.
pub(crate) struct Job {
    pub sweep: Arc<SweepWriting>,
    pub unit: WriteJob,
}

/// Starts `threads` writer threads sharing one queue of jobs of any sweep. A failed
/// commit is reported on `fatal`: the coordinator stops, and a restart resumes.
///
/// Several threads, because encoding a part (Arrow conversion, zstd) and its three fsyncs
/// take tens of milliseconds, and one thread would cap ingest well below what the gRPC
/// side takes in. Journal lines may land in any order: each names its unit.
pub(crate) fn spawn(
    threads: usize,
    jobs: mpsc::Receiver<Job>,
    fatal: watch::Sender<Option<String>>,
) -> std::io::Result<Vec<std::thread::JoinHandle<Result<(), CoordinatorError>>>> {
    let shared = Arc::new(Shared {
        // The store's client is async; the writer threads drive its futures on the
        // coordinator's runtime.
        runtime: Handle::current(),
        jobs: Mutex::new(jobs),
        fatal,
    });
    (0..threads.max(1))
        .map(|i| {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name(format!("hammer-writer-{i}"))
                .spawn(move || writer_loop(&shared))
        })
        .collect()
}

/// What every writer thread holds.
struct Shared {
    runtime: Handle,
    jobs: Mutex<mpsc::Receiver<Job>>,
    fatal: watch::Sender<Option<String>>,
}

fn writer_loop(shared: &Shared) -> Result<(), CoordinatorError> {
    loop {
        // One thread waits on the queue at a time; the others wait for the lock.
        let Some(Job { sweep, unit: job }) = lock(&shared.jobs).blocking_recv() else {
            return Ok(());
        };
        if shared.fatal.borrow().is_some() {
            // Another writer failed: stop writing, the coordinator is going down.
            return Ok(());
        }
        let slot = job.slot;
        let games = job.unit.games();
        let started = std::time::Instant::now();
        let cancelled = sweep.cancelled.read().unwrap_or_else(|e| e.into_inner());
        if *cancelled {
            debug!(unit = %job.unit_id, sweep = %sweep.sweep.name, "sweep cancelled; the unit is not written");
            lock(&sweep.core).write_failed(slot, games);
            continue;
        }
        match commit(&shared.runtime, &sweep, job) {
            Ok((entry, part)) => {
                if let Some(delta) = &sweep.delta {
                    delta.queue(part);
                }
                let complete = {
                    let mut core = lock(&sweep.core);
                    core.metrics.unit_written(started.elapsed());
                    core.mark_committed(slot, &entry);
                    core.is_complete()
                };
                sweep.events.send_modify(|e| e.committed(complete));
            }
            Err(e) => {
                error!(error = %e, sweep = %sweep.sweep.name, "cannot commit a unit; stopping");
                lock(&sweep.core).write_failed(slot, games);
                let message = hammer_proto::error_chain(&e);
                sweep
                    .events
                    .send_modify(|ev| ev.fatal = Some(message.clone()));
                shared.fatal.send_replace(Some(message));
                return Err(e);
            }
        }
    }
}

/// Writes (or takes) the unit's part and journals it; returns the journal line and the
/// part, for the Delta log.
fn commit(
    runtime: &Handle,
    writing: &SweepWriting,
    job: WriteJob,
) -> Result<(CommitEntry, LoggedPart), CoordinatorError> {
    let (out, state, sweep) = (&writing.out, &writing.state, &*writing.sweep);
    let started = std::time::Instant::now();
    let key = hammer_parts::key_of(sweep, &job.unit)?;
    let (entry, size) = match job.part {
        Part::Written(entry, size) => (entry, size),
        Part::Rows(mut results) => {
            // The slots hold the results in game order, which is the file's order.
            let games = results.iter_mut().map(|stored| {
                let Stored { result, worker } = stored;
                (
                    std::mem::take(result),
                    worker.id.as_str(),
                    worker.version.as_str(),
                )
            });
            let part = hammer_parts::encode(sweep, &job.unit, games)?;
            runtime.block_on(hammer_parts::put(out, sweep, part))?
        }
    };
    let written = started.elapsed();
    lock(state).append(&entry)?;
    debug!(
        unit = %entry.unit_id,
        games = entry.games,
        write_ms = written.as_secs_f64() * 1e3,
        journal_ms = (started.elapsed() - written).as_secs_f64() * 1e3,
        "committed"
    );
    Ok((entry, LoggedPart { key, size }))
}

#[cfg(test)]
mod tests {
    use super::job::Events;

    #[test]
    fn a_late_report_of_an_earlier_commit_does_not_undo_completion() {
        let mut events = Events::default();
        events.committed(false);
        // The last unit's writer reports first, the one before it second.
        events.committed(true);
        events.committed(false);
        assert!(events.complete);
        assert_eq!(events.committed_units, 3);
    }
}
