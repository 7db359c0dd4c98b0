//! One game searched by several workers, each state owned by one of them.
//!
//! A state's fingerprint names its owner. The owner alone admits the state (its table
//! drops a state it has seen, so no state is expanded twice across the workers and the
//! workers' tables add up to one memo), queues it, and expands it; each successor goes to
//! its own owner, in batches. Each worker takes its deepest queued state first (the least
//! score), so the search still dives toward a solution as the depth-first search does.
//! The best score is shared as it improves, and every worker prunes against it.
//!
//! Exactness: a state is dropped only when its bound reaches the best score (it cannot
//! beat it) or when its owner has admitted it before; so every state a better score
//! could be reached through is expanded, and the best score at the end is the minimum.
//! The work ends when no state is queued or in flight anywhere: a shared count of the
//! batches sent and not yet taken plus the workers that hold work. A worker counts
//! itself before it lets go of the batch that woke it, and counts each batch before it
//! sends it, so the count reaches zero only when every worker is idle with nothing in
//! flight, and then it stays there.
//!
//! Which worker admits a state first, and so the expansions and the solution returned,
//! may depend on timing; the minimum does not. This search runs its workers as threads
//! of one process; the messages are the same a network would carry.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use hammer_puzzle::{Puzzle, Successor};
use rustc_hash::FxHashMap;

/// Successors gathered for one other worker before they are sent.
const BATCH: usize = 512;
/// Slots of the cache of states sent lately (a power of two).
const RECENT: usize = 1 << 16;
/// Expansions between sends of partial batches.
const FLUSH_EVERY: u64 = 1024;

/// A state on its way to its owner, with the link that rebuilds its path.
struct Item<P: Puzzle> {
    state: P::State,
    fp: u128,
    bound: u32,
    /// The parent's fingerprint and the move from it; `None` for the start.
    link: Option<(u128, P::Move)>,
}

/// The sending end of a worker's channel, and its receiving end: batches of states.
type Outbox<P> = Sender<Vec<Item<P>>>;
type Inbox<P> = Receiver<Vec<Item<P>>>;

/// What one game searched by owners gives.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnedOutcome<M> {
    /// The minimum score: exact, since the search ran to the end.
    pub min_score: u32,
    /// Moves from the start that reach it.
    pub solution: Vec<M>,
    /// Per worker: the states it expanded.
    pub expansions: Vec<u64>,
    /// Per worker: the states its table admitted (its share of the memo).
    pub table_states: Vec<u64>,
    /// Successors sent to another worker, over all workers.
    pub sent: u64,
}

/// What the workers share: the best score and the fingerprint of its state, the count of
/// unfinished work (batches sent and not yet taken, plus busy workers), and the flag that ends the search early once the best score
/// reaches the start's bound.
struct Shared {
    best: AtomicU32,
    best_fp: Mutex<u128>,
    pending: AtomicI64,
    done: AtomicBool,
    target: u32,
}

impl Shared {
    /// Lowers the best score to `score` (reached at the state `fp`) if it is lower.
    fn offer(&self, score: u32, fp: u128) {
        let mut fp_slot = self.best_fp.lock().unwrap_or_else(PoisonError::into_inner);
        if score < self.best.load(Ordering::Acquire) {
            *fp_slot = fp;
            self.best.store(score, Ordering::Release);
            if score <= self.target {
                self.done.store(true, Ordering::Release);
            }
        }
    }
}

/// Searches `start` with `workers` owners (threads) and returns the exact minimum.
pub fn solve_owned<P: Puzzle>(
    puzzle: &P,
    start: &P::State,
    workers: usize,
) -> OwnedOutcome<P::Move> {
    let k = workers.max(1);
    let start_fp = puzzle.fingerprint(start);
    let shared = Shared {
        best: AtomicU32::new(puzzle.score(start)),
        best_fp: Mutex::new(start_fp),
        // The start's batch.
        pending: AtomicI64::new(1),
        done: AtomicBool::new(false),
        target: puzzle.lower_bound(start),
    };
    let (senders, receivers): (Vec<Outbox<P>>, Vec<Inbox<P>>) = (0..k).map(|_| channel()).unzip();
    let first = Item::<P> {
        state: *start,
        fp: start_fp,
        bound: shared.target,
        link: None,
    };
    // The start goes to its owner like any other state.
    let _ = senders[owner(start_fp, k)].send(vec![first]);
    let finished: Vec<Worker<P>> = std::thread::scope(|scope| {
        let handles: Vec<_> = receivers
            .into_iter()
            .enumerate()
            .map(|(id, inbox)| {
                let senders = senders.clone();
                let shared = &shared;
                scope.spawn(move || {
                    let mut worker = Worker::new(id, k);
                    worker.run(puzzle, shared, &inbox, &senders);
                    worker
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let best_fp = *shared
        .best_fp
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    let solution = path_to(&finished, best_fp, k);
    OwnedOutcome {
        min_score: shared.best.load(Ordering::Acquire),
        solution,
        expansions: finished.iter().map(|w| w.expansions).collect(),
        table_states: finished.iter().map(|w| w.table.len() as u64).collect(),
        sent: finished.iter().map(|w| w.sent).sum(),
    }
}

/// The worker that owns the state of fingerprint `fp`.
#[inline]
fn owner(fp: u128, k: usize) -> usize {
    ((fp >> 64) as u64 % k as u64) as usize
}

/// The moves from the start to the state `fp`, read back through the owners' tables.
fn path_to<P: Puzzle>(workers: &[Worker<P>], mut fp: u128, k: usize) -> Vec<P::Move> {
    let mut moves = Vec::new();
    while let Some(&Some((parent, mv))) = workers[owner(fp, k)].table.get(&fp) {
        moves.push(mv);
        fp = parent;
    }
    moves.reverse();
    moves
}

struct Worker<P: Puzzle> {
    id: usize,
    /// Every state this worker admitted, with the link it first arrived by.
    table: FxHashMap<u128, Option<(u128, P::Move)>>,
    /// `queue[s]`: admitted states of score `s` not yet expanded.
    queue: Vec<Vec<Item<P>>>,
    /// `outbox[w]`: successors owned by worker `w` not yet sent.
    outbox: Vec<Vec<Item<P>>>,
    children: Vec<Successor<P::Move>>,
    moves: Vec<P::Move>,
    /// The fingerprints of states sent lately, one per slot by their low bits.
    recent: Vec<u128>,
    expansions: u64,
    sent: u64,
    /// Whether this worker counts itself in [`Shared::pending`]: from the batch it takes
    /// while idle until it has nothing queued or waiting to be sent.
    busy: bool,
}

impl<P: Puzzle> Worker<P> {
    fn new(id: usize, k: usize) -> Self {
        Worker {
            id,
            table: FxHashMap::default(),
            queue: Vec::new(),
            outbox: (0..k).map(|_| Vec::new()).collect(),
            children: Vec::new(),
            moves: Vec::new(),
            recent: vec![0; RECENT],
            expansions: 0,
            sent: 0,
            busy: false,
        }
    }

    fn run(&mut self, puzzle: &P, shared: &Shared, inbox: &Inbox<P>, senders: &[Outbox<P>]) {
        loop {
            if shared.done.load(Ordering::Acquire) {
                return;
            }
            while let Ok(batch) = inbox.try_recv() {
                self.take(puzzle, shared, batch);
            }
            if let Some(item) = self.pop() {
                self.expand(puzzle, shared, item, senders);
                // Partial batches go out now and then, so that no worker waits long on
                // states another keeps while it has work of its own.
                if self.expansions.is_multiple_of(FLUSH_EVERY) {
                    self.flush(shared, senders);
                }
                continue;
            }
            // Nothing queued here: hand on what is waiting, go idle, and wait for work or
            // the end.
            self.flush(shared, senders);
            if self.busy {
                self.busy = false;
                shared.pending.fetch_sub(1, Ordering::AcqRel);
            }
            if shared.pending.load(Ordering::Acquire) == 0 {
                return;
            }
            if let Ok(batch) = inbox.recv_timeout(Duration::from_millis(1)) {
                self.take(puzzle, shared, batch);
            }
        }
    }

    /// Admits a batch from another worker. The worker counts itself busy before the
    /// batch stops counting, so that the count of unfinished work never passes through
    /// zero while work remains.
    fn take(&mut self, puzzle: &P, shared: &Shared, batch: Vec<Item<P>>) {
        if !self.busy {
            self.busy = true;
            shared.pending.fetch_add(1, Ordering::AcqRel);
        }
        shared.pending.fetch_sub(1, Ordering::AcqRel);
        for item in batch {
            self.admit(puzzle, shared, item);
        }
    }

    /// Takes a state this worker owns: queues it unless the bound prunes it or the
    /// table holds it already; either way the state is finished or queued.
    fn admit(&mut self, puzzle: &P, shared: &Shared, item: Item<P>) {
        let fresh =
            item.bound < shared.best.load(Ordering::Acquire) && !self.table.contains_key(&item.fp);
        if !fresh {
            return;
        }
        self.table.insert(item.fp, item.link);
        let score = puzzle.score(&item.state) as usize;
        if self.queue.len() <= score {
            self.queue.resize_with(score + 1, Vec::new);
        }
        self.queue[score].push(item);
    }

    /// The deepest queued state: the least score.
    fn pop(&mut self) -> Option<Item<P>> {
        self.queue.iter_mut().find_map(|level| level.pop())
    }

    fn expand(&mut self, puzzle: &P, shared: &Shared, item: Item<P>, senders: &[Outbox<P>]) {
        let score = puzzle.score(&item.state);
        if score < shared.best.load(Ordering::Acquire) {
            shared.offer(score, item.fp);
        }
        let best = shared.best.load(Ordering::Acquire);
        if item.bound >= best {
            return;
        }
        self.expansions += 1;
        let (mut children, mut moves) = (
            std::mem::take(&mut self.children),
            std::mem::take(&mut self.moves),
        );
        puzzle.successors(
            &item.state,
            item.bound,
            item.fp,
            best,
            &mut moves,
            &mut children,
        );
        let k = self.outbox.len();
        for child in &children {
            if child.bound >= best {
                continue;
            }
            let to = owner(child.fp, k);
            if to == self.id && self.table.contains_key(&child.fp) {
                // A transposition this worker owns: dropped before its state is built.
                continue;
            }
            if to != self.id {
                // A state this worker sent lately is at its owner already: sending it again
                // would only be dropped there (or pruned, as the best score only falls).
                let slot = &mut self.recent[child.fp as usize & (RECENT - 1)];
                if *slot == child.fp {
                    continue;
                }
                *slot = child.fp;
            }
            let next = Item {
                state: puzzle.apply(&item.state, child.mv),
                fp: child.fp,
                bound: child.bound,
                link: Some((item.fp, child.mv)),
            };
            if to == self.id {
                self.admit(puzzle, shared, next);
            } else {
                self.outbox[to].push(next);
                if self.outbox[to].len() >= BATCH {
                    self.send(shared, senders, to);
                }
            }
        }
        self.children = children;
        self.moves = moves;
    }

    /// Sends the states waiting for worker `to`; the batch counts as unfinished work
    /// until its owner has taken it.
    fn send(&mut self, shared: &Shared, senders: &[Outbox<P>], to: usize) {
        let batch = std::mem::take(&mut self.outbox[to]);
        self.sent += batch.len() as u64;
        shared.pending.fetch_add(1, Ordering::AcqRel);
        // A worker that has ended takes nothing more; its states are not needed then
        // (the search is over).
        let _ = senders[to].send(batch);
    }

    fn flush(&mut self, shared: &Shared, senders: &[Outbox<P>]) {
        for to in 0..self.outbox.len() {
            if !self.outbox[to].is_empty() {
                self.send(shared, senders, to);
            }
        }
    }
}
