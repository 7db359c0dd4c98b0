//! `hammer coordinator`, `hammer worker`, `hammer run` and `hammer status`: running a
//! sweep on one machine or many.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_coordinator::{Coordinator, CoordinatorConfig, Timing, TlsFiles};
use hammer_proto::v1::{StatusRequest, StatusResponse};
use hammer_sweep::Sweep;
use hammer_worker::{ConnectOptions, SolverPool, Worker, WorkerError, WorkerOptions};
use tokio::sync::watch;

use crate::progress::{Progress, progress_line, summary};

/// The shared token: `--token-file`, else the `HAMMER_TOKEN` environment variable.
#[derive(Args, Clone, Debug)]
pub struct TokenArgs {
    /// File holding the shared token (surrounding whitespace is ignored). Without it,
    /// the token comes from the HAMMER_TOKEN environment variable, if set.
    #[arg(long)]
    token_file: Option<PathBuf>,
}

impl TokenArgs {
    fn token(&self) -> Result<Option<String>> {
        let token = match &self.token_file {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read the token file {}", path.display()))?;
                let token = text.trim().to_owned();
                if token.is_empty() {
                    bail!("the token file {} is empty", path.display());
                }
                Some(token)
            }
            None => std::env::var("HAMMER_TOKEN")
                .ok()
                .map(|t| t.trim().to_owned())
                .filter(|t| !t.is_empty()),
        };
        if let Some(token) = &token
            && !token.bytes().all(|b| b.is_ascii_graphic())
        {
            bail!("the shared token may only contain visible ASCII characters (no spaces)");
        }
        Ok(token)
    }
}

/// How to reach a coordinator.
#[derive(Args, Clone, Debug)]
pub struct ConnectArgs {
    /// The coordinator's URL, such as http://10.0.0.5:7070 (https:// with --tls-ca).
    #[arg(long)]
    coordinator: String,
    #[command(flatten)]
    token: TokenArgs,
    /// PEM certificate of the authority that signed the coordinator's TLS certificate.
    #[arg(long)]
    tls_ca: Option<PathBuf>,
    /// Host name to verify the coordinator's certificate against, when the URL uses
    /// another name or an IP address.
    #[arg(long, requires = "tls_ca")]
    tls_domain: Option<String>,
}

impl ConnectArgs {
    pub(crate) fn options(&self) -> Result<ConnectOptions> {
        Ok(ConnectOptions {
            url: self.coordinator.clone(),
            token: self.token.token()?,
            tls_ca: self.tls_ca.clone(),
            tls_domain: self.tls_domain.clone(),
        })
    }
}

#[derive(Args)]
pub struct CoordinatorArgs {
    /// The sweep file (TOML).
    #[arg(long)]
    sweep: PathBuf,
    /// The dataset directory: DIR/experiment=NAME/n=N/part-UNIT.parquet.
    #[arg(long)]
    out: PathBuf,
    /// The state directory (journal of committed units). Default: OUT/.hammer-state.
    #[arg(long)]
    state: Option<PathBuf>,
    /// Address to listen on, IP:PORT. Anything but a loopback address needs a token.
    #[arg(long, default_value = "127.0.0.1:7070")]
    listen: SocketAddr,
    #[command(flatten)]
    token: TokenArgs,
    /// PEM certificate chain for TLS (with --tls-key).
    #[arg(long, requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// PEM private key for TLS (with --tls-cert).
    #[arg(long, requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    #[command(flatten)]
    timing: TimingArgs,
    /// After the sweep completes, keep answering "complete" to workers for at most this
    /// long (seconds) so that they exit instead of retrying.
    #[arg(long, default_value_t = 10.0)]
    linger_secs: f64,
    /// Serve Prometheus metrics over HTTP at http://ADDR/metrics (IP:PORT; no token, so
    /// keep it on a network you trust). Off by default.
    #[arg(long, value_name = "ADDR")]
    metrics: Option<SocketAddr>,
    /// After the sweep completes, keep serving (status, health, metrics, "complete" to
    /// workers) until SIGTERM instead of exiting. For supervisors that restart a process
    /// whenever it exits, such as a Kubernetes Deployment.
    #[arg(long)]
    stay_after_complete: bool,
}

#[derive(Args, Clone, Debug)]
pub struct TimingArgs {
    /// A lease lapses, and its unit is given out again, this long (seconds) after the
    /// worker was last heard of.
    #[arg(long, default_value_t = 30.0)]
    lease_secs: f64,
    /// Seconds between worker heartbeats.
    #[arg(long, default_value_t = 5.0)]
    heartbeat_secs: f64,
    /// When nothing else is left, a unit leased for longer than this (seconds) and
    /// longer than the median unit took gets a second copy for an idle worker.
    #[arg(long, default_value_t = 2.0)]
    speculate_after_secs: f64,
}

impl TimingArgs {
    fn timing(&self) -> Result<Timing> {
        let secs = |name: &str, v: f64| {
            if v.is_finite() && v > 0.0 && v < 1e6 {
                Ok(Duration::from_secs_f64(v))
            } else {
                bail!("--{name} must be a positive number of seconds")
            }
        };
        let timing = Timing {
            lease_ttl: secs("lease-secs", self.lease_secs)?,
            heartbeat: secs("heartbeat-secs", self.heartbeat_secs)?,
            speculate_after: secs("speculate-after-secs", self.speculate_after_secs)?,
        };
        if timing.lease_ttl < timing.heartbeat * 2 {
            bail!(
                "--lease-secs must be at least twice --heartbeat-secs, or leases lapse between heartbeats"
            );
        }
        Ok(timing)
    }
}

#[derive(Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    /// Solver threads; default: one per core.
    #[arg(long)]
    threads: Option<usize>,
    /// Name in the coordinator's logs and the dataset's `worker` column. Default:
    /// HOST-PID.
    #[arg(long)]
    name: Option<String>,
    /// Exit with an error when the coordinator has been unreachable this long (seconds).
    #[arg(long, default_value_t = 600)]
    give_up_after_secs: u64,
    /// When the sweep is complete, wait for SIGTERM instead of exiting. For supervisors
    /// that restart a process whenever it exits, such as a Kubernetes Deployment.
    #[arg(long)]
    stay_after_complete: bool,
}

#[derive(Args)]
pub struct RunArgs {
    /// The sweep file (TOML).
    sweep: PathBuf,
    /// The dataset directory.
    #[arg(long)]
    out: PathBuf,
    /// The state directory. Default: OUT/.hammer-state (hidden, so dataset readers skip
    /// it).
    #[arg(long)]
    state: Option<PathBuf>,
    /// Solver threads; default: one per core.
    #[arg(long)]
    threads: Option<usize>,
    /// Serve Prometheus metrics over HTTP at http://ADDR/metrics while running.
    #[arg(long, value_name = "ADDR")]
    metrics: Option<SocketAddr>,
}

#[derive(Args)]
pub struct StatusArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    /// Keep showing progress until the sweep completes.
    #[arg(long)]
    watch: bool,
}

pub fn default_state(out: &Path) -> PathBuf {
    out.join(".hammer-state")
}

pub(crate) fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("hammer-io")
        .build()
        .context("cannot start the async runtime")
}

/// Resolves on Ctrl-C or SIGTERM, naming the signal.
async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => tokio::select! {
                _ = tokio::signal::ctrl_c() => "Ctrl-C",
                _ = term.recv() => "SIGTERM",
            },
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                "Ctrl-C"
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    }
}

pub fn load_sweep(path: &Path) -> Result<Sweep> {
    // SweepError's Display is "file:line:col: key: message"; nothing to add.
    Sweep::load(path).map_err(|e| anyhow::anyhow!("{e}"))
}

pub fn coordinator(args: CoordinatorArgs) -> Result<ExitCode> {
    let sweep = load_sweep(&args.sweep)?;
    let token = args.token.token()?;
    let tls = match (args.tls_cert, args.tls_key) {
        (Some(cert), Some(key)) => Some(TlsFiles { cert, key }),
        _ => None,
    };
    let state = args.state.unwrap_or_else(|| default_state(&args.out));
    let config = CoordinatorConfig {
        sweep,
        out: args.out.clone(),
        state,
        listen: args.listen,
        token,
        tls,
        timing: args.timing.timing()?,
        hammer_version: hammer_worker::HAMMER_VERSION.to_owned(),
    };
    let linger = Duration::from_secs_f64(args.linger_secs.clamp(0.0, 3600.0));
    let stay = args.stay_after_complete;
    runtime()?.block_on(async move {
        let mut coordinator = Coordinator::start(config).await?;
        if let Some(addr) = args.metrics {
            let bound = coordinator.serve_metrics(addr).await?;
            eprintln!("hammer coordinator: metrics at http://{bound}/metrics");
        }
        let status = coordinator.status();
        eprintln!(
            "hammer coordinator: listening on {} (sweep {}, {} units, {} games; {} units already committed)",
            coordinator.url(),
            status.sweep_name,
            status.units_total,
            status.games_total,
            status.units_committed,
        );
        if coordinator.is_complete() {
            eprintln!("sweep {} is already complete in {}", status.sweep_name, args.out.display());
            if stay {
                stay_until_signal().await;
            }
            coordinator.shutdown().await?;
            print!("{}", summary(&status));
            return Ok(ExitCode::SUCCESS);
        }
        let mut progress = Progress::new(status.games_total);
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        let outcome = loop {
            tokio::select! {
                done = coordinator.wait_complete() => break done.map(|()| None),
                signal = stop_signal() => break Ok(Some(signal)),
                _ = tick.tick() => progress.update(&coordinator.status()),
            }
        };
        progress.finish();
        match outcome {
            Ok(None) => {
                if stay {
                    eprintln!("sweep {} complete; serving until SIGTERM (--stay-after-complete)", status.sweep_name);
                    stay_until_signal().await;
                } else {
                    coordinator.wait_workers_told(linger).await;
                }
                let status = coordinator.shutdown().await?;
                eprintln!("sweep {} complete: {} games in {}", status.sweep_name, status.games_committed, args.out.display());
                print!("{}", summary(&status));
                Ok(ExitCode::SUCCESS)
            }
            Ok(Some(signal)) => {
                eprintln!("{signal}: finishing results in flight, then stopping");
                let status = coordinator.shutdown().await?;
                eprintln!(
                    "stopped with {} of {} games committed; start the coordinator again with the same --state to resume",
                    status.games_committed, status.games_total
                );
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => {
                let _ = coordinator.shutdown().await;
                Err(e.into())
            }
        }
    })
}

/// Waits for Ctrl-C or SIGTERM, for `--stay-after-complete`.
async fn stay_until_signal() {
    let signal = stop_signal().await;
    eprintln!("{signal}: stopping");
}

fn threads(flag: Option<usize>) -> Result<usize> {
    match flag {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) => Ok(n),
        None => Ok(0),
    }
}

pub fn worker(args: WorkerArgs) -> Result<ExitCode> {
    let mut options = WorkerOptions::new(args.connect.options()?);
    if let Some(name) = args.name {
        options.name = name;
    }
    options.give_up_after = Duration::from_secs(args.give_up_after_secs);
    let stay = args.stay_after_complete;
    // Checked before any connection so that flag mistakes fail at once.
    options.connect.endpoint()?;
    let pool = Arc::new(SolverPool::new(threads(args.threads)?)?);
    runtime()?.block_on(async move {
        let (stop_tx, stop_rx) = watch::channel(false);
        let worker = Worker::new(options, pool, stop_rx);
        let mut run = tokio::spawn(worker.run());
        let result = tokio::select! {
            result = &mut run => result,
            signal = stop_signal() => {
                eprintln!("{signal}: stopping; the coordinator gives this worker's unit to another worker");
                let _ = stop_tx.send(true);
                run.await
            }
        };
        match result.context("the worker task failed")? {
            Ok(report) => {
                eprintln!(
                    "hammer worker {}: sweep complete ({} units, {} games solved here)",
                    report.worker_id, report.units, report.games
                );
                if stay {
                    eprintln!("waiting for SIGTERM (--stay-after-complete)");
                    stay_until_signal().await;
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(WorkerError::Stopped) => Ok(ExitCode::SUCCESS),
            Err(e) => Err(e.into()),
        }
    })
}

pub fn run(args: RunArgs) -> Result<ExitCode> {
    let sweep = load_sweep(&args.sweep)?;
    let outcome = run_sweep(sweep, &args.out, args.state, args.threads, args.metrics)?;
    tell_outcome(&outcome, &args.out);
    Ok(ExitCode::SUCCESS)
}

/// `hammer run` as a function: the whole sweep on this machine into `out`, resuming
/// whatever the state directory already holds, serving Prometheus metrics at `metrics`.
pub fn run_sweep(
    sweep: Sweep,
    out: &Path,
    state: Option<PathBuf>,
    threads_flag: Option<usize>,
    metrics: Option<SocketAddr>,
) -> Result<RunOutcome> {
    let state = state.unwrap_or_else(|| default_state(out));
    let pool = Arc::new(SolverPool::new(threads(threads_flag)?)?);
    let config = CoordinatorConfig {
        sweep,
        out: out.to_owned(),
        state,
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        token: None,
        tls: None,
        timing: Timing::default(),
        hammer_version: hammer_worker::HAMMER_VERSION.to_owned(),
    };
    runtime()?.block_on(run_local_with_metrics(config, pool, true, metrics))
}

/// Prints how a local run ended, and the per-experiment summary when it completed.
pub fn tell_outcome(outcome: &RunOutcome, out: &Path) {
    let status = &outcome.status;
    match outcome.end {
        RunEnd::AlreadyComplete => {
            eprintln!(
                "sweep {} is already complete: {} games in {}",
                status.sweep_name,
                status.games_committed,
                out.display()
            );
        }
        RunEnd::Complete => {
            eprintln!(
                "sweep {} complete: {} games in {} ({:.1} s)",
                status.sweep_name,
                status.games_committed,
                out.display(),
                outcome.seconds
            );
        }
        RunEnd::Interrupted(signal) => {
            eprintln!(
                "{signal}: stopped with {} of {} games committed; run the same command again to resume",
                status.games_committed, status.games_total
            );
            return;
        }
    }
    print!("{}", summary(status));
}

pub enum RunEnd {
    AlreadyComplete,
    Complete,
    Interrupted(&'static str),
}

pub struct RunOutcome {
    pub end: RunEnd,
    pub status: StatusResponse,
    pub seconds: f64,
}

/// A coordinator and one worker in this process, talking gRPC over loopback: the same
/// code paths as a cluster, so `hammer run` tests the cluster and vice versa.
pub async fn run_local(
    config: CoordinatorConfig,
    pool: Arc<SolverPool>,
    show_progress: bool,
) -> Result<RunOutcome> {
    run_local_with_metrics(config, pool, show_progress, None).await
}

/// `run_local`, serving Prometheus metrics at `metrics` while it runs.
pub async fn run_local_with_metrics(
    config: CoordinatorConfig,
    pool: Arc<SolverPool>,
    show_progress: bool,
    metrics: Option<SocketAddr>,
) -> Result<RunOutcome> {
    let started = std::time::Instant::now();
    let mut coordinator = Coordinator::start(config).await?;
    if let Some(addr) = metrics {
        let bound = coordinator.serve_metrics(addr).await?;
        eprintln!("hammer run: metrics at http://{bound}/metrics");
    }
    if coordinator.is_complete() {
        let status = coordinator.shutdown().await?;
        return Ok(RunOutcome {
            end: RunEnd::AlreadyComplete,
            status,
            seconds: 0.0,
        });
    }
    let status = coordinator.status();
    if status.units_committed > 0 {
        eprintln!(
            "resuming sweep {}: {} of {} units ({} of {} games) already committed",
            status.sweep_name,
            status.units_committed,
            status.units_total,
            status.games_committed,
            status.games_total
        );
    }
    let mut options = WorkerOptions::new(ConnectOptions {
        url: coordinator.url(),
        ..ConnectOptions::default()
    });
    options.name = "local".into();
    options.give_up_after = Duration::from_secs(30);
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut worker = tokio::spawn(Worker::new(options, pool, stop_rx).run());
    let mut progress = show_progress.then(|| Progress::new(status.games_total));
    let mut tick = tokio::time::interval(Duration::from_millis(200));
    let end = loop {
        tokio::select! {
            result = &mut worker => {
                match result.context("the worker task failed")? {
                    Ok(_) => break None,
                    Err(e) => {
                        if let Some(p) = progress.as_mut() { p.finish(); }
                        let _ = coordinator.shutdown().await;
                        return Err(e.into());
                    }
                }
            }
            signal = stop_signal() => break Some(signal),
            _ = tick.tick() => {
                if let Some(p) = progress.as_mut() { p.update(&coordinator.status()); }
            }
        }
    };
    if let Some(p) = progress.as_mut() {
        p.finish();
    }
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

pub fn status(args: StatusArgs) -> Result<ExitCode> {
    let options = args.connect.options()?;
    runtime()?.block_on(async move {
        let mut client = options.connect().await?;
        let mut status = client.status(StatusRequest {}).await?.into_inner();
        if args.watch {
            let mut progress = Progress::new(status.games_total);
            while !status.complete {
                progress.update(&status);
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_millis(500)) => {}
                    _ = stop_signal() => break,
                }
                status = client.status(StatusRequest {}).await?.into_inner();
            }
            progress.finish();
        }
        println!(
            "sweep {} (digest {})",
            status.sweep_name, status.sweep_digest
        );
        println!("{}", progress_line(&status));
        if status.refused > 0 || status.duplicates > 0 {
            println!(
                "results refused: {}, duplicates dropped: {}",
                status.refused, status.duplicates
            );
        }
        print!("{}", summary(&status));
        Ok(ExitCode::SUCCESS)
    })
}
