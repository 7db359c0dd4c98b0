//! Streaming a unit's results to the coordinator under its lease, with heartbeats that
//! keep the lease alive and carry progress, until the coordinator has the whole unit.
//!
//! When the coordinator asks workers to write the dataset, a unit solved alone goes
//! another way: no result is streamed; once every game is solved, the worker encodes the
//! unit's part, puts it into the store (created only if absent), and sends only what it
//! holds. Heartbeats go on while the part is put.

use std::sync::Arc;
use std::time::Duration;

use hammer_proto::error_chain;
use hammer_proto::v1::{
    BatchAck, HeartbeatRequest, LeaseProgress, ResultBatch, UnitState, UnitWritten,
};
use hammer_store::Store;
use hammer_sweep::Sweep;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep_until, timeout};
use tokio_stream::wrappers::ReceiverStream;
use tracing::{debug, warn};

use crate::connect::{Client, ClientError};
use crate::error::WorkerError;
use crate::run::{Current, Mode, SolverMsg, WorkerOptions, stopped};
use crate::solve::{HAMMER_VERSION, SolveError};

/// Streams the results of `current` under `lease_id` until the coordinator has every game
/// of the unit. Returns true when the unit is complete, false when the coordinator no
/// longer needs it (another worker finished it first).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn work(
    client: &mut Client,
    options: &WorkerOptions,
    shutdown: &mut watch::Receiver<bool>,
    worker_id: &str,
    store: Option<&Store>,
    sweep: &Arc<Sweep>,
    current: &mut Current,
    lease_id: &str,
    heartbeat: Duration,
) -> Result<bool, WorkerError> {
    let (experiment, config) = sweep
        .config_of(&current.unit)
        .ok_or_else(|| WorkerError::BadLease(format!("unknown unit {}", current.unit_id)))?;
    let header = ResultBatch {
        worker_id: worker_id.to_owned(),
        lease_id: lease_id.to_owned(),
        experiment: experiment.name.clone(),
        config: config.id.clone(),
        n: current.unit.n,
        params: current.params.clone(),
        results: Vec::new(),
        written: None,
    };
    let (tx, rx) = mpsc::channel::<ResultBatch>(4);
    let mut acks = client.submit(ReceiverStream::new(rx)).await?.into_inner();
    let mut heartbeat_client = client.clone();
    // Everything kept from before a reconnect is sent again: the coordinator may have
    // lost it, and it drops what it already has.
    let mut sent = 0usize;
    let mut in_flight = 0usize;
    let mut flush_at: Option<Instant> = None;
    let mut next_heartbeat = Instant::now() + heartbeat;
    let games = if current.mode.follows() {
        0
    } else {
        current.unit.games() as usize
    };
    // A gang's game goes to the coordinator as a row, whoever writes the dataset.
    let store = store.filter(|_| !current.mode.in_gang());
    let mut put: Option<JoinHandle<Result<UnitWritten, WorkerError>>> = None;
    let mut told = false;
    loop {
        if current.mode.is_over() {
            return Ok(false);
        }
        if let Some(store) = store {
            // The rows stay here: the part carries them.
            sent = current.results.len();
            if current.mode.solved() && current.written.is_none() && put.is_none() {
                put = Some(spawn_put(store, sweep, current, worker_id));
            }
        }
        let tell = current.written.is_some() && !told;
        let pending = current.results.len() - sent;
        if pending > 0 && flush_at.is_none() {
            flush_at = Some(Instant::now() + options.flush_after);
        }
        let due = flush_at.is_some_and(|t| t <= Instant::now());
        let want_send =
            pending >= options.batch_rows || (pending > 0 && (current.mode.solved() || due));
        if current.mode.solved() && pending == 0 && in_flight == 0 && put.is_none() && !tell {
            // Every result was acknowledged but the unit is not complete: the coordinator
            // lost results (it restarted). Reconnect and resend them all.
            return Err(ClientError::Rpc(tonic::Status::unavailable(
                "the coordinator acknowledged every result but does not have the whole unit",
            ))
            .into());
        }
        tokio::select! {
            _ = stopped(shutdown) => return Err(WorkerError::Stopped),
            ack = acks.message() => {
                let ack = ack?.ok_or_else(|| {
                    ClientError::Rpc(tonic::Status::unavailable("the coordinator closed the result stream"))
                })?;
                in_flight = in_flight.saturating_sub(1);
                if let Some(ours) = unit_done(&ack, current, games) {
                    return Ok(ours);
                }
            }
            msg = current.rx.recv(), if !current.mode.solved() => {
                take_rows(current, msg, options.batch_rows + sent, games)?;
            }
            written = async { put.as_mut().expect("guarded").await }, if put.is_some() => {
                put = None;
                current.written = Some(written.map_err(WorkerError::Task)??);
            }
            permit = tx.reserve(), if tell => {
                let permit = permit.map_err(|_| {
                    ClientError::Rpc(tonic::Status::unavailable("the result stream closed"))
                })?;
                permit.send(ResultBatch {
                    written: current.written.clone(),
                    ..header.clone()
                });
                told = true;
                in_flight += 1;
            }
            permit = tx.reserve(), if want_send => {
                let permit = permit.map_err(|_| {
                    ClientError::Rpc(tonic::Status::unavailable("the result stream closed"))
                })?;
                let end = (sent + options.batch_rows).min(current.results.len());
                permit.send(ResultBatch {
                    results: current.results[sent..end].to_vec(),
                    ..header.clone()
                });
                sent = end;
                in_flight += 1;
                flush_at = None;
            }
            _ = sleep_until(flush_at.unwrap_or_else(Instant::now)), if pending > 0 && !want_send => {}
            _ = sleep_until(next_heartbeat) => {
                next_heartbeat = Instant::now() + heartbeat;
                if !beat(&mut heartbeat_client, worker_id, lease_id, current, heartbeat).await? {
                    return Ok(false);
                }
            }
        }
    }
}

/// Whether `ack` says the unit is in the dataset, and if so, whether by this worker's
/// rows or part (`Some(true)`) or another's (`Some(false)`).
fn unit_done(ack: &BatchAck, current: &Current, games: usize) -> Option<bool> {
    let state = UnitState::try_from(ack.unit_state).unwrap_or(UnitState::Unspecified);
    if !matches!(state, UnitState::Complete | UnitState::Committed) {
        return None;
    }
    let ours = current.mode.solved() && current.results.len() == games;
    debug!(unit = %current.unit_id, ours, "unit complete");
    Some(ours)
}

/// Keeps the solver's message `msg`, and what else is ready up to `limit` results
/// without going through the select again.
fn take_rows(
    current: &mut Current,
    msg: Option<SolverMsg>,
    limit: usize,
    games: usize,
) -> Result<(), WorkerError> {
    match msg {
        Some(SolverMsg::Row(row)) => {
            current.results.push(row);
            while current.results.len() < limit {
                match current.rx.try_recv() {
                    Ok(SolverMsg::Row(row)) => current.results.push(row),
                    Ok(SolverMsg::Done(result)) => return finish_solving(current, result, games),
                    Err(_) => break,
                }
            }
            Ok(())
        }
        Some(SolverMsg::Done(result)) => finish_solving(current, result, games),
        None => finish_solving(current, Ok(()), games),
    }
}

/// Encodes the solved unit's part and puts it into the dataset, on tasks of its own so
/// that heartbeats go on meanwhile. Returns what the part in the store holds: this
/// worker's, or that of another writer of the unit that put its part first.
fn spawn_put(
    store: &Store,
    sweep: &Arc<Sweep>,
    current: &Current,
    worker_id: &str,
) -> JoinHandle<Result<UnitWritten, WorkerError>> {
    let (store, sweep, unit) = (store.clone(), sweep.clone(), current.unit);
    let (results, worker_id) = (current.results.clone(), worker_id.to_owned());
    tokio::spawn(async move {
        let encoding = sweep.clone();
        let part = tokio::task::spawn_blocking(move || {
            let mut results = results;
            // Rows come as games finish; the part holds them in game order.
            results.sort_unstable_by_key(|r| r.game_index);
            let games = results
                .into_iter()
                .map(|r| (r, worker_id.as_str(), HAMMER_VERSION));
            hammer_parts::encode(&encoding, &unit, games)
        })
        .await
        .map_err(WorkerError::Task)??;
        let (summary, bytes) = hammer_parts::put(&store, &sweep, part).await?;
        debug!(unit = %summary.unit_id, bytes, "part put into the dataset");
        Ok(summary.written(bytes))
    })
}

/// Sends one heartbeat for `lease_id` with the unit's progress. Returns false when the coordinator dropped the lease or the
/// sweep is complete.
async fn beat(
    client: &mut Client,
    worker_id: &str,
    lease_id: &str,
    current: &mut Current,
    heartbeat: Duration,
) -> Result<bool, WorkerError> {
    let request = HeartbeatRequest {
        worker_id: worker_id.to_owned(),
        lease_ids: vec![lease_id.to_owned()],
        progress: vec![LeaseProgress {
            lease_id: lease_id.to_owned(),
            expansions: current.expansions(),
        }],
    };
    let answer = timeout(
        heartbeat.max(Duration::from_secs(5)),
        client.heartbeat(request),
    )
    .await
    .map_err(|_| ClientError::Rpc(tonic::Status::deadline_exceeded("heartbeat timed out")))??
    .into_inner();
    if answer.unknown_lease_ids.iter().any(|l| l == lease_id) {
        return Err(
            ClientError::Rpc(tonic::Status::not_found("the coordinator forgot the lease")).into(),
        );
    }
    if answer.dropped_lease_ids.iter().any(|l| l == lease_id) || answer.sweep_complete {
        debug!(unit = %current.unit_id, "lease dropped by the coordinator");
        return Ok(false);
    }
    Ok(true)
}

fn finish_solving(
    current: &mut Current,
    result: Result<(), SolveError>,
    games: usize,
) -> Result<(), WorkerError> {
    match result {
        Ok(()) => {
            // Rows sent before `Done` are all in the channel ahead of it.
            while let Ok(SolverMsg::Row(row)) = current.rx.try_recv() {
                current.results.push(row);
            }
            if current.results.len() != games {
                return Err(WorkerError::BadLease(format!(
                    "unit {} has {games} games but {} were solved",
                    current.unit_id,
                    current.results.len()
                )));
            }
            current.mode = current.mode.solved_all();
            Ok(())
        }
        Err(SolveError::Cancelled) => Err(WorkerError::Stopped),
        Err(e @ SolveError::Gang { .. }) => {
            warn!(error = %error_chain(&e), "the gang broke; the game will be leased to a new gang");
            current.mode = Mode::GangBroke;
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}
