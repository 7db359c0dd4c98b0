//! Why the queue refused a call: the refusals of the queue itself (workers, sweeps,
//! shutdown), and those of a sweep's core. `service.rs` maps each to a gRPC code.

use crate::core::CoreError;

/// A refused call of a worker or a user.
#[derive(Debug, thiserror::Error)]
pub(crate) enum QueueError {
    #[error("unknown worker id {0:?}: the coordinator restarted; register again")]
    UnknownWorker(String),
    #[error("the coordinator is shutting down")]
    ShuttingDown,
    /// A wire lease id that is not `SEQ.ID` of a sweep of the queue.
    #[error("malformed lease id {0:?}")]
    MalformedLease(String),
    /// No sweep of that name or digest; the text names it and lists the known ones.
    #[error("no sweep {name} in this coordinator's queue (known: {known})")]
    UnknownSweep { name: String, known: String },
    #[error("this coordinator serves several sweeps ({0}): name one")]
    NameNeeded(String),
    #[error(
        "this coordinator serves the one sweep of its --sweep file; submit sweeps to a standing \
         coordinator (hammer coordinator without --sweep)"
    )]
    OneSweepOnly,
    #[error("{0}")]
    BadSweep(String),
    #[error(
        "a sweep named {name:?} is already in the queue with digest {queued}, and this file's \
         digest is {submitted}: a changed file under a used name would mix two sweeps in one \
         dataset; submit the original file, or give the new sweep another name"
    )]
    SweepExists {
        name: String,
        queued: String,
        submitted: String,
    },
    #[error("sweep {0} was cancelled: its results are no longer taken")]
    SweepCancelled(String),
    #[error("cannot save the queue: {0}")]
    Persist(String),
    /// The sweep's core refused the call.
    #[error(transparent)]
    Core(#[from] CoreError),
}
