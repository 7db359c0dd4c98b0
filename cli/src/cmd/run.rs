//! `hammer run`: a whole sweep on this machine, a coordinator and a worker in one process.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use hammer_coordinator::{Coordinator, CoordinatorConfig, Timing};
use hammer_proto::v1::StatusResponse;
use hammer_sweep::Sweep;
use hammer_worker::{ConnectOptions, SolverPool, Worker, WorkerOptions};
use tokio::sync::watch;

use crate::args::{default_state, load_sweep, threads};
use crate::progress::{Progress, summary};
use crate::runtime::{runtime, stop_signal};

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
