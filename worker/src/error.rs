//! Why a worker stops without finishing, and which of those reasons are worth waiting
//! out.

use hammer_proto::error_chain;
use hammer_sweep::SweepError;

use crate::connect::ClientError;
use crate::solve::SolveError;

/// Why a worker stopped without finishing the sweep.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// Talking to the coordinator failed in a way that waiting does not fix.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// Worker and coordinator speak different protocol versions.
    #[error(
        "protocol version mismatch: this worker speaks hammer.v1 protocol {worker}, the \
         coordinator speaks {coordinator}; run the same hammer version on both sides"
    )]
    ProtocolMismatch {
        /// This worker's protocol version.
        worker: u32,
        /// The coordinator's protocol version.
        coordinator: u32,
    },
    /// The sweep the coordinator sent does not parse.
    #[error("the sweep the coordinator sent does not parse")]
    Sweep(#[from] SweepError),
    /// The sweep the coordinator sent is not the one it announced.
    #[error(
        "the sweep the coordinator sent has digest {computed}, but the coordinator says \
         {announced}; worker and coordinator run different hammer versions"
    )]
    Digest {
        /// The digest of the sweep as this worker reads it.
        computed: String,
        /// The digest the coordinator announced.
        announced: String,
    },
    /// An `--allow-solver` program that cannot be found or read.
    #[error("--allow-solver {program}")]
    AllowedSolver {
        /// The program as given.
        program: String,
        /// Why it cannot be allowed.
        #[source]
        source: hammer_external::ExecutableError,
    },
    /// The sweep names a program this worker does not run: nothing of it is solved.
    #[error(
        "sweep {sweep}: solver {solver}: {reason}; start the worker with --allow-solver for it to run this sweep"
    )]
    SolverNotAllowed {
        /// The sweep's name.
        sweep: String,
        /// The `[solvers.NAME]` of the program.
        solver: String,
        /// Why it is not allowed.
        reason: String,
    },
    /// A knowledge base the coordinator sent does not check: nothing is solved.
    #[error(transparent)]
    KnowledgeBase(#[from] hammer_solver::learned::KbError),
    /// A lease this worker cannot act on, with the reason.
    #[error("the coordinator sent a bad lease: {0}")]
    BadLease(String),
    /// The gang options give no usable peer address, with the reason.
    #[error("bad peer address: {0}")]
    BadPeer(String),
    /// A unit could not be solved.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The coordinator stayed unreachable past [`crate::WorkerOptions::give_up_after`].
    #[error(
        "gave up: the coordinator at {url} has been unreachable for {secs} s; last error: {last}"
    )]
    GaveUp {
        /// The coordinator's URL.
        url: String,
        /// How long it was unreachable, in seconds.
        secs: u64,
        /// The last connection error, flattened.
        last: String,
    },
    /// The result stream broke in a way a new connection may mend, with what broke it:
    /// the worker connects again and resends what it kept.
    #[error("{0}")]
    Reconnect(&'static str),
    /// The shutdown signal stopped the worker.
    #[error("stopped")]
    Stopped,
    /// A worker loop's task panicked or was cancelled.
    #[error("a worker task failed")]
    Task(#[source] tokio::task::JoinError),
    /// The coordinator asks workers to put parts into a store this one cannot write.
    #[error(
        "the coordinator asks workers to write the dataset at {url}, and this worker cannot: \
         give it the store's credentials (AWS_ACCESS_KEY_ID, AWS_ENDPOINT_URL, ...), or start \
         it with --no-store to send its results to the coordinator"
    )]
    StoreUnreachable {
        /// The dataset's URL.
        url: String,
        /// Why the store cannot be written.
        #[source]
        source: hammer_store::StoreError,
    },
    /// A unit's part could not be put into the dataset.
    #[error(transparent)]
    Part(#[from] hammer_parts::PartError),
}

impl From<tonic::Status> for WorkerError {
    fn from(status: tonic::Status) -> Self {
        WorkerError::Client(ClientError::Rpc(status))
    }
}

impl WorkerError {
    /// Whether to wait and try again. An HTTP/2 protocol error before the first
    /// registration means a plaintext worker talking to a TLS coordinator, which needs a
    /// person; after it, the same URL has answered, so it is a connection broken mid-frame
    /// (seen when a worker was paused with SIGSTOP past the coordinator's keepalive) and
    /// worth retrying.
    pub(crate) fn is_transient(&self, registered: bool) -> bool {
        match self {
            WorkerError::Client(e) => e.is_transient() || (registered && e.is_protocol_error()),
            WorkerError::Reconnect(_) => true,
            _ => false,
        }
    }

    /// The error as the retry log and [`WorkerError::GaveUp`] tell it; see
    /// [`ClientError::describe`].
    pub(crate) fn describe(&self, registered: bool) -> String {
        match self {
            WorkerError::Client(e) => e.describe(registered),
            other => error_chain(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_protocol_error_is_retried_only_after_the_coordinator_answered() {
        let h2 = WorkerError::from(tonic::Status::internal("h2 protocol error: http2 error"));
        assert!(
            !h2.is_transient(false),
            "a TLS coordinator on a plaintext URL needs a person"
        );
        assert!(
            h2.is_transient(true),
            "a broken connection to a known coordinator"
        );
        let token = WorkerError::from(tonic::Status::unauthenticated("bad token"));
        assert!(!token.is_transient(true));
        let down = WorkerError::from(tonic::Status::unavailable(""));
        assert!(down.is_transient(false) && down.is_transient(true));
        let broken = WorkerError::Reconnect("the result stream closed");
        assert!(broken.is_transient(false) && broken.is_transient(true));
    }

    #[test]
    fn the_tls_hint_of_a_protocol_error_is_given_only_before_the_coordinator_answered() {
        let h2 = WorkerError::from(tonic::Status::internal("h2 protocol error: http2 error"));
        let first = h2.describe(false);
        assert!(first.contains("https://"), "{first}");
        let broken = h2.describe(true);
        assert!(
            broken.contains("connection to the coordinator broke")
                && broken.contains("h2 protocol error")
                && !broken.contains("TLS")
                && !broken.contains("https://"),
            "{broken}"
        );
        let token = WorkerError::from(tonic::Status::unauthenticated("bad token"));
        assert_eq!(token.describe(true), token.describe(false));
    }
}
