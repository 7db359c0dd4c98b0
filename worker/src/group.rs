//! [`run_group`]: several worker loops in one process over one solver pool.
//!
//! A worker loop holds one lease at a time and solves its unit on every thread of the
//! pool. When units have fewer games than the pool has threads (a continuation sweep's
//! units hold one game each, as a gang's do), one loop leaves threads idle;
//! several loops, each with its own lease, keep them busy. The coordinator sees them as
//! separate workers, so leases, heartbeats, speculation and resends work as they do
//! across machines, and results do not depend on how many loops there are.

use std::sync::Arc;

use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::error::WorkerError;
use crate::run::{Worker, WorkerOptions, WorkerReport};
use crate::shutdown::stopped;
use crate::solve::SolverPool;

/// Runs `leases` worker loops sharing `pool` until the sweep is complete, and returns
/// their reports. Loops are named `NAME-1`, `NAME-2`, ... when there are several; when
/// they take part in gangs, loop `i` listens for its gangs' members at the peer port plus
/// `i - 1` (each loop is a gang member of its own).
///
/// Setting `shutdown` stops them all ([`WorkerError::Stopped`]); when one loop fails, the
/// others are stopped and its error is returned.
pub async fn run_group(
    options: WorkerOptions,
    pool: Arc<SolverPool>,
    mut shutdown: watch::Receiver<bool>,
    leases: usize,
) -> Result<Vec<WorkerReport>, WorkerError> {
    let leases = leases.max(1);
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut loops = JoinSet::new();
    for i in 1..=leases {
        let mut options = options.clone();
        options.loops = leases;
        if leases > 1 {
            options.name = format!("{}-{i}", options.name);
            if let Some(peer) = options.peer.as_mut() {
                peer.shift_port(i as u16 - 1)?;
            }
        }
        loops.spawn(Worker::new(options, pool.clone(), stop_rx.clone()).run());
    }
    let mut reports = Vec::with_capacity(leases);
    let mut failure: Option<WorkerError> = None;
    let mut stopping = false;
    loop {
        tokio::select! {
            joined = loops.join_next() => {
                let result = match joined {
                    None => break,
                    Some(joined) => joined.unwrap_or_else(|e| Err(WorkerError::Task(e))),
                };
                match result {
                    Ok(report) => reports.push(report),
                    Err(e) => {
                        // The first error is the cause; the others are the stops it set off.
                        failure.get_or_insert(e);
                        stopping = true;
                        let _ = stop_tx.send(true);
                    }
                }
            }
            _ = stopped(&mut shutdown), if !stopping => {
                stopping = true;
                let _ = stop_tx.send(true);
            }
        }
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(reports),
    }
}
