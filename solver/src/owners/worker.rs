//! One worker of an owner search, over any network that keeps each pair's messages in
//! order.
//!
//! **The end.** Worker 0, the leader, decides when the search is over. A worker that runs
//! out of work (nothing queued, nothing waiting to be sent) tells the leader so, with the
//! batches it has sent to each worker and taken from each, whenever those counts changed
//! since it last told it. The leader ends the search when it is idle itself and, in the
//! latest reports, every batch worker `i` says it sent to `j` is one `j` says it took.
//! That cannot happen while work remains: take the first worker to become busy again
//! after its report; a batch woke it, sent before its sender's report (the sender was
//! not busy since), so counted as sent there, and not yet taken in the woken worker's
//! report; as batches between two workers arrive in order, the two counts cannot match.
//!
//! **The answer.** Every better score goes to every worker as it is reached, before its
//! finder's next report, so the leader holds the minimum when it ends the search. It then
//! follows the best state's path back to the start, asking every worker for each state
//! of it (`Trace`; the one whose table holds it answers with its parent, `Step`, or with
//! the move's undo code, `Undo`, which the leader undoes on the state it holds), and
//! tells everyone the minimum and its solution (`Stop`); each worker answers with its
//! counts.

use std::time::Duration;

use hammer_puzzle::{Puzzle, Successor};

use super::msg::{Batch, Item, Msg};
use super::table::{Back, Table};
use super::{GangError, OwnedOutcome};
use crate::memo::prefetch;

/// Successors gathered for one other worker before they are sent.
const BATCH: usize = 4096;
/// Slots of the cache of states sent lately (a power of two).
const RECENT: usize = 1 << 16;
/// Expansions between sends of partial batches.
const FLUSH_EVERY: u64 = 4096;
/// How long an idle worker waits for a message before it looks again (a cancelled
/// member's link says so on the next look).
pub(super) const WAIT: Duration = Duration::from_millis(1);

/// Where a worker's messages go and come from.
pub(crate) trait Net<P: Puzzle> {
    fn send(&mut self, to: usize, msg: Msg<P>) -> Result<(), GangError>;
    /// The next message, waiting up to `wait` for one.
    fn recv(&mut self, wait: Duration) -> Result<Option<Msg<P>>, GangError>;
    /// This worker's expansions so far (see [`Link::expanded`](super::Link::expanded)).
    fn expanded(&mut self, _total: u64) {}
}

/// The worker that owns the state of fingerprint `fp` and owner key `key`
/// ([`Puzzle::owner_key`]): the key's, hashed with the game's `salt`
/// ([`super::balance`]), when the puzzle gives one, else the fingerprint's.
#[inline]
pub(crate) fn owner(fp: u128, key: Option<u64>, k: usize, salt: u64) -> usize {
    let hash = match key {
        Some(key) => hammer_puzzle::mix::mix64(key ^ salt),
        None => (fp >> 64) as u64,
    };
    (hash % k as u64) as usize
}

/// A worker's counts, as it reports them to the leader at the end.
#[derive(Clone, Copy, Default)]
struct Stats {
    expansions: u64,
    table: u64,
    table_bytes: u64,
    sent: u64,
}

/// What only the leader keeps.
struct Leader {
    /// Each worker's latest report: batches sent to each worker and taken from each.
    reports: Vec<Option<(Vec<u64>, Vec<u64>)>>,
    /// Whether the search is over and the best state's path is being traced.
    tracing: bool,
    /// Each worker's counts, once it has stopped.
    stats: Vec<Option<Stats>>,
}

pub(crate) struct Worker<'p, P: Puzzle> {
    puzzle: &'p P,
    id: usize,
    k: usize,
    /// The owner hash's salt, the same in every worker of the game, and the expansions
    /// of the probe that chose it.
    salt: u64,
    probed: u64,
    /// Every state this worker admitted, with the way back to its parent.
    table: Table<P::Move>,
    /// `queue[s]`: admitted states of score `s` not yet expanded.
    queue: Vec<Vec<Item<P>>>,
    /// `outbox[w]`: successors owned by worker `w` not yet sent.
    outbox: Vec<Batch<P>>,
    children: Vec<Successor<P::Move>>,
    moves: Vec<P::Move>,
    /// The fingerprints of states sent lately, one per slot by their low bits.
    recent: Vec<u128>,
    expansions: u64,
    sent_states: u64,
    /// The best score known here, and the state it was reached at.
    best: u32,
    best_state: P::State,
    /// The leader's trace: the state it has reached on the best state's path.
    cursor: P::State,
    /// The start's fingerprint and owner, where a trace ends even if the start was never
    /// admitted (its bound settled the game at once).
    start: (u128, usize),
    /// The start's bound: a score this low ends the search at once.
    target: u32,
    /// Batches sent to each worker and taken from each.
    sent: Vec<u64>,
    taken: Vec<u64>,
    /// Whether the counts changed since this worker last reported.
    unreported: bool,
    leader: Option<Leader>,
    /// The minimum and its solution, once the leader has ended the search.
    stop: Option<(u32, Vec<P::Move>)>,
}

impl<'p, P: Puzzle> Worker<'p, P> {
    /// Worker `id` of `k` searching from `start`, states owned by [`owner`] with `salt`.
    /// `probed` expansions were spent choosing the salt; they count as this worker's.
    pub(crate) fn new(
        puzzle: &'p P,
        id: usize,
        k: usize,
        start: &P::State,
        (salt, probed): (u64, u64),
    ) -> Self {
        let start_fp = puzzle.fingerprint(start);
        let start_owner = owner(start_fp, puzzle.owner_key(start), k, salt);
        Worker {
            puzzle,
            id,
            k,
            salt,
            probed,
            table: Table::new(P::UNDOES),
            queue: Vec::new(),
            outbox: (0..k).map(|_| Batch::new()).collect(),
            children: Vec::new(),
            moves: Vec::new(),
            recent: vec![0; RECENT],
            expansions: probed,
            sent_states: 0,
            best: puzzle.score(start),
            best_state: *start,
            cursor: *start,
            start: (start_fp, start_owner),
            target: puzzle.lower_bound(start),
            sent: vec![0; k],
            taken: vec![0; k],
            unreported: true,
            leader: (id == 0).then(|| Leader {
                reports: vec![None; k],
                tracing: false,
                stats: vec![None; k],
            }),
            stop: None,
        }
    }

    /// Searches until the leader ends the search; the leader's outcome has every
    /// worker's counts, another worker's its own only. `early` are messages that came
    /// before this worker could search (see [`super::solve_gang`]), in their order.
    pub(crate) fn run(
        mut self,
        start: &P::State,
        early: Vec<Msg<P>>,
        net: &mut impl Net<P>,
    ) -> Result<OwnedOutcome<P::Move>, GangError> {
        self.admit_start(start);
        for msg in early {
            self.handle(msg, net)?;
        }
        loop {
            while let Some(msg) = net.recv(Duration::ZERO)? {
                self.handle(msg, net)?;
            }
            if let Some(item) = self.pop() {
                self.expand(item, net)?;
                // Partial batches go out now and then, so that no worker waits long on
                // states another keeps while it has work of its own.
                if self.expansions.is_multiple_of(FLUSH_EVERY) {
                    self.flush(net)?;
                    net.expanded(self.expansions);
                }
                continue;
            }
            self.flush(net)?;
            net.expanded(self.expansions);
            self.idle(net)?;
            if let Some(outcome) = self.outcome() {
                return Ok(outcome);
            }
            if let Some(msg) = net.recv(WAIT)? {
                self.handle(msg, net)?;
            }
        }
    }

    /// Every worker knows the start; its owner admits it.
    pub(super) fn admit_start(&mut self, start: &P::State) {
        let (fp, start_owner) = self.start;
        if start_owner == self.id {
            self.admit(fp, self.target, Back::Start, || *start);
        }
    }

    /// The states this worker has expanded.
    pub(super) fn expansions(&self) -> u64 {
        self.expansions
    }

    /// The outcome, once this worker is done: the leader when every worker has sent its
    /// counts, another worker when the leader has stopped it.
    fn outcome(&self) -> Option<OwnedOutcome<P::Move>> {
        let (score, moves) = self.stop.as_ref()?;
        let own = self.own_stats();
        let stats: Vec<Stats> = match &self.leader {
            Some(leader) => (0..self.k)
                .map(|w| if w == 0 { Some(own) } else { leader.stats[w] })
                .collect::<Option<_>>()?,
            None => (0..self.k)
                .map(|w| if w == self.id { own } else { Stats::default() })
                .collect(),
        };
        Some(OwnedOutcome {
            min_score: *score,
            solution: moves.clone(),
            expansions: stats.iter().map(|s| s.expansions).collect(),
            table_states: stats.iter().map(|s| s.table).collect(),
            table_bytes: stats.iter().map(|s| s.table_bytes).collect(),
            sent: stats.iter().map(|s| s.sent).sum(),
            probed: self.probed,
        })
    }

    /// This worker's counts.
    fn own_stats(&self) -> Stats {
        Stats {
            expansions: self.expansions,
            table: self.table.len() as u64,
            table_bytes: self.table.bytes(),
            sent: self.sent_states,
        }
    }

    /// Whether the best score has reached the start's bound: nothing is left to search.
    fn settled(&self) -> bool {
        self.best <= self.target
    }

    /// Nothing queued here: report the counts if they changed; the leader looks whether
    /// the search is over.
    fn idle(&mut self, net: &mut impl Net<P>) -> Result<(), GangError> {
        if std::mem::take(&mut self.unreported) && self.id != 0 {
            let (sent, taken) = (self.sent.clone(), self.taken.clone());
            net.send(
                0,
                Msg::Idle {
                    from: self.id as u32,
                    sent,
                    taken,
                },
            )?;
        }
        let Some(leader) = &mut self.leader else {
            return Ok(());
        };
        if leader.tracing || self.stop.is_some() {
            return Ok(());
        }
        let (k, sent, taken) = (self.k, &self.sent, &self.taken);
        let counts = |w: usize| match w {
            0 => Some((sent, taken)),
            _ => leader.reports[w].as_ref().map(|(s, t)| (s, t)),
        };
        let Some(all) = (0..k).map(counts).collect::<Option<Vec<_>>>() else {
            return Ok(());
        };
        let quiet = (0..k).all(|i| (0..k).all(|j| all[i].0[j] == all[j].1[i]));
        if quiet {
            leader.tracing = true;
            self.cursor = self.best_state;
            let fp = self.puzzle.fingerprint(&self.best_state);
            self.ask(fp, Vec::new(), net)?;
        }
        Ok(())
    }

    /// Sends `msg` to worker `to`, or handles it here when `to` is this worker.
    fn deliver(&mut self, to: usize, msg: Msg<P>, net: &mut impl Net<P>) -> Result<(), GangError> {
        if to == self.id {
            self.handle(msg, net)
        } else {
            net.send(to, msg)
        }
    }

    fn handle(&mut self, msg: Msg<P>, net: &mut impl Net<P>) -> Result<(), GangError> {
        let out_of_turn = |what| GangError::Protocol { what };
        let from_peer = |from: u32| {
            let from = from as usize;
            (from < self.k)
                .then_some(from)
                .ok_or(out_of_turn("a worker number out of range"))
        };
        match msg {
            Msg::Batch { from, batch } => {
                let from = from_peer(from)?;
                self.taken[from] += 1;
                self.unreported = true;
                for child in &batch.children {
                    self.table.prefetch(child.fp);
                }
                let puzzle = self.puzzle;
                for (parent, parent_fp, children) in batch.groups() {
                    for child in children {
                        let back = self.back(parent, parent_fp, child.mv);
                        let state = || puzzle.apply(parent, child.mv);
                        self.admit(child.fp, child.bound, back, state);
                    }
                }
            }
            Msg::Best { score, state } => self.improve(score, &state),
            Msg::Idle { from, sent, taken } => {
                let from = from_peer(from)?;
                let leader = self
                    .leader
                    .as_mut()
                    .ok_or(out_of_turn("a report to a member"))?;
                if sent.len() != self.k || taken.len() != self.k {
                    return Err(out_of_turn("a report of another gang's size"));
                }
                leader.reports[from] = Some((sent, taken));
            }
            Msg::Trace { fp, mut moves } => match self.table.get(fp) {
                Some(Back::Link(parent, mv)) => {
                    moves.push(mv);
                    self.deliver(0, Msg::Step { fp: parent, moves }, net)?;
                }
                Some(Back::Undo(code)) => self.deliver(0, Msg::Undo { code, moves }, net)?,
                Some(Back::Start) => self.deliver(0, Msg::Path { moves }, net)?,
                // The start, which its bound settled before it was admitted.
                None if (fp, self.id) == self.start => self.deliver(0, Msg::Path { moves }, net)?,
                None => {}
            },
            Msg::Step { fp, moves } => {
                if self.leader.is_none() {
                    return Err(out_of_turn("a step of a path to a member"));
                }
                self.ask(fp, moves, net)?;
            }
            Msg::Undo { code, mut moves } => {
                if self.leader.is_none() {
                    return Err(out_of_turn("an undo code to a member"));
                }
                let (parent, mv) = (self.puzzle.undo(&self.cursor, code))
                    .ok_or(out_of_turn("an undo code of another state"))?;
                moves.push(mv);
                self.cursor = parent;
                self.ask(self.puzzle.fingerprint(&parent), moves, net)?;
            }
            Msg::Path { mut moves } => {
                if self.leader.is_none() {
                    return Err(out_of_turn("a path to a member"));
                }
                moves.reverse();
                for w in 1..self.k {
                    let stop = Msg::Stop {
                        score: self.best,
                        moves: moves.clone(),
                    };
                    net.send(w, stop)?;
                }
                self.stop = Some((self.best, moves));
            }
            Msg::Stop { score, moves } => {
                self.stop = Some((score, moves));
                let own = self.own_stats();
                let stats = Msg::Stats {
                    from: self.id as u32,
                    expansions: own.expansions,
                    table: own.table,
                    table_bytes: own.table_bytes,
                    sent: own.sent,
                };
                net.send(0, stats)?;
            }
            // The leader's salt comes before the search starts, and once.
            Msg::Salt { .. } => return Err(out_of_turn("a salt during the search")),
            Msg::Stats {
                from,
                expansions,
                table,
                table_bytes,
                sent,
            } => {
                let from = from_peer(from)?;
                let leader = self
                    .leader
                    .as_mut()
                    .ok_or(out_of_turn("counts to a member"))?;
                leader.stats[from] = Some(Stats {
                    expansions,
                    table,
                    table_bytes,
                    sent,
                });
            }
        }
        Ok(())
    }

    /// Takes a better score.
    fn improve(&mut self, score: u32, state: &P::State) {
        if score < self.best {
            self.best = score;
            self.best_state = *state;
        }
    }

    /// The way back from the state after `mv` to `parent`, as this worker's table keeps
    /// it.
    #[inline]
    fn back(&self, parent: &P::State, parent_fp: u128, mv: P::Move) -> Back<P::Move> {
        if P::UNDOES {
            Back::Undo(self.puzzle.undo_code(parent, mv))
        } else {
            Back::Link(parent_fp, mv)
        }
    }

    /// The leader asks every worker for the state `fp` of the best state's path (with
    /// the moves after it): a link names its parent's fingerprint but not its owner key,
    /// so only the worker whose table holds it can tell (an undo code would tell, but
    /// one protocol serves both kinds of table). A path is a few dozen steps,
    /// once a game. The others are asked first and the leader itself last, so that every
    /// question is sent before the path can end (and the leader send `Stop`).
    fn ask(
        &mut self,
        fp: u128,
        moves: Vec<P::Move>,
        net: &mut impl Net<P>,
    ) -> Result<(), GangError> {
        for to in 1..self.k {
            let moves = moves.clone();
            net.send(to, Msg::Trace { fp, moves })?;
        }
        self.handle(Msg::Trace { fp, moves }, net)
    }

    /// Takes the state `fp` this worker owns, reached by `back`: queues it unless the
    /// bound prunes it or the table holds it already. Its state is built only then.
    fn admit(
        &mut self,
        fp: u128,
        bound: u32,
        back: Back<P::Move>,
        state: impl FnOnce() -> P::State,
    ) {
        if bound >= self.best || self.settled() || !self.table.insert(fp, back) {
            return;
        }
        let state = state();
        let score = self.puzzle.score(&state) as usize;
        if self.queue.len() <= score {
            self.queue.resize_with(score + 1, Vec::new);
        }
        self.queue[score].push(Item { state, fp, bound });
    }

    /// The deepest queued state: the least score.
    pub(super) fn pop(&mut self) -> Option<Item<P>> {
        if self.settled() {
            self.queue.clear();
            return None;
        }
        self.queue.iter_mut().find_map(|level| level.pop())
    }

    pub(super) fn expand(&mut self, item: Item<P>, net: &mut impl Net<P>) -> Result<(), GangError> {
        let puzzle = self.puzzle;
        let score = puzzle.score(&item.state);
        if score < self.best {
            self.improve(score, &item.state);
            for w in (0..self.k).filter(|&w| w != self.id) {
                let state = item.state;
                net.send(w, Msg::Best { score, state })?;
            }
        }
        let best = self.best;
        if item.bound >= best || self.settled() {
            return Ok(());
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
        // The table slots of the successors this worker owns, and the slots of the cache
        // of states sent lately of the others, loaded together.
        let (k, salt, parent) = (self.k, self.salt, &item.state);
        let owner_of = |child: &Successor<P::Move>| {
            owner(child.fp, puzzle.child_owner_key(parent, child.mv), k, salt)
        };
        for child in &children {
            if child.bound >= best {
                continue;
            }
            if owner_of(child) == self.id {
                self.table.prefetch(child.fp);
            } else {
                prefetch(&self.recent[child.fp as usize & (RECENT - 1)]);
            }
        }
        for child in &children {
            if child.bound >= best {
                continue;
            }
            let to = owner_of(child);
            if to == self.id {
                // A transposition is dropped before its state is built.
                let back = self.back(&item.state, item.fp, child.mv);
                let state = || puzzle.apply(&item.state, child.mv);
                self.admit(child.fp, child.bound, back, state);
                continue;
            }
            // A state this worker sent lately is at its owner already: sending it again
            // would only be dropped there (or pruned, as the best score only falls).
            let slot = &mut self.recent[child.fp as usize & (RECENT - 1)];
            if *slot == child.fp {
                continue;
            }
            *slot = child.fp;
            self.outbox[to].push(&item.state, item.fp, *child);
            if self.outbox[to].children.len() >= BATCH {
                self.send(to, net)?;
            }
        }
        self.children = children;
        self.moves = moves;
        Ok(())
    }

    /// Sends the states waiting for worker `to` as one batch.
    fn send(&mut self, to: usize, net: &mut impl Net<P>) -> Result<(), GangError> {
        let batch = std::mem::replace(&mut self.outbox[to], Batch::new());
        self.sent_states += batch.children.len() as u64;
        self.sent[to] += 1;
        self.unreported = true;
        net.send(
            to,
            Msg::Batch {
                from: self.id as u32,
                batch,
            },
        )
    }

    fn flush(&mut self, net: &mut impl Net<P>) -> Result<(), GangError> {
        for to in 0..self.k {
            if !self.outbox[to].children.is_empty() {
                self.send(to, net)?;
            }
        }
        Ok(())
    }
}
