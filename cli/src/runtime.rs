//! The async runtime of the network subcommands, and the stop signals they obey.

use anyhow::{Context, Result};

pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("hammer-io")
        .build()
        .context("cannot start the async runtime")
}

/// Resolves on Ctrl-C or SIGTERM, naming the signal.
pub async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => tokio::select! {
                _ = tokio::signal::ctrl_c() => "Ctrl-C",
                _ = term.recv() => "SIGTERM",
            },
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                "Ctrl-C"
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    }
}

/// Waits for Ctrl-C or SIGTERM, for `--stay-after-complete`.
pub async fn stay_until_signal() {
    let signal = stop_signal().await;
    eprintln!("{signal}: stopping");
}
