//! `hammer status`: the progress of a coordinator's sweep.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use crate::args::ConnectArgs;
use crate::cmd::queue::sweep_status;
use crate::progress::{Progress, progress_line, summary};
use crate::runtime::{runtime, stop_signal};

#[derive(Args)]
pub struct StatusArgs {
    /// The sweep's name; needed when the coordinator serves several.
    name: Option<String>,
    #[command(flatten)]
    connect: ConnectArgs,
    /// Keep showing progress until the sweep completes.
    #[arg(long)]
    watch: bool,
}

pub fn status(args: StatusArgs) -> Result<ExitCode> {
    let options = args.connect.options()?;
    runtime()?.block_on(async move {
        let mut client = options.connect().await?;
        let name = args.name.unwrap_or_default();
        let mut status = sweep_status(&mut client, &name).await?;
        if args.watch {
            let mut progress = Progress::new(status.games_total);
            while !status.complete {
                progress.update(&status);
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_millis(500)) => {}
                    _ = stop_signal() => break,
                }
                status = sweep_status(&mut client, &name).await?;
            }
            progress.finish();
        }
        println!(
            "sweep {} (digest {})",
            status.sweep_name, status.sweep_digest
        );
        println!("{}", progress_line(&status));
        if status.refused > 0 || status.duplicates > 0 {
            println!(
                "results refused: {}, duplicates dropped: {}",
                status.refused, status.duplicates
            );
        }
        print!("{}", summary(&status));
        print!("{}", leased_units(&status));
        Ok(ExitCode::SUCCESS)
    })
}

/// One line per leased unit: who holds it, games in and out, and the expansions its
/// worker reported, with how long ago they last grew; a unit of hour-long games shows
/// here that it is alive.
fn leased_units(status: &hammer_proto::v1::StatusResponse) -> String {
    let mut out = String::new();
    for worker in &status.worker_list {
        for unit in &worker.units {
            let moved = if unit.expansions == 0 {
                "no progress reported yet".to_string()
            } else {
                format!(
                    "{} expansions, last grew {:.1} s ago",
                    unit.expansions,
                    unit.progress_ms as f64 / 1000.0
                )
            };
            let gang = if unit.gang_size > 0 {
                format!(" (gang member {} of {})", unit.gang_rank, unit.gang_size)
            } else {
                String::new()
            };
            out.push_str(&format!(
                "leased {} to {}{gang}: {}/{} games in; {moved}\n",
                unit.unit_id, worker.id, unit.received, unit.games
            ));
        }
    }
    out
}
