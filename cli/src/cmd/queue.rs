//! A standing coordinator's queue from the outside: `hammer submit`, `sweeps`, `stop`,
//! `cancel` and `wait`. `hammer status NAME` is in `status.rs`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::Args;
use hammer_proto::v1::{
    ListSweepsRequest, StatusRequest, StatusResponse, SubmitSweepRequest, SweepInfo, SweepName,
    SweepState,
};
use hammer_worker::Client;

use crate::args::{ConnectArgs, load_sweep};
use crate::progress::{Progress, format_duration, format_rate, summary};
use crate::runtime::{runtime, stop_signal};

#[derive(Args)]
pub struct SubmitArgs {
    /// The sweep file (TOML). Continued datasets and schedule files are read here, on
    /// this machine, and written into the text that is sent.
    sweep: PathBuf,
    #[command(flatten)]
    connect: ConnectArgs,
    /// Higher first: a free worker takes a unit of the waiting sweep of highest priority.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    priority: i32,
    /// The sweep's share of the workers among sweeps of equal priority, relative to
    /// their weights.
    #[arg(long, default_value_t = 1.0)]
    weight: f64,
    /// Wait until the sweep is complete, showing progress, and print its summary.
    #[arg(long)]
    wait: bool,
}

/// `hammer submit`: checks the file here, queues it, prints its name and returns.
pub fn submit(args: SubmitArgs) -> Result<ExitCode> {
    if !(args.weight.is_finite() && args.weight > 0.0) {
        bail!("--weight must be a positive number");
    }
    let sweep = load_sweep(&args.sweep)?;
    let options = args.connect.options()?;
    runtime()?.block_on(async move {
        let mut client = options.connect().await?;
        let info = client
            .submit_sweep(SubmitSweepRequest {
                text: sweep.text.clone(),
                origin: args.sweep.display().to_string(),
                priority: args.priority,
                weight: args.weight,
            })
            .await
            .map_err(rpc)?
            .into_inner();
        let verb = if info.known { "known" } else { "submitted" };
        println!(
            "{} {verb}: {} (digest {}), dataset {}",
            info.name,
            info.state().word(),
            info.digest,
            info.dataset
        );
        if args.wait {
            return wait_for(&mut client, &info.name, true).await;
        }
        Ok(ExitCode::SUCCESS)
    })
}

#[derive(Args)]
pub struct SweepsArgs {
    #[command(flatten)]
    connect: ConnectArgs,
}

/// `hammer sweeps`: the queue, one line per sweep.
pub fn sweeps(args: SweepsArgs) -> Result<ExitCode> {
    let options = args.connect.options()?;
    runtime()?.block_on(async move {
        let mut client = options.connect().await?;
        let list = client
            .list_sweeps(ListSweepsRequest {})
            .await
            .map_err(rpc)?
            .into_inner();
        print!("{}", table(&list.sweeps));
        Ok(ExitCode::SUCCESS)
    })
}

/// The queue as a table: state, games, rate and ETA, priority and weight, dataset, and
/// why a sweep waits.
fn table(sweeps: &[SweepInfo]) -> String {
    let mut out = format!(
        "{:<20} {:<10} {:>19} {:>12} {:>8} {:>4} {:>6}  {}\n",
        "NAME", "STATE", "GAMES", "RATE", "ETA", "PRI", "WEIGHT", "DATASET"
    );
    for s in sweeps {
        let running = matches!(s.state(), SweepState::Running | SweepState::Stopping);
        let (rate, eta) = if running && s.games_per_second > 0.0 {
            let left = s.games_total.saturating_sub(s.games_committed) as f64;
            (
                format_rate(s.games_per_second),
                format_duration(Duration::from_secs_f64(left / s.games_per_second)),
            )
        } else {
            ("-".to_owned(), "-".to_owned())
        };
        out.push_str(&format!(
            "{:<20} {:<10} {:>19} {:>12} {:>8} {:>4} {:>6}  {}\n",
            s.name,
            s.state().word(),
            format!("{}/{}", s.games_committed, s.games_total),
            rate,
            eta,
            s.priority,
            s.weight,
            s.dataset
        ));
        if !s.reason.is_empty() {
            out.push_str(&format!("  {}: {}\n", s.name, s.reason));
        }
    }
    out
}

#[derive(Args)]
pub struct NameArgs {
    /// The sweep's name (its file's `name`).
    name: String,
    #[command(flatten)]
    connect: ConnectArgs,
}

/// `hammer stop`: no new unit of the sweep is leased; the leased ones finish.
pub fn stop(args: NameArgs) -> Result<ExitCode> {
    change(args, false)
}

/// `hammer cancel`: no new unit, and the leased ones are revoked now.
pub fn cancel(args: NameArgs) -> Result<ExitCode> {
    change(args, true)
}

fn change(args: NameArgs, cancel: bool) -> Result<ExitCode> {
    let options = args.connect.options()?;
    runtime()?.block_on(async move {
        let mut client = options.connect().await?;
        let request = SweepName { name: args.name };
        let info = if cancel {
            client.cancel_sweep(request).await
        } else {
            client.stop_sweep(request).await
        }
        .map_err(rpc)?
        .into_inner();
        println!(
            "{}: {} ({} of {} games committed; submit the same file again to resume)",
            info.name,
            info.state().word(),
            info.games_committed,
            info.games_total
        );
        Ok(ExitCode::SUCCESS)
    })
}

/// `hammer wait`: until the sweep is complete (exit 0), or stopped or cancelled (exit 1).
pub fn wait(args: NameArgs) -> Result<ExitCode> {
    let options = args.connect.options()?;
    runtime()?.block_on(async move {
        let mut client = options.connect().await?;
        wait_for(&mut client, &args.name, true).await
    })
}

/// Shows a sweep's progress until it is complete, stopped or cancelled, then prints its
/// summary as `hammer run` does (with `print_summary`).
async fn wait_for(client: &mut Client, name: &str, print_summary: bool) -> Result<ExitCode> {
    let mut status = sweep_status(client, name).await?;
    let mut progress = Progress::new(status.games_total);
    loop {
        match status.state() {
            SweepState::Complete => break,
            SweepState::Stopped | SweepState::Cancelled => {
                progress.finish();
                eprintln!(
                    "sweep {name} is {} with {} of {} games committed",
                    status.state().word(),
                    status.games_committed,
                    status.games_total
                );
                return Ok(ExitCode::FAILURE);
            }
            _ => progress.update(&status),
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(250)) => {}
            signal = stop_signal() => {
                progress.finish();
                eprintln!("{signal}: stopped waiting; the sweep goes on");
                return Ok(ExitCode::FAILURE);
            }
        }
        status = sweep_status(client, name).await?;
    }
    progress.finish();
    eprintln!(
        "sweep {name} complete: {} games in {}",
        status.games_committed, status.dataset
    );
    if print_summary {
        print!("{}", summary(&status));
    }
    Ok(ExitCode::SUCCESS)
}

/// The status of sweep `name` (empty: the coordinator's only sweep).
pub async fn sweep_status(client: &mut Client, name: &str) -> Result<StatusResponse> {
    let status = client
        .status(StatusRequest {
            sweep: name.to_owned(),
        })
        .await
        .map_err(rpc)?
        .into_inner();
    Ok(status)
}

/// A refused call as an error that says what the coordinator said.
fn rpc(status: tonic::Status) -> anyhow::Error {
    anyhow::anyhow!(hammer_worker::describe_status(&status))
}

/// Submits the sweep file at `path` to the standing coordinator at `url` (token from
/// HAMMER_TOKEN), waits until it is complete, and returns where its dataset is.
pub fn run_on_cluster(path: &std::path::Path, url: &str) -> Result<String> {
    let sweep = load_sweep(path)?;
    let options = hammer_worker::ConnectOptions {
        url: url.to_owned(),
        token: crate::args::TokenArgs::from_file(None).token()?,
        ..hammer_worker::ConnectOptions::default()
    };
    runtime()?.block_on(async move {
        let mut client = options.connect().await?;
        let info = client
            .submit_sweep(SubmitSweepRequest {
                text: sweep.text.clone(),
                origin: path.display().to_string(),
                priority: 0,
                weight: 1.0,
            })
            .await
            .map_err(rpc)?
            .into_inner();
        eprintln!(
            "submitted {} to {url}; its dataset: {}",
            info.name, info.dataset
        );
        if wait_for(&mut client, &info.name, false).await? != ExitCode::SUCCESS {
            bail!("sweep {} did not complete on {url}", info.name);
        }
        Ok(info.dataset)
    })
}
