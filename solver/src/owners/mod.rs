//! One game searched by several workers, each state owned by one of them.
//!
//! A state's owner key names its owner ([`Puzzle::owner_key`]; for Martello, which
//! stones of two diagonals are left, so that most moves keep a successor with its
//! parent's owner; hashed with a salt chosen per game, so that the owners' shares are
//! even, see [`balance`]), or its fingerprint where the puzzle has no key. The owner alone
//! admits the state (its table drops a state it has seen, so no state is expanded twice
//! across the workers and the workers' tables add up to one memo), queues it, and
//! expands it; each successor goes to its own owner, in batches that send a parent once
//! with the moves to its children (`msg::Batch`), so the owner builds only the children
//! its table lacks. Each worker takes its deepest queued state first (the least score),
//! so the search still dives toward a solution as the depth-first search does. The best
//! score goes to every worker as it improves, and every worker prunes against it.
//!
//! Exactness: a state is dropped only when its bound reaches the best score (it cannot
//! beat it) or when its owner has admitted it before; so every state a better score
//! could be reached through is expanded, and the best score at the end is the minimum.
//! How the search ends, and how its solution is read back, is in [`worker`].
//!
//! The workers are threads of one process ([`solve_owned`]) or processes that carry the
//! same messages as bytes over a [`Link`] ([`solve_gang`]). Which worker admits a state
//! first, and so the expansions and the solution returned, may depend on timing; the
//! minimum does not.

mod balance;
mod msg;
mod table;
mod worker;

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError, channel};
use std::time::Duration;

use hammer_puzzle::{Puzzle, Wire};

use msg::{Msg, decode, encode};
use worker::{Net, Worker};

/// What one game searched by owners gives.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnedOutcome<M> {
    /// The minimum score: exact, since the search ran to the end.
    pub min_score: u32,
    /// Moves from the start that reach it.
    pub solution: Vec<M>,
    /// Per worker: the states it expanded. A gang's leader (worker 0) has every
    /// worker's; another member its own only, and zeros.
    pub expansions: Vec<u64>,
    /// Per worker: the states its table admitted (its share of the memo); complete as
    /// `expansions` is.
    pub table_states: Vec<u64>,
    /// Per worker: the bytes of its table at its largest (its peak memo); complete as
    /// `expansions` is.
    pub table_bytes: Vec<u64>,
    /// Successors sent to another worker, over the workers counted.
    pub sent: u64,
    /// The expansions of the probe that chose the owner hash's salt ([`balance`]),
    /// counted in the leader's `expansions`, which alone runs it. Zero with one worker.
    pub probed: u64,
}

/// Why a search by a gang of processes failed.
#[derive(Debug, thiserror::Error)]
pub enum GangError {
    /// A member stopped answering or its connection broke: the game must be searched
    /// again (nothing of a lost member's share can be recovered).
    #[error("gang member {peer} was lost: {reason}")]
    Lost {
        /// The member's rank.
        peer: usize,
        /// What went wrong.
        reason: String,
    },
    /// A member turned this one away: a wrong shared token, or another game.
    #[error("gang member {peer} refused this member: {reason}")]
    Refused {
        /// The member's rank.
        peer: usize,
        /// Its reason.
        reason: String,
    },
    /// A member sent bytes that do not decode.
    #[error(
        "gang member {peer} sent bytes that are not a message of this build (does every member run the same hammer?)"
    )]
    Malformed {
        /// The member's rank.
        peer: usize,
    },
    /// A member sent a message out of turn.
    #[error("a gang member broke the protocol: {what}")]
    Protocol {
        /// What it did.
        what: &'static str,
    },
    /// This member was told to stop (its lease was dropped, or its process stops).
    #[error("the search was cancelled")]
    Cancelled,
}

/// The network under a gang of processes: whole frames of bytes between its members,
/// in order between any two of them.
pub trait Link {
    /// This member's number: 0 (the leader) to `size() - 1`.
    fn rank(&self) -> usize;
    /// The members of the gang.
    fn size(&self) -> usize;
    /// Sends `frame` to member `to`.
    fn send(&mut self, to: usize, frame: Vec<u8>) -> Result<(), GangError>;
    /// The next frame with the member it came from, waiting up to `wait` for one.
    fn recv(&mut self, wait: Duration) -> Result<Option<(usize, Vec<u8>)>, GangError>;
    /// Told now and then how many states this member has expanded so far (a total that
    /// only grows), so that a link can pass the member's progress on, as a worker's
    /// heartbeats do. Ignored by default.
    fn expanded(&mut self, _total: u64) {}
}

/// Searches `start` with `workers` owners (threads of this process) and returns the
/// exact minimum.
pub fn solve_owned<P: Puzzle>(
    puzzle: &P,
    start: &P::State,
    workers: usize,
) -> OwnedOutcome<P::Move> {
    let k = workers.max(1);
    let salt = balance::owner_salt(puzzle, start, k);
    let (senders, receivers): (Vec<Sender<Msg<P>>>, Vec<_>) = (0..k).map(|_| channel()).unzip();
    let results: Vec<Result<OwnedOutcome<P::Move>, GangError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = receivers
            .into_iter()
            .enumerate()
            .map(|(id, inbox)| {
                let mut net = Threads {
                    inbox,
                    peers: senders.clone(),
                };
                // The probe ran once, here: it counts as the leader's.
                let salt = (salt.0, if id == 0 { salt.1 } else { 0 });
                scope.spawn(move || {
                    Worker::new(puzzle, id, k, start, salt).run(start, Vec::new(), &mut net)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    match results.into_iter().next() {
        Some(Ok(outcome)) => outcome,
        // Threads of one process lose no messages and send none malformed.
        Some(Err(e)) => unreachable!("an owner search in one process failed: {e}"),
        None => unreachable!("an owner search has at least one worker"),
    }
}

/// Searches `start` as member `link.rank()` of a gang of `link.size()` processes, each
/// of which calls this with the same start. Every member returns the exact minimum and
/// its solution; the leader's outcome also has every member's counts.
pub fn solve_gang<P: Wire>(
    puzzle: &P,
    start: &P::State,
    link: &mut dyn Link,
) -> Result<OwnedOutcome<P::Move>, GangError> {
    let (id, k) = (link.rank(), link.size());
    let mut net = Wired { puzzle, link };
    let (salt, early) = if id == 0 {
        let salt = balance::owner_salt(puzzle, start, k);
        for member in 1..k {
            net.send(member, Msg::Salt { salt: salt.0 })?;
        }
        (salt, Vec::new())
    } else {
        let (salt, early) = wait_for_salt(&mut net)?;
        // The probe's expansions are the leader's.
        ((salt, 0), early)
    };
    Worker::new(puzzle, id, k, start, salt).run(start, early, &mut net)
}

/// A member other than the leader waits for the leader's salt, which is the first message
/// from the leader. Another member, which had the salt first, may already send it
/// successors: they are kept, in their order, for the search.
fn wait_for_salt<P: Puzzle>(net: &mut impl Net<P>) -> Result<(u64, Vec<Msg<P>>), GangError> {
    let mut early = Vec::new();
    loop {
        match net.recv(worker::WAIT)? {
            Some(Msg::Salt { salt }) => return Ok((salt, early)),
            Some(msg) => early.push(msg),
            None => {}
        }
    }
}

/// Workers as threads: typed messages on channels.
struct Threads<P: Puzzle> {
    inbox: Receiver<Msg<P>>,
    peers: Vec<Sender<Msg<P>>>,
}

impl<P: Puzzle> Net<P> for Threads<P> {
    fn send(&mut self, to: usize, msg: Msg<P>) -> Result<(), GangError> {
        self.peers[to].send(msg).map_err(|_| GangError::Lost {
            peer: to,
            reason: "its thread ended".to_string(),
        })
    }

    fn recv(&mut self, wait: Duration) -> Result<Option<Msg<P>>, GangError> {
        // Each worker holds a sender to itself, so its channel never disconnects.
        if wait.is_zero() {
            match self.inbox.try_recv() {
                Ok(msg) => Ok(Some(msg)),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => Ok(None),
            }
        } else {
            match self.inbox.recv_timeout(wait) {
                Ok(msg) => Ok(Some(msg)),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => Ok(None),
            }
        }
    }
}

/// Workers as processes: messages written as bytes over a [`Link`].
struct Wired<'a, P: Wire> {
    puzzle: &'a P,
    link: &'a mut dyn Link,
}

impl<P: Wire> Net<P> for Wired<'_, P> {
    fn send(&mut self, to: usize, msg: Msg<P>) -> Result<(), GangError> {
        let mut frame = Vec::new();
        encode(self.puzzle, &msg, &mut frame);
        self.link.send(to, frame)
    }

    fn recv(&mut self, wait: Duration) -> Result<Option<Msg<P>>, GangError> {
        match self.link.recv(wait)? {
            Some((peer, frame)) => decode(self.puzzle, peer, &frame).map(Some),
            None => Ok(None),
        }
    }

    fn expanded(&mut self, total: u64) {
        self.link.expanded(total);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use hammer_engine::{Martello, seeded};

    use super::*;

    /// A network that hands out a fixed list of messages, then nothing.
    struct Scripted(VecDeque<Msg<Martello>>);

    impl Net<Martello> for Scripted {
        fn send(&mut self, _to: usize, _msg: Msg<Martello>) -> Result<(), GangError> {
            Ok(())
        }

        fn recv(&mut self, _wait: Duration) -> Result<Option<Msg<Martello>>, GangError> {
            Ok(self.0.pop_front())
        }
    }

    /// A member keeps what other members sent before the leader's salt came, in order,
    /// and leaves what came after it for the search.
    #[test]
    fn a_member_keeps_the_messages_that_come_before_the_salt() {
        let state = seeded::game(2013, 6, 1).expect("a game");
        let mut net = Scripted(VecDeque::from([
            Msg::Best { score: 9, state },
            Msg::Best { score: 7, state },
            Msg::Salt { salt: 42 },
            Msg::Best { score: 5, state },
        ]));
        let (salt, early) = wait_for_salt(&mut net).expect("the salt");
        assert_eq!(salt, 42);
        let scores: Vec<u32> = early
            .iter()
            .map(|m| match m {
                Msg::Best { score, .. } => *score,
                _ => panic!("only the messages before the salt are kept"),
            })
            .collect();
        assert_eq!(scores, [9, 7]);
        assert_eq!(
            net.0.len(),
            1,
            "the message after the salt is left for the search"
        );
    }
}
