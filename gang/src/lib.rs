//! The peer network of a gang: the processes that search one game together.
//!
//! [`PeerLink`] is a [`Link`] over gRPC: each member serves the `Peer` service and opens
//! one client stream to every other member, so the messages from one member to another
//! travel on one HTTP/2 stream and keep their order, which the owner search's end relies
//! on. The search runs on the caller's thread; a small tokio runtime of its own carries
//! the frames, and hands those that arrive to the search through a channel.
//!
//! A member that stops answering is found by HTTP/2 keepalive pings (a process paused
//! with SIGSTOP answers no ping), and a broken connection (a killed process) ends its
//! streams with an error: either way [`Link::recv`] reports the member lost, and the
//! game must be searched again by a new gang.

use std::net::SocketAddr;
use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use hammer_proto::v1::peer_client::PeerClient;
use hammer_proto::v1::peer_server::{Peer, PeerServer};
use hammer_proto::v1::{PeerDone, PeerFrame};
use hammer_proto::{
    GANG_GAME_METADATA_KEY, GANG_RANK_METADATA_KEY, MAX_MESSAGE_BYTES, TOKEN_METADATA_KEY,
};
use hammer_solver::{GangError, Link};
use tokio::sync::{mpsc, oneshot, watch};
use tokio_stream::wrappers::UnboundedReceiverStream;
use tonic::metadata::AsciiMetadataValue;
use tonic::transport::{
    Certificate, Channel, ClientTlsConfig, Endpoint, Identity, Server, ServerTlsConfig,
};
use tonic::{Request, Response, Status, Streaming};

/// How often a member pings the others, and how long it waits for the answer before it
/// counts the other lost.
const KEEPALIVE: Duration = Duration::from_secs(5);
const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(10);

/// Who a member is and how it reaches the others.
#[derive(Clone, Debug)]
pub struct GangSpec {
    /// This member's number in `peers`: 0 leads.
    pub rank: usize,
    /// Every member's address (`host:port`), this member's own among them.
    pub peers: Vec<String>,
    /// Where this member takes the others' streams.
    pub listen: SocketAddr,
    /// The shared token every member sends and expects, if the gang has one.
    pub token: Option<String>,
    /// Names the game, so that a member never takes messages of another game's gang.
    pub game: String,
    /// How long to wait for every other member to answer at the start.
    pub connect_timeout: Duration,
    /// TLS between the members, if the gang uses it: every member serves `cert` and
    /// trusts the members whose certificates `ca` signed.
    pub tls: Option<PeerTls>,
}

/// The PEM files of a gang's TLS.
#[derive(Clone, Debug)]
pub struct PeerTls {
    /// This member's certificate.
    pub cert: Vec<u8>,
    /// This member's private key.
    pub key: Vec<u8>,
    /// The authority that signed every member's certificate.
    pub ca: Vec<u8>,
    /// The name the members' certificates are checked against, when it is not the host
    /// of their addresses.
    pub domain: Option<String>,
}

/// Why a gang could not be formed.
#[derive(Debug, thiserror::Error)]
pub enum PeerError {
    /// This member's rank is past the gang's size.
    #[error("rank {rank} is not a member of a gang of {size}")]
    Rank {
        /// This member's rank.
        rank: usize,
        /// Members in the gang.
        size: usize,
    },
    /// The token or the game name has characters gRPC metadata cannot carry.
    #[error(
        "the shared token or the game name cannot travel in gRPC metadata (only visible ASCII can)"
    )]
    Metadata,
    /// This member's own address cannot be bound.
    #[error("cannot listen for the gang's members on {addr}")]
    Listen {
        /// The address to bind.
        addr: SocketAddr,
        /// Why it cannot be bound.
        source: std::io::Error,
    },
    /// A member's address does not parse.
    #[error("'{addr}' is not a member's address (host:port)")]
    Address {
        /// The address as given.
        addr: String,
    },
    /// A member's stream could not be opened in time.
    #[error("gang member {peer} at {addr} did not answer within {seconds} s (last: {last})")]
    Unreachable {
        /// The member's rank.
        peer: usize,
        /// The member's address.
        addr: String,
        /// How long this member tried.
        seconds: u64,
        /// The last attempt's error.
        last: String,
    },
    /// The TLS files are not a usable certificate and key.
    #[error("the gang's TLS certificate or key is not usable")]
    Tls(#[source] tonic::transport::Error),
    /// Some members never opened their streams to this one.
    #[error(
        "gang member(s) {missing} did not open their streams to this member within {seconds} s"
    )]
    NotJoined {
        /// The ranks that did not join.
        missing: String,
        /// How long this member waited.
        seconds: u64,
    },
    /// The gang broke up before the search began.
    #[error("the gang did not form: {reason}")]
    NotFormed {
        /// What went wrong.
        reason: String,
    },
    /// More members than the owner search supports.
    #[error("a gang has at most 128 members, not {size}")]
    TooLarge {
        /// Members asked for.
        size: usize,
    },
    /// The thread that runs the gang's network cannot start.
    #[error("cannot start the gang's network thread")]
    Runtime(#[source] std::io::Error),
}

/// What arrives for the search: a frame, or word that a member is lost.
enum Event {
    Frame(usize, Vec<u8>),
    Lost(usize, String),
    Refused(usize, String),
}

/// A member's connections to the rest of its gang.
pub struct PeerLink {
    rank: usize,
    size: usize,
    runtime: tokio::runtime::Runtime,
    /// Per member: the sending end of the stream to it (`None` for this member itself).
    outs: Vec<Option<mpsc::UnboundedSender<PeerFrame>>>,
    /// The streams to the others, each ending when the other has read it all.
    streams: Vec<tokio::task::JoinHandle<()>>,
    inbox: std_mpsc::Receiver<Event>,
    stop_server: Option<oneshot::Sender<()>>,
    /// Which of the others' streams to this member have opened and ended.
    roll: watch::Receiver<Roll>,
    /// Bytes sent so far, over all members.
    pub bytes_sent: u64,
}

impl PeerLink {
    /// Listens on `spec.listen`, then connects to every other member, waiting up to
    /// `spec.connect_timeout` for those that are not up yet.
    pub fn open(spec: &GangSpec) -> Result<PeerLink, PeerError> {
        let size = spec.peers.len();
        if size > 128 {
            return Err(PeerError::TooLarge { size });
        }
        if spec.rank >= size {
            return Err(PeerError::Rank {
                rank: spec.rank,
                size,
            });
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("hammer-gang")
            .enable_all()
            .build()
            .map_err(PeerError::Runtime)?;
        let (events, inbox) = std_mpsc::channel();
        let token = spec
            .token
            .as_ref()
            .map(|t| AsciiMetadataValue::try_from(format!("Bearer {t}")))
            .transpose()
            .map_err(|_| PeerError::Metadata)?;
        let game =
            AsciiMetadataValue::try_from(spec.game.as_str()).map_err(|_| PeerError::Metadata)?;
        let (roll_tx, roll) = watch::channel(Roll::default());
        let service = Members {
            size,
            rank: spec.rank,
            token: token.clone(),
            game: game.clone(),
            events: events.clone(),
            roll: roll_tx.clone(),
        };
        let stop_server = runtime.block_on(serve(service, spec.listen, spec.tls.as_ref()))?;
        let mut outs = Vec::with_capacity(size);
        let mut streams = Vec::new();
        for (peer, addr) in spec.peers.iter().enumerate() {
            if peer == spec.rank {
                outs.push(None);
                continue;
            }
            let channel = runtime.block_on(connect(peer, addr, spec, &roll))?;
            let (tx, rx) = mpsc::unbounded_channel();
            let mut request = Request::new(UnboundedReceiverStream::new(rx));
            let meta = request.metadata_mut();
            if let Some(token) = &token {
                meta.insert(TOKEN_METADATA_KEY, token.clone());
            }
            meta.insert(GANG_GAME_METADATA_KEY, game.clone());
            meta.insert(GANG_RANK_METADATA_KEY, AsciiMetadataValue::from(spec.rank));
            let events = events.clone();
            let roll = roll_tx.clone();
            streams.push(runtime.spawn(async move {
                let mut client = PeerClient::new(channel)
                    .max_decoding_message_size(MAX_MESSAGE_BYTES)
                    .max_encoding_message_size(MAX_MESSAGE_BYTES);
                if let Err(status) = client.exchange(request).await {
                    let event = refusal(peer, &status);
                    if let Event::Refused(peer, reason) = &event {
                        // Also while the gang is forming, which reads no events yet.
                        let why = format!("gang member {peer} refused this member: {reason}");
                        roll.send_modify(|r| r.refused = Some(why));
                    }
                    let _ = events.send(event);
                }
            }));
            outs.push(Some(tx));
        }
        runtime.block_on(wait_joined(roll.clone(), spec))?;
        tracing::info!(
            "the gang of {size} members formed; this is member {}",
            spec.rank
        );
        Ok(PeerLink {
            rank: spec.rank,
            size,
            runtime,
            outs,
            streams,
            inbox,
            stop_server: Some(stop_server),
            roll,
            bytes_sent: 0,
        })
    }

    /// Ends this member's streams without waiting: the search failed, and the others
    /// will find this member gone.
    pub fn abort(self) {
        self.runtime.shutdown_background();
    }

    /// Ends this member's streams, then waits until the others have read them and ended
    /// theirs (10 s at most): so the last messages arrive before any process exits, and
    /// no member is taken for lost because another left first.
    pub fn close(mut self) {
        self.outs.clear();
        let streams = std::mem::take(&mut self.streams);
        let others = self.size - 1;
        let mut roll = self.roll.clone();
        self.runtime.block_on(async {
            let all = async {
                for stream in streams {
                    let _ = stream.await;
                }
                let _ = roll.wait_for(|r| r.ended >= others).await;
            };
            let _ = tokio::time::timeout(Duration::from_secs(10), all).await;
        });
        if let Some(stop) = self.stop_server.take() {
            let _ = stop.send(());
        }
    }
}

/// What the end of a stream to member `peer` with an error means: the member turned
/// this one away, or it is lost.
fn refusal(peer: usize, status: &Status) -> Event {
    let reason = status.message().to_string();
    match status.code() {
        tonic::Code::Unauthenticated
        | tonic::Code::InvalidArgument
        | tonic::Code::FailedPrecondition => Event::Refused(peer, reason),
        _ => Event::Lost(peer, format!("its stream broke: {reason}")),
    }
}

impl Link for PeerLink {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn send(&mut self, to: usize, frame: Vec<u8>) -> Result<(), GangError> {
        self.bytes_sent += frame.len() as u64;
        let out = self.outs.get(to).and_then(Option::as_ref);
        let out = out.ok_or(GangError::Protocol {
            what: "a message to no other member",
        })?;
        out.send(PeerFrame { data: frame })
            .map_err(|_| GangError::Lost {
                peer: to,
                reason: "its stream is closed".to_string(),
            })
    }

    fn recv(&mut self, wait: Duration) -> Result<Option<(usize, Vec<u8>)>, GangError> {
        let event = if wait.is_zero() {
            self.inbox.try_recv().ok()
        } else {
            self.inbox.recv_timeout(wait).ok()
        };
        match event {
            None => Ok(None),
            Some(Event::Frame(peer, data)) => Ok(Some((peer, data))),
            Some(Event::Lost(peer, reason)) => Err(GangError::Lost { peer, reason }),
            Some(Event::Refused(peer, reason)) => Err(GangError::Refused { peer, reason }),
        }
    }
}

/// Connects to member `peer`, trying again until `timeout` has passed (the members of a
/// gang start in any order) or this member has turned another away.
async fn connect(
    peer: usize,
    addr: &str,
    spec: &GangSpec,
    roll: &watch::Receiver<Roll>,
) -> Result<Channel, PeerError> {
    let timeout = spec.connect_timeout;
    let scheme = if spec.tls.is_some() { "https" } else { "http" };
    let mut endpoint = Endpoint::from_shared(format!("{scheme}://{addr}"))
        .map_err(|_| PeerError::Address {
            addr: addr.to_string(),
        })?
        .connect_timeout(Duration::from_secs(2))
        .tcp_nodelay(true)
        .initial_stream_window_size(4 << 20)
        .initial_connection_window_size(16 << 20)
        .http2_keep_alive_interval(KEEPALIVE)
        .keep_alive_timeout(KEEPALIVE_TIMEOUT)
        .keep_alive_while_idle(true);
    if let Some(tls) = &spec.tls {
        let mut config = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(&tls.ca));
        if let Some(domain) = &tls.domain {
            config = config.domain_name(domain.clone());
        }
        endpoint = endpoint.tls_config(config).map_err(PeerError::Tls)?;
    }
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(reason) = roll.borrow().refused.clone() {
            return Err(PeerError::NotFormed { reason });
        }
        match endpoint.connect().await {
            Ok(channel) => return Ok(channel),
            Err(_) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => {
                return Err(PeerError::Unreachable {
                    peer,
                    addr: addr.to_string(),
                    seconds: timeout.as_secs(),
                    last: hammer_proto::error_chain(&e),
                });
            }
        }
    }
}

/// Binds `listen` and serves the members' streams until the returned sender fires.
async fn serve(
    service: Members,
    listen: SocketAddr,
    tls: Option<&PeerTls>,
) -> Result<oneshot::Sender<()>, PeerError> {
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|source| PeerError::Listen {
            addr: listen,
            source,
        })?;
    let incoming = tokio_stream::wrappers::TcpListenerStream::new(listener);
    let (stop, stopped) = oneshot::channel::<()>();
    let mut builder = Server::builder();
    if let Some(tls) = tls {
        let identity = Identity::from_pem(&tls.cert, &tls.key);
        builder = builder
            .tls_config(ServerTlsConfig::new().identity(identity))
            .map_err(PeerError::Tls)?;
    }
    let server = builder
        .tcp_nodelay(true)
        .initial_stream_window_size(4 << 20)
        .initial_connection_window_size(16 << 20)
        .http2_keepalive_interval(Some(KEEPALIVE))
        .http2_keepalive_timeout(Some(KEEPALIVE_TIMEOUT))
        .add_service(
            PeerServer::new(service)
                .max_decoding_message_size(MAX_MESSAGE_BYTES)
                .max_encoding_message_size(MAX_MESSAGE_BYTES),
        );
    tokio::spawn(async move {
        let shutdown = async {
            let _ = stopped.await;
        };
        if let Err(e) = server
            .serve_with_incoming_shutdown(incoming, shutdown)
            .await
        {
            tracing::warn!("the gang's peer service stopped: {e}");
        }
    });
    Ok(stop)
}

/// The `Peer` service of one member: it checks who opens a stream, then hands the
/// stream's frames to the search in order.
struct Members {
    size: usize,
    rank: usize,
    token: Option<AsciiMetadataValue>,
    game: AsciiMetadataValue,
    events: std_mpsc::Sender<Event>,
    roll: watch::Sender<Roll>,
}

impl Members {
    /// The rank of the member that opened `request`, once it has shown the gang's token
    /// and game.
    fn admit<T>(&self, request: &Request<T>) -> Result<usize, Status> {
        let meta = request.metadata();
        let named = meta
            .get(GANG_RANK_METADATA_KEY)
            .and_then(|v| v.to_str().ok());
        if let Some(token) = &self.token
            && meta.get(TOKEN_METADATA_KEY) != Some(token)
        {
            let who = named.unwrap_or("?");
            let reason = format!("gang member {who} showed a wrong or missing shared token");
            tracing::warn!("{reason}");
            self.roll.send_modify(|r| r.refused = Some(reason));
            return Err(Status::unauthenticated("wrong or missing shared token"));
        }
        if meta.get(GANG_GAME_METADATA_KEY) != Some(&self.game) {
            let who = named.unwrap_or("?");
            let reason = format!("gang member {who} searches another game");
            self.roll.send_modify(|r| r.refused = Some(reason));
            return Err(Status::failed_precondition(
                "that member searches another game (its gang name differs)",
            ));
        }
        let rank = named
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|&r| r < self.size && r != self.rank);
        rank.ok_or_else(|| Status::invalid_argument("the stream names no other member's rank"))
    }
}

#[tonic::async_trait]
impl Peer for Members {
    async fn exchange(
        &self,
        request: Request<Streaming<PeerFrame>>,
    ) -> Result<Response<PeerDone>, Status> {
        let peer = self.admit(&request)?;
        let mut frames = request.into_inner();
        self.roll.send_modify(|r| r.joined |= 1 << peer);
        let _counted = Ended(&self.roll);
        loop {
            match frames.message().await {
                Ok(Some(frame)) => {
                    if self.events.send(Event::Frame(peer, frame.data)).is_err() {
                        // The search is over here: nothing more is needed.
                        break;
                    }
                }
                Ok(None) => break,
                Err(status) => {
                    let reason = format!("its stream broke: {}", status.message());
                    let _ = self.events.send(Event::Lost(peer, reason));
                    return Err(status);
                }
            }
        }
        Ok(Response::new(PeerDone {}))
    }
}

/// Counts a member's stream as ended when its handler returns, however it returns.
struct Ended<'a>(&'a watch::Sender<Roll>);

impl Drop for Ended<'_> {
    fn drop(&mut self) {
        self.0.send_modify(|r| r.ended += 1);
    }
}

/// The others' streams to this member: which have opened (a bit per rank), how many
/// have ended, and why one was turned away.
#[derive(Clone, Debug, Default)]
struct Roll {
    joined: u128,
    ended: usize,
    refused: Option<String>,
}

/// Waits until every other member's stream to this one has opened: from then on, a
/// member that dies breaks a stream this member reads, so it is never waited for in
/// vain.
async fn wait_joined(roll: watch::Receiver<Roll>, spec: &GangSpec) -> Result<(), PeerError> {
    let all: u128 = (0..spec.peers.len())
        .filter(|&r| r != spec.rank)
        .map(|r| 1u128 << r)
        .sum();
    let mut waiting = roll.clone();
    let ready = waiting.wait_for(|r| r.joined == all || r.refused.is_some());
    let roll = match tokio::time::timeout(spec.connect_timeout, ready).await {
        Ok(Ok(roll)) => roll.clone(),
        _ => {
            let joined = roll.borrow().joined;
            let missing: Vec<String> = (0..spec.peers.len())
                .filter(|&r| all & (1 << r) != 0 && joined & (1 << r) == 0)
                .map(|r| format!("{r} ({})", spec.peers[r]))
                .collect();
            return Err(PeerError::NotJoined {
                missing: missing.join(", "),
                seconds: spec.connect_timeout.as_secs(),
            });
        }
    };
    match roll.refused {
        Some(reason) => Err(PeerError::NotFormed { reason }),
        None => Ok(()),
    }
}
