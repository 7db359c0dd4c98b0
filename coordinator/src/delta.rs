//! The dataset's Delta log, kept up with the commits: the writer threads queue each
//! committed part, and every few seconds one new version of the log adds what was queued.
//!
//! The log trails the journal, never leads it: a part enters the queue only once it is
//! journaled. A crash loses the queue, not the parts: at the next start, every journaled
//! part the log lacks is looked up for its size and added.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hammer_parts::delta::{DeltaLog, LoggedPart};
use hammer_store::Store;
use hammer_sweep::Sweep;
use tokio::task::JoinHandle;
use tracing::{debug, warn};

use crate::error::CoordinatorError;
use crate::state::CommitEntry;
use crate::sync::lock;

/// How often the queued parts become a new version of the log.
const EVERY: Duration = Duration::from_secs(2);

/// The log and the parts committed since its last version.
pub(crate) struct DeltaWriter {
    log: tokio::sync::Mutex<DeltaLog>,
    queue: Mutex<Vec<LoggedPart>>,
}

impl DeltaWriter {
    /// Opens the log of `out` and adds the committed parts it lacks.
    pub(crate) async fn start(
        out: &Store,
        sweep: &Sweep,
        committed: &[CommitEntry],
    ) -> Result<Arc<DeltaWriter>, CoordinatorError> {
        let mut log = DeltaLog::open(out, &sweep.name, &sweep.digest).await?;
        let mut missing = Vec::new();
        for entry in committed {
            let Some(unit) = sweep.unit_by_id(&entry.unit_id) else {
                continue;
            };
            let key = hammer_parts::key_of(sweep, &unit)?;
            if !log.has(&key)
                && let Some(size) = out.size(&key).await?
            {
                missing.push(LoggedPart { key, size });
            }
        }
        log.commit(&missing).await?;
        Ok(Arc::new(DeltaWriter {
            log: tokio::sync::Mutex::new(log),
            queue: Mutex::new(Vec::new()),
        }))
    }

    /// Queues a journaled part for the next version.
    pub(crate) fn queue(&self, part: LoggedPart) {
        lock(&self.queue).push(part);
    }

    /// Adds the queued parts as one version; on failure they stay queued.
    pub(crate) async fn flush(&self) -> Result<(), CoordinatorError> {
        let parts = std::mem::take(&mut *lock(&self.queue));
        if parts.is_empty() {
            return Ok(());
        }
        match self.log.lock().await.commit(&parts).await {
            Ok(version) => {
                debug!(?version, parts = parts.len(), "Delta log version written");
                Ok(())
            }
            Err(e) => {
                lock(&self.queue).extend(parts);
                Err(e.into())
            }
        }
    }

    /// Flushes every [`EVERY`] until aborted; a failed version is tried again.
    pub(crate) fn spawn(self: &Arc<Self>) -> JoinHandle<()> {
        let writer = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(EVERY).await;
                if let Err(e) = writer.flush().await {
                    warn!(error = %hammer_proto::error_chain(&e), "cannot write the Delta log; trying again");
                }
            }
        })
    }
}
