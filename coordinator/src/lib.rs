//! The hammer coordinator: serves one sweep to workers over gRPC (`hammer.v1`) and writes
//! every result exactly once to the hive-partitioned Parquet dataset.
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
mod service;
mod state;
mod writer;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hammer_proto::error_chain;
use hammer_proto::v1::StatusResponse;
use hammer_proto::v1::coordinator_server::CoordinatorServer;
use hammer_store::Store;
use hammer_sweep::Sweep;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::server::TcpIncoming;
use tonic::transport::{Identity, Server, ServerTlsConfig};
use tracing::{info, warn};

pub use crate::core::Timing;
use crate::core::WriteJob;
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

/// Everything a coordinator needs.
#[derive(Clone, Debug)]
pub struct CoordinatorConfig {
    /// The sweep to serve.
    pub sweep: Sweep,
    /// Where the dataset goes: a local directory or an object store prefix.
    pub out: Store,
    /// The URL of `out` that workers open to put the parts of the units they solve
    /// themselves; `None`: workers send their results and the coordinator writes the
    /// parts (`hammer run`, a dataset on the coordinator's own disk).
    pub workers_write: Option<String>,
    /// Keep a Delta Lake log (`_delta_log/`) over the parts, so that Delta readers see
    /// the dataset as a versioned table.
    pub delta_log: bool,
    /// The state directory (journal); the same one resumes the sweep.
    pub state: PathBuf,
    /// The address to serve workers on (port 0 picks a free one).
    pub listen: SocketAddr,
    /// The shared token every call must carry; required off loopback.
    pub token: Option<String>,
    /// Serve TLS with these files.
    pub tls: Option<TlsFiles>,
    /// Lease and heartbeat timing.
    pub timing: Timing,
    /// The `hammer_version` reported to workers.
    pub hammer_version: String,
}

impl CoordinatorConfig {
    /// A coordinator for this machine alone: listens on a free loopback port, without
    /// token or TLS, with the default lease timing (`hammer run`, the benchmarks).
    pub fn loopback(sweep: Sweep, out: Store, state: PathBuf) -> CoordinatorConfig {
        CoordinatorConfig {
            sweep,
            out,
            workers_write: None,
            delta_log: false,
            state,
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            token: None,
            tls: None,
            timing: Timing::default(),
            // The workspace shares one version, so this is the worker's HAMMER_VERSION.
            hammer_version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }
}

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
    core: Arc<Mutex<core::Core>>,
    events: watch::Receiver<Events>,
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
    /// The Delta log's writer and its periodic task, when the log is kept.
    delta: Option<(Arc<delta::DeltaWriter>, JoinHandle<()>)>,
}

impl Coordinator {
    /// Opens the state directory (refusing another sweep's), cleans stale temporary files
    /// from the dataset, binds the address and starts serving.
    pub async fn start(config: CoordinatorConfig) -> Result<Coordinator, CoordinatorError> {
        let CoordinatorConfig {
            sweep,
            out,
            workers_write,
            delta_log,
            state,
            listen,
            token,
            tls,
            timing,
            hammer_version,
        } = config;
        if token.is_none() && !listen.ip().is_loopback() {
            return Err(CoordinatorError::TokenRequired { addr: listen });
        }
        // Checked before anything is opened or written.
        let knowledge_bases = shipped_knowledge_bases(&sweep)?;
        let sweep = Arc::new(sweep);
        let (mut state_dir, mut committed) = StateDir::open(&state, &sweep)?;
        let delta = open_dataset(&out, &sweep, &mut state_dir, &mut committed, delta_log).await?;
        let core = core::Core::new(sweep.clone(), timing, &committed);
        let resumed_units = committed.len() as u32;
        if resumed_units > 0 {
            info!(
                committed = resumed_units,
                "resuming: units already committed stay committed"
            );
        }
        let (events_tx, events) = watch::channel(Events {
            complete: core.is_complete(),
            ..Events::default()
        });
        let metrics = core.metrics.clone();
        let core = Arc::new(Mutex::new(core));
        let (writer, writer_tx) = start_writers(writer::Writing {
            out: out.clone(),
            state: state_dir,
            core: core.clone(),
            sweep: sweep.clone(),
            events: events_tx,
            delta: delta.clone(),
        })?;
        let delta = delta.map(|d| {
            let task = d.spawn();
            (d, task)
        });

        let (drain, drain_rx) = watch::channel(false);
        let service = service::Service {
            core: core.clone(),
            writer: writer_tx,
            drain: drain_rx,
            hammer_version,
            metrics: metrics.clone(),
            knowledge_bases: Arc::new(knowledge_bases),
            out,
            workers_write,
        };
        let auth = service::Auth {
            expected: token.map(|t| Arc::from(format!("Bearer {t}").into_bytes())),
        };
        let coordinator = CoordinatorServer::new(service)
            .max_decoding_message_size(hammer_proto::MAX_MESSAGE_BYTES)
            .max_encoding_message_size(hammer_proto::MAX_MESSAGE_BYTES);
        let coordinator = InterceptedService::new(coordinator, auth);

        let (health_reporter, health) = tonic_health::server::health_reporter();
        health_reporter
            .set_service_status(
                "hammer.v1.Coordinator",
                tonic_health::ServingStatus::Serving,
            )
            .await;
        let reflection = tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(hammer_proto::FILE_DESCRIPTOR_SET)
            .build_v1()
            .map_err(|e| CoordinatorError::Internal(format!("reflection: {e}")))?;

        let tls_on = tls.is_some();
        let mut builder = server_builder(tls.as_ref())?;
        let (listener, addr) = bind(listen).await?;
        let incoming = TcpIncoming::from(listener).with_nodelay(Some(true));
        let (server_stop, stop_rx) = oneshot::channel::<()>();
        let router = builder
            .add_service(health)
            .add_service(reflection)
            .add_service(coordinator);
        let server = tokio::spawn(router.serve_with_incoming_shutdown(incoming, async {
            let _ = stop_rx.await;
        }));

        let expiry = spawn_expiry(core.clone());
        info!(%addr, tls = tls_on, sweep = %sweep.name, units = sweep.units().len(), "coordinator listening");
        Ok(Coordinator {
            addr,
            tls: tls_on,
            core,
            events,
            drain,
            server_stop: Some(server_stop),
            server: Some(server),
            expiry,
            writers: writer,
            started: Instant::now(),
            resumed_units,
            metrics,
            metrics_server: None,
            health: health_reporter,
            delta,
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
            self.core.clone(),
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

    /// The sweep's progress now, as `hammer status` shows it.
    pub fn status(&self) -> StatusResponse {
        lock(&self.core).status()
    }

    /// Units found committed in the journal at start.
    pub fn resumed_units(&self) -> u32 {
        self.resumed_units
    }

    /// Whether every unit is committed.
    pub fn is_complete(&self) -> bool {
        self.events.borrow().complete
    }

    /// Resolves when every unit is committed (Ok) or the writer failed (Err).
    pub async fn wait_complete(&self) -> Result<(), CoordinatorError> {
        let mut events = self.events.clone();
        let result = events
            .wait_for(|e| e.complete || e.fatal.is_some())
            .await
            .map(|e| e.fatal.clone());
        match result {
            Ok(None) => Ok(()),
            Ok(Some(fatal)) => Err(CoordinatorError::CommitFailed(fatal)),
            Err(_) => Err(CoordinatorError::Internal(
                "the writer thread is gone".into(),
            )),
        }
    }

    /// After completion, waits until every worker seen recently was told so (they exit
    /// then), or `linger` has passed, so that workers do not retry against a coordinator
    /// that is gone.
    pub async fn wait_workers_told(&self, linger: Duration) {
        let deadline = Instant::now() + linger;
        let recent = lock(&self.core).timing.heartbeat * 3;
        while Instant::now() < deadline && !lock(&self.core).workers_informed(recent) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Stops cleanly: no new leases, results already on their way are taken, complete
    /// units are written and journaled, then the server stops.
    /// Returns the final status.
    pub async fn shutdown(mut self) -> Result<StatusResponse, CoordinatorError> {
        lock(&self.core).draining = true;
        // Readiness probes and load balancers stop sending new work here at once.
        self.health
            .set_service_status(
                "hammer.v1.Coordinator",
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
        // The last version of the log adds what the writers committed since the one
        // before; a failure here is caught up at the next start.
        if let Some((delta, task)) = self.delta.take() {
            task.abort();
            if let Err(e) = delta.flush().await {
                warn!(error = %error_chain(&e), "cannot write the Delta log's last version");
            }
        }
        info!(
            seconds = self.started.elapsed().as_secs_f64(),
            "coordinator stopped"
        );
        result.map(|()| lock(&self.core).status())
    }
}

impl Drop for Coordinator {
    fn drop(&mut self) {
        self.expiry.abort();
        if let Some((_, task)) = &self.delta {
            task.abort();
        }
        if let Some(server) = &self.metrics_server {
            server.abort();
        }
        if let Some(server) = &self.server {
            server.abort();
        }
    }
}

/// Readies the dataset before any unit is leased: removes a crash's temporary files from
/// a local directory, proves the store writable, commits the parts the journal lacks, and
/// opens the Delta log when it is kept.
async fn open_dataset(
    out: &Store,
    sweep: &Sweep,
    state_dir: &mut StateDir,
    committed: &mut Vec<state::CommitEntry>,
    delta_log: bool,
) -> Result<Option<Arc<delta::DeltaWriter>>, CoordinatorError> {
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

/// The knowledge bases the sweep's learned orders name, as a registration answer ships
/// them; refused when they would not fit one message.
fn shipped_knowledge_bases(
    sweep: &Sweep,
) -> Result<Vec<hammer_proto::v1::KnowledgeBase>, CoordinatorError> {
    let knowledge_bases: Vec<hammer_proto::v1::KnowledgeBase> = sweep
        .knowledge_bases()
        .into_iter()
        .map(|(path, digest, data)| hammer_proto::v1::KnowledgeBase {
            path,
            digest: format!("{digest:032x}"),
            data,
        })
        .collect();
    // A registration answer carries them all, with room for the rest of it.
    let bytes: usize = knowledge_bases.iter().map(|k| k.data.len()).sum();
    let limit = hammer_proto::MAX_MESSAGE_BYTES - (1 << 20);
    if bytes > limit {
        return Err(CoordinatorError::KnowledgeBasesTooLarge { bytes, limit });
    }
    Ok(knowledge_bases)
}

/// The gRPC server's settings, with TLS when `tls` names the files.
fn server_builder(tls: Option<&TlsFiles>) -> Result<Server, CoordinatorError> {
    // Large flow-control windows: a batch is a few hundred kilobytes, and the
    // 64 KiB HTTP/2 default would cost a window update every few results.
    let mut builder = Server::builder()
        .initial_stream_window_size(Some(4 << 20))
        .initial_connection_window_size(Some(16 << 20))
        .http2_keepalive_interval(Some(Duration::from_secs(10)))
        .http2_keepalive_timeout(Some(Duration::from_secs(20)));
    if let Some(files) = tls {
        let read = |what, path: &PathBuf| {
            std::fs::read(path).map_err(|source| CoordinatorError::ReadFile {
                what,
                path: path.clone(),
                source,
            })
        };
        let identity = Identity::from_pem(
            read("TLS certificate", &files.cert)?,
            read("TLS key", &files.key)?,
        );
        builder = builder
            .tls_config(ServerTlsConfig::new().identity(identity))
            .map_err(CoordinatorError::Tls)?;
    }
    Ok(builder)
}

/// A dataset writer's thread: it ends with the first error it met, if any.
type WriterThread = std::thread::JoinHandle<Result<(), CoordinatorError>>;

/// Starts the dataset writers (between 2 and 8 threads, by the machine's cores).
fn start_writers(
    writing: writer::Writing,
) -> Result<(Vec<WriterThread>, mpsc::Sender<WriteJob>), CoordinatorError> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 8));
    let (jobs, jobs_rx) = mpsc::channel(threads);
    let writers = writer::spawn(threads, writing, jobs_rx).map_err(CoordinatorError::Thread)?;
    Ok((writers, jobs))
}

/// Binds `listen` and returns the listener with the address it got (port 0 picks one).
async fn bind(
    listen: SocketAddr,
) -> Result<(tokio::net::TcpListener, SocketAddr), CoordinatorError> {
    let bind_error = |source| CoordinatorError::Bind {
        addr: listen,
        source,
    };
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(bind_error)?;
    let addr = listener.local_addr().map_err(bind_error)?;
    Ok((listener, addr))
}

/// Expires lapsed leases twice a second until the coordinator stops.
fn spawn_expiry(core: Arc<Mutex<core::Core>>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(500));
        loop {
            tick.tick().await;
            lock(&core).expire(Instant::now());
        }
    })
}
