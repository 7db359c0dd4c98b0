//! `hammer`: the command line of the hammer experiment cluster.
//!
//! A thin layer: each subcommand parses its arguments with clap and calls the library
//! crates; errors surface through `anyhow` with a non-zero exit code.

mod args;
mod batch;
mod cmd;
mod cpu_time;
mod dataset_arg;
mod peer_args;
mod progress;
mod puzzle;
mod runtime;

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
    Solve(cmd::solve::SolveArgs),
    /// List the legal moves of a state and the state after each.
    Moves(cmd::moves::MovesArgs),
    /// Count every position reachable from a start, alone or across a gang of processes.
    Count(cmd::count::CountArgs),
    /// Check a solution move by move and draw each state.
    Replay(cmd::replay::ReplayArgs),
    /// List the puzzle families with their parameters (the table of docs/families.md).
    Families(cmd::families::FamiliesArgs),
    /// Answer a puzzle spec's questions, one JSON object per line (the conformance format).
    Ask(cmd::ask::AskArgs),
    /// Measure solver speed on the first games of a fixed seed.
    Bench(cmd::bench::BenchArgs),
    /// Serve a sweep to workers and write their results to the dataset.
    Coordinator(cmd::coordinator::CoordinatorArgs),
    /// Solve units of a coordinator's sweep on all cores until the sweep is complete.
    Worker(cmd::worker::WorkerArgs),
    /// Run a whole sweep on this machine (a coordinator and a worker in one process).
    Run(cmd::run::RunArgs),
    /// Estimate a sweep's CPU time from a sample of its rows, before running it.
    Estimate(cmd::estimate::EstimateArgs),
    /// Show the progress of a coordinator's sweep.
    Status(cmd::status::StatusArgs),
    /// Submit a sweep to a standing coordinator's queue, and return (or --wait).
    Submit(cmd::queue::SubmitArgs),
    /// List a standing coordinator's sweeps: state, progress, ETA, dataset, why they wait.
    Sweeps(cmd::queue::SweepsArgs),
    /// Stop a sweep: no new unit is leased, the leased ones finish.
    Stop(cmd::queue::NameArgs),
    /// Cancel a sweep: no new unit is leased, and its leases are revoked now.
    Cancel(cmd::queue::NameArgs),
    /// Wait until a sweep is complete (exit 0), or stopped or cancelled (exit 1).
    Wait(cmd::queue::NameArgs),
    /// Measure coordinator ingest with many synthetic workers on loopback.
    BenchIngest(cmd::bench_ingest::IngestArgs),
    /// Measure the overhead of `hammer run` against solving the same games directly.
    BenchRun(cmd::bench_run::RunBenchArgs),
    /// Turn a result dataset into the 2013 report's figures (HTML, Markdown, CSV, charts).
    Analyze(cmd::analyze::AnalyzeArgs),
    /// Rewrite a dataset's many small parts as few files of a target size, all or nothing.
    Compact(cmd::compact::CompactArgs),
    /// Learn a knowledge base of move transitions from a dataset's solved games.
    Learn(cmd::learn::LearnArgs),
    /// Tune a restart schedule from a run-time experiment, and validate it on fresh games.
    Tune(cmd::tune::TuneArgs),
    /// Serve a web page to browse a dataset, replay and play games with hints, and watch
    /// a running sweep.
    View(cmd::view::ViewArgs),
    /// Ask a coordinator's gRPC health service; exit 0 when it is serving, 1 otherwise.
    Health(cmd::health::HealthArgs),
    /// Check that a hammer command line parses, without running it (for deploy tests).
    #[command(hide = true)]
    CheckArgs(cmd::check_args::CheckArgs),
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
        Command::Solve(args) => cmd::solve::solve(args),
        Command::Count(args) => cmd::count::count(args),
        Command::Moves(args) => cmd::moves::moves(args),
        Command::Replay(args) => cmd::replay::replay(args),
        Command::Ask(args) => cmd::ask::ask(args),
        Command::Families(args) => cmd::families::families_cmd(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Coordinator(args) => cmd::coordinator::coordinator(args),
        Command::Worker(args) => cmd::worker::worker(args),
        Command::Run(args) => cmd::run::run(args),
        Command::Estimate(args) => cmd::estimate::estimate(args),
        Command::Status(args) => cmd::status::status(args),
        Command::Submit(args) => cmd::queue::submit(args),
        Command::Sweeps(args) => cmd::queue::sweeps(args),
        Command::Stop(args) => cmd::queue::stop(args),
        Command::Cancel(args) => cmd::queue::cancel(args),
        Command::Wait(args) => cmd::queue::wait(args),
        Command::BenchIngest(args) => cmd::bench_ingest::ingest(args),
        Command::BenchRun(args) => cmd::bench_run::run_overhead(args),
        Command::Analyze(args) => cmd::analyze::run(args),
        Command::Compact(args) => cmd::compact::compact_cmd(args),
        Command::Learn(args) => cmd::learn::learn(args),
        Command::Tune(args) => cmd::tune::run(args),
        Command::View(args) => cmd::view::view(args),
        Command::Health(args) => cmd::health::health(args),
        Command::CheckArgs(args) => Ok(cmd::check_args::check_args(args)),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {}", hammer_proto::error_chain(err.as_ref()));
            ExitCode::FAILURE
        }
    }
}
