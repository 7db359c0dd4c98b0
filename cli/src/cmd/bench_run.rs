//! `hammer bench-run`: the overhead of `hammer run` against solving the same games
//! directly, measured as a command rather than asserted in tests, because this machine
//! is shared and noisy.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_coordinator::CoordinatorConfig;
use hammer_store::Store;
use hammer_worker::SolverPool;

use crate::cmd::run::{RunEnd, run_local};
use crate::cpu_time::process_cpu_seconds;

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
    let sweep = crate::args::load_sweep(&args.sweep)?;
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
        let config = CoordinatorConfig::loopback(
            sweep.clone(),
            Store::local(&out),
            out.join(hammer_dataset::STATE_DIR),
        );
        let outcome = runtime.block_on(run_local(config, pool.clone(), false, None))?;
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
