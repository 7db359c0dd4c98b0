//! The shutdown signal that every wait of a worker also waits on.

use tokio::sync::watch;

/// Resolves once `shutdown` is true (or its sender is gone). The guard that `wait_for`
/// returns is dropped here, because it must not live across an await of a Send future.
pub(crate) async fn stopped(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}
