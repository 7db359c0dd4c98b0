//! What a coordinator is started with.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use hammer_store::Store;
use hammer_sweep::Sweep;

use crate::core::Timing;

/// PEM files of the coordinator's certificate chain and private key.
#[derive(Clone, Debug)]
pub struct TlsFiles {
    /// The certificate chain.
    pub cert: PathBuf,
    /// The private key.
    pub key: PathBuf,
}

/// The tokens a coordinator checks, by role. With none, every call is allowed (loopback
/// only); one token given for both roles is the shared token of both.
#[derive(Clone, Debug, Default)]
pub struct Tokens {
    /// Lets a caller register, lease, send results and heartbeats.
    pub worker: Option<String>,
    /// Lets a caller submit, list, stop and cancel sweeps and read their status.
    pub user: Option<String>,
}

impl Tokens {
    /// One token for both roles (or none).
    pub fn shared(token: Option<String>) -> Tokens {
        Tokens {
            worker: token.clone(),
            user: token,
        }
    }

    pub(crate) fn any(&self) -> bool {
        self.worker.is_some() || self.user.is_some()
    }
}

/// Everything a coordinator needs.
#[derive(Clone, Debug)]
pub struct CoordinatorConfig {
    /// The sweep to serve, exiting when it is complete; `None`: a standing coordinator,
    /// which serves the sweeps submitted to it until it is stopped.
    pub sweep: Option<Sweep>,
    /// Where the dataset goes: a local directory or an object store prefix. A standing
    /// coordinator puts each sweep's dataset in `out/NAME`.
    pub out: Store,
    /// Workers put the parts of the units they solve into the dataset themselves (`out`
    /// is a URL they open); else they send their results and the coordinator writes the
    /// parts (`hammer run`, a dataset on the coordinator's own disk).
    pub workers_write: bool,
    /// Keep a Delta Lake log (`_delta_log/`) over the parts, so that Delta readers see
    /// the dataset as a versioned table.
    pub delta_log: bool,
    /// The state directory (journal); the same one resumes the sweep, or the queue.
    pub state: PathBuf,
    /// The address to serve workers on (port 0 picks a free one).
    pub listen: SocketAddr,
    /// The tokens calls must carry; required off loopback.
    pub tokens: Tokens,
    /// Serve TLS with these files.
    pub tls: Option<TlsFiles>,
    /// Lease and heartbeat timing.
    pub timing: Timing,
    /// The `hammer_version` reported to workers.
    pub hammer_version: String,
    /// Fair share forgets half of a sweep's usage in this time.
    pub half_life: Duration,
}

impl CoordinatorConfig {
    /// A coordinator of `sweep` for this machine alone: listens on a free loopback port,
    /// without token or TLS, with the default lease timing (`hammer run`, the benchmarks).
    pub fn loopback(sweep: Sweep, out: Store, state: PathBuf) -> CoordinatorConfig {
        CoordinatorConfig {
            sweep: Some(sweep),
            out,
            workers_write: false,
            delta_log: false,
            state,
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            tokens: Tokens::default(),
            tls: None,
            timing: Timing::default(),
            // The workspace shares one version, so this is the worker's HAMMER_VERSION.
            hammer_version: env!("CARGO_PKG_VERSION").to_owned(),
            half_life: DEFAULT_HALF_LIFE,
        }
    }
}

/// Fair share's default half-life: an hour, so that a day's sweeps share by what they
/// used lately, not last week.
pub const DEFAULT_HALF_LIFE: Duration = Duration::from_secs(3600);
