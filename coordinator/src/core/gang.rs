//! Gang leases: a game of a `gang = K` experiment is leased to K workers
//! at once, which search it together, each owning a share of its states.
//!
//! A gang forms from the workers that ask for work while the game is the first one
//! available: each that can take part (it registered a peer address) joins the game's
//! waiting list and is told to wait; the K-th to join completes the gang, and each
//! member gets its lease, with its rank and every member's address, at its next ask.
//! Member 0 leads: it alone submits the game's result.
//!
//! A gang lives or dies whole. One member's lease lapsing, a member reporting that its
//! gang broke (`gang_failed`), or a member not fetching its lease within a lease's time
//! dissolves it: every member's lease is revoked (heartbeats answer "dropped", and a
//! revoked lease is never renewed) and the game is available again, to a new gang with
//! a new name, so that no member of the old gang can join it. A member that finishes its
//! part normally and asks for more work only lets go of its own lease; the game stays
//! leased while the leader's lease is active.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use hammer_proto::v1::GangLease;

use super::{Core, LeaseOutcome, SlotState};

/// A worker that stopped asking this long ago leaves a game's waiting list.
const STALE_ASK: Duration = Duration::from_secs(3);

/// The games of gang experiments, and the workers waiting for or fetching a place in a
/// gang.
#[derive(Default)]
pub(super) struct Gangs {
    /// By the slot of the game.
    games: HashMap<u32, GangSlot>,
    /// Workers on a gang's waiting list, or members of a formed gang that have not
    /// fetched their lease yet, by the slot of the game.
    pub seats: HashMap<String, u32>,
}

impl Gangs {
    /// `slot`'s game is searched by gangs of `size`.
    pub fn add_game(&mut self, slot: u32, size: u32) {
        self.games.insert(slot, GangSlot::new(size));
    }

    /// Whether `slot`'s game is a gang's.
    pub fn has(&self, slot: u32) -> bool {
        self.games.contains_key(&slot)
    }
}

/// A game searched by a gang: who waits to search it, and the gang searching it.
#[derive(Debug)]
struct GangSlot {
    /// Members per gang.
    pub size: u32,
    /// Gangs formed for this game so far; names the next one.
    pub formed: u32,
    /// Workers waiting to form the next gang.
    pub waiting: Vec<Waiting>,
    /// The gang leased the game now, if any.
    pub current: Option<Gang>,
}

/// A worker on a game's waiting list.
#[derive(Debug)]
struct Waiting {
    worker: String,
    /// Where the other members reach it, as of its last ask.
    peer: String,
    /// When it last asked.
    asked: Instant,
}

/// A gang that holds a game.
#[derive(Debug)]
struct Gang {
    /// Names the gang for its members: the unit id and the gang's number.
    pub name: String,
    /// Worker ids in rank order, with each one's peer address.
    pub members: Vec<(String, String)>,
    /// Each member's lease, once it has fetched it.
    pub leases: Vec<Option<u64>>,
    pub formed_at: Instant,
}

impl GangSlot {
    fn new(size: u32) -> GangSlot {
        GangSlot {
            size,
            formed: 0,
            waiting: Vec::new(),
            current: None,
        }
    }
}

/// A lease's place in a gang, for status and for dissolving.
#[derive(Clone, Copy, Debug)]
pub(super) struct Member {
    pub rank: u32,
    pub size: u32,
}

impl Core {
    /// A lease for a worker that takes part in gangs, reached at `peer`: the lease its
    /// formed gang holds for it, or its place in the waiting list of the first available
    /// game (`None` when that game is not a gang's, or the worker registered no peer
    /// address).
    pub(super) fn gang_lease(&mut self, worker: &str, peer: &str) -> Option<LeaseOutcome> {
        if peer.is_empty() {
            return None;
        }
        if let Some(outcome) = self.fetch_member_lease(worker) {
            return Some(outcome);
        }
        let slot = *self.available.iter().next()?;
        if !self.gangs.has(slot) {
            return None;
        }
        self.leave_waiting(worker, Some(slot));
        self.gangs.seats.insert(worker.to_owned(), slot);
        let now = Instant::now();
        let unit = self.slots[slot as usize].id.clone();
        let gang = self.gangs.games.get_mut(&slot)?;
        let (fresh, stale): (Vec<_>, Vec<_>) = std::mem::take(&mut gang.waiting)
            .into_iter()
            .partition(|w| now.duration_since(w.asked) < STALE_ASK);
        gang.waiting = fresh;
        match gang.waiting.iter_mut().find(|w| w.worker == worker) {
            Some(waiting) => {
                waiting.peer = peer.to_owned();
                waiting.asked = now;
            }
            None => {
                gang.waiting.push(Waiting {
                    worker: worker.to_owned(),
                    peer: peer.to_owned(),
                    asked: now,
                });
                tracing::info!(
                    unit = %unit,
                    worker,
                    waiting = gang.waiting.len(),
                    members = gang.size,
                    "waiting for a gang to form (workers with --peer-listen)"
                );
            }
        }
        let formed = gang.waiting.len() >= gang.size as usize;
        let members: Vec<(String, String)> = if formed {
            gang.waiting.drain(..).map(|w| (w.worker, w.peer)).collect()
        } else {
            Vec::new()
        };
        for gone in stale {
            self.gangs.seats.remove(&gone.worker);
        }
        if !formed {
            return Some(LeaseOutcome::Wait(200));
        }
        let gang = self.gangs.games.get_mut(&slot)?;
        let name = format!("{unit}-gang{}", gang.formed);
        gang.formed += 1;
        tracing::info!(gang = %name, members = ?members.iter().map(|m| &m.0).collect::<Vec<_>>(), "gang formed");
        gang.current = Some(Gang {
            name,
            leases: vec![None; members.len()],
            members,
            formed_at: now,
        });
        self.fetch_member_lease(worker)
    }

    /// The lease of `worker` in a gang formed without it having fetched it yet.
    fn fetch_member_lease(&mut self, worker: &str) -> Option<LeaseOutcome> {
        let slot = *self.gangs.seats.get(worker)?;
        let rank = {
            let gang = self.gangs.games.get(&slot)?.current.as_ref()?;
            let rank = gang.members.iter().position(|(w, _)| w == worker)?;
            gang.leases[rank].is_none().then_some(rank)?
        };
        self.gangs.seats.remove(worker);
        let (id, mut lease) = self.grant(slot, worker, false);
        let gang_slot = self.gangs.games.get_mut(&slot)?;
        let size = gang_slot.size;
        let gang = gang_slot.current.as_mut()?;
        gang.leases[rank] = Some(id);
        lease.gang = Some(GangLease {
            rank: rank as u32,
            peers: gang.members.iter().map(|(_, p)| p.clone()).collect(),
            game: gang.name.clone(),
        });
        if let Some(rec) = self.leases.get_mut(&id) {
            rec.gang = Some(Member {
                rank: rank as u32,
                size,
            });
        }
        Some(LeaseOutcome::Lease(lease))
    }

    /// Takes `worker` off the waiting list it is on, unless that is `keep`'s.
    pub(super) fn leave_waiting(&mut self, worker: &str, keep: Option<u32>) {
        let Some(&slot) = self.gangs.seats.get(worker) else {
            return;
        };
        if Some(slot) == keep {
            return;
        }
        if let Some(gang) = self.gangs.games.get_mut(&slot)
            && gang.waiting.iter().any(|w| w.worker == worker)
        {
            gang.waiting.retain(|w| w.worker != worker);
            self.gangs.seats.remove(worker);
        }
    }

    /// Ends the gang holding `slot`'s game: every member's lease is revoked and the game
    /// is available again, to a new gang.
    pub(super) fn dissolve(&mut self, slot: u32, why: &str) {
        let Some(gang) = self
            .gangs
            .games
            .get_mut(&slot)
            .and_then(|g| g.current.take())
        else {
            return;
        };
        tracing::info!(gang = %gang.name, why, "gang dissolved; the game will be leased to a new gang");
        for ((worker, _), lease) in gang.members.iter().zip(&gang.leases) {
            if lease.is_none() {
                self.gangs.seats.remove(worker);
            }
        }
        for lease in gang.leases.into_iter().flatten() {
            self.revoke(lease);
        }
        let slot_rec = &self.slots[slot as usize];
        if slot_rec.state == SlotState::Open && slot_rec.active == 0 {
            self.available.insert(slot);
        }
    }

    /// Dissolves the gangs that hold `lease`'s game, when the lease is a gang's.
    pub(super) fn dissolve_of(&mut self, lease: u64, why: &str) {
        let Some(rec) = self.leases.get(&lease) else {
            return;
        };
        if rec.gang.is_none() {
            return;
        }
        let slot = rec.slot;
        let current = self
            .gangs
            .games
            .get(&slot)
            .and_then(|g| g.current.as_ref())
            .is_some_and(|g| g.leases.contains(&Some(lease)));
        if current {
            self.dissolve(slot, why);
        }
    }

    /// Dissolves gangs a member of which has not fetched its lease within a lease's time.
    pub(super) fn expire_gangs(&mut self, now: Instant) {
        let ttl = self.timing.lease_ttl;
        // A formed gang holds at least the lease of the member that completed it.
        let stale: Vec<u32> = self
            .leased
            .iter()
            .copied()
            .filter(|&i| {
                let gang = self.gangs.games.get(&i);
                gang.and_then(|g| g.current.as_ref()).is_some_and(|g| {
                    g.leases.iter().any(Option::is_none) && now.duration_since(g.formed_at) > ttl
                })
            })
            .collect();
        for slot in stale {
            self.dissolve(slot, "a member did not take its lease in time");
        }
    }
}
