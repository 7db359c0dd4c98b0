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

use crate::core::{Core, Part, Stored, WriteJob};
use crate::state::{CommitEntry, StateDir};
use crate::{CoordinatorError, Events, lock};

/// Starts `threads` writer threads sharing one queue and one journal.
///
/// Several threads, because encoding a part (Arrow conversion, zstd) and its three fsyncs
/// take tens of milliseconds, and one thread would cap ingest well below what the gRPC
/// side takes in. Journal lines may land in any order: each names its unit.
pub(crate) fn spawn(
    threads: usize,
    out: Store,
    state: StateDir,
    core: Arc<Mutex<Core>>,
    sweep: Arc<Sweep>,
    jobs: mpsc::Receiver<WriteJob>,
    events: watch::Sender<Events>,
) -> std::io::Result<Vec<std::thread::JoinHandle<Result<(), CoordinatorError>>>> {
    let state = Arc::new(Mutex::new(state));
    let jobs = Arc::new(Mutex::new(jobs));
    let events = Arc::new(events);
    // The store's client is async; the writer threads drive its futures on the
    // coordinator's runtime.
    let runtime = Handle::current();
    (0..threads.max(1))
        .map(|i| {
            let (runtime, out, state, core, sweep, jobs, events) = (
                runtime.clone(),
                out.clone(),
                state.clone(),
                core.clone(),
                sweep.clone(),
                jobs.clone(),
                events.clone(),
            );
            std::thread::Builder::new()
                .name(format!("hammer-writer-{i}"))
                .spawn(move || writer_loop(&runtime, &out, &state, &core, &sweep, &jobs, &events))
        })
        .collect()
}

fn writer_loop(
    runtime: &Handle,
    out: &Store,
    state: &Mutex<StateDir>,
    core: &Mutex<Core>,
    sweep: &Sweep,
    jobs: &Mutex<mpsc::Receiver<WriteJob>>,
    events: &watch::Sender<Events>,
) -> Result<(), CoordinatorError> {
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
            Ok(entry) => {
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

fn commit(
    runtime: &Handle,
    out: &Store,
    state: &Mutex<StateDir>,
    sweep: &Sweep,
    job: WriteJob,
) -> Result<CommitEntry, CoordinatorError> {
    let started = std::time::Instant::now();
    let entry = match job.part {
        Part::Written(entry) => entry,
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
            runtime.block_on(hammer_parts::put(out, sweep, part))?.0
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
    Ok(entry)
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
