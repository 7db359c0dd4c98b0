//! `hammer bench-ingest`: coordinator ingest with many synthetic workers on loopback,
//! measured as a command rather than asserted in tests, because this machine is shared
//! and noisy.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_coordinator::{Coordinator, CoordinatorConfig};
use hammer_local::synthetic_worker;
use hammer_sweep::Sweep;

use crate::cpu_time::{process_cpu_seconds, thread_cpu_seconds};

#[derive(Args)]
pub struct IngestArgs {
    /// Concurrent synthetic workers, each with its own connection.
    #[arg(long, default_value_t = 64)]
    workers: usize,
    /// Results in total.
    #[arg(long, default_value_t = 2_000_000)]
    games: u64,
    /// Games per unit (one Parquet part each).
    #[arg(long, default_value_t = 10_000)]
    unit_games: u64,
    /// Results per batch.
    #[arg(long, default_value_t = 1024)]
    batch: usize,
    /// Dataset directory (must not exist); default: a temporary directory, removed
    /// afterwards.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The synthetic workers put each unit's part into the dataset themselves and send
    /// only its summary, as workers do when the dataset is in an object store; their
    /// encoding is their CPU, not the coordinator's.
    #[arg(long)]
    workers_write: bool,
}

fn synthetic_sweep(name: &str, games: u64, unit_games: u64) -> Result<Sweep> {
    let text = format!(
        "name = \"{name}\"\nseed = 1\n\n[[experiment]]\nname = \"ingest\"\nsizes = [6]\ngames = {games}\norders = [\"standard\"]\nschedules = [\"exact\"]\nunit_games = {unit_games}\n"
    );
    Sweep::parse(&text, "<bench-ingest>").map_err(|e| anyhow::anyhow!("{e}"))
}

pub fn ingest(args: IngestArgs) -> Result<ExitCode> {
    if args.workers == 0 || args.games == 0 || args.unit_games == 0 || args.batch == 0 {
        bail!("--workers, --games, --unit-games and --batch must be positive");
    }
    let temp = tempfile::TempDir::new().context("cannot create a temporary directory")?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| temp.path().join("dataset"));
    if out.exists() {
        bail!(
            "{} already exists; bench-ingest needs a fresh directory",
            out.display()
        );
    }
    let sweep = synthetic_sweep("bench-ingest", args.games, args.unit_games)?;
    let units = sweep.units().len();
    let out = std::path::absolute(&out)
        .with_context(|| format!("cannot make {} absolute", out.display()))?;
    let mut config = CoordinatorConfig::loopback(
        sweep,
        hammer_store::Store::local(&out),
        out.join(hammer_dataset::STATE_DIR),
    );
    if args.workers_write {
        config.workers_write = true;
    }
    // Two runtimes, so that the CPU time of the synthetic clients (which a real cluster
    // spends on other machines) can be told apart from the coordinator's: their threads
    // are named `bench-client`, and everything else in the process is the coordinator.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("hammer-coord")
        .build()
        .context("cannot start the async runtime")?;
    let clients = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name(CLIENT_THREAD)
        .build()
        .context("cannot start the async runtime")?;
    let client_handle = clients.handle().clone();
    let cpu_started = process_cpu_seconds();
    let client_cpu_started = thread_cpu_seconds(CLIENT_THREAD);
    let (elapsed, status, client_cpu) = runtime.block_on(async move {
        let coordinator = Coordinator::start(config).await?;
        let url = coordinator.url();
        let started = Instant::now();
        let mut tasks = Vec::new();
        for w in 0..args.workers {
            let url = url.clone();
            let batch = args.batch;
            tasks.push(client_handle.spawn(async move { synthetic_worker(w, url, batch).await }));
        }
        for task in tasks {
            task.await.context("synthetic worker panicked")??;
        }
        coordinator.wait_complete().await?;
        let elapsed = started.elapsed();
        // Read while the client threads still exist; the coordinator's writer threads
        // end at shutdown, so its share is the process total minus the clients'.
        let client_cpu = thread_cpu_seconds(CLIENT_THREAD);
        let status = coordinator.shutdown().await?;
        anyhow::Ok((elapsed, status, client_cpu))
    })?;
    drop(clients);
    let cpu_total = match (cpu_started, process_cpu_seconds()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    let client_cpu = match (client_cpu_started, client_cpu) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    let bytes = dir_size(&out);
    let rate = status.games_committed as f64 / elapsed.as_secs_f64();
    println!(
        "bench-ingest: {} results from {} synthetic workers in {} units, committed to Parquet in {:.2} s",
        status.games_committed,
        args.workers,
        units,
        elapsed.as_secs_f64()
    );
    let (mode, target) = if args.workers_write {
        ("workers write the parts", 2_000_000)
    } else {
        ("the coordinator writes the parts", 500_000)
    };
    println!("  {mode}");
    println!(
        "  {rate:.0} results/s (target {target}), {:.1} MB of Parquet ({:.0} bytes/result), {} duplicates, {} refused",
        bytes as f64 / 1e6,
        bytes as f64 / status.games_committed.max(1) as f64,
        status.duplicates,
        status.refused
    );
    if let (Some(total), Some(clients)) = (cpu_total, client_cpu) {
        let coordinator = (total - clients).max(0.01);
        println!(
            "  CPU time: coordinator {coordinator:.2} s, synthetic clients {clients:.2} s ({:.0}% of the process); {:.0} results per coordinator CPU-second",
            100.0 * clients / total.max(0.01),
            status.games_committed as f64 / coordinator
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Name of the synthetic clients' runtime threads.
const CLIENT_THREAD: &str = "bench-client";

fn dir_size(path: &std::path::Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(path) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => dir_size(&e.path()),
            _ => e.metadata().map_or(0, |m| m.len()),
        })
        .sum()
}
