//! Why the core refused a call. The core knows nothing of gRPC: `service.rs` maps each
//! variant to a status code, so the domain logic can be tested and reused without tonic.

/// A refused call of a worker about one of its leases.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CoreError {
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
}
