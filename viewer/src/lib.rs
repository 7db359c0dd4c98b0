//! `hammer view`: a local web page over a dataset and a running sweep.
//!
//! - Browse: the dataset's games filtered and sorted on the server from a compact
//!   in-memory index of a few columns (`index.rs`, `query.rs`), a page at a time.
//! - Replay: a game's full row read from its part file and replayed with the family's
//!   own rules (`game.rs`); the page draws Martello boards as SVG.
//! - Play: legal moves, refused moves with the rules' reason, and the solver's hints
//!   (`play.rs`).
//! - Live: a coordinator's queue of sweeps and the status of one, polled by the page
//!   (`live.rs`).
//!
//! The front end is plain HTML, CSS and JavaScript in `assets/`, embedded at build time.

mod data;
mod error;
mod game;
mod index;
mod live;
mod play;
mod query;
mod server;

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

pub use live::{Answer, Coordinator, CoordinatorSource};

/// The default cap on each hint's search, in expansions: high enough that the hints of
/// 6x6 start positions are exact, low enough that a whole list comes back while the user
/// waits (`science/notes/scripts/view_bench.py` checks both, docs/benchmarks.md).
pub const DEFAULT_HINT_BUDGET: u64 = 2_000_000;

/// What `hammer view` serves.
pub struct Options {
    /// The dataset to browse; the page says when none is given.
    pub dataset: Option<PathBuf>,
    /// The coordinator to watch: its address as shown, and how to ask it.
    pub coordinator: Option<(String, CoordinatorSource)>,
    /// Required on every request when set (the page's URL carries it once).
    pub token: Option<String>,
    /// Expansions each hint's search may use.
    pub hint_budget: u64,
}

/// Serves the page on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    options: Options,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let data = data::Dataset::new(options.dataset);
    data.start_loading();
    let app = Arc::new(server::App {
        data,
        coordinator: options.coordinator,
        token: options.token,
        hint_budget: options.hint_budget,
    });
    axum::serve(listener, server::router(app))
        .with_graceful_shutdown(shutdown)
        .await
}
