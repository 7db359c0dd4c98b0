//! The sweeps a coordinator serves, and the routing of every call to the sweep it is
//! about.
//!
//! A coordinator of one sweep (`--sweep FILE`) is a queue of one that never takes a
//! submission; a standing coordinator's queue grows by submissions and persists in its
//! state directory. Each sweep keeps its own [`Core`]: units, leases, gangs, tallies. The
//! queue adds what spans sweeps: the workers, which sweep a free worker serves
//! (`share.rs`), and the users' calls (`users.rs`).
//!
//! A lease id on the wire is `SEQ.ID`: the sweep's place in submission order and the
//! core's own id, so that a result or a heartbeat finds its sweep without a lookup table.
//!
//! Lock order: the queue, then a sweep's core. The writer threads take a core alone.

mod entry;
mod share;
mod users;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hammer_proto::v1::{
    HeartbeatRequest, HeartbeatResponse, LeaseProgress, LeaseRequest, LeaseResponse,
    StatusResponse, SweepSpec, lease_response,
};

use crate::core::workers::Workers;
use crate::core::{Core, CoreError, LeaseOutcome};
use crate::sync::lock;
use crate::writer::SweepWriting;

pub(crate) use entry::{Admin, Entry, Home, Opener, Place};
pub(crate) use users::Admitted;

/// How long an idle worker's lease request waits for a submission before it is told to
/// ask again (a standing coordinator's long poll).
pub(crate) const LONG_POLL: Duration = Duration::from_secs(2);

/// The sweeps, the workers, and the fair-share clock.
pub(crate) struct Queue {
    /// A standing coordinator's queue takes submissions and never tells a worker that
    /// its work is complete.
    pub standing: bool,
    /// By submission order: entry `i` has seq `i + 1`.
    entries: Vec<Entry>,
    by_name: HashMap<String, usize>,
    workers: Workers,
    /// For each worker, the sweeps where it may hold a lease or a gang's seat: where its
    /// next lease request must end them.
    touched: HashMap<String, BTreeSet<usize>>,
    pub half_life: Duration,
    last_tick: Instant,
    pub draining: bool,
}

/// Where a wire lease id leads.
pub(crate) struct Routed {
    pub core: Arc<Mutex<Core>>,
    pub writing: Arc<SweepWriting>,
    /// The core's own lease id.
    pub lease: String,
    pub cancelled: bool,
}

impl Queue {
    pub(crate) fn new(standing: bool, half_life: Duration) -> Queue {
        Queue {
            standing,
            entries: Vec::new(),
            by_name: HashMap::new(),
            workers: Workers::default(),
            touched: HashMap::new(),
            half_life,
            last_tick: Instant::now(),
            draining: false,
        }
    }

    /// Adds an opened sweep; its seq must be the next.
    pub(crate) fn push(&mut self, entry: Entry) {
        self.by_name
            .insert(entry.sweep.name.clone(), self.entries.len());
        self.entries.push(entry);
    }

    pub(crate) fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The seq the next submission gets.
    pub(crate) fn next_seq(&self) -> u64 {
        self.entries.len() as u64 + 1
    }

    /// A worker's registration: its id, the same for the same name and instance.
    pub(crate) fn register(
        &mut self,
        name: &str,
        version: &str,
        instance: &str,
        peer: &str,
        threads: u32,
    ) -> String {
        let id = self.workers.register(name, version, instance, peer);
        self.workers.set_threads(&id, threads);
        // A worker that registers again brings its version, peer address and threads up
        // to date in every sweep that knows it.
        for &i in self.touched.get(&id).into_iter().flatten() {
            let mut core = lock(&self.entries[i].core);
            core.ensure_worker(&id, version, peer, threads);
        }
        id
    }

    /// Makes worker `worker` known to sweep `index`'s core.
    fn introduce(&mut self, worker: &str, index: usize) -> Result<(), CoreError> {
        let rec = self
            .workers
            .get(worker)
            .ok_or_else(|| CoreError::UnknownWorker(worker.to_owned()))?;
        let (version, peer, threads) = (rec.info.version.clone(), rec.peer.clone(), rec.threads);
        lock(&self.entries[index].core).ensure_worker(worker, &version, &peer, threads);
        Ok(())
    }

    /// Notes that `worker` may hold a lease of sweep `index`.
    fn touch(&mut self, worker: &str, index: usize) {
        self.touched
            .entry(worker.to_owned())
            .or_default()
            .insert(index);
    }

    /// The entry of a sweep digest.
    fn by_digest(&self, digest: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.sweep.digest == digest)
    }

    /// A worker's request for work: its leases end wherever it held them, then it gets
    /// the unit it was solving before a reconnect, its seat in a formed gang, a new unit
    /// of the sweep it should serve ([`Queue::order`]), or a copy of a straggler. The
    /// flag says no sweep had anything for it (the worker is idle).
    pub(crate) fn lease(
        &mut self,
        request: &LeaseRequest,
    ) -> Result<(LeaseResponse, bool), CoreError> {
        if self.draining {
            return Err(CoreError::ShuttingDown);
        }
        let worker = request.worker_id.as_str();
        self.workers
            .get_mut(worker)
            .ok_or_else(|| CoreError::UnknownWorker(worker.to_owned()))?
            .last_seen = Instant::now();
        let ended_sweeps = request
            .held_sweeps
            .iter()
            .filter(|d| {
                self.by_digest(d)
                    .is_none_or(|i| !self.entries[i].leasable())
            })
            .cloned()
            .collect();
        let touched: Vec<usize> = self
            .touched
            .get(worker)
            .map(|t| t.iter().copied().collect())
            .unwrap_or_default();
        for &i in &touched {
            self.introduce(worker, i)?;
            let mut core = lock(&self.entries[i].core);
            core.begin_lease(worker, request.gang_failed)?;
            core.forget_waiting(worker);
        }
        // Its leases ended; only a formed gang's seat still ties it to a sweep.
        if let Some(mine) = self.touched.get_mut(worker) {
            mine.retain(|&i| lock(&self.entries[i].core).has_seat(worker));
        }
        let picked = self.pick(worker, request, &touched)?;
        let idle = picked.is_none();
        if let Some((index, _)) = &picked {
            self.touch(worker, *index);
        }
        let outcome = match picked {
            Some((index, LeaseOutcome::Lease(mut lease))) => {
                let entry = &mut self.entries[index];
                entry.started = true;
                lease.lease_id = format!("{}.{}", entry.place.seq, lease.lease_id);
                lease.sweep_digest = entry.sweep.digest.clone();
                lease.sweep_name = entry.sweep.name.clone();
                lease_response::Outcome::Lease(lease)
            }
            Some((_, LeaseOutcome::Wait(ms))) => lease_response::Outcome::WaitMs(ms),
            None if self.tell_complete(worker) => lease_response::Outcome::Complete(true),
            None => lease_response::Outcome::WaitMs(200),
        };
        let answer = LeaseResponse {
            outcome: Some(outcome),
            ended_sweeps,
        };
        Ok((answer, idle))
    }

    /// The sweep and outcome of a lease request, if any sweep has work for `worker`.
    fn pick(
        &mut self,
        worker: &str,
        request: &LeaseRequest,
        touched: &[usize],
    ) -> Result<Option<(usize, LeaseOutcome)>, CoreError> {
        if let Some(i) = self.by_digest(&request.resume_sweep)
            && self.entries[i].leasable()
        {
            self.introduce(worker, i)?;
            let resumed = lock(&self.entries[i].core).resumed(worker, &request.resume_unit_id);
            if let Some(outcome) = resumed {
                return Ok(Some((i, outcome)));
            }
        }
        for &i in touched {
            let entry = &self.entries[i];
            if entry.leasable()
                && lock(&entry.core).has_seat(worker)
                && let Some(outcome) = lock(&entry.core).fresh(worker)
            {
                return Ok(Some((i, outcome)));
            }
        }
        let order = self.order();
        for &i in &order {
            self.introduce(worker, i)?;
            if let Some(outcome) = lock(&self.entries[i].core).fresh(worker) {
                return Ok(Some((i, outcome)));
            }
        }
        for &i in &order {
            if let Some(outcome) = lock(&self.entries[i].core).speculative(worker) {
                return Ok(Some((i, outcome)));
            }
        }
        Ok(None)
    }

    /// Whether a one-sweep coordinator's sweep is complete; if so, `worker` is marked as
    /// told, even when this request did not touch the sweep (its last unit was committed
    /// after its previous lease request), so the coordinator does not wait for it to exit.
    fn tell_complete(&self, worker: &str) -> bool {
        if self.standing {
            return false;
        }
        let Some(entry) = self.entries.first() else {
            return false;
        };
        let mut core = lock(&entry.core);
        let complete = core.is_complete();
        if complete {
            core.mark_told_complete(worker);
        }
        complete
    }

    /// Whether a one-sweep coordinator's sweep is complete.
    fn one_complete(&self) -> bool {
        !self.standing
            && self
                .entries
                .first()
                .is_some_and(|e| lock(&e.core).is_complete())
    }

    /// Splits a wire lease id into its sweep's index and the core's id.
    fn split(&self, wire: &str) -> Option<(usize, String)> {
        let (seq, id) = wire.split_once('.')?;
        let index = seq.parse::<usize>().ok()?.checked_sub(1)?;
        (index < self.entries.len()).then(|| (index, id.to_owned()))
    }

    /// The sweep a result batch's lease belongs to.
    pub(crate) fn route(&mut self, worker: &str, wire: &str) -> Result<Routed, CoreError> {
        let (index, lease) = self
            .split(wire)
            .ok_or_else(|| CoreError::MalformedLease(wire.to_owned()))?;
        self.introduce(worker, index)?;
        self.touch(worker, index);
        let entry = &self.entries[index];
        Ok(Routed {
            core: entry.core.clone(),
            writing: entry.writing.clone(),
            lease,
            cancelled: entry.place.admin == Admin::Cancelled,
        })
    }

    /// A heartbeat: each lease is renewed in its sweep's core.
    pub(crate) fn heartbeat(
        &mut self,
        request: &HeartbeatRequest,
    ) -> Result<HeartbeatResponse, CoreError> {
        let worker = request.worker_id.as_str();
        self.workers
            .get_mut(worker)
            .ok_or_else(|| CoreError::UnknownWorker(worker.to_owned()))?
            .last_seen = Instant::now();
        let mut answer = HeartbeatResponse {
            sweep_complete: self.one_complete(),
            ..HeartbeatResponse::default()
        };
        let mut by_sweep: HashMap<usize, (Vec<String>, Vec<LeaseProgress>)> = HashMap::new();
        for wire in &request.lease_ids {
            match self.split(wire) {
                Some((index, id)) => by_sweep.entry(index).or_default().0.push(id),
                None => answer.unknown_lease_ids.push(wire.clone()),
            }
        }
        for progress in &request.progress {
            if let Some((index, id)) = self.split(&progress.lease_id) {
                by_sweep.entry(index).or_default().1.push(LeaseProgress {
                    lease_id: id,
                    expansions: progress.expansions,
                });
            }
        }
        for (index, (ids, progress)) in by_sweep {
            self.introduce(worker, index)?;
            self.touch(worker, index);
            let seq = self.entries[index].place.seq;
            let part = lock(&self.entries[index].core).heartbeat(worker, &ids, &progress)?;
            let wire = |id: String| format!("{seq}.{id}");
            answer
                .dropped_lease_ids
                .extend(part.dropped_lease_ids.into_iter().map(wire));
            answer
                .unknown_lease_ids
                .extend(part.unknown_lease_ids.into_iter().map(wire));
        }
        Ok(answer)
    }

    /// The sweep of a digest, for a worker that leased one of its units.
    pub(crate) fn spec(&self, digest: &str) -> Result<Arc<SweepSpec>, CoreError> {
        self.by_digest(digest)
            .map(|i| self.entries[i].spec.clone())
            .ok_or_else(|| CoreError::UnknownSweep {
                name: format!("of digest {digest}"),
                known: self.names(),
            })
    }

    /// The index of sweep `name`; an empty name is the only sweep.
    pub(crate) fn find(&self, name: &str) -> Result<usize, CoreError> {
        if name.is_empty() {
            return match self.entries.len() {
                1 => Ok(0),
                0 => Err(CoreError::UnknownSweep {
                    name: "at all".to_owned(),
                    known: self.names(),
                }),
                _ => Err(CoreError::NameNeeded(self.names())),
            };
        }
        self.by_name
            .get(name)
            .copied()
            .ok_or_else(|| CoreError::UnknownSweep {
                name: format!("{name:?}"),
                known: self.names(),
            })
    }

    fn names(&self) -> String {
        let names: Vec<&str> = self.entries.iter().map(|e| e.sweep.name.as_str()).collect();
        if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        }
    }

    /// One sweep's progress, as `hammer status` shows it.
    pub(crate) fn status(&self, name: &str) -> Result<StatusResponse, CoreError> {
        let entry = &self.entries[self.find(name)?];
        let mut status = lock(&entry.core).status();
        status.dataset = entry.writing.out.to_string();
        status.state = entry.state() as i32;
        Ok(status)
    }

    /// What the metrics show: the one sweep's status, or the queue's summed (its series
    /// named `SWEEP/EXPERIMENT`).
    pub(crate) fn metrics_status(&self) -> StatusResponse {
        if !self.standing {
            return self.status("").unwrap_or_default();
        }
        let mut total = StatusResponse {
            sweep_name: "queue".to_owned(),
            ..StatusResponse::default()
        };
        for entry in &self.entries {
            let s = lock(&entry.core).status();
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

    /// Whether every worker seen recently was told that the one sweep is complete.
    pub(crate) fn workers_informed(&self, recent: Duration) -> bool {
        self.entries
            .first()
            .is_none_or(|e| lock(&e.core).workers_informed(recent))
    }

    /// Stops every sweep's leasing and ingest for a shutdown.
    pub(crate) fn drain(&mut self) {
        self.draining = true;
        for entry in &self.entries {
            lock(&entry.core).draining = true;
        }
    }
}

#[cfg(test)]
mod tests;
