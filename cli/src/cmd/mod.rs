//! One module per subcommand, named after it (`bench-ingest` is `bench_ingest`). Each
//! holds the subcommand's clap arguments and the function `main` calls; helpers shared by
//! several subcommands live beside `cmd/` (`args`, `batch`, `runtime`, `progress`, ...).

pub mod analyze;
pub mod ask;
pub mod bench;
pub mod bench_ingest;
pub mod bench_run;
pub mod check_args;
pub mod compact;
pub mod coordinator;
pub mod count;
pub mod estimate;
pub mod families;
pub mod health;
pub mod learn;
pub mod moves;
pub mod queue;
pub mod replay;
pub mod run;
pub mod solve;
pub mod solve_owned;
pub mod solve_print;
pub mod status;
pub mod tune;
pub mod view;
pub mod worker;
