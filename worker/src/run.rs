//! The worker loop: register, lease, solve on all cores, stream results, repeat until the
//! coordinator says the sweep is complete.
//!
//! A worker survives coordinator restarts: it keeps the results of the unit it is
//! working on, reconnects with backoff, and asks for the same unit back
//! (`resume_unit_id`), resending everything it has. The coordinator de-duplicates by key,
//! so resending is always safe.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use hammer_proto::PROTOCOL_VERSION;
use hammer_proto::v1::{
    GangLease, GetSweepRequest, Lease, LeaseRequest, RegisterRequest, SweepSpec, Unit as WireUnit,
    lease_response,
};
use hammer_solver::Cancel;
use hammer_store::Store;
use hammer_sweep::{Sweep, Unit};
use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, sleep};
use tracing::{debug, info, warn};

use crate::bases::{Bases, install_knowledge_bases};
use crate::connect::{Client, ConnectOptions};
use crate::error::WorkerError;
use crate::gang::{GangFailure, PeerOptions, solve_gang_unit};
use crate::shutdown::stopped;
use crate::solve::{HAMMER_VERSION, SolveError, SolverPool};
use crate::stream::{Leased, StreamEnd, work};
use crate::unit::{Current, Mode, SolverMsg};

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// Where and how to reach the coordinator.
    pub connect: ConnectOptions,
    /// Shown in the coordinator's logs and part of the worker id; defaults to
    /// `HOST-PID`.
    pub name: String,
    /// Give up when the coordinator has been unreachable this long.
    pub give_up_after: Duration,
    /// Most results in one batch.
    pub batch_rows: usize,
    /// A partial batch is sent at the latest this long after its first result, so that
    /// progress is visible and a crash loses little.
    pub flush_after: Duration,
    /// Taking part in gangs (games of `gang = K` experiments); `None`: this
    /// worker is never leased one.
    pub peer: Option<PeerOptions>,
    /// Send every result to the coordinator, even when it asks workers to put the parts
    /// into the dataset's store themselves: for a worker that cannot reach the store.
    pub no_store: bool,
    /// How many worker loops share the solver pool ([`crate::run_group`]): each tells
    /// the coordinator it solves on its share of the threads.
    pub loops: usize,
    /// The outside programs this worker runs; a sweep naming another is refused.
    pub solvers: crate::allow::Solvers,
}

impl WorkerOptions {
    /// The defaults, with the coordinator at `connect`.
    pub fn new(connect: ConnectOptions) -> WorkerOptions {
        WorkerOptions {
            connect,
            name: default_name(),
            give_up_after: Duration::from_secs(600),
            batch_rows: 1024,
            flush_after: Duration::from_millis(200),
            peer: None,
            no_store: false,
            loops: 1,
            solvers: crate::allow::Solvers::Allowed(Vec::new()),
        }
    }
}

/// `HOST-PID`, from the environment so that no extra dependency is needed.
fn default_name() -> String {
    let host = std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "worker".to_owned());
    format!("{host}-{}", std::process::id())
}

/// Eight hex digits that differ between worker processes, so that two workers given the
/// same `--name` still get different ids. Random keys of std's hasher, mixed with the
/// process id and the clock, are random enough and need no extra dependency.
pub fn instance_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |t| t.as_nanos());
    hasher.write_u128(nanos);
    format!("{:08x}", hasher.finish() as u32)
}

/// What a finished worker did.
#[derive(Clone, Debug, Default)]
pub struct WorkerReport {
    /// The id the coordinator gave this worker.
    pub worker_id: String,
    /// Units this worker finished.
    pub units: u64,
    /// Games of those units.
    pub games: u64,
}

/// A sweep this worker has leased units of: its parsed text, and the dataset it puts
/// parts into when the coordinator asks for that.
#[derive(Clone)]
struct Held {
    sweep: Arc<Sweep>,
    store: Option<Store>,
    /// The knowledge bases installed for it, released when the last copy of it is
    /// dropped: when it ends.
    _bases: Arc<Bases>,
}

/// A worker: owns the solver pool and the unit in progress.
pub(crate) struct Worker {
    options: WorkerOptions,
    pool: Arc<SolverPool>,
    shutdown: watch::Receiver<bool>,
    /// The sweeps met in leases, by digest, until the coordinator says they ended.
    sweeps: HashMap<String, Held>,
    /// Dataset URLs already proven writable.
    writable: HashSet<String>,
    current: Option<Current>,
    worker_id: String,
    /// Sent with every registration, so that the coordinator gives this process the
    /// same worker id after a reconnect (see [`instance_id`]).
    instance: String,
    report: WorkerReport,
    /// The gang of the last lease broke; said with the next lease request.
    gang_failed: bool,
}

impl Worker {
    /// `shutdown` set to true stops the worker (with [`WorkerError::Stopped`]).
    pub fn new(
        options: WorkerOptions,
        pool: Arc<SolverPool>,
        shutdown: watch::Receiver<bool>,
    ) -> Worker {
        Worker {
            options,
            pool,
            shutdown,
            sweeps: HashMap::new(),
            writable: HashSet::new(),
            current: None,
            worker_id: String::new(),
            instance: instance_id(),
            report: WorkerReport::default(),
            gang_failed: false,
        }
    }

    /// Works until the coordinator says the sweep is complete.
    pub async fn run(mut self) -> Result<WorkerReport, WorkerError> {
        let mut backoff = Duration::from_millis(100);
        let mut unreachable_since: Option<Instant> = None;
        let result = loop {
            match self.session(&mut unreachable_since).await {
                Ok(()) => break Ok(()),
                Err(e)
                    if e.is_transient(!self.worker_id.is_empty()) && !*self.shutdown.borrow() =>
                {
                    let since = *unreachable_since.get_or_insert_with(Instant::now);
                    let last = e.describe(!self.worker_id.is_empty());
                    if since.elapsed() > self.options.give_up_after {
                        break Err(WorkerError::GaveUp {
                            url: self.options.connect.url.clone(),
                            secs: since.elapsed().as_secs(),
                            last,
                        });
                    }
                    warn!(error = %last, retry_in_ms = backoff.as_millis() as u64, "coordinator unavailable, retrying");
                    let mut shutdown = self.shutdown.clone();
                    tokio::select! {
                        _ = sleep(jitter(backoff)) => {}
                        _ = stopped(&mut shutdown) => break Err(WorkerError::Stopped),
                    }
                    backoff = (backoff * 2).min(Duration::from_secs(5));
                }
                Err(e) => break Err(e),
            }
        };
        if let Some(current) = self.current.take() {
            current.abandon().await;
        }
        result.map(|()| self.report)
    }

    async fn session(
        &mut self,
        unreachable_since: &mut Option<Instant>,
    ) -> Result<(), WorkerError> {
        let mut client = self.options.connect.connect().await?;
        let heartbeat = self.register(&mut client).await?;
        *unreachable_since = None;
        loop {
            if *self.shutdown.borrow() {
                return Err(WorkerError::Stopped);
            }
            let resume = self.current.as_ref().filter(|c| !c.mode.in_gang());
            let answer = client
                .lease(LeaseRequest {
                    worker_id: self.worker_id.clone(),
                    resume_unit_id: resume.map(|c| c.unit_id.clone()).unwrap_or_default(),
                    resume_sweep: resume.map(|c| c.digest.clone()).unwrap_or_default(),
                    gang_failed: self.gang_failed,
                    held_sweeps: self.sweeps.keys().cloned().collect(),
                })
                .await?
                .into_inner();
            self.gang_failed = false;
            for ended in &answer.ended_sweeps {
                if self.sweeps.remove(ended).is_some() {
                    debug!(sweep = %ended, "the sweep ended; dropping it");
                }
            }
            match answer.outcome {
                Some(lease_response::Outcome::Complete(_)) => {
                    info!(
                        units = self.report.units,
                        games = self.report.games,
                        "sweep complete"
                    );
                    return Ok(());
                }
                Some(lease_response::Outcome::WaitMs(ms)) => {
                    if let Some(current) = self.current.take() {
                        debug!(unit = %current.unit_id, "unit no longer needed");
                        current.abandon().await;
                    }
                    let mut shutdown = self.shutdown.clone();
                    tokio::select! {
                        _ = sleep(Duration::from_millis(ms.clamp(10, 5_000))) => {}
                        _ = stopped(&mut shutdown) => return Err(WorkerError::Stopped),
                    }
                }
                Some(lease_response::Outcome::Lease(lease)) => {
                    let held = self.sweep_of(&mut client, &lease.sweep_digest).await?;
                    self.work_on(&mut client, &held, lease, heartbeat).await?;
                }
                None => return Err(WorkerError::BadLease("empty answer".into())),
            }
        }
    }

    /// Registers with the coordinator on a new connection; returns the heartbeat interval
    /// it asks for.
    async fn register(&mut self, client: &mut Client) -> Result<Duration, WorkerError> {
        let reg = client
            .register(RegisterRequest {
                protocol_version: PROTOCOL_VERSION,
                name: self.options.name.clone(),
                threads: self.pool.threads().div_ceil(self.options.loops.max(1)) as u32,
                hammer_version: HAMMER_VERSION.to_owned(),
                instance: self.instance.clone(),
                peer_addr: self
                    .options
                    .peer
                    .as_ref()
                    .map(|p| p.advertise.clone())
                    .unwrap_or_default(),
            })
            .await?
            .into_inner();
        if reg.protocol_version != PROTOCOL_VERSION {
            return Err(WorkerError::ProtocolMismatch {
                worker: PROTOCOL_VERSION,
                coordinator: reg.protocol_version,
            });
        }
        if self.worker_id != reg.worker_id {
            info!(worker = %reg.worker_id, threads = self.pool.threads(), "registered");
        }
        self.worker_id = reg.worker_id.clone();
        self.report.worker_id = reg.worker_id.clone();
        Ok(Duration::from_millis(reg.heartbeat_ms.clamp(50, 60_000)))
    }

    /// Works on a leased unit until the coordinator has it or no longer needs it: keeps
    /// the unit already under way when the lease renews it, starts it otherwise.
    async fn work_on(
        &mut self,
        client: &mut Client,
        held: &Held,
        lease: Lease,
        heartbeat: Duration,
    ) -> Result<(), WorkerError> {
        let sweep = &held.sweep;
        let wire = lease
            .unit
            .ok_or_else(|| WorkerError::BadLease("lease without a unit".into()))?;
        let unit = leased_unit(sweep, &wire)?;
        // A gang's game is searched anew by every gang it is leased to.
        let gang = lease.gang.is_some();
        if let Some(current) = self.current.take_if(|c| {
            c.unit_id != wire.unit_id || c.digest != sweep.digest || c.mode.in_gang() || gang
        }) {
            debug!(unit = %current.unit_id, "unit given to another worker, dropping it");
            current.abandon().await;
        }
        if self.current.is_none() {
            self.current = Some(match &lease.gang {
                Some(gang) => self.start_gang_unit(sweep, unit, gang.clone())?,
                None => self.start_unit(sweep, unit),
            });
        }
        debug!(unit = %wire.unit_id, lease = %lease.lease_id, speculative = lease.speculative, "leased");
        let leased = Leased {
            worker_id: &self.worker_id,
            lease_id: &lease.lease_id,
            sweep,
            store: held.store.as_ref(),
            heartbeat,
            batch_rows: self.options.batch_rows,
            flush_after: self.options.flush_after,
        };
        let current = self.current.as_mut().ok_or(WorkerError::Stopped)?;
        let end = work(client, &mut self.shutdown, &leased, current).await?;
        if let Some(current) = self.current.take() {
            self.gang_failed = current.mode == Mode::GangBroke;
            if end == StreamEnd::Ours {
                self.report.units += 1;
                self.report.games += current.results.len() as u64;
            }
            current.abandon().await;
        }
        Ok(())
    }

    /// The sweep of digest `digest`, fetched from the coordinator the first time a lease
    /// names it, with its knowledge bases installed and its dataset opened.
    async fn sweep_of(&mut self, client: &mut Client, digest: &str) -> Result<Held, WorkerError> {
        if let Some(held) = self.sweeps.get(digest) {
            return Ok(held.clone());
        }
        let spec = client
            .get_sweep(GetSweepRequest {
                worker_id: self.worker_id.clone(),
                digest: digest.to_owned(),
            })
            .await?
            .into_inner();
        let bases = Arc::new(install_knowledge_bases(&spec.knowledge_bases)?);
        let parsed = self.parse_sweep(&spec);
        let store = match parsed {
            Ok(_) => self.open_store(&spec.dataset_url).await,
            Err(_) => Ok(None),
        };
        // On an error the bases are dropped, and so released.
        let (sweep, store) = (parsed?, store?);
        info!(sweep = %sweep.name, digest = %sweep.digest, dataset = ?store.as_ref().map(|s| s.to_string()), "sweep received");
        let held = Held {
            sweep,
            store,
            _bases: bases,
        };
        self.sweeps.insert(digest.to_owned(), held.clone());
        Ok(held)
    }

    /// Opens the dataset the coordinator asks this worker to write, and checks once per
    /// URL that a part can be put there: a worker that cannot write it stops before it
    /// solves anything of the sweep.
    async fn open_store(&mut self, url: &str) -> Result<Option<Store>, WorkerError> {
        if url.is_empty() || self.options.no_store {
            return Ok(None);
        }
        let unreachable = |source| WorkerError::StoreUnreachable {
            url: url.to_owned(),
            source,
        };
        let store = Store::open(url).map_err(unreachable)?;
        if !self.writable.contains(url) {
            store.check_writable().await.map_err(unreachable)?;
            info!(dataset = %store, "this worker puts the parts of its units into the dataset");
            self.writable.insert(url.to_owned());
        }
        Ok(Some(store))
    }

    /// The sweep of `spec`, whose knowledge bases are installed.
    fn parse_sweep(&self, spec: &SweepSpec) -> Result<Arc<Sweep>, WorkerError> {
        let origin = format!("<sweep {} sent by {}>", spec.name, self.options.connect.url);
        let sweep = Sweep::parse(&spec.text, &origin)?;
        if sweep.digest != spec.digest {
            return Err(WorkerError::Digest {
                computed: sweep.digest,
                announced: spec.digest.clone(),
            });
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        self.options.solvers.check(&sweep, &path)?;
        Ok(Arc::new(sweep))
    }

    /// Starts solving `unit` on the pool in the background.
    fn start_unit(&self, sweep: &Arc<Sweep>, unit: Unit) -> Current {
        let (tx, rx) = mpsc::unbounded_channel();
        let cancel = Cancel::new();
        let pool = self.pool.clone();
        let sweep_for_task = sweep.clone();
        let cancel_for_task = cancel.clone();
        let task = tokio::task::spawn_blocking(move || {
            let emit_tx = tx.clone();
            let result = pool.solve_range(
                &sweep_for_task,
                &unit,
                unit.start..unit.end,
                &cancel_for_task,
                &move |row| {
                    // The receiver is gone only when the unit was abandoned.
                    let _ = emit_tx.send(SolverMsg::Row(row));
                },
            );
            let _ = tx.send(SolverMsg::Done(result));
        });
        Current::new(sweep, unit, rx, cancel, task, Mode::Alone)
    }

    /// Starts searching `unit` as a member of `gang` in the background, on a thread of
    /// its own (the gang's link runs a tokio runtime of its own, which cannot start on
    /// a thread of this one).
    fn start_gang_unit(
        &self,
        sweep: &Arc<Sweep>,
        unit: Unit,
        gang: GangLease,
    ) -> Result<Current, WorkerError> {
        let Some(peer) = self.options.peer.clone() else {
            return Err(WorkerError::BadLease(format!(
                "unit {} was leased to a gang, but this worker takes no part in gangs (no --peer-listen)",
                unit.id()
            )));
        };
        let (tx, rx) = mpsc::unbounded_channel();
        let cancel = Cancel::new();
        let sweep_for_task = sweep.clone();
        let cancel_for_task = cancel.clone();
        let leader = gang.rank == 0;
        info!(unit = %unit.id(), gang = %gang.game, rank = gang.rank, members = gang.peers.len(), "searching a game with a gang");
        let unit_id = unit.id();
        let task = tokio::task::spawn_blocking(move || {
            let emit_tx = tx.clone();
            let thread = std::thread::Builder::new()
                .name("hammer-gang-member".into())
                .spawn(move || {
                    solve_gang_unit(
                        &sweep_for_task,
                        &unit,
                        &gang,
                        &peer,
                        &cancel_for_task,
                        &move |row| {
                            let _ = emit_tx.send(SolverMsg::Row(row));
                        },
                    )
                });
            let result = match thread.map(|t| t.join()) {
                Ok(Ok(result)) => result,
                Ok(Err(_)) => Err(SolveError::Gang {
                    unit: unit_id,
                    index: unit.start,
                    source: Box::new(GangFailure::Panicked),
                }),
                Err(e) => Err(SolveError::ThreadStart(e)),
            };
            let _ = tx.send(SolverMsg::Done(result));
        });
        Ok(Current::new(
            sweep,
            unit,
            rx,
            cancel,
            task,
            Mode::Gang { leader },
        ))
    }
}

/// A few percent of random spread, so that workers restarted together do not retry in
/// lock step.
fn jitter(d: Duration) -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |t| t.subsec_nanos());
    d + d.mul_f64(f64::from(nanos % 1000) / 4000.0)
}

/// The sweep's unit that a lease names, checked against the lease's own description of
/// it (its size, point and games).
fn leased_unit(sweep: &Sweep, wire: &WireUnit) -> Result<Unit, WorkerError> {
    let unit = sweep.unit_by_id(&wire.unit_id).ok_or_else(|| {
        WorkerError::BadLease(format!(
            "unit {:?} is not a unit of sweep {}",
            wire.unit_id, sweep.name
        ))
    })?;
    if unit.n != wire.n
        || unit.point != wire.point
        || unit.start != wire.start
        || unit.end != wire.end
    {
        return Err(WorkerError::BadLease(format!(
            "unit {} is games {}..{} of n={} here but the coordinator says {}..{} of n={}",
            wire.unit_id, unit.start, unit.end, unit.n, wire.start, wire.end, wire.n
        )));
    }
    Ok(unit)
}
