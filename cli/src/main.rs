//! `hammer`: the command line of the hammer experiment cluster.
//!
//! A thin layer: each subcommand parses its arguments with clap and calls the library
//! crates; errors surface through `anyhow` with a non-zero exit code.

mod bench;
mod board_view;
mod game_cmds;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "hammer", version, about = "Distributed batch experiments for Martello solo and other puzzles")]
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
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("HAMMER_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => game_cmds::solve(args),
        Command::Moves(args) => game_cmds::moves(args),
        Command::Replay(args) => game_cmds::replay(args),
        Command::Bench(args) => bench::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
