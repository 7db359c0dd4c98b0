//! The writer threads: turn each complete unit into one part, then journal it; or, for a
//! part a worker put itself, journal it.
//!
//! Order matters for exactly-once: the part is put, created only if absent and durable,
//! before the journal line is appended and fsynced. A crash between the two leaves a part
//! without a journal line; the next start finds it and commits it from its footer
//! (`parts::adopt`), and a unit that runs again anyway finds its name taken and keeps the
//! part in place, whose rows are the same. No key is ever written twice.

use std::sync::{Arc, Mutex};

use hammer_store::Store;
use hammer_sweep::Sweep;
use tokio::runtime::Handle;
use tokio::sync::{mpsc, watch};
use tracing::{debug, error};

use hammer_parts::delta::LoggedPart;

use crate::core::{Core, Part, Stored, WriteJob};
use crate::delta::DeltaWriter;
use crate::state::{CommitEntry, StateDir};
use crate::{CoordinatorError, Events, lock};

/// What the writer threads write with.
pub(crate) struct Writing {
    pub out: Store,
    pub state: StateDir,
    pub core: Arc<Mutex<Core>>,
    pub sweep: Arc<Sweep>,
    pub events: watch::Sender<Events>,
    /// The Delta log that each committed part is queued for, when it is kept.
    pub delta: Option<Arc<DeltaWriter>>,
}

/// Starts `threads` writer threads sharing one queue and one journal.
///
/// Several threads, because encoding a part (Arrow conversion, zstd) and its three fsyncs
/// take tens of milliseconds, and one thread would cap ingest well below what the gRPC
/// side takes in. Journal lines may land in any order: each names its unit.
pub(crate) fn spawn(
    threads: usize,
    writing: Writing,
    jobs: mpsc::Receiver<WriteJob>,
) -> std::io::Result<Vec<std::thread::JoinHandle<Result<(), CoordinatorError>>>> {
    let shared = Arc::new(Shared {
        // The store's client is async; the writer threads drive its futures on the
        // coordinator's runtime.
        runtime: Handle::current(),
        out: writing.out,
        state: Mutex::new(writing.state),
        core: writing.core,
        sweep: writing.sweep,
        jobs: Mutex::new(jobs),
        events: writing.events,
        delta: writing.delta,
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
    out: Store,
    state: Mutex<StateDir>,
    core: Arc<Mutex<Core>>,
    sweep: Arc<Sweep>,
    jobs: Mutex<mpsc::Receiver<WriteJob>>,
    events: watch::Sender<Events>,
    delta: Option<Arc<DeltaWriter>>,
}

fn writer_loop(shared: &Shared) -> Result<(), CoordinatorError> {
    let Shared {
        runtime,
        out,
        state,
        core,
        sweep,
        jobs,
        events,
        delta,
    } = shared;
    loop {
        // One thread waits on the queue at a time; the others wait for the lock.
        let Some(job) = lock(jobs).blocking_recv() else {
            return Ok(());
        };
        if events.borrow().fatal.is_some() {
            // Another writer failed: stop writing, the coordinator is going down.
            return Ok(());
        }
        let slot = job.slot;
        let games = job.unit.games();
        let started = std::time::Instant::now();
        match commit(runtime, out, state, sweep, job) {
            Ok((entry, part)) => {
                if let Some(delta) = delta {
                    delta.queue(part);
                }
                let complete = {
                    let mut core = lock(core);
                    core.metrics.unit_written(started.elapsed());
                    core.mark_committed(slot, &entry);
                    core.is_complete()
                };
                events.send_modify(|e| e.committed(complete));
            }
            Err(e) => {
                error!(error = %e, "cannot commit a unit; stopping");
                lock(core).write_failed(slot, games);
                let message = hammer_proto::error_chain(&e);
                events.send_modify(|ev| ev.fatal = Some(message));
                return Err(e);
            }
        }
    }
}

/// Writes (or takes) the unit's part and journals it; returns the journal line and the
/// part, for the Delta log.
fn commit(
    runtime: &Handle,
    out: &Store,
    state: &Mutex<StateDir>,
    sweep: &Sweep,
    job: WriteJob,
) -> Result<(CommitEntry, LoggedPart), CoordinatorError> {
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
    use crate::Events;

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
