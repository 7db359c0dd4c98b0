//! `hammer solve --owners K` and `hammer solve --peers ... --rank I`: one game searched by
//! owners, threads of this process or the members of a gang of processes.

use std::hash::{Hash, Hasher};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_family::{FamilyRef, Instance, Point, Team};
use hammer_gang::{GangSpec, PeerLink, PeerTls};
use hammer_solver::{Config, Limits, Order, Schedule};
use serde_json::json;

use crate::args::TokenArgs;
use crate::cmd::solve::{print_solve, solved_json};

#[derive(Args)]
pub struct OwnersArgs {
    /// Search the game by K owners, threads of this process: each owns a hash share of
    /// the game's states and alone expands them (docs/frontier.md). The answer is exact;
    /// the expansions and the solution found depend on timing.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024), conflicts_with = "peers")]
    owners: Option<u32>,
    /// Search the game as one member of a gang of processes that own its states: every
    /// member's address (HOST:PORT, comma-separated, in rank order), the same list for
    /// every member; each runs the same command with its own --rank.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "HOST:PORT,...",
        requires = "rank"
    )]
    peers: Option<Vec<String>>,
    /// This member's place in --peers, from 0; member 0 leads and prints every member's
    /// counts.
    #[arg(long, requires = "peers")]
    rank: Option<usize>,
    /// Where this member takes the others' streams (default: every interface, at the
    /// port of its own --peers entry).
    #[arg(long, requires = "peers")]
    peer_listen: Option<SocketAddr>,
    /// The gang's shared token: every member sends it and refuses a member without it
    /// (with --peers).
    #[command(flatten)]
    token: TokenArgs,
    /// TLS between the members: this member's PEM certificate (with --peer-tls-key and
    /// --peer-tls-ca); every member's certificate must be signed by the CA.
    #[arg(long, requires_all = ["peer_tls_key", "peer_tls_ca", "peers"])]
    peer_tls_cert: Option<PathBuf>,
    /// This member's PEM private key (with --peer-tls-cert).
    #[arg(long, requires = "peer_tls_cert")]
    peer_tls_key: Option<PathBuf>,
    /// The PEM CA that signed the members' certificates (with --peer-tls-cert).
    #[arg(long, requires = "peer_tls_cert")]
    peer_tls_ca: Option<PathBuf>,
    /// The name the members' certificates carry, when it is not the host of their
    /// --peers addresses.
    #[arg(long, requires = "peer_tls_cert")]
    peer_tls_domain: Option<String>,
    /// Seconds to wait for the other members to come up.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    peer_wait: u64,
}

impl OwnersArgs {
    /// Whether the game is to be searched by owners.
    pub fn wanted(&self) -> bool {
        self.owners.is_some() || self.peers.is_some()
    }

    /// Refuses the options the owner search does not have.
    pub fn check(&self, config: &Config, stdin: bool) -> Result<()> {
        let flag = if self.owners.is_some() {
            "--owners"
        } else {
            "--peers"
        };
        let other = if stdin {
            Some("a board per stdin line (-)")
        } else if config.order != Order::Standard {
            Some("--order (owners take their deepest state first)")
        } else if config.schedule != Schedule::Exact {
            Some("--schedule (the owner search runs to the end)")
        } else if config.prefix > 0 {
            Some("--prefix")
        } else if config.limits != Limits::default() {
            Some("--max-expansions, --max-seconds or --max-memo-mb")
        } else if config.split.is_some() {
            Some("--part")
        } else if config.profile {
            Some("--profile")
        } else if config.strong_bound {
            Some("--strong-bound")
        } else {
            None
        };
        match other {
            Some(other) => bail!("{flag} cannot be combined with {other}"),
            None => Ok(()),
        }
    }

    /// This member's gang: its rank, the members' addresses and where it listens.
    fn gang(&self, game: String) -> Result<GangSpec> {
        let (Some(peers), Some(rank)) = (&self.peers, self.rank) else {
            bail!("--peers needs --rank");
        };
        if peers.len() < 2 {
            bail!(
                "--peers: a gang needs at least 2 members, got {}",
                peers.len()
            );
        }
        let Some(own) = peers.get(rank) else {
            bail!(
                "--rank {rank}: --peers lists only {} members (ranks 0 to {})",
                peers.len(),
                peers.len() - 1
            );
        };
        let listen = match self.peer_listen {
            Some(addr) => addr,
            None => {
                let port = own
                    .rsplit_once(':')
                    .and_then(|(_, port)| port.parse::<u16>().ok())
                    .with_context(|| format!("--peers entry {rank} '{own}' is not HOST:PORT"))?;
                SocketAddr::from((Ipv4Addr::UNSPECIFIED, port))
            }
        };
        Ok(GangSpec {
            rank,
            peers: peers.clone(),
            listen,
            token: self.token.token()?,
            game,
            connect_timeout: Duration::from_secs(self.peer_wait),
            tls: self.tls()?,
        })
    }

    /// The gang's TLS files, read.
    fn tls(&self) -> Result<Option<PeerTls>> {
        let (Some(cert), Some(key), Some(ca)) =
            (&self.peer_tls_cert, &self.peer_tls_key, &self.peer_tls_ca)
        else {
            return Ok(None);
        };
        let read = |path: &PathBuf, what: &str| {
            std::fs::read(path)
                .with_context(|| format!("cannot read the {what} {}", path.display()))
        };
        Ok(Some(PeerTls {
            cert: read(cert, "--peer-tls-cert certificate")?,
            key: read(key, "--peer-tls-key key")?,
            ca: read(ca, "--peer-tls-ca certificate authority")?,
            domain: self.peer_tls_domain.clone(),
        }))
    }
}

/// Searches one instance by owners and prints it as `hammer solve` does, with each
/// worker's counts.
pub fn solve_owned(
    args: &OwnersArgs,
    family: FamilyRef,
    point: &Point,
    instance: Instance<'_>,
    json: bool,
) -> Result<ExitCode> {
    let Some(owners) = family.owners() else {
        bail!(
            "puzzle {} has no owner search (its states cannot travel between workers)",
            family.name()
        );
    };
    let start = family.game(point)?.instance(instance)?;
    let started = Instant::now();
    let (out, workers, rank, bytes_sent) = match args.owners {
        Some(k) => (
            owners.solve(point, instance, Team::Threads(k as usize))?,
            k as usize,
            None,
            None,
        ),
        None => {
            let spec = args.gang(game_name(family, point, &start))?;
            let mut link = PeerLink::open(&spec)?;
            let out = owners.solve(point, instance, Team::Gang(&mut link));
            let bytes = link.bytes_sent;
            match out {
                Ok(out) => {
                    link.close();
                    (out, spec.peers.len(), Some(spec.rank), Some(bytes))
                }
                Err(e) => {
                    link.abort();
                    return Err(e.into());
                }
            }
        }
    };
    let wall_ns = started.elapsed().as_nanos() as u64;
    let mut value = solved_json(family, point, &out.solved, &Config::default(), 0, wall_ns);
    value["order"] = json!("owners");
    value["owners"] = json!(workers);
    value["rank"] = json!(rank);
    value["expansions_per_owner"] = json!(out.expansions);
    value["table_states_per_owner"] = json!(out.table_states);
    value["table_bytes_per_owner"] = json!(out.table_bytes);
    value["sent"] = json!(out.sent);
    value["bytes_sent"] = json!(bytes_sent);
    if json {
        println!("{value}");
    } else {
        print_solve(family, &value);
        println!(
            "owners      {workers}{}",
            rank.map(|r| format!(" (this is member {r})"))
                .unwrap_or_default()
        );
        println!(
            "per owner   expansions {:?}, table states {:?}",
            out.expansions, out.table_states
        );
        println!("sent        {} states", out.sent);
    }
    Ok(ExitCode::SUCCESS)
}

/// Names the game a gang searches, so that members started on different games refuse
/// one another: the puzzle, its point and the start, hashed (every member runs the same
/// build, so the hash agrees).
fn game_name(family: FamilyRef, point: &Point, start: &str) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (family.name(), point.to_string(), start).hash(&mut hasher);
    format!("{}-{:016x}", family.name(), hasher.finish())
}
