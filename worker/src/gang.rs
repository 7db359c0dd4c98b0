//! A worker's part in a gang: the games of a `gang = K` experiment, each
//! searched by the K workers the coordinator leased it to, over `hammer_gang`'s peer
//! streams. The leader (rank 0) makes the game's result; the others only search.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use hammer_family::{Instance, OwnersError, Team};
use hammer_gang::{GangSpec, PeerLink, PeerTls};
use hammer_proto::v1::{GameResult, GangLease};
use hammer_solver::{Cancel, GangError, Link};
use hammer_sweep::{Sweep, Unit};

use crate::error::WorkerError;
use crate::solve::SolveError;

/// How this worker takes part in gangs (`hammer worker --peer-listen`).
#[derive(Clone, Debug)]
pub struct PeerOptions {
    /// Where it takes the other members' streams.
    pub listen: SocketAddr,
    /// Where the others reach it (HOST:PORT), as the coordinator tells them.
    pub advertise: String,
    /// The shared token the members send and expect: the coordinator's.
    pub token: Option<String>,
    /// TLS between the members, if they use it.
    pub tls: Option<PeerTls>,
    /// How long to wait for the other members at the start of a game.
    pub wait: Duration,
}

impl PeerOptions {
    /// The options of the `by`-th worker loop after this one in one process: the next
    /// ports, both where it listens and where it is reached.
    pub(crate) fn shift_port(&mut self, by: u16) -> Result<(), WorkerError> {
        let base = self.listen.port();
        let too_high =
            || WorkerError::BadPeer(format!("peer port {base} plus {by} loops is past 65535"));
        let port = self.listen.port().checked_add(by).ok_or_else(too_high)?;
        self.listen.set_port(port);
        let (host, port) = self
            .advertise
            .rsplit_once(':')
            .and_then(|(h, p)| Some((h, p.parse::<u16>().ok()?)))
            .ok_or_else(|| {
                WorkerError::BadPeer(format!("'{}' is not HOST:PORT", self.advertise))
            })?;
        let port = port.checked_add(by).ok_or_else(too_high)?;
        self.advertise = format!("{host}:{port}");
        Ok(())
    }
}

/// Why a gang's game could not be searched: the gang is to be formed again.
#[derive(Debug, thiserror::Error)]
pub enum GangFailure {
    /// The peer streams between the members failed or did not form.
    #[error(transparent)]
    Link(#[from] hammer_gang::PeerError),
    /// The shared owner search failed.
    #[error(transparent)]
    Search(#[from] OwnersError),
    /// The member's search thread panicked.
    #[error("the member's search panicked")]
    Panicked,
}

/// The peer link as the owner search sees it, ended once `cancel` is set: the search
/// asks it for messages between any two expansions, so it stops within one.
/// It also adds the member's expansions to `cancel`'s count, which the heartbeats carry.
struct Cancellable<'a> {
    link: &'a mut PeerLink,
    cancel: &'a Cancel,
    /// This game's expansions already added.
    reported: u64,
}

impl Link for Cancellable<'_> {
    fn rank(&self) -> usize {
        self.link.rank()
    }

    fn size(&self) -> usize {
        self.link.size()
    }

    fn send(&mut self, to: usize, frame: Vec<u8>) -> Result<(), GangError> {
        self.link.send(to, frame)
    }

    fn recv(&mut self, wait: Duration) -> Result<Option<(usize, Vec<u8>)>, GangError> {
        if self.cancel.is_set() {
            return Err(GangError::Cancelled);
        }
        self.link.recv(wait)
    }

    fn expanded(&mut self, total: u64) {
        self.cancel
            .add_expansions(total.saturating_sub(self.reported));
        self.reported = self.reported.max(total);
    }
}

/// Searches the games of `unit` as member `gang.rank` of its gang, one after another,
/// passing the leader's results to `emit`. Runs on a thread outside any tokio runtime:
/// the peer link has a runtime of its own.
pub(crate) fn solve_gang_unit(
    sweep: &Sweep,
    unit: &Unit,
    gang: &GangLease,
    peer: &PeerOptions,
    cancel: &Cancel,
    emit: &dyn Fn(GameResult),
) -> Result<(), SolveError> {
    let (experiment, _, point) = sweep
        .context_of(unit)
        .ok_or_else(|| SolveError::UnknownUnit {
            unit: unit.id(),
            sweep: sweep.name.clone(),
        })?;
    let family = experiment.family;
    let Some(owners) = family.owners() else {
        return Err(SolveError::UnknownUnit {
            unit: unit.id(),
            sweep: sweep.name.clone(),
        });
    };
    for index in unit.start..unit.end {
        if cancel.is_set() {
            return Err(SolveError::Cancelled);
        }
        let spec = GangSpec {
            rank: gang.rank as usize,
            peers: gang.peers.clone(),
            listen: peer.listen,
            token: peer.token.clone(),
            game: format!("{}-g{index}", gang.game),
            connect_timeout: peer.wait,
            tls: peer.tls.clone(),
        };
        let failed = |source: GangFailure| match &source {
            GangFailure::Search(OwnersError::Gang(GangError::Cancelled)) => SolveError::Cancelled,
            _ => SolveError::Gang {
                unit: unit.id(),
                index,
                source: Box::new(source),
            },
        };
        let started = Instant::now();
        let mut link = PeerLink::open(&spec).map_err(|e| failed(e.into()))?;
        let instance = Instance::Seeded {
            sweep_seed: sweep.seed,
            index,
        };
        let mut guarded = Cancellable {
            link: &mut link,
            cancel,
            reported: 0,
        };
        let out = owners.solve(point, instance, Team::Gang(&mut guarded));
        let out = match out {
            Ok(out) => {
                link.close();
                out
            }
            Err(e) => {
                link.abort();
                return Err(failed(e.into()));
            }
        };
        if gang.rank != 0 {
            continue;
        }
        let wall_ns = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        let words = |values: &[u64]| {
            values
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        emit(GameResult {
            gang_expansions: words(&out.expansions),
            gang_memo_bytes: words(&out.table_bytes),
            states_sent: out.sent,
            game_index: index,
            wall_ns,
            ..out.solved.game
        });
    }
    Ok(())
}
