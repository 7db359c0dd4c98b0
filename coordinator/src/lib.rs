//! The hammer coordinator: serves one sweep, or a standing queue of submitted sweeps, to
//! workers over gRPC (`hammer.v1`) and writes every result exactly once to each sweep's
//! hive-partitioned Parquet dataset.
//!
//! The exactly-once argument, in short (see `docs/distributed.md`):
//!
//! - a unit of work is exactly one part file, written only when all of its games have
//!   arrived, with rows that are a pure function of the sweep text (apart from timing and
//!   worker columns), so rewriting it is idempotent;
//! - a unit is journaled as committed only after its part file is durable;
//! - results are keyed by (experiment, config, n, game index) within the unit, and a key
//!   that already arrived is dropped, however many workers send it.

mod core;
mod delta;
mod metrics;
mod parts;
mod queue;
mod server;
mod service;
mod standing;
mod state;
mod writer;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hammer_proto::error_chain;
use hammer_proto::v1::StatusResponse;
use hammer_store::Store;
use hammer_sweep::Sweep;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tracing::{info, warn};

pub use crate::core::Timing;
use crate::queue::{Admin, Opening, Place, Queue};
use crate::standing::Standing;
pub use crate::state::{StateDir, StateError, StateSummary};

/// Takes the core's lock, ignoring poisoning: the core's invariants are restored by every
/// method before it can panic, and refusing all further calls would lose more.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Why a coordinator could not start, or stopped before the sweep was complete.
#[derive(Debug, thiserror::Error)]
pub enum CoordinatorError {
    /// The state directory cannot be opened or written.
    #[error(transparent)]
    State(#[from] StateError),
    /// The dataset cannot be read or written.
    #[error(transparent)]
    Dataset(#[from] hammer_dataset::Error),
    /// The dataset's store cannot be opened, read or written.
    #[error(transparent)]
    Store(#[from] hammer_store::StoreError),
    /// A unit's part could not be made, put or recognised.
    #[error(transparent)]
    Part(#[from] hammer_parts::PartError),
    /// A non-loopback address was given without a shared token.
    #[error(
        "listening on {addr} (not a loopback address) requires a shared token: set HAMMER_TOKEN \
         or pass --token-file, and give the same token to the workers"
    )]
    TokenRequired {
        /// The address to listen on.
        addr: SocketAddr,
    },
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why it cannot.
        #[source]
        source: std::io::Error,
    },
    /// A TLS file cannot be read.
    #[error("cannot read {what} {}", .path.display())]
    ReadFile {
        /// Which file it is, as the message names it.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why it cannot be read.
        #[source]
        source: std::io::Error,
    },
    /// The TLS certificate or key was refused.
    #[error("TLS setup")]
    Tls(#[source] tonic::transport::Error),
    /// A dataset writer's thread cannot be started.
    #[error("cannot start a thread: {0}")]
    Thread(std::io::Error),
    /// A unit could not be committed, so the coordinator stops; the message says why.
    #[error("the coordinator stopped: {0}")]
    CommitFailed(String),
    /// A task or thread of the coordinator ended unexpectedly.
    #[error("internal error: {0}")]
    Internal(String),
    /// The sweep's knowledge bases do not fit in a worker's registration answer.
    #[error(
        "the sweep's knowledge bases take {bytes} bytes, more than the {limit} a worker's \
         registration can carry; learn them with a smaller --radius or from fewer games"
    )]
    KnowledgeBasesTooLarge {
        /// Their size in bytes.
        bytes: usize,
        /// What a registration answer can carry, in bytes.
        limit: usize,
    },
}

/// PEM files of the coordinator's certificate chain and private key.
#[derive(Clone, Debug)]
pub struct TlsFiles {
    /// The certificate chain.
    pub cert: PathBuf,
    /// The private key.
    pub key: PathBuf,
}

/// The tokens a coordinator checks, by role. With none, every call is allowed (loopback
/// only); one token given for both roles is the shared token of both.
#[derive(Clone, Debug, Default)]
pub struct Tokens {
    /// Lets a caller register, lease, send results and heartbeats.
    pub worker: Option<String>,
    /// Lets a caller submit, list, stop and cancel sweeps and read their status.
    pub user: Option<String>,
}

impl Tokens {
    /// One token for both roles (or none).
    pub fn shared(token: Option<String>) -> Tokens {
        Tokens {
            worker: token.clone(),
            user: token,
        }
    }

    fn any(&self) -> bool {
        self.worker.is_some() || self.user.is_some()
    }
}

/// Everything a coordinator needs.
#[derive(Clone, Debug)]
pub struct CoordinatorConfig {
    /// The sweep to serve, exiting when it is complete; `None`: a standing coordinator,
    /// which serves the sweeps submitted to it until it is stopped.
    pub sweep: Option<Sweep>,
    /// Where the dataset goes: a local directory or an object store prefix. A standing
    /// coordinator puts each sweep's dataset in `out/NAME`.
    pub out: Store,
    /// Workers put the parts of the units they solve into the dataset themselves (`out`
    /// is a URL they open); else they send their results and the coordinator writes the
    /// parts (`hammer run`, a dataset on the coordinator's own disk).
    pub workers_write: bool,
    /// Keep a Delta Lake log (`_delta_log/`) over the parts, so that Delta readers see
    /// the dataset as a versioned table.
    pub delta_log: bool,
    /// The state directory (journal); the same one resumes the sweep, or the queue.
    pub state: PathBuf,
    /// The address to serve workers on (port 0 picks a free one).
    pub listen: SocketAddr,
    /// The tokens calls must carry; required off loopback.
    pub tokens: Tokens,
    /// Serve TLS with these files.
    pub tls: Option<TlsFiles>,
    /// Lease and heartbeat timing.
    pub timing: Timing,
    /// The `hammer_version` reported to workers.
    pub hammer_version: String,
    /// Fair share forgets half of a sweep's usage in this time.
    pub half_life: Duration,
}

impl CoordinatorConfig {
    /// A coordinator of `sweep` for this machine alone: listens on a free loopback port,
    /// without token or TLS, with the default lease timing (`hammer run`, the benchmarks).
    pub fn loopback(sweep: Sweep, out: Store, state: PathBuf) -> CoordinatorConfig {
        CoordinatorConfig {
            sweep: Some(sweep),
            out,
            workers_write: false,
            delta_log: false,
            state,
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            tokens: Tokens::default(),
            tls: None,
            timing: Timing::default(),
            // The workspace shares one version, so this is the worker's HAMMER_VERSION.
            hammer_version: env!("CARGO_PKG_VERSION").to_owned(),
            half_life: DEFAULT_HALF_LIFE,
        }
    }
}

/// Fair share's default half-life: an hour, so that a day's sweeps share by what they
/// used lately, not last week.
pub const DEFAULT_HALF_LIFE: Duration = Duration::from_secs(3600);

/// What the writer thread reports.
#[derive(Clone, Debug, Default)]
pub(crate) struct Events {
    pub committed_units: u64,
    pub complete: bool,
    pub fatal: Option<String>,
}

impl Events {
    /// One more unit committed by a writer that saw the sweep `complete` (or not) when it
    /// did. Writers report in any order: one that saw the sweep one unit short may report
    /// after the one that completed it, and completion never goes back.
    pub(crate) fn committed(&mut self, complete: bool) {
        self.committed_units += 1;
        self.complete |= complete;
    }
}

/// A running coordinator.
pub struct Coordinator {
    addr: SocketAddr,
    tls: bool,
    queue: Arc<Mutex<Queue>>,
    /// The one sweep's events, for a coordinator of one sweep.
    events: Option<watch::Receiver<Events>>,
    /// The first failed commit of any sweep.
    fatal: watch::Receiver<Option<String>>,
    drain: watch::Sender<bool>,
    server_stop: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<Result<(), tonic::transport::Error>>>,
    expiry: JoinHandle<()>,
    writers: Vec<WriterThread>,
    started: Instant,
    resumed_units: u32,
    metrics: Arc<metrics::Metrics>,
    metrics_server: Option<JoinHandle<()>>,
    health: tonic_health::server::HealthReporter,
    /// A standing coordinator's lock on its state root.
    _lock: Option<std::fs::File>,
}

impl Coordinator {
    /// Opens the state (refusing another sweep's), readies the dataset, binds the address
    /// and starts serving: the one sweep, or the queue kept in the state directory.
    pub async fn start(config: CoordinatorConfig) -> Result<Coordinator, CoordinatorError> {
        let CoordinatorConfig {
            sweep,
            out,
            workers_write,
            delta_log,
            state,
            listen,
            tokens,
            tls,
            timing,
            hammer_version,
            half_life,
        } = config;
        if !tokens.any() && !listen.ip().is_loopback() {
            return Err(CoordinatorError::TokenRequired { addr: listen });
        }
        let metrics: Arc<metrics::Metrics> = Arc::default();
        let service_timing = timing.clone();
        let mut queue = Queue::new(sweep.is_none(), half_life);
        let (standing, root_lock, events) = match sweep {
            Some(sweep) => {
                let opening = Opening {
                    sweep,
                    workers_write: workers_write.then(|| out.to_string()),
                    out,
                    state: &state,
                    lock_state: true,
                    delta_log,
                    timing,
                    metrics: metrics.clone(),
                };
                let place = Place {
                    seq: 1,
                    priority: 0,
                    weight: 1.0,
                    admin: Admin::Active,
                };
                let entry = queue::open(opening, place).await?;
                let events = entry.writing.events.subscribe();
                queue.push(entry);
                (None, None, Some(events))
            }
            None => {
                let standing = Arc::new(Standing {
                    root: out.to_string(),
                    state,
                    workers_write,
                    delta_log,
                    timing,
                    metrics: metrics.clone(),
                });
                let lock = standing.take_root(&out, &mut queue).await?;
                (Some(standing), Some(lock), None)
            }
        };
        let resumed_units: u32 = queue
            .entries()
            .iter()
            .map(|e| lock_core(e).status().units_committed)
            .sum();
        if resumed_units > 0 {
            info!(
                committed = resumed_units,
                "resuming: units already committed stay committed"
            );
        }
        let queue = Arc::new(Mutex::new(queue));
        let (fatal_tx, fatal) = watch::channel(None);
        let (writers, writer_tx) = start_writers(fatal_tx)?;

        let (drain, drain_rx) = watch::channel(false);
        let service = service::Service {
            queue: queue.clone(),
            writer: writer_tx,
            drain: drain_rx,
            hammer_version,
            timing: service_timing,
            metrics: metrics.clone(),
            standing,
            submitting: Arc::default(),
            changed: watch::channel(0).0,
        };
        let serving = server::serve(service, &tokens, tls.as_ref(), listen).await?;
        let expiry = spawn_expiry(queue.clone());
        let addr = serving.addr;
        info!(%addr, tls = tls.is_some(), sweeps = lock(&queue).entries().len(), "coordinator listening");
        Ok(Coordinator {
            addr,
            tls: tls.is_some(),
            queue,
            events,
            fatal,
            drain,
            server_stop: Some(serving.stop),
            server: Some(serving.server),
            expiry,
            writers,
            started: Instant::now(),
            resumed_units,
            metrics,
            metrics_server: None,
            health: serving.health,
            _lock: root_lock,
        })
    }

    /// Serves Prometheus metrics at `http://ADDR/metrics` until the coordinator stops;
    /// returns the address bound (useful with port 0). The endpoint needs no token, so
    /// that any Prometheus can scrape it: it shows only counts and the sweep's name
    /// (what `Status` shows to token holders), no results.
    pub async fn serve_metrics(
        &mut self,
        addr: SocketAddr,
    ) -> Result<SocketAddr, CoordinatorError> {
        let bind = |source| CoordinatorError::Bind { addr, source };
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(bind)?;
        let bound = listener.local_addr().map_err(bind)?;
        if let Some(old) = self.metrics_server.take() {
            old.abort();
        }
        self.metrics_server = Some(tokio::spawn(metrics::serve(
            listener,
            self.queue.clone(),
            self.metrics.clone(),
            self.started,
        )));
        info!(addr = %bound, "serving Prometheus metrics at /metrics");
        Ok(bound)
    }

    /// The address actually bound (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL workers connect to, on this machine.
    pub fn url(&self) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// The progress of the one sweep (of a standing coordinator: of its first sweep, or
    /// an empty status), as `hammer status` shows it.
    pub fn status(&self) -> StatusResponse {
        lock(&self.queue).status("").unwrap_or_default()
    }

    /// Every sweep of the queue, in submission order, as `hammer sweeps` shows them.
    pub fn sweeps(&self) -> Vec<hammer_proto::v1::SweepInfo> {
        lock(&self.queue).list()
    }

    /// Units found committed in the journal at start.
    pub fn resumed_units(&self) -> u32 {
        self.resumed_units
    }

    /// Whether every unit of the one sweep is committed (never, for a standing
    /// coordinator).
    pub fn is_complete(&self) -> bool {
        self.events.as_ref().is_some_and(|e| e.borrow().complete)
    }

    /// Resolves when every unit of the one sweep is committed (Ok), or a commit failed
    /// (Err); a standing coordinator's resolves only with a failure.
    pub async fn wait_complete(&self) -> Result<(), CoordinatorError> {
        let mut fatal = self.fatal.clone();
        let failed = async move {
            match fatal.wait_for(Option::is_some).await {
                Ok(message) => CoordinatorError::CommitFailed(message.clone().unwrap_or_default()),
                Err(_) => CoordinatorError::Internal("the writer threads are gone".into()),
            }
        };
        let Some(events) = &self.events else {
            return Err(failed.await);
        };
        let mut events = events.clone();
        tokio::select! {
            done = events.wait_for(|e| e.complete) => done
                .map(|_| ())
                .map_err(|_| CoordinatorError::Internal("the sweep's events are gone".into())),
            error = failed => Err(error),
        }
    }

    /// After completion, waits until every worker seen recently was told so (they exit
    /// then), or `linger` has passed, so that workers do not retry against a coordinator
    /// that is gone.
    pub async fn wait_workers_told(&self, linger: Duration) {
        let deadline = Instant::now() + linger;
        let recent = {
            let queue = lock(&self.queue);
            queue
                .entries()
                .first()
                .map_or(Duration::ZERO, |e| lock_core(e).timing.heartbeat * 3)
        };
        while Instant::now() < deadline && !lock(&self.queue).workers_informed(recent) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Stops cleanly: no new leases, results already on their way are taken, complete
    /// units are written and journaled, then the server stops.
    /// Returns the final status.
    pub async fn shutdown(mut self) -> Result<StatusResponse, CoordinatorError> {
        lock(&self.queue).drain();
        // Readiness probes and load balancers stop sending new work here at once.
        self.health
            .set_service_status(
                server::SERVICE_NAME,
                tonic_health::ServingStatus::NotServing,
            )
            .await;
        let _ = self.drain.send(true);
        // Result streams notice the drain, read what is in flight for up to 200 ms, and
        // end; then the server can stop.
        tokio::time::sleep(Duration::from_millis(300)).await;
        if let Some(stop) = self.server_stop.take() {
            let _ = stop.send(());
        }
        if let Some(server) = self.server.take() {
            let abort = server.abort_handle();
            match tokio::time::timeout(Duration::from_secs(3), server).await {
                Ok(Ok(Ok(()))) => {}
                Ok(Ok(Err(e))) => {
                    warn!(error = %error_chain(&e), "gRPC server ended with an error")
                }
                Ok(Err(_)) => {}
                Err(_) => {
                    warn!("connections did not close within 3 s; closing them");
                    abort.abort();
                }
            }
        }
        self.expiry.abort();
        if let Some(server) = self.metrics_server.take() {
            server.abort();
        }
        // The writer ends once every sender (the service, the result streams) is gone,
        // after writing the units already queued.
        let writers = std::mem::take(&mut self.writers);
        let results = tokio::task::spawn_blocking(move || {
            writers
                .into_iter()
                .map(|w| {
                    w.join().unwrap_or_else(|_| {
                        Err(CoordinatorError::Internal(
                            "a writer thread panicked".into(),
                        ))
                    })
                })
                .collect::<Vec<_>>()
        })
        .await
        .map_err(|e| CoordinatorError::Internal(e.to_string()))?;
        let result = results
            .into_iter()
            .collect::<Result<Vec<()>, _>>()
            .map(|_| ());
        // The last version of each log adds what the writers committed since the one
        // before; a failure here is caught up at the next start.
        let deltas: Vec<_> = lock(&self.queue)
            .entries()
            .iter()
            .filter_map(|e| {
                if let Some(task) = &e.delta_task {
                    task.abort();
                }
                e.writing.delta.clone()
            })
            .collect();
        for delta in deltas {
            if let Err(e) = delta.flush().await {
                warn!(error = %error_chain(&e), "cannot write the Delta log's last version");
            }
        }
        info!(
            seconds = self.started.elapsed().as_secs_f64(),
            "coordinator stopped"
        );
        result.map(|()| self.status())
    }
}

impl Drop for Coordinator {
    fn drop(&mut self) {
        self.expiry.abort();
        for entry in lock(&self.queue).entries() {
            if let Some(task) = &entry.delta_task {
                task.abort();
            }
        }
        if let Some(server) = &self.metrics_server {
            server.abort();
        }
        if let Some(server) = &self.server {
            server.abort();
        }
    }
}

/// Readies the dataset before any unit is leased: finishes a compaction a crash left,
/// removes a crash's temporary files from a local directory, proves the store writable,
/// commits the parts the journal lacks, and opens the Delta log when it is kept.
pub(crate) async fn open_dataset(
    out: &Store,
    sweep: &Sweep,
    state_dir: &mut StateDir,
    committed: &mut Vec<state::CommitEntry>,
    delta_log: bool,
) -> Result<Option<Arc<delta::DeltaWriter>>, CoordinatorError> {
    // Before anything reads the parts: an unfinished compaction may hold some units'
    // rows in its staged files alone.
    hammer_parts::compact::recover(out).await?;
    if let Some(dir) = out.local_dir() {
        // No writer is active: the state lock is ours and the writer has not started.
        let removed = hammer_dataset::remove_stale_temp_files(dir)?;
        if removed > 0 {
            info!(removed, dir = %dir.display(), "removed stale temporary files left by a crash");
        }
    }
    out.check_writable().await?;
    parts::adopt(out, sweep, state_dir, committed).await?;
    if !delta_log {
        return Ok(None);
    }
    Ok(Some(
        delta::DeltaWriter::start(out, sweep, committed).await?,
    ))
}

/// A dataset writer's thread: it ends with the first error it met, if any.
type WriterThread = std::thread::JoinHandle<Result<(), CoordinatorError>>;

/// Starts the dataset writers (between 2 and 8 threads, by the machine's cores), shared
/// by every sweep.
fn start_writers(
    fatal: watch::Sender<Option<String>>,
) -> Result<(Vec<WriterThread>, mpsc::Sender<writer::Job>), CoordinatorError> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 8));
    let (jobs, jobs_rx) = mpsc::channel(threads);
    let writers = writer::spawn(threads, jobs_rx, fatal).map_err(CoordinatorError::Thread)?;
    Ok((writers, jobs))
}

/// Expires lapsed leases and charges fair-share usage twice a second until the
/// coordinator stops.
fn spawn_expiry(queue: Arc<Mutex<Queue>>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(500));
        loop {
            tick.tick().await;
            lock(&queue).tick(Instant::now());
        }
    })
}

/// The core of a queue's entry, locked.
fn lock_core(entry: &queue::Entry) -> MutexGuard<'_, core::Core> {
    lock(&entry.core)
}
