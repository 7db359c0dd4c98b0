//! Streaming a unit's results to the coordinator under its lease, with heartbeats that
//! keep the lease alive and carry progress, until the coordinator has the whole unit.
//!
//! When the coordinator asks workers to write the dataset, a unit solved alone goes
//! another way: no result is streamed; once every game is solved, the worker encodes the
//! unit's part, puts it into the store (created only if absent), and sends only what it
//! holds. Heartbeats go on while the part is put.
//!
//! Whatever breaks the stream and may mend on a new connection (the stream closed, a
//! heartbeat unanswered, the lease forgotten, every result acknowledged but the unit not
//! complete) ends it with [`WorkerError::Reconnect`]; the worker then connects again and
//! resends what it kept.

use std::future::pending;
use std::sync::Arc;
use std::time::Duration;

use hammer_proto::v1::{
    BatchAck, HeartbeatRequest, LeaseProgress, ResultBatch, UnitState, UnitWritten,
};
use hammer_store::Store;
use hammer_sweep::Sweep;
use tokio::sync::mpsc::{self, Permit, error::SendError};
use tokio::sync::watch;
use tokio::task::{JoinError, JoinHandle};
use tokio::time::{Instant, sleep_until, timeout};
use tokio_stream::wrappers::ReceiverStream;
use tonic::Streaming;
use tracing::debug;

use crate::connect::Client;
use crate::error::WorkerError;
use crate::shutdown::stopped;
use crate::solve::HAMMER_VERSION;
use crate::unit::Current;

/// A lease as its stream needs it: whose it is, the unit's sweep and dataset, and how
/// results are batched and the lease kept alive.
pub(crate) struct Leased<'a> {
    pub(crate) worker_id: &'a str,
    pub(crate) lease_id: &'a str,
    pub(crate) sweep: &'a Arc<Sweep>,
    /// Where the unit's part goes, when the coordinator asks workers to write the dataset.
    pub(crate) store: Option<&'a Store>,
    /// How often the coordinator asks for a heartbeat.
    pub(crate) heartbeat: Duration,
    /// Most results in one batch.
    pub(crate) batch_rows: usize,
    /// How long after its first result a partial batch goes at the latest.
    pub(crate) flush_after: Duration,
}

/// How a lease's stream ended, once the coordinator needs nothing more of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StreamEnd {
    /// The unit is in the dataset by this worker's rows or part.
    Ours,
    /// The unit is in the dataset by another worker's, the coordinator dropped the lease,
    /// or the search is over with nothing to send (a gang's follower, a broken gang).
    NotOurs,
}

/// Where a solved unit's part is, when this worker puts it into the dataset.
enum Delivery {
    /// No part is under way: the unit is being solved, or its rows are streamed.
    Streaming,
    /// The part is being encoded and put.
    Putting(JoinHandle<Result<UnitWritten, WorkerError>>),
    /// The part is in the store, and the coordinator is yet to hear it on this stream.
    Telling(UnitWritten),
    /// The coordinator was told on this stream.
    Told,
}

impl Delivery {
    /// How the put ended; never resolves when no put is under way.
    async fn put_done(&mut self) -> Result<Result<UnitWritten, WorkerError>, JoinError> {
        match self {
            Delivery::Putting(put) => put.await,
            _ => pending().await,
        }
    }
}

/// The result stream of one connection, and the acknowledgements coming back on it.
struct Link {
    tx: mpsc::Sender<ResultBatch>,
    acks: Streaming<BatchAck>,
}

/// One lease's stream: the state of the loop of [`work`], and one method per event.
struct UnitStream<'a> {
    lease: &'a Leased<'a>,
    current: &'a mut Current,
    /// What every batch of this lease says of the unit.
    header: ResultBatch,
    /// The rows this worker makes of the unit: none for a gang's follower.
    games: usize,
    /// The store the part goes into: none for a gang's game, which goes to the
    /// coordinator as a row whoever writes the dataset.
    store: Option<&'a Store>,
    /// Results sent on this stream. Everything kept from before a reconnect is sent
    /// again: the coordinator may have lost it, and it drops what it already has.
    sent: usize,
    /// Batches sent and not acknowledged yet.
    in_flight: usize,
    /// When the results not sent yet go, whether they fill a batch or not.
    flush_at: Option<Instant>,
    next_heartbeat: Instant,
    delivery: Delivery,
    heartbeats: Client,
}

/// What the current turn of the loop may do.
struct Ready {
    /// Results kept and not sent.
    pending: usize,
    /// A batch of results is due.
    send: bool,
    /// The part's summary is due.
    tell: bool,
}

/// The answer to an event: `Some` once the stream is over.
type Turn = Result<Option<StreamEnd>, WorkerError>;

/// Streams the results of `current` under `lease` until the coordinator has every game
/// of the unit or needs nothing more of this worker.
pub(crate) async fn work(
    client: &mut Client,
    shutdown: &mut watch::Receiver<bool>,
    lease: &Leased<'_>,
    current: &mut Current,
) -> Result<StreamEnd, WorkerError> {
    let (mut stream, mut link) = UnitStream::open(client, lease, current).await?;
    loop {
        if let Some(end) = stream.turn(&mut link, shutdown).await? {
            return Ok(end);
        }
    }
}

impl<'a> UnitStream<'a> {
    /// Opens the result stream of `lease` on `client`.
    async fn open(
        client: &mut Client,
        lease: &'a Leased<'a>,
        current: &'a mut Current,
    ) -> Result<(UnitStream<'a>, Link), WorkerError> {
        let (experiment, config) = lease
            .sweep
            .config_of(&current.unit)
            .ok_or_else(|| WorkerError::BadLease(format!("unknown unit {}", current.unit_id)))?;
        let header = ResultBatch {
            worker_id: lease.worker_id.to_owned(),
            lease_id: lease.lease_id.to_owned(),
            experiment: experiment.name.clone(),
            config: config.id.clone(),
            n: current.unit.n,
            params: current.params.clone(),
            results: Vec::new(),
            written: None,
        };
        let (tx, rx) = mpsc::channel::<ResultBatch>(4);
        let acks = client.submit(ReceiverStream::new(rx)).await?.into_inner();
        let stream = UnitStream {
            lease,
            header,
            games: if current.mode.follows() {
                0
            } else {
                current.unit.games() as usize
            },
            store: lease.store.filter(|_| !current.mode.in_gang()),
            sent: 0,
            in_flight: 0,
            flush_at: None,
            next_heartbeat: Instant::now() + lease.heartbeat,
            delivery: match &current.written {
                Some(written) => Delivery::Telling(written.clone()),
                None => Delivery::Streaming,
            },
            heartbeats: client.clone(),
            current,
        };
        Ok((stream, Link { tx, acks }))
    }

    /// Waits for the next event of the stream and handles it.
    async fn turn(&mut self, link: &mut Link, shutdown: &mut watch::Receiver<bool>) -> Turn {
        if self.current.mode.is_over() {
            return Ok(Some(StreamEnd::NotOurs));
        }
        let ready = self.ready()?;
        let solving = !self.current.mode.solved();
        let putting = matches!(self.delivery, Delivery::Putting(_));
        let flush_at = self.flush_at.unwrap_or_else(Instant::now);
        tokio::select! {
            _ = stopped(shutdown) => Err(WorkerError::Stopped),
            ack = link.acks.message() => self.acked(ack),
            msg = self.current.next_msg(), if solving => {
                let limit = self.lease.batch_rows + self.sent;
                self.current.receive(msg, limit, self.games).map(|()| None)
            }
            put = self.delivery.put_done(), if putting => self.put(put),
            permit = link.tx.reserve(), if ready.tell => self.tell(permit),
            permit = link.tx.reserve(), if ready.send => self.send(permit),
            _ = sleep_until(flush_at), if ready.pending > 0 && !ready.send => Ok(None),
            _ = sleep_until(self.next_heartbeat) => self.beat().await,
        }
    }

    /// Readies a turn: starts the put once the unit is solved, and says what is due.
    fn ready(&mut self) -> Result<Ready, WorkerError> {
        let solved = self.current.mode.solved();
        if let Some(store) = self.store {
            // The rows stay here: the part carries them.
            self.sent = self.current.results.len();
            if solved && matches!(self.delivery, Delivery::Streaming) {
                let put = spawn_put(store, self.lease, self.current);
                self.delivery = Delivery::Putting(put);
            }
        }
        let pending = self.current.results.len() - self.sent;
        if pending > 0 && self.flush_at.is_none() {
            self.flush_at = Some(Instant::now() + self.lease.flush_after);
        }
        let due = self.flush_at.is_some_and(|t| t <= Instant::now());
        let settled = matches!(self.delivery, Delivery::Streaming | Delivery::Told);
        if solved && pending == 0 && self.in_flight == 0 && settled {
            // The coordinator lost results (it restarted): they are all sent again.
            return Err(WorkerError::Reconnect(
                "the coordinator acknowledged every result but does not have the whole unit",
            ));
        }
        Ok(Ready {
            pending,
            send: pending >= self.lease.batch_rows || (pending > 0 && (solved || due)),
            tell: matches!(self.delivery, Delivery::Telling(_)),
        })
    }

    /// An acknowledgement came, or the stream ended.
    fn acked(&mut self, ack: Result<Option<BatchAck>, tonic::Status>) -> Turn {
        let ack = ack?.ok_or(WorkerError::Reconnect(
            "the coordinator closed the result stream",
        ))?;
        self.in_flight = self.in_flight.saturating_sub(1);
        let state = UnitState::try_from(ack.unit_state).unwrap_or(UnitState::Unspecified);
        if !matches!(state, UnitState::Complete | UnitState::Committed) {
            return Ok(None);
        }
        let ours = self.current.mode.solved() && self.current.results.len() == self.games;
        debug!(unit = %self.current.unit_id, ours, "unit complete");
        Ok(Some(if ours {
            StreamEnd::Ours
        } else {
            StreamEnd::NotOurs
        }))
    }

    /// The put ended: its summary is told next.
    fn put(&mut self, put: Result<Result<UnitWritten, WorkerError>, JoinError>) -> Turn {
        let written = put.map_err(WorkerError::Task)??;
        self.current.written = Some(written.clone());
        self.delivery = Delivery::Telling(written);
        Ok(None)
    }

    /// Sends the summary of the part put into the store.
    fn tell(&mut self, permit: Result<Permit<'_, ResultBatch>, SendError<()>>) -> Turn {
        let permit = permit.map_err(|_| WorkerError::Reconnect("the result stream closed"))?;
        if let Delivery::Telling(written) = std::mem::replace(&mut self.delivery, Delivery::Told) {
            permit.send(ResultBatch {
                written: Some(written),
                ..self.header.clone()
            });
            self.in_flight += 1;
        }
        Ok(None)
    }

    /// Sends the next batch of results.
    fn send(&mut self, permit: Result<Permit<'_, ResultBatch>, SendError<()>>) -> Turn {
        let permit = permit.map_err(|_| WorkerError::Reconnect("the result stream closed"))?;
        let end = (self.sent + self.lease.batch_rows).min(self.current.results.len());
        permit.send(ResultBatch {
            results: self.current.results[self.sent..end].to_vec(),
            ..self.header.clone()
        });
        self.sent = end;
        self.in_flight += 1;
        self.flush_at = None;
        Ok(None)
    }

    /// Sends one heartbeat for the lease with the unit's progress. The stream is over
    /// when the coordinator dropped the lease or the sweep is complete.
    async fn beat(&mut self) -> Turn {
        let lease_id = self.lease.lease_id;
        self.next_heartbeat = Instant::now() + self.lease.heartbeat;
        let request = HeartbeatRequest {
            worker_id: self.lease.worker_id.to_owned(),
            lease_ids: vec![lease_id.to_owned()],
            progress: vec![LeaseProgress {
                lease_id: lease_id.to_owned(),
                expansions: self.current.expansions(),
            }],
        };
        let answer = timeout(
            self.lease.heartbeat.max(Duration::from_secs(5)),
            self.heartbeats.heartbeat(request),
        )
        .await
        .map_err(|_| WorkerError::Reconnect("heartbeat timed out"))??
        .into_inner();
        if answer.unknown_lease_ids.iter().any(|l| l == lease_id) {
            return Err(WorkerError::Reconnect("the coordinator forgot the lease"));
        }
        if answer.dropped_lease_ids.iter().any(|l| l == lease_id) || answer.sweep_complete {
            debug!(unit = %self.current.unit_id, "lease dropped by the coordinator");
            return Ok(Some(StreamEnd::NotOurs));
        }
        Ok(None)
    }
}

/// Encodes the solved unit's part and puts it into the dataset, on tasks of its own so
/// that heartbeats go on meanwhile. Returns what the part in the store holds: this
/// worker's, or that of another writer of the unit that put its part first.
fn spawn_put(
    store: &Store,
    lease: &Leased<'_>,
    current: &Current,
) -> JoinHandle<Result<UnitWritten, WorkerError>> {
    let (store, sweep, unit) = (store.clone(), lease.sweep.clone(), current.unit);
    let (results, worker_id) = (current.results.clone(), lease.worker_id.to_owned());
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
