//! The flags of one member of a gang of processes (`hammer solve --peers`, `hammer count
//! --peers`): every member's address, this one's rank, where it listens, the shared
//! token and TLS between the members.

use std::hash::{Hash, Hasher};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_family::{FamilyRef, Point};
use hammer_gang::{GangSpec, PeerLink, PeerTls};

use crate::args::TokenArgs;

#[derive(Args)]
pub struct PeerArgs {
    /// Take part as one member of a gang of processes, each owning a hash share of the
    /// states: every member's address (HOST:PORT, comma-separated, in rank order), the
    /// same list for every member; each runs the same command with its own --rank.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "HOST:PORT,...",
        requires = "rank"
    )]
    pub peers: Option<Vec<String>>,
    /// This member's place in --peers, from 0; member 0 leads and prints every member's
    /// counts.
    #[arg(long, requires = "peers")]
    pub rank: Option<usize>,
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

impl PeerArgs {
    /// This member's gang: its rank, the members' addresses and where it listens.
    pub fn gang(&self, game: String) -> Result<GangSpec> {
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
        let ca = (ca.as_path(), "--peer-tls-ca certificate authority");
        read_peer_tls(cert, key, ca, self.peer_tls_domain.clone()).map(Some)
    }

    /// Opens this member's link to the gang of `game`, runs `work` over it, and closes
    /// the link when the work ends well, or aborts it (the others hear at once) when it
    /// fails. The work's result, with the gang's size, this member's rank and the bytes
    /// it sent.
    pub fn as_member<T, E>(
        &self,
        game: String,
        work: impl FnOnce(&mut PeerLink) -> Result<T, E>,
    ) -> Result<Membership<T>>
    where
        E: std::error::Error + Send + Sync + 'static,
    {
        let spec = self.gang(game)?;
        let mut link = PeerLink::open(&spec)?;
        match work(&mut link) {
            Ok(out) => {
                let bytes_sent = link.bytes_sent;
                link.close();
                Ok(Membership {
                    out,
                    size: spec.peers.len(),
                    rank: spec.rank,
                    bytes_sent,
                })
            }
            Err(e) => {
                link.abort();
                Err(e.into())
            }
        }
    }
}

/// What one member's work in a gang gave ([`PeerArgs::as_member`]).
pub struct Membership<T> {
    pub out: T,
    pub size: usize,
    pub rank: usize,
    pub bytes_sent: u64,
}

/// A gang member's TLS files, read: its certificate and key, and the CA `ca.0` that
/// signed every member's (`ca.1` names it in an error).
pub fn read_peer_tls(
    cert: &Path,
    key: &Path,
    ca: (&Path, &str),
    domain: Option<String>,
) -> Result<PeerTls> {
    let read = |path: &Path, what: &str| {
        std::fs::read(path).with_context(|| format!("cannot read the {what} {}", path.display()))
    };
    Ok(PeerTls {
        cert: read(cert, "--peer-tls-cert certificate")?,
        key: read(key, "--peer-tls-key key")?,
        ca: read(ca.0, ca.1)?,
        domain,
    })
}

/// Names what a gang works on, so that members started on different work refuse one
/// another: the puzzle, its point, the start and what is done with it (`solve`,
/// `count`), hashed (every member runs the same build, so the hash agrees).
pub fn gang_game(family: FamilyRef, point: &Point, start: &str, what: &str) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (family.name(), point.to_string(), start, what).hash(&mut hasher);
    format!("{}-{what}-{:016x}", family.name(), hasher.finish())
}
