//! The hammer worker: registers with a coordinator, leases units of a sweep, solves their
//! games on all cores and streams the results back.
//!
//! [`solve_game`] and [`SolverPool`] are also the direct path, without any cluster, that
//! tests and benchmarks compare the cluster's output and speed with.

mod allow;
mod bases;
mod connect;
mod error;
mod gang;
mod group;
mod run;
mod shutdown;
mod solve;
mod stream;
mod unit;

pub use allow::Solvers;
pub use connect::{
    Client, ClientError, ConnectError, ConnectOptions, TokenInterceptor, describe_status,
};
pub use error::WorkerError;
pub use gang::{GangFailure, PeerOptions};
pub use group::run_group;
pub use run::{WorkerOptions, WorkerReport};
pub use solve::{GameSolvers, HAMMER_VERSION, SolveError, SolverPool, solve_game};
