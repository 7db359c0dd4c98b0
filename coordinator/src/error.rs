//! Why a coordinator could not start, or stopped before its sweep was complete.

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::state::StateError;

/// Why a coordinator could not start, or stopped before the sweep was complete.
#[derive(Debug, thiserror::Error)]
pub enum CoordinatorError {
    /// The state directory cannot be opened or written.
    #[error(transparent)]
    State(#[from] StateError),
    /// The dataset cannot be read or written.
    #[error(transparent)]
    Dataset(#[from] hammer_dataset::Error),
    /// The dataset's store cannot be opened, read or written.
    #[error(transparent)]
    Store(#[from] hammer_store::StoreError),
    /// A unit's part could not be made, put or recognised.
    #[error(transparent)]
    Part(#[from] hammer_parts::PartError),
    /// A non-loopback address was given without a shared token.
    #[error(
        "listening on {addr} (not a loopback address) requires a shared token: set HAMMER_TOKEN \
         or pass --token-file, and give the same token to the workers"
    )]
    TokenRequired {
        /// The address to listen on.
        addr: SocketAddr,
    },
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why it cannot.
        #[source]
        source: std::io::Error,
    },
    /// A TLS file cannot be read.
    #[error("cannot read {what} {}", .path.display())]
    ReadFile {
        /// Which file it is, as the message names it.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why it cannot be read.
        #[source]
        source: std::io::Error,
    },
    /// The TLS certificate or key was refused.
    #[error("TLS setup")]
    Tls(#[source] tonic::transport::Error),
    /// A dataset writer's thread cannot be started.
    #[error("cannot start a thread: {0}")]
    Thread(std::io::Error),
    /// A unit could not be committed, so the coordinator stops; the message says why.
    #[error("the coordinator stopped: {0}")]
    CommitFailed(String),
    /// A task or thread of the coordinator ended unexpectedly.
    #[error("internal error: {0}")]
    Internal(String),
    /// The sweep's knowledge bases do not fit in a worker's registration answer.
    #[error(
        "the sweep's knowledge bases take {bytes} bytes, more than the {limit} a worker's \
         registration can carry; learn them with a smaller --radius or from fewer games"
    )]
    KnowledgeBasesTooLarge {
        /// Their size in bytes.
        bytes: usize,
        /// What a registration answer can carry, in bytes.
        limit: usize,
    },
}
