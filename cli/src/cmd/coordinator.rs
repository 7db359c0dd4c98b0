//! `hammer coordinator`: serve a sweep to workers and write their results to the dataset.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use hammer_coordinator::{Coordinator, CoordinatorConfig, TlsFiles};

use crate::args::{TimingArgs, TokenArgs, load_sweep, out_and_state};
use crate::progress::{Progress, summary};
use crate::runtime::{runtime, stay_until_signal, stop_signal};

#[derive(Args)]
pub struct CoordinatorArgs {
    /// The sweep file (TOML).
    #[arg(long)]
    sweep: PathBuf,
    /// Where the dataset goes, DIR/experiment=NAME/n=N/part-UNIT.parquet: a directory, or
    /// an object store URL (s3://BUCKET/PREFIX, gs://, az://, file://). Given a URL, the
    /// workers put the parts of the units they solve there themselves (a file:// URL: a
    /// filesystem every worker mounts at that path); given a directory, the coordinator
    /// writes every part.
    #[arg(long, value_name = "DIR|URL")]
    out: String,
    /// The state directory (journal of committed units). Default: OUT/.hammer-state;
    /// needed when OUT is a URL.
    #[arg(long)]
    state: Option<PathBuf>,
    /// Address to listen on, IP:PORT. Anything but a loopback address needs a token.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:7070")]
    listen: SocketAddr,
    #[command(flatten)]
    token: TokenArgs,
    /// PEM certificate chain for TLS (with --tls-key).
    #[arg(long, requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// PEM private key for TLS (with --tls-cert).
    #[arg(long, requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    #[command(flatten)]
    timing: TimingArgs,
    /// After the sweep completes, keep answering "complete" to workers for at most this
    /// long (seconds) so that they exit instead of retrying.
    #[arg(long, default_value_t = 10.0)]
    linger_secs: f64,
    /// Serve Prometheus metrics over HTTP at http://ADDR:PORT/metrics (no token, so keep
    /// it on a network you trust). Off by default.
    #[arg(long, value_name = "ADDR:PORT")]
    metrics: Option<SocketAddr>,
    /// After the sweep completes, keep serving (status, health, metrics, "complete" to
    /// workers) until SIGTERM instead of exiting. For supervisors that restart a process
    /// whenever it exits, such as a Kubernetes Deployment.
    #[arg(long)]
    stay_after_complete: bool,
    /// Also keep a Delta Lake log (OUT/_delta_log/) over the parts, for Spark,
    /// deltalake, polars.read_delta and DuckDB's delta_scan.
    #[arg(long)]
    delta: bool,
}

pub fn coordinator(args: CoordinatorArgs) -> Result<ExitCode> {
    let sweep = load_sweep(&args.sweep)?;
    let token = args.token.token()?;
    let tls = match (args.tls_cert, args.tls_key) {
        (Some(cert), Some(key)) => Some(TlsFiles { cert, key }),
        _ => None,
    };
    let (out, state) = out_and_state(&args.out, args.state)?;
    let workers_write = hammer_store::is_url(&args.out).then(|| args.out.clone());
    let config = CoordinatorConfig {
        sweep,
        out: out.clone(),
        workers_write,
        delta_log: args.delta,
        state,
        listen: args.listen,
        token,
        tls,
        timing: args.timing.timing()?,
        hammer_version: hammer_worker::HAMMER_VERSION.to_owned(),
    };
    let linger = Duration::from_secs_f64(args.linger_secs.clamp(0.0, 3600.0));
    let stay = args.stay_after_complete;
    runtime()?.block_on(async move {
        let mut coordinator = Coordinator::start(config).await?;
        if let Some(addr) = args.metrics {
            let bound = coordinator.serve_metrics(addr).await?;
            eprintln!("hammer coordinator: metrics at http://{bound}/metrics");
        }
        let status = coordinator.status();
        eprintln!(
            "hammer coordinator: listening on {} (sweep {}, {} units, {} games; {} units already committed)",
            coordinator.url(),
            status.sweep_name,
            status.units_total,
            status.games_total,
            status.units_committed,
        );
        if coordinator.is_complete() {
            eprintln!("sweep {} is already complete in {}", status.sweep_name, out);
            if stay {
                stay_until_signal().await;
            }
            coordinator.shutdown().await?;
            print!("{}", summary(&status));
            return Ok(ExitCode::SUCCESS);
        }
        let mut progress = Progress::new(status.games_total);
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        let outcome = loop {
            tokio::select! {
                done = coordinator.wait_complete() => break done.map(|()| None),
                signal = stop_signal() => break Ok(Some(signal)),
                _ = tick.tick() => progress.update(&coordinator.status()),
            }
        };
        progress.finish();
        match outcome {
            Ok(None) => {
                if stay {
                    eprintln!("sweep {} complete; serving until SIGTERM (--stay-after-complete)", status.sweep_name);
                    stay_until_signal().await;
                } else {
                    coordinator.wait_workers_told(linger).await;
                }
                let status = coordinator.shutdown().await?;
                eprintln!("sweep {} complete: {} games in {}", status.sweep_name, status.games_committed, out);
                print!("{}", summary(&status));
                Ok(ExitCode::SUCCESS)
            }
            Ok(Some(signal)) => {
                eprintln!("{signal}: finishing results in flight, then stopping");
                let status = coordinator.shutdown().await?;
                eprintln!(
                    "stopped with {} of {} games committed; start the coordinator again with the same --state to resume",
                    status.games_committed, status.games_total
                );
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => {
                let _ = coordinator.shutdown().await;
                Err(e.into())
            }
        }
    })
}
