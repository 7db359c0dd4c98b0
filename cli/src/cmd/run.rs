//! `hammer run`: a whole sweep on this machine, a coordinator and a worker in one process.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
use clap::Args;
use hammer_coordinator::CoordinatorConfig;
use hammer_local::LocalEvent;
pub use hammer_local::{RunEnd, RunOutcome};
use hammer_store::Store;
use hammer_sweep::Sweep;
use hammer_worker::SolverPool;

use crate::args::{MemoryArgs, load_sweep, out_and_state, pool};
use crate::progress::{Progress, summary};
use crate::runtime::{runtime, stop_signal};

#[derive(Args)]
pub struct RunArgs {
    /// The sweep file (TOML).
    sweep: PathBuf,
    /// Where the dataset goes: a directory, or an object store URL (s3://BUCKET/PREFIX,
    /// gs://, az://, file://) with credentials in the store's usual variables.
    #[arg(long, value_name = "DIR|URL")]
    out: String,
    /// The state directory. Default: OUT/.hammer-state (hidden, so dataset readers skip
    /// it); needed when OUT is a URL.
    #[arg(long)]
    state: Option<PathBuf>,
    /// Solver threads; default: one per core.
    #[arg(long)]
    threads: Option<usize>,
    /// Serve Prometheus metrics over HTTP at http://ADDR:PORT/metrics while running.
    #[arg(long, value_name = "ADDR:PORT")]
    metrics: Option<SocketAddr>,
    /// Also keep a Delta Lake log (OUT/_delta_log/) over the parts, for Spark,
    /// deltalake, polars.read_delta and DuckDB's delta_scan.
    #[arg(long)]
    delta: bool,
    #[command(flatten)]
    memory: MemoryArgs,
}

pub fn run(args: RunArgs) -> Result<ExitCode> {
    let sweep = load_sweep(&args.sweep)?;
    check_programs(&sweep)?;
    let pool = Arc::new(pool(args.threads, &args.memory)?);
    let (out, state) = out_and_state(&args.out, args.state)?;
    let mut config = CoordinatorConfig::loopback(sweep, out.clone(), state);
    config.delta_log = args.delta;
    let outcome = runtime()?.block_on(run_local(config, pool, true, args.metrics))?;
    tell_outcome(&outcome, &out);
    Ok(ExitCode::SUCCESS)
}

/// Refuses a sweep whose declared programs this machine cannot run, before any of it
/// runs, at the line and column of the declaration.
fn check_programs(sweep: &Sweep) -> Result<()> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for program in sweep.experiments.iter().filter_map(|e| e.program.as_ref()) {
        if let Err(e) = hammer_external::resolve(program.solver.program(), &path) {
            anyhow::bail!("{}: {}", program.declared_at, hammer_proto::error_chain(&e));
        }
    }
    Ok(())
}

/// `hammer run` as a function: the whole sweep on this machine into `out`, resuming
/// whatever the state directory already holds, serving Prometheus metrics at `metrics`.
pub fn run_sweep(
    sweep: Sweep,
    out: Store,
    state: PathBuf,
    pool: SolverPool,
    metrics: Option<SocketAddr>,
) -> Result<RunOutcome> {
    let pool = Arc::new(pool);
    let config = CoordinatorConfig::loopback(sweep, out, state);
    runtime()?.block_on(run_local(config, pool, true, metrics))
}

/// [`hammer_local::run_local`] stopped by Ctrl-C or SIGTERM, printing what it reports:
/// the metrics address, a resumed sweep, and a progress display when `show_progress`.
pub async fn run_local(
    config: CoordinatorConfig,
    pool: Arc<SolverPool>,
    show_progress: bool,
    metrics: Option<SocketAddr>,
) -> Result<RunOutcome> {
    let mut progress: Option<Progress> = None;
    let outcome =
        hammer_local::run_local(config, pool, metrics, stop_signal(), |event| match event {
            LocalEvent::Metrics(bound) => {
                eprintln!("hammer run: metrics at http://{bound}/metrics")
            }
            LocalEvent::Started(status) => {
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
                if show_progress {
                    progress = Some(Progress::new(status.games_total));
                }
            }
            LocalEvent::Progress(status) => {
                if let Some(p) = progress.as_mut() {
                    p.update(status);
                }
            }
            LocalEvent::WorkerEnded => {
                if let Some(p) = progress.as_mut() {
                    p.finish();
                }
            }
        })
        .await;
    if let Some(p) = progress.as_mut() {
        p.finish();
    }
    Ok(outcome?)
}

/// Prints how a local run ended, and the per-experiment summary when it completed.
pub fn tell_outcome(outcome: &RunOutcome, out: &Store) {
    let status = &outcome.status;
    match outcome.end {
        RunEnd::AlreadyComplete => {
            eprintln!(
                "sweep {} is already complete: {} games in {}",
                status.sweep_name, status.games_committed, out
            );
        }
        RunEnd::Complete => {
            eprintln!(
                "sweep {} complete: {} games in {} ({:.1} s)",
                status.sweep_name, status.games_committed, out, outcome.seconds
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
