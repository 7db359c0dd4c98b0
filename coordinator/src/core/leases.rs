//! Leases: granting a unit to a worker, renewing it with heartbeats, letting it lapse,
//! and choosing which unit a worker asking for work gets.
//!
//! A worker asking for work gets, in this order: the unit it held before a reconnect
//! (`resume`), a place in a gang when it can take part in one and the first open game is
//! a gang's ([`Core::gang_lease`]), the first open unit searched alone, or a speculative
//! copy of a straggler; else it is told to wait.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use hammer_proto::v1::{Lease, LeaseProgress, Unit as WireUnit};

use super::gang::Member;
use super::{Core, LeaseOutcome, SlotState};

/// Where a lease is in its life. Only an active lease counts as working on its unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LeaseState {
    /// Its worker works on the unit; heartbeats and batches renew it.
    Active,
    /// Not renewed in time. A renewal revives it: a heartbeat or a batch under it shows
    /// that the worker is still at work, and only the network paused.
    Lapsed,
    /// Let go: its worker asked for other work, or its unit was completed. That is the
    /// worker's own word, so a renewal (a heartbeat or batch still in flight) does not
    /// revive it; the results it carries are still taken.
    Released,
    /// Its gang was dissolved or its sweep cancelled: never revived, and heartbeats tell
    /// the worker to drop it.
    Revoked,
}

/// One lease given out.
pub(super) struct LeaseRec {
    pub slot: u32,
    pub worker: String,
    pub expires: Instant,
    pub state: LeaseState,
    /// Expansions the worker reported for the unit so far (heartbeats), and when that
    /// number last grew (when the lease was granted, before any report).
    pub expansions: u64,
    pub progressed: Instant,
    /// For a member of a gang: its place in it.
    pub gang: Option<Member>,
}

/// What a heartbeat found of the leases it named, by the core's ids.
#[derive(Debug, Default)]
pub(crate) struct Renewed {
    /// Leases of units no longer open, or revoked: the worker drops them.
    pub dropped: Vec<String>,
    /// Leases this sweep does not know, or not as the worker's.
    pub unknown: Vec<String>,
}

/// Every lease given out and not yet forgotten, by id.
#[derive(Default)]
pub(super) struct Leases {
    by_id: HashMap<u64, LeaseRec>,
    /// The active leases of each worker; a worker works on one unit at a time.
    held: HashMap<String, Vec<u64>>,
    next: u64,
}

impl Leases {
    /// Keeps `rec` under a new id.
    fn add(&mut self, rec: LeaseRec) -> u64 {
        self.next += 1;
        self.by_id.insert(self.next, rec);
        self.next
    }

    pub fn get(&self, id: &u64) -> Option<&LeaseRec> {
        self.by_id.get(id)
    }

    pub fn get_mut(&mut self, id: &u64) -> Option<&mut LeaseRec> {
        self.by_id.get_mut(id)
    }

    /// The active leases of `worker`.
    pub fn held(&self, worker: &str) -> &[u64] {
        self.held.get(worker).map_or(&[], Vec::as_slice)
    }

    /// Counts lease `id` among `worker`'s active ones.
    fn hold(&mut self, worker: &str, id: u64) {
        self.held.entry(worker.to_owned()).or_default().push(id);
    }

    /// No longer counts lease `id` among `worker`'s active ones.
    fn let_go(&mut self, worker: &str, id: u64) {
        if let Some(held) = self.held.get_mut(worker) {
            held.retain(|&l| l != id);
        }
    }

    /// Whether `id` is active and `worker`'s.
    fn held_by(&self, id: &u64, worker: &str) -> bool {
        self.get(id)
            .is_some_and(|r| r.state == LeaseState::Active && r.worker == worker)
    }
}

impl Core {
    /// The first step of a lease request: lapsed leases end, and the worker's own
    /// leases end (it asks because it finished or dropped its unit), with its gang's when
    /// `gang_failed` says that broke.
    pub fn begin_lease(&mut self, worker: &str, gang_failed: bool) {
        self.expire(Instant::now());
        self.release_all(worker, gang_failed);
    }

    /// A new unit for `worker`: its seat in a gang, or the first open unit it searches
    /// alone. `None` when the sweep has none. `peer` is where other workers reach it for
    /// gangs (empty: it takes part in none).
    pub fn fresh(&mut self, worker: &str, peer: &str) -> Option<LeaseOutcome> {
        self.gang_lease(worker, peer).or_else(|| self.alone(worker))
    }

    /// Whether a formed gang of this sweep holds a seat for `worker`.
    pub fn has_seat(&self, worker: &str) -> bool {
        self.gangs.seats.contains_key(worker)
    }

    /// Takes `worker` off any gang's waiting list, before it is offered work elsewhere.
    pub fn forget_waiting(&mut self, worker: &str) {
        self.leave_waiting(worker, None);
    }

    /// Revokes every lease (a cancelled sweep): heartbeats tell the workers to drop
    /// them, and their results are refused.
    pub fn revoke_all(&mut self) {
        let active: Vec<u64> = self
            .leases
            .by_id
            .iter()
            .filter(|(_, l)| l.state == LeaseState::Active)
            .map(|(&id, _)| id)
            .collect();
        for id in active {
            self.deactivate(id, LeaseState::Revoked);
        }
        let waiting: Vec<String> = self.gangs.seats.keys().cloned().collect();
        for worker in waiting {
            self.leave_waiting(&worker, None);
        }
    }

    /// Leases held now.
    pub fn active_leases(&self) -> usize {
        self.leases
            .by_id
            .values()
            .filter(|l| l.state == LeaseState::Active)
            .count()
    }

    /// The threads of the workers holding this sweep's active leases, by `threads` of a
    /// worker: what the sweep uses of the cluster now, for fair share.
    pub fn active_threads(&self, threads: impl Fn(&str) -> u32) -> u64 {
        self.leases
            .by_id
            .values()
            .filter(|l| l.state == LeaseState::Active)
            .map(|l| u64::from(threads(&l.worker)))
            .sum()
    }

    /// A worker asks for work when it has finished or dropped its unit: its leases end,
    /// and with them its gang's when that broke.
    fn release_all(&mut self, worker: &str, gang_failed: bool) {
        let old: Vec<u64> = self.leases.held(worker).to_vec();
        for lease in old {
            if gang_failed {
                self.dissolve_of(lease, "a member's gang broke");
            }
            self.deactivate(lease, LeaseState::Released);
        }
    }

    /// The unit `worker` held before a reconnect, if it is still open. A gang's game is
    /// never resumed alone: its gang forms again.
    pub fn resumed(&mut self, worker: &str, resume: &str) -> Option<LeaseOutcome> {
        let slot = *self.by_id.get(resume)?;
        if self.slots[slot as usize].state != SlotState::Open || self.gangs.has(slot) {
            return None;
        }
        self.leave_waiting(worker, None);
        Some(LeaseOutcome::Lease(self.grant(slot, worker, false).1))
    }

    /// The first open unit that one worker searches alone.
    fn alone(&mut self, worker: &str) -> Option<LeaseOutcome> {
        let slot = self
            .available
            .iter()
            .copied()
            .find(|&s| !self.gangs.has(s))?;
        self.leave_waiting(worker, None);
        Some(LeaseOutcome::Lease(self.grant(slot, worker, false).1))
    }

    /// A second copy of a straggler, for an idle worker.
    pub fn speculative(&mut self, worker: &str) -> Option<LeaseOutcome> {
        let slot = self.straggler(worker)?;
        tracing::info!(unit = %self.slots[slot as usize].id, worker, "straggler: leasing a speculative copy");
        Some(LeaseOutcome::Lease(self.grant(slot, worker, true).1))
    }

    /// Leases `slot_index`'s unit to `worker`; returns the lease's id with the lease.
    pub(super) fn grant(
        &mut self,
        slot_index: u32,
        worker: &str,
        speculative: bool,
    ) -> (u64, Lease) {
        let now = Instant::now();
        let id = self.leases.add(LeaseRec {
            slot: slot_index,
            worker: worker.to_owned(),
            expires: now + self.timing.lease_ttl,
            state: LeaseState::Active,
            expansions: 0,
            progressed: now,
            gang: None,
        });
        self.leases.hold(worker, id);
        self.available.remove(&slot_index);
        self.leased.insert(slot_index);
        let slot = &mut self.slots[slot_index as usize];
        slot.active += 1;
        slot.leases.push(id);
        slot.first_leased.get_or_insert(now);
        let lease = Lease {
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
            sweep_digest: self.sweep.digest.clone(),
            sweep_name: self.sweep.name.clone(),
        };
        (id, lease)
    }

    /// The open unit that has been leased the longest, if that is longer than the
    /// straggler threshold and it has no second copy yet.
    fn straggler(&self, worker: &str) -> Option<u32> {
        let median = self
            .median_unit_seconds()
            .map_or(Duration::ZERO, Duration::from_secs_f64);
        let threshold = self.timing.speculate_after.max(median);
        let stall = threshold.max(self.timing.heartbeat * 3);
        let now = Instant::now();
        self.leased
            .iter()
            .filter_map(|&i| {
                let slot = &self.slots[i as usize];
                let started = slot.first_leased?;
                let mine = slot.leases.iter().any(|l| self.leases.held_by(l, worker));
                // A unit whose worker reported growing expansions within a few
                // heartbeats is slow, not stuck: a second copy would only repeat the same
                // deterministic search.
                let moving = slot.leases.iter().any(|l| {
                    self.leases.get(l).is_some_and(|r| {
                        r.state == LeaseState::Active
                            && r.expansions > 0
                            && now.duration_since(r.progressed) < stall
                    })
                });
                (slot.state == SlotState::Open
                    && !self.gangs.has(i)
                    && slot.active == 1
                    && !mine
                    && !moving
                    && now.duration_since(started) >= threshold)
                    .then_some((started, i))
            })
            .min()
            .map(|(_, i)| i)
    }

    /// Lets go of a lease (its unit is complete, or its worker asked for other work).
    pub(super) fn release(&mut self, lease: u64) {
        self.deactivate(lease, LeaseState::Released);
    }

    /// Revokes a lease, active or not: it is never revived, and heartbeats tell its
    /// worker to drop it.
    pub(super) fn revoke(&mut self, lease: u64) {
        self.deactivate(lease, LeaseState::Revoked);
    }

    /// Ends an active lease's claim on its unit, leaving it `to`; the unit becomes
    /// available again if no one else works on it. A lease that is no longer active
    /// keeps its state, except that any lease can be revoked.
    fn deactivate(&mut self, lease: u64, to: LeaseState) {
        let Some(rec) = self.leases.get_mut(&lease) else {
            return;
        };
        let was = rec.state;
        if was == LeaseState::Active || to == LeaseState::Revoked {
            rec.state = to;
        }
        if was != LeaseState::Active {
            return;
        }
        let slot_index = rec.slot;
        let worker = rec.worker.clone();
        self.leases.let_go(&worker, lease);
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
            .by_id
            .iter()
            .filter(|(_, l)| l.state == LeaseState::Active && l.expires <= now)
            .map(|(&id, _)| id)
            .collect();
        for lease in expired {
            tracing::info!(lease, "lease expired, the unit will be given out again");
            self.metrics.lease_expired();
            self.dissolve_of(lease, "a member's lease expired");
            self.deactivate(lease, LeaseState::Lapsed);
        }
        self.expire_gangs(now);
    }

    /// A heartbeat of `worker`: renews the leases it names (by the core's ids) that are
    /// its own and open, and keeps the expansions it reports.
    pub fn heartbeat(
        &mut self,
        worker: &str,
        leases: &[String],
        progress: &[LeaseProgress],
    ) -> Renewed {
        let now = Instant::now();
        let mut answer = Renewed::default();
        for text in leases {
            let Some(rec) = text
                .parse::<u64>()
                .ok()
                .and_then(|id| self.leases.get(&id).map(|r| (id, r)))
            else {
                answer.unknown.push(text.clone());
                continue;
            };
            let (id, rec) = rec;
            if rec.worker != worker {
                answer.unknown.push(text.clone());
                continue;
            }
            let slot = rec.slot;
            if self.slots[slot as usize].state != SlotState::Open
                || rec.state == LeaseState::Revoked
            {
                answer.dropped.push(text.clone());
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
        answer
    }

    /// Extends a lease, and takes it up again if it had lapsed (see [`LeaseState`] for
    /// why a lapsed lease alone is revived): the worker is evidently still at work.
    pub(super) fn renew(&mut self, id: u64, now: Instant) {
        let ttl = self.timing.lease_ttl;
        let Some(rec) = self.leases.get_mut(&id) else {
            return;
        };
        rec.expires = now + ttl;
        let open = self.slots[rec.slot as usize].state == SlotState::Open;
        if rec.state != LeaseState::Lapsed || !open {
            return;
        }
        rec.state = LeaseState::Active;
        let slot_index = rec.slot;
        let worker = rec.worker.clone();
        self.leases.hold(&worker, id);
        let slot = &mut self.slots[slot_index as usize];
        slot.active += 1;
        self.available.remove(&slot_index);
        self.leased.insert(slot_index);
    }
}
