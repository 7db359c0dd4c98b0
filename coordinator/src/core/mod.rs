//! The coordinator's bookkeeping: which units are open, leased, being written or
//! committed, the results received so far, and the leases.
//!
//! Everything here is synchronous and fast (no I/O), so it lives behind one mutex that
//! the gRPC handlers hold only for the duration of one call. Writing part files happens
//! on the writer thread, outside the lock.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hammer_proto::v1::{GameResult, HeartbeatResponse, Lease, LeaseProgress, Unit as WireUnit};
use hammer_sweep::{Sweep, Unit};

use crate::metrics::Metrics;
use crate::state::CommitEntry;

mod error;
mod gang;
mod ingest;
mod status;

pub(crate) use error::CoreError;

/// Who produced a result: goes into the dataset's `worker` and `hammer_version` columns.
#[derive(Debug)]
pub(crate) struct WorkerInfo {
    pub id: String,
    pub version: String,
}

/// One received result and its producer.
#[derive(Clone)]
pub(crate) struct Stored {
    pub result: GameResult,
    pub worker: Arc<WorkerInfo>,
}

/// A complete unit on its way to the writer thread.
pub(crate) struct WriteJob {
    pub slot: u32,
    pub unit: Unit,
    pub unit_id: String,
    pub results: Vec<Stored>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlotState {
    Open,
    /// Every game arrived; the part file is being written.
    Writing,
    Committed,
}

struct Slot {
    unit: Unit,
    id: String,
    state: SlotState,
    /// Leases currently counted as working on the unit.
    active: u32,
    /// Every lease ever given for the unit and not yet forgotten; results under expired
    /// ones are still accepted, since they are as good as any.
    leases: Vec<u64>,
    received: u64,
    /// Indexed by `game - unit.start`; allocated on the first result.
    results: Vec<Option<Stored>>,
    first_leased: Option<Instant>,
    /// For a game of a `gang = K` experiment: the gang leasing it.
    gang: Option<gang::GangSlot>,
}

struct LeaseRec {
    slot: u32,
    worker: String,
    expires: Instant,
    active: bool,
    /// Expansions the worker reported for the unit so far (heartbeats), and when that
    /// number last grew (when the lease was granted, before any report).
    expansions: u64,
    progressed: Instant,
    /// For a member of a gang: its place in it.
    gang: Option<gang::Member>,
    /// Its gang was dissolved: never renewed, and the worker is told to drop it.
    revoked: bool,
}

struct WorkerRec {
    info: Arc<WorkerInfo>,
    last_seen: Instant,
    told_complete: bool,
    /// Where other workers reach this one for gangs; empty when it takes no part.
    peer: String,
    /// Leases of this worker that are active; a worker works on one unit at a time.
    active: Vec<u64>,
}

#[derive(Clone, Copy, Default)]
struct SeriesStats {
    total: u64,
    committed: u64,
    solvable: u64,
    expansions: u64,
}

/// Limits and timings of the scheduler.
#[derive(Clone, Debug)]
pub struct Timing {
    /// A lease lapses this long after it was last renewed (by a heartbeat or a batch).
    pub lease_ttl: Duration,
    /// How often workers should send heartbeats.
    pub heartbeat: Duration,
    /// A unit is a straggler, and gets a second copy for an idle worker, once it has been
    /// leased for longer than this and longer than the median unit took.
    pub speculate_after: Duration,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            lease_ttl: Duration::from_secs(30),
            heartbeat: Duration::from_secs(5),
            speculate_after: Duration::from_secs(2),
        }
    }
}

pub(crate) enum LeaseOutcome {
    Lease(Lease),
    Wait(u64),
    Complete,
}

pub(crate) struct Core {
    pub sweep: Arc<Sweep>,
    pub timing: Timing,
    slots: Vec<Slot>,
    by_id: HashMap<String, u32>,
    /// Open units without an active lease, in dispatch order.
    available: BTreeSet<u32>,
    /// Open units with at least one active lease.
    leased: BTreeSet<u32>,
    leases: HashMap<u64, LeaseRec>,
    next_lease: u64,
    workers: HashMap<String, WorkerRec>,
    next_worker: u64,
    series: BTreeMap<(u32, u32, u32), SeriesStats>,
    units_committed: u32,
    games_committed: u64,
    /// Distinct results held for open units.
    games_pending: u64,
    refused: u64,
    duplicates: u64,
    /// (time, results received so far), for the rate.
    samples: VecDeque<(Instant, u64)>,
    received_total: u64,
    unit_seconds: Vec<f64>,
    pub draining: bool,
    /// Counters for `--metrics`; atomics, shared with the service and the writers.
    pub metrics: Arc<Metrics>,
    /// Workers on a gang's waiting list, or members of a formed gang that have not
    /// fetched their lease yet, by the slot of the game.
    gang_seats: HashMap<String, u32>,
}

impl Core {
    pub fn new(sweep: Arc<Sweep>, timing: Timing, committed: &[CommitEntry]) -> Core {
        let units = sweep.units();
        let mut series: BTreeMap<(u32, u32, u32), SeriesStats> = BTreeMap::new();
        let mut slots = Vec::with_capacity(units.len());
        let mut by_id = HashMap::with_capacity(units.len());
        for (i, unit) in units.iter().enumerate() {
            let id = unit.id();
            by_id.insert(id.clone(), i as u32);
            series
                .entry((unit.experiment, unit.point, unit.config))
                .or_default()
                .total += unit.games();
            let experiment = &sweep.experiments[unit.experiment as usize];
            slots.push(Slot {
                gang: experiment.gang.map(gang::GangSlot::new),
                unit: *unit,
                id,
                state: SlotState::Open,
                active: 0,
                leases: Vec::new(),
                received: 0,
                results: Vec::new(),
                first_leased: None,
            });
        }
        let mut core = Core {
            sweep,
            timing,
            slots,
            by_id,
            available: BTreeSet::new(),
            leased: BTreeSet::new(),
            leases: HashMap::new(),
            next_lease: 1,
            workers: HashMap::new(),
            next_worker: 1,
            series,
            units_committed: 0,
            games_committed: 0,
            games_pending: 0,
            refused: 0,
            duplicates: 0,
            samples: VecDeque::new(),
            received_total: 0,
            unit_seconds: Vec::new(),
            draining: false,
            metrics: Arc::default(),
            gang_seats: HashMap::new(),
        };
        for entry in committed {
            if let Some(&slot) = core.by_id.get(&entry.unit_id) {
                core.mark_committed(slot, entry);
            }
        }
        core.available = (0..core.slots.len() as u32)
            .filter(|&i| core.slots[i as usize].state == SlotState::Open)
            .collect();
        core
    }

    pub fn is_complete(&self) -> bool {
        self.units_committed as usize == self.slots.len()
    }

    /// The worker id for a registration. A worker that sends an `instance` gets an id
    /// derived from its name and instance, so a process that reconnects, to this
    /// coordinator or to a restarted one, keeps its id and its rows name it
    /// consistently. Without one (older workers), every registration gets a new id.
    pub fn register(&mut self, name: &str, version: &str, instance: &str, peer: &str) -> String {
        let clean = |text: &str, extra: bool| -> String {
            text.chars()
                .filter(|c| c.is_ascii_alphanumeric() || (extra && matches!(c, '-' | '_' | '.')))
                .take(64)
                .collect()
        };
        let name = clean(name, true);
        let instance = clean(instance, false);
        let id = if instance.is_empty() {
            let id = format!("w{}-{}", self.next_worker, name);
            self.next_worker += 1;
            id
        } else {
            format!("{name}-{instance}")
        };
        let version: String = version.chars().take(64).collect();
        let now = Instant::now();
        match self.workers.get_mut(&id) {
            Some(rec) => {
                // The same process again, after a reconnect: its leases stay until its
                // next Lease call, which resumes or ends them.
                rec.last_seen = now;
                rec.told_complete = false;
                rec.peer = peer.to_owned();
                if rec.info.version != version {
                    rec.info = Arc::new(WorkerInfo {
                        id: id.clone(),
                        version,
                    });
                }
            }
            None => {
                self.workers.insert(
                    id.clone(),
                    WorkerRec {
                        info: Arc::new(WorkerInfo {
                            id: id.clone(),
                            version,
                        }),
                        last_seen: now,
                        told_complete: false,
                        peer: peer.to_owned(),
                        active: Vec::new(),
                    },
                );
            }
        }
        id
    }

    fn worker_mut(&mut self, worker: &str) -> Result<&mut WorkerRec, CoreError> {
        let rec = self
            .workers
            .get_mut(worker)
            .ok_or_else(|| CoreError::UnknownWorker(worker.to_owned()))?;
        rec.last_seen = Instant::now();
        Ok(rec)
    }

    /// Ends a lease's claim on its unit; the unit becomes available again if no one
    /// else works on it.
    fn deactivate(&mut self, lease: u64) {
        let Some(rec) = self.leases.get_mut(&lease) else {
            return;
        };
        if !rec.active {
            return;
        }
        rec.active = false;
        let slot_index = rec.slot;
        let worker = rec.worker.clone();
        if let Some(w) = self.workers.get_mut(&worker) {
            w.active.retain(|&l| l != lease);
        }
        let slot = &mut self.slots[slot_index as usize];
        slot.active = slot.active.saturating_sub(1);
        if slot.active == 0 {
            self.leased.remove(&slot_index);
            if slot.state == SlotState::Open {
                self.available.insert(slot_index);
                // A gang none of whose members holds the game any more is over.
                self.dissolve(slot_index, "no member holds the game");
            }
        }
    }

    /// Lapses leases not renewed in time.
    pub fn expire(&mut self, now: Instant) {
        let expired: Vec<u64> = self
            .leases
            .iter()
            .filter(|(_, l)| l.active && l.expires <= now)
            .map(|(&id, _)| id)
            .collect();
        for lease in expired {
            tracing::info!(lease, "lease expired, the unit will be given out again");
            self.metrics.lease_expired();
            self.dissolve_of(lease, "a member's lease expired");
            self.deactivate(lease);
        }
        self.expire_gangs(now);
    }

    fn grant(&mut self, slot_index: u32, worker: &str, speculative: bool) -> Lease {
        let now = Instant::now();
        let id = self.next_lease;
        self.next_lease += 1;
        self.leases.insert(
            id,
            LeaseRec {
                slot: slot_index,
                worker: worker.to_owned(),
                expires: now + self.timing.lease_ttl,
                active: true,
                expansions: 0,
                progressed: now,
                gang: None,
                revoked: false,
            },
        );
        if let Some(w) = self.workers.get_mut(worker) {
            w.active.push(id);
        }
        self.available.remove(&slot_index);
        self.leased.insert(slot_index);
        let slot = &mut self.slots[slot_index as usize];
        slot.active += 1;
        slot.leases.push(id);
        slot.first_leased.get_or_insert(now);
        Lease {
            lease_id: id.to_string(),
            unit: Some(WireUnit {
                unit_id: slot.id.clone(),
                experiment: slot.unit.experiment,
                config: slot.unit.config,
                n: slot.unit.n,
                start: slot.unit.start,
                end: slot.unit.end,
                point: slot.unit.point,
            }),
            speculative,
            gang: None,
        }
    }

    /// The next lease for `worker`. `resume` names the unit it was working on before a
    /// reconnect; `gang_failed` says the gang of its last lease broke.
    pub fn lease(
        &mut self,
        worker: &str,
        resume: &str,
        gang_failed: bool,
    ) -> Result<LeaseOutcome, CoreError> {
        if self.draining {
            return Err(CoreError::ShuttingDown);
        }
        self.worker_mut(worker)?;
        self.expire(Instant::now());
        // A worker asks for work when it has finished or dropped its unit.
        let old: Vec<u64> = self
            .workers
            .get(worker)
            .map(|w| w.active.clone())
            .unwrap_or_default();
        for lease in old {
            if gang_failed {
                self.dissolve_of(lease, "a member's gang broke");
            }
            self.deactivate(lease);
        }
        if self.is_complete() {
            if let Some(w) = self.workers.get_mut(worker) {
                w.told_complete = true;
            }
            return Ok(LeaseOutcome::Complete);
        }
        // A gang's game is never resumed alone: its gang forms again.
        if let Some(&slot) = self.by_id.get(resume)
            && self.slots[slot as usize].state == SlotState::Open
            && self.slots[slot as usize].gang.is_none()
        {
            self.leave_waiting(worker, None);
            return Ok(LeaseOutcome::Lease(self.grant(slot, worker, false)));
        }
        let peer = self.workers.get(worker).is_some_and(|w| !w.peer.is_empty());
        if peer && let Some(outcome) = self.gang_lease(worker) {
            return Ok(outcome);
        }
        let alone = self
            .available
            .iter()
            .copied()
            .find(|&s| self.slots[s as usize].gang.is_none());
        if let Some(slot) = alone {
            self.leave_waiting(worker, None);
            return Ok(LeaseOutcome::Lease(self.grant(slot, worker, false)));
        }
        if let Some(slot) = self.straggler(worker) {
            tracing::info!(unit = %self.slots[slot as usize].id, worker, "straggler: leasing a speculative copy");
            return Ok(LeaseOutcome::Lease(self.grant(slot, worker, true)));
        }
        Ok(LeaseOutcome::Wait(200))
    }

    /// The open unit that has been leased the longest, if that is longer than the
    /// straggler threshold and it has no second copy yet.
    fn straggler(&self, worker: &str) -> Option<u32> {
        let mut durations = self.unit_seconds.clone();
        durations.sort_by(f64::total_cmp);
        let median = durations
            .get(durations.len() / 2)
            .copied()
            .map_or(Duration::ZERO, Duration::from_secs_f64);
        let threshold = self.timing.speculate_after.max(median);
        let stall = threshold.max(self.timing.heartbeat * 3);
        let now = Instant::now();
        self.leased
            .iter()
            .filter_map(|&i| {
                let slot = &self.slots[i as usize];
                let started = slot.first_leased?;
                let mine = slot.leases.iter().any(|l| {
                    self.leases
                        .get(l)
                        .is_some_and(|r| r.active && r.worker == worker)
                });
                // A unit whose worker reported growing expansions within a few
                // heartbeats is slow, not stuck: a second copy would only repeat the same
                // deterministic search.
                let moving = slot.leases.iter().any(|l| {
                    self.leases.get(l).is_some_and(|r| {
                        r.active && r.expansions > 0 && now.duration_since(r.progressed) < stall
                    })
                });
                (slot.state == SlotState::Open
                    && slot.gang.is_none()
                    && slot.active == 1
                    && !mine
                    && !moving
                    && now.duration_since(started) >= threshold)
                    .then_some((started, i))
            })
            .min()
            .map(|(_, i)| i)
    }

    pub fn heartbeat(
        &mut self,
        worker: &str,
        leases: &[String],
        progress: &[LeaseProgress],
    ) -> Result<HeartbeatResponse, CoreError> {
        self.worker_mut(worker)?;
        let now = Instant::now();
        let mut answer = HeartbeatResponse {
            sweep_complete: self.is_complete(),
            ..HeartbeatResponse::default()
        };
        for text in leases {
            let Some(rec) = text
                .parse::<u64>()
                .ok()
                .and_then(|id| self.leases.get(&id).map(|r| (id, r)))
            else {
                answer.unknown_lease_ids.push(text.clone());
                continue;
            };
            let (id, rec) = rec;
            if rec.worker != worker {
                answer.unknown_lease_ids.push(text.clone());
                continue;
            }
            let slot = rec.slot;
            if self.slots[slot as usize].state != SlotState::Open || rec.revoked {
                answer.dropped_lease_ids.push(text.clone());
                continue;
            }
            self.renew(id, now);
        }
        for p in progress {
            let Some(rec) = p
                .lease_id
                .parse::<u64>()
                .ok()
                .and_then(|id| self.leases.get_mut(&id))
            else {
                continue;
            };
            if rec.worker != worker {
                continue;
            }
            if p.expansions > rec.expansions {
                rec.expansions = p.expansions;
                rec.progressed = now;
            }
        }
        Ok(answer)
    }

    /// Extends a lease, and takes it up again if it had lapsed: the worker is evidently
    /// still at work.
    fn renew(&mut self, id: u64, now: Instant) {
        let ttl = self.timing.lease_ttl;
        let Some(rec) = self.leases.get_mut(&id) else {
            return;
        };
        rec.expires = now + ttl;
        let open = self.slots[rec.slot as usize].state == SlotState::Open;
        if rec.active || !open || rec.revoked {
            return;
        }
        rec.active = true;
        let slot_index = rec.slot;
        let worker = rec.worker.clone();
        if let Some(w) = self.workers.get_mut(&worker) {
            w.active.push(id);
        }
        let slot = &mut self.slots[slot_index as usize];
        slot.active += 1;
        self.available.remove(&slot_index);
        self.leased.insert(slot_index);
    }

    /// The unit's part file is durable and journaled.
    pub fn mark_committed(&mut self, slot_index: u32, entry: &CommitEntry) {
        let slot = &mut self.slots[slot_index as usize];
        if slot.state == SlotState::Committed {
            return;
        }
        if slot.state == SlotState::Open {
            self.games_pending = self.games_pending.saturating_sub(slot.received);
        } else {
            self.games_pending = self.games_pending.saturating_sub(entry.games);
        }
        if let Some(start) = slot.first_leased {
            self.unit_seconds.push(start.elapsed().as_secs_f64());
        }
        let unit = slot.unit;
        self.close(slot_index);
        self.games_committed += entry.games;
        let series = self
            .series
            .entry((unit.experiment, unit.point, unit.config))
            .or_default();
        series.committed += entry.games;
        series.solvable += entry.solvable;
        series.expansions += entry.expansions;
    }

    /// Marks a slot committed: its leases stop counting and it leaves the queues for good.
    /// The lease records stay, so that late batches of a speculative copy are answered
    /// "committed" rather than "unknown lease".
    fn close(&mut self, slot_index: u32) {
        let slot = &mut self.slots[slot_index as usize];
        slot.state = SlotState::Committed;
        slot.results = Vec::new();
        let leases = slot.leases.clone();
        for lease in leases {
            self.deactivate(lease);
        }
        self.available.remove(&slot_index);
        self.leased.remove(&slot_index);
        self.units_committed += 1;
    }

    /// A unit whose part could not be written goes back to the queue; its results are
    /// lost and will be produced again.
    pub fn write_failed(&mut self, slot_index: u32, games: u64) {
        let slot = &mut self.slots[slot_index as usize];
        if slot.state == SlotState::Writing {
            slot.state = SlotState::Open;
            slot.received = 0;
            self.games_pending = self.games_pending.saturating_sub(games);
            if slot.active == 0 {
                self.available.insert(slot_index);
            }
        }
    }

    /// Whether every worker seen recently has been told that the sweep is complete.
    pub fn workers_informed(&self, recent: Duration) -> bool {
        self.workers
            .values()
            .all(|w| w.told_complete || w.last_seen.elapsed() > recent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn core() -> Core {
        let text = "name = \"t\"\nseed = 1\n\n[[experiment]]\nname = \"e\"\nsizes = [4]\ngames = 20\nunit_games = 10\n";
        let sweep = Sweep::parse(text, "test").expect("sweep parses");
        Core::new(Arc::new(sweep), Timing::default(), &[])
    }

    #[test]
    fn a_worker_keeps_its_id_when_it_registers_again() {
        let mut core = core();
        let first = core.register("host-42", "0.1.0", "1a2b3c4d", "");
        assert_eq!(first, "host-42-1a2b3c4d");
        assert_eq!(core.register("host-42", "0.1.0", "1a2b3c4d", ""), first);
        // Another process with the same name is another worker.
        assert_ne!(core.register("host-42", "0.1.0", "99999999", ""), first);
        // Older workers without an instance get a fresh id each time.
        let old = core.register("old", "0.1.0", "", "");
        assert_ne!(core.register("old", "0.1.0", "", ""), old);
    }
}
