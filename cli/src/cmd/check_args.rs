//! The hidden `hammer check-args`: lets the tests prove that every command line written
//! in `deploy/` is accepted by this very argument parser.

use std::process::ExitCode;

use clap::{Args, Parser};

use crate::{Cli, Command};

/// Arguments of the hidden `check-args` command: a whole `hammer` command line.
#[derive(Args)]
pub struct CheckArgs {
    /// The arguments after `hammer`, as a deployment file would pass them.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub args: Vec<String>,
}

/// `hammer check-args -- ARGS...`: parses `hammer ARGS...` with the real parser and
/// reports the subcommand, or clap's error with exit code 2.
pub fn check_args(args: CheckArgs) -> ExitCode {
    let line = std::iter::once("hammer".to_owned()).chain(args.args);
    match Cli::try_parse_from(line) {
        Ok(cli) => {
            let name = match cli.command {
                Command::Solve(_) => "solve",
                Command::Moves(_) => "moves",
                Command::Count(_) => "count",
                Command::Replay(_) => "replay",
                Command::Ask(_) => "ask",
                Command::Families(_) => "families",
                Command::Bench(_) => "bench",
                Command::Coordinator(_) => "coordinator",
                Command::Worker(_) => "worker",
                Command::Run(_) => "run",
                Command::Estimate(_) => "estimate",
                Command::Status(_) => "status",
                Command::Submit(_) => "submit",
                Command::Sweeps(_) => "sweeps",
                Command::Stop(_) => "stop",
                Command::Cancel(_) => "cancel",
                Command::Wait(_) => "wait",
                Command::BenchIngest(_) => "bench-ingest",
                Command::BenchRun(_) => "bench-run",
                Command::Analyze(_) => "analyze",
                Command::Compact(_) => "compact",
                Command::Learn(_) => "learn",
                Command::Tune(_) => "tune",
                Command::View(_) => "view",
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
