//! The coordinator's bookkeeping: which units are open, leased, being written or
//! committed, the results received so far, and the leases.
//!
//! By job: this module keeps the units and their states; `leases.rs` grants, renews and
//! lapses leases and picks what a worker gets; `gang.rs` forms and dissolves gangs;
//! `ingest.rs` takes result batches; `status.rs` keeps the tallies that `hammer status`
//! and the metrics show.
//!
//! A pure scheduler of one sweep: it knows workers only by the ids its leases name, and
//! takes what else it needs of them (a peer address, a worker's threads, who produced a
//! batch) as arguments from the queue, which alone keeps the workers, the draining and
//! the completion of a coordinator of one sweep.
//!
//! Everything here is synchronous and fast (no I/O), so it lives behind one mutex that
//! the gRPC handlers hold only for the duration of one call. Writing part files happens
//! on the writer thread, outside the lock.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hammer_proto::v1::Lease;
use hammer_sweep::{Sweep, Unit};

use crate::counters::Counters;
use crate::state::CommitEntry;
use crate::writer::job::Stored;

mod error;
mod gang;
mod ingest;
mod leases;
mod status;

use gang::Gangs;
use leases::{LeaseRec, Leases};
use status::Tally;

pub(crate) use error::CoreError;

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
}

pub(crate) struct Core {
    pub sweep: Arc<Sweep>,
    pub timing: Timing,
    /// Every unit of the sweep, in dispatch order, and its index by id.
    slots: Vec<Slot>,
    by_id: HashMap<String, u32>,
    /// Open units without an active lease, in dispatch order.
    available: BTreeSet<u32>,
    /// Open units with at least one active lease.
    leased: BTreeSet<u32>,
    leases: Leases,
    /// The games of gang experiments: who waits to search each, and the gang that does.
    gangs: Gangs,
    tally: Tally,
    /// Counters for `--metrics`; atomics, shared with the service and the writers.
    pub metrics: Arc<Counters>,
}

impl Core {
    pub fn new(
        sweep: Arc<Sweep>,
        timing: Timing,
        committed: &[CommitEntry],
        metrics: Arc<Counters>,
    ) -> Core {
        let units = sweep.units();
        let mut tally = Tally::default();
        let mut gangs = Gangs::default();
        let mut slots = Vec::with_capacity(units.len());
        let mut by_id = HashMap::with_capacity(units.len());
        for (i, unit) in units.iter().enumerate() {
            let id = unit.id();
            by_id.insert(id.clone(), i as u32);
            tally.add_games(unit);
            if let Some(size) = sweep.experiments[unit.experiment as usize].gang {
                gangs.add_game(i as u32, size);
            }
            slots.push(Slot {
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
            leases: Leases::default(),
            gangs,
            tally,
            metrics,
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
        self.tally.units_committed as usize == self.slots.len()
    }

    /// Whether no unit is leased or being written: a stopped sweep is then at rest.
    pub fn at_rest(&self) -> bool {
        self.leased.is_empty()
            && !self
                .slots
                .iter()
                .any(|slot| slot.state == SlotState::Writing)
    }

    /// The median seconds a committed unit took from its first lease, if any was timed.
    pub fn median_unit_seconds(&self) -> Option<f64> {
        self.tally.median_unit_seconds()
    }

    /// Whether an open unit waits without a lease.
    pub fn has_available(&self) -> bool {
        !self.available.is_empty()
    }

    /// The unit that lease `lease_id` (as sent on the wire) covers, when it is known.
    pub fn unit_of_lease(&self, lease_id: &str) -> Option<Unit> {
        let rec = self.leases.get(&lease_id.parse().ok()?)?;
        Some(self.slots[rec.slot as usize].unit)
    }

    /// The unit's part file is durable and journaled.
    pub fn mark_committed(&mut self, slot_index: u32, entry: &CommitEntry) {
        let slot = &mut self.slots[slot_index as usize];
        if slot.state == SlotState::Committed {
            return;
        }
        let pending = match slot.state {
            SlotState::Open => slot.received,
            _ => entry.games,
        };
        let took = slot.first_leased.map(|start| start.elapsed());
        let unit = slot.unit;
        self.close(slot_index);
        self.tally.committed(&unit, entry, pending, took);
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
            self.release(lease);
        }
        self.available.remove(&slot_index);
        self.leased.remove(&slot_index);
        self.tally.units_committed += 1;
    }

    /// A unit whose part could not be written goes back to the queue; its results are
    /// lost and will be produced again.
    pub fn write_failed(&mut self, slot_index: u32, games: u64) {
        let slot = &mut self.slots[slot_index as usize];
        if slot.state == SlotState::Writing {
            slot.state = SlotState::Open;
            slot.received = 0;
            self.tally.games_pending = self.tally.games_pending.saturating_sub(games);
            if slot.active == 0 {
                self.available.insert(slot_index);
            }
        }
    }
}
