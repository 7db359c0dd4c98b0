//! `hammer worker`: solve units of a coordinator's sweep on all cores until it is complete.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_gang::PeerTls;
use hammer_worker::{PeerOptions, WorkerError, WorkerOptions, run_group};
use tokio::sync::watch;

use crate::args::{ConnectArgs, MemoryArgs, pool};
use crate::peer_args::read_peer_tls;
use crate::runtime::{runtime, stay_until_signal, stop_signal};

#[derive(Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    /// Solver threads; default: one per core.
    #[arg(long)]
    threads: Option<usize>,
    /// Units leased and solved at once, sharing the threads. One suits units of many
    /// games; for units of one game (continuation sweeps, gangs' games) set it to the
    /// number of threads so that no thread waits. Each lease is a worker of its own to
    /// the coordinator, named NAME-1, NAME-2, ...
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    leases: u32,
    /// Name in the coordinator's logs and the dataset's `worker` column. Default:
    /// HOST-PID.
    #[arg(long)]
    name: Option<String>,
    /// Exit with an error when the coordinator has been unreachable this long (seconds).
    #[arg(long, default_value_t = 600)]
    give_up_after_secs: u64,
    /// When the sweep is complete, wait for SIGTERM instead of exiting. For supervisors
    /// that restart a process whenever it exits, such as a Kubernetes Deployment.
    #[arg(long)]
    stay_after_complete: bool,
    #[command(flatten)]
    memory: MemoryArgs,
    /// Send every result to the coordinator, even when it asks workers to put the parts
    /// of their units into the dataset's object store: for a worker that cannot reach
    /// the store. The coordinator then writes this worker's units itself.
    #[arg(long)]
    no_store: bool,
    /// An outside solver this worker may run (repeatable): a path, or a name looked up in
    /// PATH, resolved and digested when the worker starts. A sweep naming any other
    /// program is refused before any of it runs. Default: none
    #[arg(long = "allow-solver", value_name = "PATH")]
    allow_solver: Vec<String>,
    /// Take part in gangs, the games of `gang = K` experiments that K
    /// workers search together: where to take the other members' streams. They send the
    /// coordinator's token (--token-file). Without it, this worker is never leased a
    /// gang's game. With --leases N, the N worker loops take N ports from this one on.
    #[arg(long, value_name = "ADDR:PORT")]
    peer_listen: Option<SocketAddr>,
    /// Where the other members of a gang reach this worker (HOST:PORT). Default: the
    /// --peer-listen address, or this host's name at its port when it listens on every
    /// interface.
    #[arg(long, value_name = "HOST:PORT", requires = "peer_listen")]
    peer_advertise: Option<String>,
    /// Seconds to wait for the other members of a gang to come up for a game.
    #[arg(long, default_value_t = 30, requires = "peer_listen",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    peer_wait: u64,
    /// TLS between the members of a gang: this worker's PEM certificate (with
    /// --peer-tls-key); every member's certificate must be signed by the CA of
    /// --peer-tls-ca, by default the coordinator's (--tls-ca).
    #[arg(long, requires_all = ["peer_tls_key", "peer_listen"])]
    peer_tls_cert: Option<PathBuf>,
    /// This worker's PEM private key (with --peer-tls-cert).
    #[arg(long, requires = "peer_tls_cert")]
    peer_tls_key: Option<PathBuf>,
    /// The PEM CA that signed the members' certificates (default: --tls-ca).
    #[arg(long, requires = "peer_tls_cert")]
    peer_tls_ca: Option<PathBuf>,
    /// The name the members' certificates carry, when it is not the host of their
    /// advertised addresses.
    #[arg(long, requires = "peer_tls_cert")]
    peer_tls_domain: Option<String>,
}

/// The gang's TLS files, read, when --peer-tls-cert is given.
fn peer_tls(args: &WorkerArgs, coordinator_ca: Option<&PathBuf>) -> Result<Option<PeerTls>> {
    let (Some(cert), Some(key)) = (&args.peer_tls_cert, &args.peer_tls_key) else {
        return Ok(None);
    };
    let Some(ca) = args.peer_tls_ca.as_ref().or(coordinator_ca) else {
        bail!(
            "--peer-tls-cert needs the CA that signed the members' certificates: --peer-tls-ca, or --tls-ca"
        );
    };
    let ca = (ca.as_path(), "certificate authority");
    read_peer_tls(cert, key, ca, args.peer_tls_domain.clone()).map(Some)
}

/// How this worker takes part in gangs, if it does.
fn peer_options(
    args: &WorkerArgs,
    token: Option<String>,
    coordinator_ca: Option<&PathBuf>,
) -> Result<Option<PeerOptions>> {
    let Some(listen) = args.peer_listen else {
        return Ok(None);
    };
    let advertise = match &args.peer_advertise {
        Some(addr) => {
            if addr
                .rsplit_once(':')
                .and_then(|(_, p)| p.parse::<u16>().ok())
                .is_none()
            {
                bail!("--peer-advertise '{addr}' is not HOST:PORT");
            }
            addr.clone()
        }
        None if listen.ip().is_unspecified() => {
            format!("{}:{}", host_name(), listen.port())
        }
        None => listen.to_string(),
    };
    Ok(Some(PeerOptions {
        listen,
        advertise,
        token,
        tls: peer_tls(args, coordinator_ca)?,
        wait: Duration::from_secs(args.peer_wait),
    }))
}

/// This machine's host name, as other machines on its network usually resolve it: a
/// Slurm node's name, a container's on its Docker network. The kernel's (the UTS
/// namespace's) comes first: $HOSTNAME may be inherited from another machine, as srun
/// passes the submitting shell's environment on.
fn host_name() -> String {
    ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .find_map(|path| std::fs::read_to_string(path).ok())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_owned())
}

pub fn worker(args: WorkerArgs) -> Result<ExitCode> {
    let mut options = WorkerOptions::new(args.connect.options()?);
    options.peer = peer_options(
        &args,
        options.connect.token.clone(),
        options.connect.tls_ca.as_ref(),
    )?;
    if let Some(name) = args.name {
        options.name = name;
    }
    options.give_up_after = Duration::from_secs(args.give_up_after_secs);
    options.no_store = args.no_store;
    let path = std::env::var_os("PATH").unwrap_or_default();
    options.solvers = hammer_worker::Solvers::allow(&args.allow_solver, &path)?;
    let stay = args.stay_after_complete;
    let leases = args.leases as usize;
    // Checked before any connection so that flag mistakes fail at once.
    options.connect.endpoint()?;
    let pool = Arc::new(pool(args.threads, &args.memory)?);
    runtime()?.block_on(async move {
        let (stop_tx, stop_rx) = watch::channel(false);
        let mut run = tokio::spawn(run_group(options, pool, stop_rx, leases));
        let result = tokio::select! {
            result = &mut run => result,
            signal = stop_signal() => {
                eprintln!("{signal}: stopping; the coordinator gives this worker's unit to another worker");
                let _ = stop_tx.send(true);
                run.await
            }
        };
        match result.context("the worker task failed")? {
            Ok(reports) => {
                for report in reports {
                    eprintln!(
                        "hammer worker {}: sweep complete ({} units, {} games solved here)",
                        report.worker_id, report.units, report.games
                    );
                }
                if stay {
                    eprintln!("waiting for SIGTERM (--stay-after-complete)");
                    stay_until_signal().await;
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(WorkerError::Stopped) => Ok(ExitCode::SUCCESS),
            Err(e) => Err(e.into()),
        }
    })
}
