//! [`run_local`]: a whole sweep on this machine, a coordinator and a worker in this
//! process.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hammer_coordinator::{Coordinator, CoordinatorConfig, CoordinatorError};
use hammer_proto::v1::StatusResponse;
use hammer_worker::{
    ConnectOptions, PeerOptions, SolverPool, WorkerError, WorkerOptions, run_group,
};
use tokio::sync::watch;

/// Errors of a local run.
#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    /// The coordinator failed.
    #[error(transparent)]
    Coordinator(#[from] CoordinatorError),
    /// The worker failed.
    #[error(transparent)]
    Worker(#[from] WorkerError),
    /// The worker's task panicked or was cancelled.
    #[error("the worker task failed")]
    WorkerTask(#[source] tokio::task::JoinError),
    /// No free ports for a gang's members.
    #[error("cannot find loopback ports for the gangs' members")]
    PeerPorts(#[source] std::io::Error),
}

/// What a local run reports while it runs, for the caller to show.
#[derive(Clone, Copy, Debug)]
pub enum LocalEvent<'a> {
    /// The Prometheus metrics endpoint serves at this address.
    Metrics(SocketAddr),
    /// The worker starts (the sweep was not complete yet); the status says how much of
    /// it a previous run already committed.
    Started(&'a StatusResponse),
    /// The coordinator's status, every 200 ms while the worker runs.
    Progress(&'a StatusResponse),
    /// The worker has ended (finished, failed or stopped): no progress follows.
    WorkerEnded,
}

/// How a local run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// The state directory already held the whole sweep; nothing was solved.
    AlreadyComplete,
    /// Every unit was solved and committed.
    Complete,
    /// `stop` resolved (with the signal's name): results in flight were committed, the
    /// rest resumes on the next run.
    Interrupted(&'static str),
}

/// The end of a local run and the coordinator's final status.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    /// How the run ended.
    pub end: RunEnd,
    /// The coordinator's last status.
    pub status: StatusResponse,
    /// Wall seconds of the run.
    pub seconds: f64,
}

/// The first of `count` consecutive loopback ports that are free now, for the local
/// worker loops' gang members.
fn loopback_ports(count: usize) -> Result<SocketAddr, LocalError> {
    use std::net::{Ipv4Addr, TcpListener};
    for _ in 0..64 {
        let first = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(LocalError::PeerPorts)?;
        let base = first.local_addr().map_err(LocalError::PeerPorts)?.port();
        drop(first);
        if usize::from(base) + count > usize::from(u16::MAX) {
            continue;
        }
        let free =
            (0..count as u16).all(|i| TcpListener::bind((Ipv4Addr::LOCALHOST, base + i)).is_ok());
        if free {
            return Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, base)));
        }
    }
    Err(LocalError::PeerPorts(std::io::Error::new(
        std::io::ErrorKind::AddrInUse,
        format!("no {count} consecutive free loopback ports"),
    )))
}

/// A coordinator and a worker in this process, talking gRPC over loopback: the same
/// code paths as a cluster, so `hammer run` tests the cluster and vice versa. The worker
/// holds one lease per thread of `pool` ([`run_group`]), so that units of one game (a
/// continuation sweep's, a gang's) still use every thread. Resumes
/// whatever the state directory of `config` holds; serves Prometheus metrics at
/// `metrics` while it runs; stops early, committing what is in flight, when `stop`
/// resolves (the caller passes its Ctrl-C and SIGTERM handling); tells `on_event` what
/// happens.
pub async fn run_local(
    config: CoordinatorConfig,
    pool: Arc<SolverPool>,
    metrics: Option<SocketAddr>,
    stop: impl Future<Output = &'static str>,
    mut on_event: impl FnMut(LocalEvent<'_>),
) -> Result<RunOutcome, LocalError> {
    let started = Instant::now();
    // The largest gang the sweep's games need (`gang = K`): so many worker
    // loops at least, each a gang member of its own on a loopback port.
    let gang = config
        .sweep
        .iter()
        .flat_map(|s| &s.experiments)
        .filter_map(|e| e.gang)
        .max()
        .unwrap_or(0) as usize;
    let mut coordinator = Coordinator::start(config).await?;
    if let Some(addr) = metrics {
        let bound = coordinator.serve_metrics(addr).await?;
        on_event(LocalEvent::Metrics(bound));
    }
    if coordinator.is_complete() {
        let status = coordinator.shutdown().await?;
        return Ok(RunOutcome {
            end: RunEnd::AlreadyComplete,
            status,
            seconds: 0.0,
        });
    }
    on_event(LocalEvent::Started(&coordinator.status()));
    let mut options = WorkerOptions::new(ConnectOptions {
        url: coordinator.url(),
        ..ConnectOptions::default()
    });
    options.name = "local".into();
    options.solvers = hammer_worker::Solvers::TheSweeps;
    options.give_up_after = Duration::from_secs(30);
    let (stop_tx, stop_rx) = watch::channel(false);
    let leases = pool.threads().max(gang);
    if gang > 0 {
        let listen = loopback_ports(leases)?;
        options.peer = Some(PeerOptions {
            listen,
            advertise: listen.to_string(),
            token: None,
            tls: None,
            wait: Duration::from_secs(30),
        });
    }
    let mut worker = tokio::spawn(run_group(options, pool, stop_rx, leases));
    let mut tick = tokio::time::interval(Duration::from_millis(200));
    let stop = std::pin::pin!(stop);
    let mut stop = stop;
    let end = loop {
        tokio::select! {
            result = &mut worker => {
                match result.map_err(LocalError::WorkerTask)? {
                    Ok(_) => break None,
                    Err(e) => {
                        on_event(LocalEvent::WorkerEnded);
                        let _ = coordinator.shutdown().await;
                        return Err(e.into());
                    }
                }
            }
            signal = &mut stop => break Some(signal),
            _ = tick.tick() => on_event(LocalEvent::Progress(&coordinator.status())),
        }
    };
    on_event(LocalEvent::WorkerEnded);
    match end {
        None => {
            coordinator.wait_complete().await?;
            let status = coordinator.shutdown().await?;
            Ok(RunOutcome {
                end: RunEnd::Complete,
                status,
                seconds: started.elapsed().as_secs_f64(),
            })
        }
        Some(signal) => {
            let _ = stop_tx.send(true);
            let _ = worker.await;
            // The status after the drain, which may have committed more units.
            let status = coordinator.shutdown().await?;
            Ok(RunOutcome {
                end: RunEnd::Interrupted(signal),
                status,
                seconds: started.elapsed().as_secs_f64(),
            })
        }
    }
}
