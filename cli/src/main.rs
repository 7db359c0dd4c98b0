//! `hammer`: the command line of the hammer experiment cluster.
//!
//! A thin layer: each subcommand parses its arguments with clap and calls the library
//! crates; errors surface through `anyhow` with a non-zero exit code.

mod analyze_cmd;
mod bench;
mod bench_cluster;
mod board_view;
mod deploy_cmds;
mod game_cmds;
mod progress;
mod sweep_cmds;
mod tune_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "hammer",
    version,
    about = "Distributed batch experiments for Martello solo and other puzzles"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve one board (or one per line from stdin with `-`).
    Solve(game_cmds::SolveArgs),
    /// List the legal moves of a state and the state after each.
    Moves(game_cmds::MovesArgs),
    /// Check a solution move by move and draw each state.
    Replay(game_cmds::ReplayArgs),
    /// Measure solver speed on the first games of a fixed seed.
    Bench(bench::BenchArgs),
    /// Serve a sweep to workers and write their results to the dataset.
    Coordinator(sweep_cmds::CoordinatorArgs),
    /// Solve units of a coordinator's sweep on all cores until the sweep is complete.
    Worker(sweep_cmds::WorkerArgs),
    /// Run a whole sweep on this machine (a coordinator and a worker in one process).
    Run(sweep_cmds::RunArgs),
    /// Show the progress of a coordinator's sweep.
    Status(sweep_cmds::StatusArgs),
    /// Measure coordinator ingest with many synthetic workers on loopback.
    BenchIngest(bench_cluster::IngestArgs),
    /// Measure the overhead of `hammer run` against solving the same games directly.
    BenchRun(bench_cluster::RunBenchArgs),
    /// Turn a result dataset into the 2013 report's figures (HTML, Markdown, CSV, charts).
    Analyze(analyze_cmd::AnalyzeArgs),
    /// Tune a restart schedule from a run-time experiment, and validate it on fresh games.
    Tune(tune_cmd::TuneArgs),
    /// Ask a coordinator's gRPC health service; exit 0 when it is serving, 1 otherwise.
    Health(deploy_cmds::HealthArgs),
    /// Check that a hammer command line parses, without running it (for deploy tests).
    #[command(hide = true)]
    CheckArgs(deploy_cmds::CheckArgs),
}

/// `hammer check-args -- ARGS...`: parses `hammer ARGS...` with the real parser and
/// reports the subcommand, or clap's error with exit code 2.
fn check_args(args: deploy_cmds::CheckArgs) -> ExitCode {
    let line = std::iter::once("hammer".to_owned()).chain(args.args);
    match Cli::try_parse_from(line) {
        Ok(cli) => {
            let name = match cli.command {
                Command::Solve(_) => "solve",
                Command::Moves(_) => "moves",
                Command::Replay(_) => "replay",
                Command::Bench(_) => "bench",
                Command::Coordinator(_) => "coordinator",
                Command::Worker(_) => "worker",
                Command::Run(_) => "run",
                Command::Status(_) => "status",
                Command::BenchIngest(_) => "bench-ingest",
                Command::BenchRun(_) => "bench-run",
                Command::Analyze(_) => "analyze",
                Command::Tune(_) => "tune",
                Command::Health(_) => "health",
                Command::CheckArgs(_) => "check-args",
            };
            println!("ok {name}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprint!("{}", e.render());
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("HAMMER_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => game_cmds::solve(args),
        Command::Moves(args) => game_cmds::moves(args),
        Command::Replay(args) => game_cmds::replay(args),
        Command::Bench(args) => bench::run(args),
        Command::Coordinator(args) => sweep_cmds::coordinator(args),
        Command::Worker(args) => sweep_cmds::worker(args),
        Command::Run(args) => sweep_cmds::run(args),
        Command::Status(args) => sweep_cmds::status(args),
        Command::BenchIngest(args) => bench_cluster::ingest(args),
        Command::BenchRun(args) => bench_cluster::run_overhead(args),
        Command::Analyze(args) => analyze_cmd::run(args),
        Command::Tune(args) => tune_cmd::run(args),
        Command::Health(args) => deploy_cmds::health(args),
        Command::CheckArgs(args) => Ok(check_args(args)),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
