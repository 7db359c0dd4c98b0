//! `hammer status`: the progress of a coordinator's sweep.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use hammer_proto::v1::StatusRequest;

use crate::args::ConnectArgs;
use crate::progress::{Progress, progress_line, summary};
use crate::runtime::{runtime, stop_signal};

#[derive(Args)]
pub struct StatusArgs {
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
        let mut status = client.status(StatusRequest {}).await?.into_inner();
        if args.watch {
            let mut progress = Progress::new(status.games_total);
            while !status.complete {
                progress.update(&status);
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_millis(500)) => {}
                    _ = stop_signal() => break,
                }
                status = client.status(StatusRequest {}).await?.into_inner();
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
        Ok(ExitCode::SUCCESS)
    })
}
