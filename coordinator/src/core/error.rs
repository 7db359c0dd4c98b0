//! Why the core refused a call. The core knows nothing of gRPC: `service.rs` maps each
//! variant to a status code, so the domain logic can be tested and reused without tonic.

/// A refused call of a worker.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CoreError {
    #[error("unknown worker id {0:?}: the coordinator restarted; register again")]
    UnknownWorker(String),
    #[error("the coordinator is shutting down")]
    ShuttingDown,
    #[error("malformed lease id {0:?}")]
    MalformedLease(String),
    /// Either forgotten after the unit was committed, or from before a restart.
    #[error("unknown lease {0}: lease the unit again")]
    UnknownLease(u64),
    #[error("lease {lease} belongs to worker {owner}, not to {worker}")]
    NotYourLease {
        lease: u64,
        owner: String,
        worker: String,
    },
    #[error("lease of a unit outside the sweep")]
    UnitOutsideSweep,
    #[error(
        "results for {sent} are outside lease {lease}, which covers {covers}; refused, \
         nothing of this batch is written"
    )]
    OutsideLease {
        lease: u64,
        sent: String,
        covers: String,
    },
    #[error(
        "result for game {game} refused under lease {lease} (unit {unit}): {problem}; \
         nothing of this batch is written"
    )]
    ResultRefused {
        game: u64,
        lease: u64,
        unit: String,
        problem: String,
    },
    #[error("the part of unit {unit} is refused under lease {lease}: {problem}")]
    PartRefused {
        lease: u64,
        unit: String,
        problem: String,
    },
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
}
