//! Argument groups and parsers shared by several subcommands: how to reach a coordinator
//! (`ConnectArgs`, `TokenArgs`), lease timing, `--threads`, `--schedule` and sweep files.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_coordinator::Timing;
use hammer_solver::Schedule;
use hammer_store::Store;
use hammer_sweep::{Sweep, SweepFile};
use hammer_worker::{ConnectOptions, SolverPool};

/// The shared token: `--token-file`, else the `HAMMER_TOKEN` environment variable.
#[derive(Args, Clone, Debug)]
pub struct TokenArgs {
    /// File holding the shared token (surrounding whitespace is ignored). Without it,
    /// the token comes from the HAMMER_TOKEN environment variable, if set.
    #[arg(long)]
    token_file: Option<PathBuf>,
}

impl TokenArgs {
    /// The token of `path`, else of HAMMER_TOKEN (for commands that name the flag
    /// differently).
    pub(crate) fn from_file(path: Option<PathBuf>) -> TokenArgs {
        TokenArgs { token_file: path }
    }

    pub(crate) fn token(&self) -> Result<Option<String>> {
        let token = match &self.token_file {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read the token file {}", path.display()))?;
                let token = text.trim().to_owned();
                if token.is_empty() {
                    bail!("the token file {} is empty", path.display());
                }
                Some(token)
            }
            None => std::env::var("HAMMER_TOKEN")
                .ok()
                .map(|t| t.trim().to_owned())
                .filter(|t| !t.is_empty()),
        };
        if let Some(token) = &token
            && !token.bytes().all(|b| b.is_ascii_graphic())
        {
            bail!("the shared token may only contain visible ASCII characters (no spaces)");
        }
        Ok(token)
    }
}

/// How to reach a coordinator.
#[derive(Args, Clone, Debug)]
pub struct ConnectArgs {
    /// The coordinator's URL, such as http://10.0.0.5:7070 (https:// with --tls-ca).
    #[arg(long)]
    coordinator: String,
    #[command(flatten)]
    token: TokenArgs,
    /// PEM certificate of the authority that signed the coordinator's TLS certificate.
    #[arg(long)]
    tls_ca: Option<PathBuf>,
    /// Host name to verify the coordinator's certificate against, when the URL uses
    /// another name or an IP address.
    #[arg(long, requires = "tls_ca")]
    tls_domain: Option<String>,
}

impl ConnectArgs {
    pub(crate) fn options(&self) -> Result<ConnectOptions> {
        Ok(ConnectOptions {
            url: self.coordinator.clone(),
            token: self.token.token()?,
            tls_ca: self.tls_ca.clone(),
            tls_domain: self.tls_domain.clone(),
        })
    }
}

#[derive(Args, Clone, Debug)]
pub struct TimingArgs {
    /// A lease lapses, and its unit is given out again, this long (seconds) after the
    /// worker was last heard of.
    #[arg(long, default_value_t = 30.0)]
    lease_secs: f64,
    /// Seconds between worker heartbeats.
    #[arg(long, default_value_t = 5.0)]
    heartbeat_secs: f64,
    /// When nothing else is left, a unit leased for longer than this (seconds) and
    /// longer than the median unit took gets a second copy for an idle worker.
    #[arg(long, default_value_t = 2.0)]
    speculate_after_secs: f64,
}

impl TimingArgs {
    pub(crate) fn timing(&self) -> Result<Timing> {
        let secs = |name: &str, v: f64| {
            if v.is_finite() && v > 0.0 && v < 1e6 {
                Ok(Duration::from_secs_f64(v))
            } else {
                bail!("--{name} must be a positive number of seconds")
            }
        };
        let timing = Timing {
            lease_ttl: secs("lease-secs", self.lease_secs)?,
            heartbeat: secs("heartbeat-secs", self.heartbeat_secs)?,
            speculate_after: secs("speculate-after-secs", self.speculate_after_secs)?,
        };
        if timing.lease_ttl < timing.heartbeat * 2 {
            bail!(
                "--lease-secs must be at least twice --heartbeat-secs, or leases lapse between heartbeats"
            );
        }
        Ok(timing)
    }
}

pub fn default_state(out: &Path) -> PathBuf {
    out.join(hammer_dataset::STATE_DIR)
}

/// Opens `--out`, a dataset directory or an object store URL, with its state directory:
/// `--state`, or OUT/.hammer-state beside a local dataset. The journal needs a local
/// directory (appends and a lock), so a URL needs `--state`.
pub fn out_and_state(out: &str, state: Option<PathBuf>) -> Result<(Store, PathBuf)> {
    let store = Store::open(out)?;
    let state = match (state, store.local_dir()) {
        (Some(state), _) => state,
        (None, Some(dir)) => default_state(dir),
        (None, None) => bail!(
            "--out {store} is an object store: give --state DIR, a local directory for the \
             journal of committed units"
        ),
    };
    Ok((store, state))
}

/// Reads a sweep file, and the unknown games of the datasets its continuations name.
pub fn load_sweep(path: &Path) -> Result<Sweep> {
    let mut file = SweepFile::read(path)?;
    for continuation in file.continuations_mut() {
        // Of a dataset in an object store, the experiment's parts alone are copied.
        let location = continuation.dataset.to_string_lossy().into_owned();
        let below = format!("experiment={}", continuation.experiment);
        let dataset =
            crate::dataset_arg::DatasetArg::open_below(&location, &below).with_context(|| {
                format!(
                    "cannot read the unknown games of experiment {} from {location}",
                    continuation.experiment
                )
            })?;
        let games = hammer_dataset::unknown_games(
            dataset.dir(),
            &continuation.experiment,
            continuation.seed,
        )
        .map_err(|e| continuation.error(e))?;
        continuation.games = Some(games);
    }
    Ok(file.finish()?)
}

/// `--memory-limit`: what a worker's games may use together.
#[derive(Args, Clone, Debug, Default)]
pub struct MemoryArgs {
    /// Memory the solver threads may use together, in MiB. An experiment that limits
    /// each game's memo (`max_memo_mb`) then runs as many games at once as fit; results
    /// do not depend on it. Default: no limit.
    #[arg(long = "memory-limit", value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    pub memory_limit_mb: Option<u64>,
}

/// The solver pool of `--threads` and `--memory-limit`.
pub fn pool(threads_flag: Option<usize>, memory: &MemoryArgs) -> Result<SolverPool> {
    Ok(SolverPool::new(threads(threads_flag)?)?
        .with_memory_limit(memory.memory_limit_mb.map(|mb| mb << 20)))
}

pub fn threads(flag: Option<usize>) -> Result<usize> {
    match flag {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) => Ok(n),
        None => Ok(0),
    }
}

/// `--schedule`: a schedule, or `@FILE` naming a schedule file.
pub fn schedule_arg(text: &str) -> Result<Schedule, String> {
    match text.strip_prefix('@') {
        Some(path) => {
            let body = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the schedule file {path}: {e}"))?;
            Schedule::from_file_text(&body).map_err(|e| format!("{path}: {e}"))
        }
        None => text
            .parse()
            .map_err(|e: hammer_solver::ScheduleError| e.to_string()),
    }
}
