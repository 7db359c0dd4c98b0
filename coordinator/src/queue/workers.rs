//! The workers the coordinator has heard from, by id: the one registry, which spans the
//! sweeps. A sweep's core knows a worker only by the id its leases name.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use super::QueueError;
use crate::writer::job::WorkerInfo;

/// One worker, as the coordinator knows it.
pub(crate) struct WorkerRec {
    pub info: Arc<WorkerInfo>,
    pub last_seen: Instant,
    /// Where other workers reach this one for gangs; empty when it takes no part.
    pub peer: String,
    /// The threads it solves on (at least 1): what a lease of it costs a sweep's share.
    pub threads: u32,
}

/// Every worker registered, by id.
pub(crate) struct Workers {
    by_id: HashMap<String, WorkerRec>,
    /// Numbers the ids of workers that send no instance.
    next: u64,
}

impl Default for Workers {
    fn default() -> Workers {
        Workers {
            by_id: HashMap::new(),
            next: 1,
        }
    }
}

impl Workers {
    /// The worker id for a registration. A worker that sends an `instance` gets an id
    /// derived from its name and instance, so a process that reconnects, to this
    /// coordinator or to a restarted one, keeps its id and its rows name it
    /// consistently. Without one (older workers), every registration gets a new id.
    pub(crate) fn register(
        &mut self,
        name: &str,
        version: &str,
        instance: &str,
        peer: &str,
    ) -> String {
        let clean = |text: &str, extra: bool| -> String {
            text.chars()
                .filter(|c| c.is_ascii_alphanumeric() || (extra && matches!(c, '-' | '_' | '.')))
                .take(64)
                .collect()
        };
        let name = clean(name, true);
        let instance = clean(instance, false);
        let id = if instance.is_empty() {
            let id = format!("w{}-{}", self.next, name);
            self.next += 1;
            id
        } else {
            format!("{name}-{instance}")
        };
        let version: String = version.chars().take(64).collect();
        let now = Instant::now();
        match self.by_id.get_mut(&id) {
            Some(rec) => {
                // The same process again, after a reconnect: its leases stay until its
                // next Lease call, which resumes or ends them.
                rec.last_seen = now;
                rec.peer = peer.to_owned();
                if rec.info.version != version {
                    rec.info = Arc::new(WorkerInfo {
                        id: id.clone(),
                        version,
                    });
                }
            }
            None => {
                self.by_id.insert(
                    id.clone(),
                    WorkerRec {
                        info: Arc::new(WorkerInfo {
                            id: id.clone(),
                            version,
                        }),
                        last_seen: now,
                        peer: peer.to_owned(),
                        threads: 1,
                    },
                );
            }
        }
        id
    }

    /// Sets the threads worker `id` solves on (0, from an old worker, counts as 1).
    pub(crate) fn set_threads(&mut self, id: &str, threads: u32) {
        if let Some(rec) = self.by_id.get_mut(id) {
            rec.threads = threads.max(1);
        }
    }

    /// Worker `id`, seen now; refused when it never registered (with this process).
    pub(crate) fn seen(&mut self, id: &str) -> Result<&WorkerRec, QueueError> {
        let rec = self
            .by_id
            .get_mut(id)
            .ok_or_else(|| QueueError::UnknownWorker(id.to_owned()))?;
        rec.last_seen = Instant::now();
        Ok(rec)
    }

    /// The threads worker `id` solves on (1 for a worker not known).
    pub(crate) fn threads(&self, id: &str) -> u32 {
        self.by_id.get(id).map_or(1, |w| w.threads)
    }

    pub fn get(&self, id: &str) -> Option<&WorkerRec> {
        self.by_id.get(id)
    }

    pub fn values(&self) -> impl Iterator<Item = &WorkerRec> {
        self.by_id.values()
    }
}

#[cfg(test)]
mod tests {
    use super::Workers;

    #[test]
    fn a_worker_keeps_its_id_when_it_registers_again() {
        let mut workers = Workers::default();
        let first = workers.register("host-42", "0.1.0", "1a2b3c4d", "");
        assert_eq!(first, "host-42-1a2b3c4d");
        assert_eq!(workers.register("host-42", "0.1.0", "1a2b3c4d", ""), first);
        // Another process with the same name is another worker.
        assert_ne!(workers.register("host-42", "0.1.0", "99999999", ""), first);
        // Older workers without an instance get a fresh id each time.
        let old = workers.register("old", "0.1.0", "", "");
        assert_ne!(workers.register("old", "0.1.0", "", ""), old);
    }
}
