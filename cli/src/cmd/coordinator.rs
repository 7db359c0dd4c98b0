//! `hammer coordinator`: serve a sweep, or a standing queue of sweeps, to workers and
//! write their results to the datasets.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use hammer_coordinator::{Coordinator, CoordinatorConfig, TlsFiles, Tokens};

use crate::args::{TimingArgs, TokenArgs, load_sweep, out_and_state};
use crate::progress::{Progress, summary};
use crate::runtime::{runtime, stay_until_signal, stop_signal};

#[derive(Args)]
pub struct CoordinatorArgs {
    /// The sweep file (TOML): serve it, and exit when it is complete. Without it, the
    /// coordinator stands: it serves the sweeps submitted to it (`hammer submit`) until
    /// SIGTERM, each sweep's dataset in OUT/NAME.
    #[arg(long)]
    sweep: Option<PathBuf>,
    /// Where the dataset goes, DIR/experiment=NAME/n=N/part-UNIT.parquet: a directory, or
    /// an object store URL (s3://BUCKET/PREFIX, gs://, az://, file://). Given a URL, the
    /// workers put the parts of the units they solve there themselves (a file:// URL: a
    /// filesystem every worker mounts at that path); given a directory, the coordinator
    /// writes every part. A standing coordinator puts each sweep in OUT/NAME.
    #[arg(long, value_name = "DIR|URL")]
    out: String,
    /// The state directory (journal of committed units; a standing coordinator's queue).
    /// Default: OUT/.hammer-state; needed when OUT is a URL.
    #[arg(long)]
    state: Option<PathBuf>,
    /// Address to listen on, IP:PORT. Anything but a loopback address needs a token.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:7070")]
    listen: SocketAddr,
    #[command(flatten)]
    token: TokenArgs,
    /// File holding the worker token: it may register, lease and send results, nothing
    /// else. With --user-token-file, instead of the one shared token.
    #[arg(long, value_name = "FILE", conflicts_with = "token_file")]
    worker_token_file: Option<PathBuf>,
    /// File holding the user token: it may submit, list, stop and cancel sweeps and read
    /// their status, and cannot lease.
    #[arg(long, value_name = "FILE", conflicts_with = "token_file")]
    user_token_file: Option<PathBuf>,
    /// Fair share between sweeps of equal priority forgets half of a sweep's usage in
    /// this many seconds.
    #[arg(long, default_value_t = 3600.0, value_name = "SECS")]
    half_life_secs: f64,
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
    let sweep = args.sweep.as_deref().map(load_sweep).transpose()?;
    let tokens = match (&args.worker_token_file, &args.user_token_file) {
        (None, None) => Tokens::shared(args.token.token()?),
        (worker, user) => Tokens {
            worker: TokenArgs::from_file(worker.clone()).token()?,
            user: TokenArgs::from_file(user.clone()).token()?,
        },
    };
    if !(args.half_life_secs.is_finite() && args.half_life_secs > 0.0) {
        anyhow::bail!("--half-life-secs must be a positive number of seconds");
    }
    let tls = match (args.tls_cert, args.tls_key) {
        (Some(cert), Some(key)) => Some(TlsFiles { cert, key }),
        _ => None,
    };
    let (out, state) = out_and_state(&args.out, args.state)?;
    let standing = sweep.is_none();
    let config = CoordinatorConfig {
        sweep,
        out: out.clone(),
        workers_write: hammer_store::is_url(&args.out),
        delta_log: args.delta,
        state,
        listen: args.listen,
        tokens,
        tls,
        timing: args.timing.timing()?,
        hammer_version: hammer_worker::HAMMER_VERSION.to_owned(),
        half_life: Duration::from_secs_f64(args.half_life_secs),
    };
    let linger = Duration::from_secs_f64(args.linger_secs.clamp(0.0, 3600.0));
    let stay = args.stay_after_complete;
    runtime()?.block_on(async move {
        let mut coordinator = Coordinator::start(config).await?;
        if let Some(addr) = args.metrics {
            let bound = coordinator.serve_metrics(addr).await?;
            eprintln!("hammer coordinator: metrics at http://{bound}/metrics");
        }
        if standing {
            return serve_queue(coordinator, &out).await;
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

/// A standing coordinator: serves the queue until SIGTERM or a failed commit.
async fn serve_queue(coordinator: Coordinator, out: &hammer_store::Store) -> Result<ExitCode> {
    let sweeps = coordinator.sweeps();
    eprintln!(
        "hammer coordinator: listening on {} (standing: {} sweep(s) in the queue, datasets in {out}/NAME); submit with `hammer submit SWEEP.toml --coordinator {}`",
        coordinator.url(),
        sweeps.len(),
        coordinator.url(),
    );
    let outcome = tokio::select! {
        failed = coordinator.wait_complete() => failed.map(|()| None),
        signal = stop_signal() => Ok(Some(signal)),
    };
    if let Ok(Some(signal)) = &outcome {
        eprintln!(
            "{signal}: finishing results in flight, then stopping; the queue resumes at the next start"
        );
    }
    let stopped = coordinator.shutdown().await;
    outcome?;
    stopped?;
    Ok(ExitCode::SUCCESS)
}
