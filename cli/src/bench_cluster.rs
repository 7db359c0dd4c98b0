//! `hammer bench-ingest` and `hammer bench-run`: cluster speed, measured as a command
//! rather than asserted in tests, because this machine is shared and noisy.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_coordinator::{Coordinator, CoordinatorConfig, Timing};
use hammer_proto::PROTOCOL_VERSION;
use hammer_proto::v1::{
    GameResult, LeaseRequest, RegisterRequest, ResultBatch, UnitState, lease_response,
};
use hammer_sweep::Sweep;
use hammer_worker::{ConnectOptions, SolverPool};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use crate::sweep_cmds::{RunEnd, run_local};

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

/// User plus system CPU time of this process's live threads whose name starts with
/// `prefix`, from /proc (Linux only; None elsewhere).
fn thread_cpu_seconds(prefix: &str) -> Option<f64> {
    let mut total = 0.0;
    for entry in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue; // the thread ended meanwhile
        };
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        if !stat[open + 1..close].starts_with(prefix) {
            continue;
        }
        total += cpu_of_stat(&stat[close + 1..])?;
    }
    Some(total)
}

/// utime + stime of a /proc stat line, given the part after the command name.
fn cpu_of_stat(rest: &str) -> Option<f64> {
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 of `rest`.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // USER_HZ is 100 on every Linux configuration in use.
    Some((utime + stime) / 100.0)
}

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
        let (experiment, config) = sweep.config_of(&unit).context("unit outside the sweep")?;
        let (tx, rx) = mpsc::channel(4);
        let mut acks = client.submit(ReceiverStream::new(rx)).await?.into_inner();
        let header = ResultBatch {
            worker_id: reg.worker_id.clone(),
            lease_id: lease.lease_id.clone(),
            experiment: experiment.name.clone(),
            config: config.id.clone(),
            n: u32::from(unit.n),
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

#[derive(Args)]
pub struct RunBenchArgs {
    /// The sweep file to play (keep it to a minute or so of solving).
    sweep: PathBuf,
    /// Solver threads; default: one per core.
    #[arg(long)]
    threads: Option<usize>,
    /// Repeat both measurements this many times, alternating, and report the best of
    /// each (the machine is noisy).
    #[arg(long, default_value_t = 2)]
    rounds: u32,
}

/// Times the same games solved directly with the worker's `SolverPool` (no gRPC, no
/// Parquet) and through `hammer run` (coordinator + worker over loopback + Parquet).
pub fn run_overhead(args: RunBenchArgs) -> Result<ExitCode> {
    let sweep = Sweep::load(&args.sweep).map_err(|e| anyhow::anyhow!("{e}"))?;
    let pool = Arc::new(SolverPool::new(args.threads.unwrap_or(0))?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let mut best_direct = f64::INFINITY;
    let mut best_run = f64::INFINITY;
    let mut cpu_direct = 0.0;
    let mut cpu_run = 0.0;
    let games = sweep.total_games();
    for round in 0..args.rounds.max(1) {
        let started = Instant::now();
        let cpu_started = process_cpu_seconds();
        let mut rows = 0u64;
        for unit in sweep.units() {
            rows += pool.solve_unit(&sweep, &unit, "direct")?.len() as u64;
        }
        let direct = started.elapsed().as_secs_f64();
        let cpu_mid = process_cpu_seconds();
        if rows != games {
            bail!("direct solving produced {rows} rows, expected {games}");
        }
        let temp = tempfile::TempDir::new().context("cannot create a temporary directory")?;
        let out = temp.path().join("dataset");
        let config = CoordinatorConfig {
            sweep: sweep.clone(),
            out: out.clone(),
            state: out.join(".hammer-state"),
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            token: None,
            tls: None,
            timing: Timing::default(),
            hammer_version: hammer_worker::HAMMER_VERSION.to_owned(),
        };
        let outcome = runtime.block_on(run_local(config, pool.clone(), false))?;
        if !matches!(outcome.end, RunEnd::Complete) {
            bail!("the run did not complete");
        }
        let run = outcome.seconds;
        let cpu_end = process_cpu_seconds();
        if let (Some(a), Some(b), Some(c)) = (cpu_started, cpu_mid, cpu_end) {
            cpu_direct += b - a;
            cpu_run += c - b;
        }
        println!(
            "round {}: direct {direct:.3} s ({:.0} games/s), hammer run {run:.3} s ({:.0} games/s), overhead {:+.1}%",
            round + 1,
            games as f64 / direct,
            games as f64 / run,
            100.0 * (run / direct - 1.0)
        );
        best_direct = best_direct.min(direct);
        best_run = best_run.min(run);
    }
    println!(
        "bench-run: {games} games on {} threads; best direct {best_direct:.3} s, best hammer run {best_run:.3} s, overhead {:+.1}% (target within 5%)",
        pool.threads(),
        100.0 * (best_run / best_direct - 1.0)
    );
    if cpu_direct > 0.0 {
        println!(
            "  CPU time over all rounds (less sensitive to other load on shared cores): direct {cpu_direct:.2} s, hammer run {cpu_run:.2} s, overhead {:+.1}%",
            100.0 * (cpu_run / cpu_direct - 1.0)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// User plus system CPU time of this process so far, from /proc (Linux only; None
/// elsewhere). Wall time on shared cores varies by tens of percent with other load,
/// while CPU time shows what hammer itself spends.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may contain spaces.
    cpu_of_stat(stat.rsplit_once(')')?.1)
}
