//! `hammer worker`: solve units of a coordinator's sweep on all cores until it is complete.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use hammer_worker::{WorkerError, WorkerOptions, run_group};
use tokio::sync::watch;

use crate::args::{ConnectArgs, MemoryArgs, pool};
use crate::runtime::{runtime, stay_until_signal, stop_signal};

#[derive(Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    /// Solver threads; default: one per core.
    #[arg(long)]
    threads: Option<usize>,
    /// Units leased and solved at once, sharing the threads. One suits units of many
    /// games; for units of one game (continuation sweeps, split games) set it to the
    /// number of threads so that no thread waits. Each lease is a worker of its own to
    /// the coordinator, named NAME-1, NAME-2, ...
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    leases: u32,
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
    #[command(flatten)]
    memory: MemoryArgs,
}

pub fn worker(args: WorkerArgs) -> Result<ExitCode> {
    let mut options = WorkerOptions::new(args.connect.options()?);
    if let Some(name) = args.name {
        options.name = name;
    }
    options.give_up_after = Duration::from_secs(args.give_up_after_secs);
    let stay = args.stay_after_complete;
    let leases = args.leases as usize;
    // Checked before any connection so that flag mistakes fail at once.
    options.connect.endpoint()?;
    let pool = Arc::new(pool(args.threads, &args.memory)?);
    runtime()?.block_on(async move {
        let (stop_tx, stop_rx) = watch::channel(false);
        let mut run = tokio::spawn(run_group(options, pool, stop_rx, leases));
        let result = tokio::select! {
            result = &mut run => result,
            signal = stop_signal() => {
                eprintln!("{signal}: stopping; the coordinator gives this worker's unit to another worker");
                let _ = stop_tx.send(true);
                run.await
            }
        };
        match result.context("the worker task failed")? {
            Ok(reports) => {
                for report in reports {
                    eprintln!(
                        "hammer worker {}: sweep complete ({} units, {} games solved here)",
                        report.worker_id, report.units, report.games
                    );
                }
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
