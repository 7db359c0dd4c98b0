//! What `hammer status` and the metrics see of the queue: each sweep's progress from its
//! core, with the workers it has met from the queue's registry, and the workers told
//! that the one sweep of a coordinator is complete.

use std::time::Instant;

use hammer_proto::v1::{StatusResponse, WorkerStatus};

use super::{Entry, Queue, QueueError};
use crate::sync::lock;

impl Queue {
    /// One sweep's progress, as `hammer status` shows it.
    pub(crate) fn status(&self, name: &str) -> Result<StatusResponse, QueueError> {
        let entry = &self.entries[self.find(name)?];
        let mut status = self.progress(entry);
        status.dataset = entry.writing.out.to_string();
        status.state = entry.state() as i32;
        Ok(status)
    }

    /// A sweep's progress: its core's, with the workers it has met and not told it is
    /// complete (those heard from within a lease's time count as alive).
    fn progress(&self, entry: &Entry) -> StatusResponse {
        let core = lock(&entry.core);
        let mut status = core.status();
        let now = Instant::now();
        let recent = core.timing.lease_ttl;
        let untold: Vec<_> = entry
            .met
            .iter()
            .filter(|&(_, &told)| !told)
            .filter_map(|(id, _)| self.workers.get(id))
            .collect();
        status.workers = untold
            .iter()
            .filter(|w| w.last_seen.elapsed() <= recent)
            .count() as u32;
        let mut list: Vec<WorkerStatus> = untold
            .iter()
            .map(|w| WorkerStatus {
                id: w.info.id.clone(),
                version: w.info.version.clone(),
                idle_ms: now.duration_since(w.last_seen).as_millis() as u64,
                units: core.leased_units(&w.info.id, now),
            })
            .collect();
        list.sort_by(|a, b| a.id.cmp(&b.id));
        status.worker_list = list;
        status
    }

    /// What the metrics show: the one sweep's status, or the queue's summed (its series
    /// named `SWEEP/EXPERIMENT`).
    pub(crate) fn metrics_status(&self) -> StatusResponse {
        if !self.is_standing() {
            return self.status("").unwrap_or_default();
        }
        let mut total = StatusResponse {
            sweep_name: "queue".to_owned(),
            ..StatusResponse::default()
        };
        for entry in &self.entries {
            let s = self.progress(entry);
            total.games_total += s.games_total;
            total.games_committed += s.games_committed;
            total.games_pending += s.games_pending;
            total.units_total += s.units_total;
            total.units_committed += s.units_committed;
            total.units_leased += s.units_leased;
            total.games_per_second += s.games_per_second;
            total.refused += s.refused;
            total.duplicates += s.duplicates;
            total.workers = total.workers.max(s.workers);
            total
                .experiments
                .extend(s.experiments.into_iter().map(|mut x| {
                    x.experiment = format!("{}/{}", entry.sweep.name, x.experiment);
                    x
                }));
        }
        total.complete = false;
        total
    }

    /// Whether every worker that the one sweep has met, and that was seen within three
    /// heartbeats, was told that the sweep is complete.
    pub(crate) fn workers_informed(&self) -> bool {
        let Some(entry) = self.entries.first() else {
            return true;
        };
        let recent = lock(&entry.core).timing.heartbeat * 3;
        entry.met.iter().all(|(id, &told)| {
            told || self
                .workers
                .get(id)
                .is_none_or(|w| w.last_seen.elapsed() > recent)
        })
    }
}
