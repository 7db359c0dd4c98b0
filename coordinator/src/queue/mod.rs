//! The sweeps a coordinator serves, and the routing of every call to the sweep it is
//! about.
//!
//! A coordinator of one sweep (`--sweep FILE`) is a queue of one that never takes a
//! submission, and tells its workers when that sweep is complete; a standing
//! coordinator's queue grows by submissions and persists in its state directory
//! (`standing.rs`). Which of the two it is, is the queue's [`Mode`]. Each sweep keeps its
//! own [`Core`]: units, leases, gangs, tallies. The queue alone keeps what spans sweeps
//! or outlives a lease: the workers (`workers.rs`), the draining, which sweep a free
//! worker serves (`share.rs`), the users' calls (`users.rs`) and what `hammer status`
//! shows of the workers (`status.rs`).
//!
//! A lease id on the wire is `SEQ.ID`: the sweep's place in submission order and the
//! core's own id, so that a result or a heartbeat finds its sweep without a lookup table.
//!
//! Lock order: the queue, then a sweep's core. The writer threads take a core alone.

mod entry;
mod error;
mod share;
mod standing;
mod status;
mod users;
mod workers;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hammer_proto::v1::{
    HeartbeatRequest, HeartbeatResponse, LeaseProgress, LeaseRequest, LeaseResponse, SweepSpec,
    lease_response,
};
use tokio::sync::watch;

use crate::core::{Core, LeaseOutcome};
use crate::sync::lock;
use crate::writer::SweepWriting;
use crate::writer::job::{Events, WorkerInfo};
use workers::Workers;

pub(crate) use entry::{Admin, Entry, Home, Opener, Place};
pub(crate) use error::QueueError;
pub(crate) use standing::Standing;
pub(crate) use users::Admitted;

/// How long an idle worker's lease request waits for a submission before it is told to
/// ask again (a standing coordinator's long poll).
pub(crate) const LONG_POLL: Duration = Duration::from_secs(2);

/// What a coordinator serves.
pub(crate) enum Mode {
    /// One sweep, until it is complete: its writer's events tell when it is.
    One { events: watch::Receiver<Events> },
    /// The sweeps submitted to it, opened by this, until it is stopped.
    Standing(Arc<Standing>),
}

/// The sweeps, the workers, and the fair-share clock.
pub(crate) struct Queue {
    mode: Mode,
    /// By submission order: entry `i` has seq `i + 1`.
    entries: Vec<Entry>,
    by_name: HashMap<String, usize>,
    workers: Workers,
    /// For each worker, the sweeps where it may hold a lease or a gang's seat: where its
    /// next lease request must end them.
    touched: HashMap<String, BTreeSet<usize>>,
    half_life: Duration,
    last_tick: Instant,
    /// Shutting down: no registration and no lease any more.
    draining: bool,
}

/// Where a wire lease id leads.
pub(crate) struct Routed {
    pub core: Arc<Mutex<Core>>,
    pub writing: Arc<SweepWriting>,
    /// The core's own lease id.
    pub lease: String,
    /// Who sends the batch, as its rows name it.
    pub worker: Arc<WorkerInfo>,
    pub cancelled: bool,
}

impl Queue {
    /// The queue of a coordinator of one sweep.
    pub(crate) fn one(entry: Entry, half_life: Duration) -> Queue {
        let events = entry.writing.events.subscribe();
        let mut queue = Queue::new(Mode::One { events }, half_life);
        queue.push(entry);
        queue
    }

    /// A standing coordinator's queue, with the sweeps read back from its state root.
    pub(crate) fn standing(standing: Standing, entries: Vec<Entry>, half_life: Duration) -> Queue {
        let mut queue = Queue::new(Mode::Standing(Arc::new(standing)), half_life);
        for entry in entries {
            queue.push(entry);
        }
        queue
    }

    fn new(mode: Mode, half_life: Duration) -> Queue {
        Queue {
            mode,
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

    /// How a standing coordinator opens the sweeps submitted to it; `None` for a
    /// coordinator of one sweep.
    pub(crate) fn standing_opener(&self) -> Option<Arc<Standing>> {
        match &self.mode {
            Mode::One { .. } => None,
            Mode::Standing(standing) => Some(standing.clone()),
        }
    }

    /// The one sweep's events; `None` for a standing coordinator.
    pub(crate) fn events(&self) -> Option<watch::Receiver<Events>> {
        match &self.mode {
            Mode::One { events } => Some(events.clone()),
            Mode::Standing(_) => None,
        }
    }

    pub(crate) fn is_standing(&self) -> bool {
        matches!(self.mode, Mode::Standing(_))
    }

    pub(crate) fn is_draining(&self) -> bool {
        self.draining
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
        id
    }

    /// Notes that sweep `index` has met `worker`, which must be registered.
    fn introduce(&mut self, worker: &str, index: usize) -> Result<(), QueueError> {
        if self.workers.get(worker).is_none() {
            return Err(QueueError::UnknownWorker(worker.to_owned()));
        }
        self.entries[index]
            .met
            .entry(worker.to_owned())
            .or_insert(false);
        Ok(())
    }

    /// Notes that sweep `index` told `worker` it is complete, if it has met the worker.
    fn told(&mut self, worker: &str, index: usize) {
        if let Some(told) = self.entries[index].met.get_mut(worker) {
            *told = true;
        }
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
    ) -> Result<(LeaseResponse, bool), QueueError> {
        if self.draining {
            return Err(QueueError::ShuttingDown);
        }
        let worker = request.worker_id.as_str();
        let peer = self.workers.seen(worker)?.peer.clone();
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
            let complete = {
                let mut core = lock(&self.entries[i].core);
                core.begin_lease(worker, request.gang_failed);
                core.forget_waiting(worker);
                core.is_complete()
            };
            if complete {
                self.told(worker, i);
            }
        }
        // Its leases ended; only a formed gang's seat still ties it to a sweep.
        if let Some(mine) = self.touched.get_mut(worker) {
            mine.retain(|&i| lock(&self.entries[i].core).has_seat(worker));
        }
        let picked = self.pick(worker, &peer, request, &touched)?;
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

    /// The sweep and outcome of a lease request, if any sweep has work for `worker`,
    /// reached at `peer` for gangs.
    fn pick(
        &mut self,
        worker: &str,
        peer: &str,
        request: &LeaseRequest,
        touched: &[usize],
    ) -> Result<Option<(usize, LeaseOutcome)>, QueueError> {
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
            if !entry.leasable() {
                continue;
            }
            let mut core = lock(&entry.core);
            if core.has_seat(worker)
                && let Some(outcome) = core.fresh(worker, peer)
            {
                return Ok(Some((i, outcome)));
            }
        }
        let order = self.order();
        for &i in &order {
            self.introduce(worker, i)?;
            if let Some(outcome) = lock(&self.entries[i].core).fresh(worker, peer) {
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
    fn tell_complete(&mut self, worker: &str) -> bool {
        let complete = self.one_complete();
        if complete {
            self.told(worker, 0);
        }
        complete
    }

    /// Whether a one-sweep coordinator's sweep is complete.
    fn one_complete(&self) -> bool {
        match &self.mode {
            Mode::One { .. } => self
                .entries
                .first()
                .is_some_and(|e| lock(&e.core).is_complete()),
            Mode::Standing(_) => false,
        }
    }

    /// Splits a wire lease id into its sweep's index and the core's id.
    fn split(&self, wire: &str) -> Option<(usize, String)> {
        let (seq, id) = wire.split_once('.')?;
        let index = seq.parse::<usize>().ok()?.checked_sub(1)?;
        (index < self.entries.len()).then(|| (index, id.to_owned()))
    }

    /// The sweep a result batch's lease belongs to.
    pub(crate) fn route(&mut self, worker: &str, wire: &str) -> Result<Routed, QueueError> {
        let (index, lease) = self
            .split(wire)
            .ok_or_else(|| QueueError::MalformedLease(wire.to_owned()))?;
        let info = self.workers.seen(worker)?.info.clone();
        self.introduce(worker, index)?;
        self.touch(worker, index);
        let entry = &self.entries[index];
        Ok(Routed {
            core: entry.core.clone(),
            writing: entry.writing.clone(),
            lease,
            worker: info,
            cancelled: entry.place.admin == Admin::Cancelled,
        })
    }

    /// A heartbeat: each lease is renewed in its sweep's core.
    pub(crate) fn heartbeat(
        &mut self,
        request: &HeartbeatRequest,
    ) -> Result<HeartbeatResponse, QueueError> {
        let worker = request.worker_id.as_str();
        self.workers.seen(worker)?;
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
            let renewed = lock(&self.entries[index].core).heartbeat(worker, &ids, &progress);
            let wire = |id: String| format!("{seq}.{id}");
            answer
                .dropped_lease_ids
                .extend(renewed.dropped.into_iter().map(wire));
            answer
                .unknown_lease_ids
                .extend(renewed.unknown.into_iter().map(wire));
        }
        Ok(answer)
    }

    /// The sweep of a digest, for a worker that leased one of its units.
    pub(crate) fn spec(&self, digest: &str) -> Result<Arc<SweepSpec>, QueueError> {
        self.by_digest(digest)
            .map(|i| self.entries[i].spec.clone())
            .ok_or_else(|| QueueError::UnknownSweep {
                name: format!("of digest {digest}"),
                known: self.names(),
            })
    }

    /// The index of sweep `name`; an empty name is the only sweep.
    pub(crate) fn find(&self, name: &str) -> Result<usize, QueueError> {
        if name.is_empty() {
            return match self.entries.len() {
                1 => Ok(0),
                0 => Err(QueueError::UnknownSweep {
                    name: "at all".to_owned(),
                    known: self.names(),
                }),
                _ => Err(QueueError::NameNeeded(self.names())),
            };
        }
        self.by_name
            .get(name)
            .copied()
            .ok_or_else(|| QueueError::UnknownSweep {
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

    /// Stops every sweep's leasing for a shutdown.
    pub(crate) fn drain(&mut self) {
        self.draining = true;
    }
}

#[cfg(test)]
mod tests;
