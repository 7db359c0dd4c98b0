//! The in-process hammer cluster: a coordinator and a worker in one process, talking
//! gRPC over loopback, so that `hammer run` exercises the same code paths as a cluster
//! (and the cluster's tests exercise `hammer run`).
//!
//! It lives in its own crate because it is the one place that joins the coordinator and
//! the worker: neither of them depends on the other, and the `hammer` binary only parses
//! arguments and prints. [`run_local`] is the whole run; [`synthetic_worker`] is a worker
//! that solves nothing, for measuring the coordinator's ingest.

mod run;
mod synthetic;

pub use run::{LocalError, LocalEvent, RunEnd, RunOutcome, run_local};
pub use synthetic::{SyntheticError, synthetic_worker};
