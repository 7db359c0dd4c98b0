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

mod config;
mod core;
mod counters;
mod delta;
mod error;
mod parts;
mod queue;
mod scrape;
mod server;
mod service;
mod state;
mod sync;
mod writer;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hammer_proto::error_chain;
use hammer_proto::v1::StatusResponse;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tracing::{info, warn};

pub use crate::config::{CoordinatorConfig, DEFAULT_HALF_LIFE, TlsFiles, Tokens};
pub use crate::core::Timing;
pub use crate::error::CoordinatorError;
use crate::queue::{Admin, Home, Opener, Place, Queue, Standing};
pub use crate::state::{StateDir, StateError, StateSummary};
use crate::sync::lock;

/// A running coordinator.
pub struct Coordinator {
    addr: SocketAddr,
    tls: bool,
    queue: Arc<Mutex<Queue>>,
    /// The first failed commit of any sweep.
    fatal: watch::Receiver<Option<String>>,
    drain: watch::Sender<bool>,
    server_stop: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<Result<(), tonic::transport::Error>>>,
    expiry: JoinHandle<()>,
    writers: Vec<WriterThread>,
    started: Instant,
    resumed_units: u32,
    metrics: Arc<counters::Counters>,
    metrics_server: Option<JoinHandle<()>>,
    health: tonic_health::server::HealthReporter,
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
        let metrics: Arc<counters::Counters> = Arc::default();
        let service_timing = timing.clone();
        let opener = Opener {
            workers_write,
            delta_log,
            timing,
            counters: metrics.clone(),
        };
        let queue = match sweep {
            Some(sweep) => {
                let place = Place {
                    seq: 1,
                    priority: 0,
                    weight: 1.0,
                    admin: Admin::Active,
                };
                let entry = opener.open(sweep, out, Home::Alone(&state), place).await?;
                Queue::one(entry, half_life)
            }
            None => {
                // Before the state root is locked, so that a bad location writes nothing.
                out.check_writable().await?;
                let (standing, entries) = Standing::take_root(&out, state, opener).await?;
                Queue::standing(standing, entries, half_life)
            }
        };
        let resumed_units: u32 = queue
            .entries()
            .iter()
            .map(|e| lock(&e.core).status().units_committed)
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
        let queue = self.queue.clone();
        self.metrics_server = Some(tokio::spawn(scrape::serve(
            listener,
            move || lock(&queue).metrics_status(),
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
        lock(&self.queue)
            .events()
            .is_some_and(|e| e.borrow().complete)
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
        let Some(mut events) = lock(&self.queue).events() else {
            return Err(failed.await);
        };
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
        while Instant::now() < deadline && !lock(&self.queue).workers_informed() {
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
