//! `hammer bench-ingest`: coordinator ingest with many synthetic workers on loopback,
//! measured as a command rather than asserted in tests, because this machine is shared
//! and noisy.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_coordinator::{Coordinator, CoordinatorConfig, Timing};
use hammer_proto::PROTOCOL_VERSION;
use hammer_proto::v1::{
    GameResult, LeaseRequest, RegisterRequest, ResultBatch, UnitState, lease_response,
};
use hammer_sweep::Sweep;
use hammer_worker::ConnectOptions;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

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
}

fn synthetic_sweep(name: &str, games: u64, unit_games: u64) -> Result<Sweep> {
    let text = format!(
        "name = \"{name}\"\nseed = 1\n\n[[experiment]]\nname = \"ingest\"\nsizes = [6]\ngames = {games}\norders = [\"standard\"]\nschedules = [\"exact\"]\nunit_games = {unit_games}\n"
    );
    Sweep::parse(&text, "<bench-ingest>").map_err(|e| anyhow::anyhow!("{e}"))
}

/// A realistic 6x6 result: full-length board, start and solution strings, so that the
/// bytes per result match a real sweep's.
fn template() -> GameResult {
    let board = "A1B2C3D4E5F6/B1C2D3E4F5A6/C1D2E3F4A5B6/D1E2F3A4B5C6/E1F2A3B4C5D6/F1A2B3C4D5E6";
    let solution = vec!["A1xB1"; 35].join(" ");
    GameResult {
        game_index: 0,
        board: board.into(),
        prefix_moves: String::new(),
        start: board.into(),
        min_stones: 1,
        exhaustive: true,
        expansions: 1234,
        attempts: 1,
        solution,
        wall_ns: 5_000_000,
        lower_bound: 1,
        extra: Vec::new(),
    }
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
    let config = CoordinatorConfig {
        sweep,
        out: out.clone(),
        state: out.join(".hammer-state"),
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        token: None,
        tls: None,
        timing: Timing::default(),
        hammer_version: hammer_worker::HAMMER_VERSION.to_owned(),
    };
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
    println!(
        "  {rate:.0} results/s (target 500000), {:.1} MB of Parquet ({:.0} bytes/result), {} duplicates, {} refused",
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

/// A worker that solves nothing: it leases units and streams template results for them
/// as fast as the coordinator takes them.
async fn synthetic_worker(index: usize, url: String, batch_rows: usize) -> Result<()> {
    let options = ConnectOptions {
        url,
        ..ConnectOptions::default()
    };
    let mut client = options.connect().await?;
    let reg = client
        .register(RegisterRequest {
            protocol_version: PROTOCOL_VERSION,
            name: format!("synthetic{index}"),
            threads: 1,
            hammer_version: hammer_worker::HAMMER_VERSION.to_owned(),
            instance: format!("{index:x}"),
        })
        .await?
        .into_inner();
    let sweep = Sweep::parse(&reg.sweep_text, "<bench>").map_err(|e| anyhow::anyhow!("{e}"))?;
    let template = template();
    loop {
        let answer = client
            .lease(LeaseRequest {
                worker_id: reg.worker_id.clone(),
                resume_unit_id: String::new(),
            })
            .await?
            .into_inner();
        let lease = match answer.outcome {
            Some(lease_response::Outcome::Lease(lease)) => lease,
            Some(lease_response::Outcome::WaitMs(ms)) => {
                tokio::time::sleep(Duration::from_millis(ms)).await;
                continue;
            }
            Some(lease_response::Outcome::Complete(_)) => return Ok(()),
            None => bail!("empty lease answer"),
        };
        let unit_wire = lease.unit.context("lease without unit")?;
        let unit = sweep
            .unit_by_id(&unit_wire.unit_id)
            .context("lease of an unknown unit")?;
        let (experiment, config, point) =
            sweep.context_of(&unit).context("unit outside the sweep")?;
        let (tx, rx) = mpsc::channel(4);
        let mut acks = client.submit(ReceiverStream::new(rx)).await?.into_inner();
        let header = ResultBatch {
            worker_id: reg.worker_id.clone(),
            lease_id: lease.lease_id.clone(),
            experiment: experiment.name.clone(),
            config: config.id.clone(),
            n: unit.n,
            params: point.to_string(),
            results: Vec::new(),
        };
        let sender = {
            let template = template.clone();
            tokio::spawn(async move {
                let mut start = unit.start;
                while start < unit.end {
                    let end = (start + batch_rows as u64).min(unit.end);
                    let mut batch = header.clone();
                    // Distinct strings per game, as in a real sweep, so that the Parquet
                    // encoder cannot get away with a one-entry dictionary.
                    batch.results = (start..end)
                        .map(|game_index| {
                            let mut result = template.clone();
                            result.game_index = game_index;
                            let tag = format!("{:06}", game_index % 1_000_000);
                            result.board.replace_range(..6, &tag);
                            result.start.replace_range(..6, &tag);
                            result.solution.replace_range(..6, &tag);
                            result.expansions = game_index % 10_007;
                            result
                        })
                        .collect();
                    if tx.send(batch).await.is_err() {
                        break;
                    }
                    start = end;
                }
            })
        };
        while let Some(ack) = acks.message().await? {
            let state = UnitState::try_from(ack.unit_state).unwrap_or(UnitState::Unspecified);
            if matches!(state, UnitState::Complete | UnitState::Committed) {
                break;
            }
        }
        sender.abort();
    }
}
