//! The owner hash's salt, chosen per game so that the owners share the work evenly.
//!
//! An owner key takes few values on a hard board (Martello's: which stones of two
//! diagonals are left), and a few keys carry most of the states, so a fixed hash of the
//! key can hand one owner much more than its share. The wall time of the gang is its
//! busiest member's. A finer key evens the shares but sends more states, and a state sent
//! costs more than the balance gains (docs/frontier.md). A salt changes only which owner
//! each key goes to, so it sends as many states as before.
//!
//! The leader runs a probe, the first [`PROBE`] expansions of a search by one owner from
//! the start, which is deterministic, and takes the salt of [`SALTS`] that spreads the
//! probe's expanded states most evenly over the owners; a gang's leader sends it to the
//! other members before anything else. So the same game always gets the same salt, and
//! the probe's expansions are spent once a game and count as the leader's.

use std::collections::HashMap;
use std::time::Duration;

use hammer_puzzle::Puzzle;
use hammer_puzzle::mix::mix64;

use super::GangError;
use super::msg::Msg;
use super::worker::{Net, Worker};

/// Expansions of the probe.
pub(crate) const PROBE: u64 = 250_000;
/// Salts tried: 0 (the plain hash of the key) and `mix64(1)` to `mix64(SALTS - 1)`.
pub(crate) const SALTS: u64 = 64;

/// The salt of the owner hash for `start` searched by `k` owners, and the expansions
/// spent choosing it: `(0, 0)` with one owner or without an owner key.
pub(crate) fn owner_salt<P: Puzzle>(puzzle: &P, start: &P::State, k: usize) -> (u64, u64) {
    if k < 2 || puzzle.owner_key(start).is_none() {
        return (0, 0);
    }
    let (counts, probed) = probe(puzzle, start);
    let salt = (0..SALTS)
        .map(candidate)
        .min_by_key(|&salt| busiest(&counts, salt, k))
        .unwrap_or(0);
    (salt, probed)
}

/// Salt `i` of the [`SALTS`] tried.
fn candidate(i: u64) -> u64 {
    if i == 0 { 0 } else { mix64(i) }
}

/// The expanded states of the first [`PROBE`] expansions of a one-owner search, by
/// owner key, and the expansions made (fewer when the game ends sooner).
fn probe<P: Puzzle>(puzzle: &P, start: &P::State) -> (HashMap<u64, u64>, u64) {
    let mut worker = Worker::new(puzzle, 0, 1, start, (0, 0));
    worker.admit_start(start);
    let mut counts = HashMap::new();
    while worker.expansions() < PROBE {
        let Some(item) = worker.pop() else { break };
        let (before, key) = (worker.expansions(), puzzle.owner_key(&item.state));
        if worker.expand(item, &mut Alone).is_err() {
            break;
        }
        if let Some(key) = key.filter(|_| worker.expansions() > before) {
            *counts.entry(key).or_insert(0) += 1;
        }
    }
    (counts, worker.expansions())
}

/// The counts each of `k` owners gets with `salt`.
fn shares(counts: &HashMap<u64, u64>, salt: u64, k: usize) -> Vec<u64> {
    let mut shares = vec![0u64; k];
    for (&key, &count) in counts {
        shares[super::worker::owner(0, Some(key), k, salt)] += count;
    }
    shares
}

/// The largest count any one of `k` owners gets with `salt`.
fn busiest(counts: &HashMap<u64, u64>, salt: u64, k: usize) -> u64 {
    shares(counts, salt, k).into_iter().max().unwrap_or(0)
}

/// The network of a lone owner: it owns every state, so nothing is ever sent.
struct Alone;

impl<P: Puzzle> Net<P> for Alone {
    fn send(&mut self, _to: usize, _msg: Msg<P>) -> Result<(), GangError> {
        Err(GangError::Protocol {
            what: "a lone owner sent a message",
        })
    }

    fn recv(&mut self, _wait: Duration) -> Result<Option<Msg<P>>, GangError> {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use hammer_engine::{Martello, seeded};

    use super::*;

    #[test]
    fn one_owner_takes_no_probe() {
        let start = seeded::game(2013, 7, 5482).expect("a game");
        assert_eq!(owner_salt(&Martello, &start, 1), (0, 0));
    }

    /// 7x7 game 5482 of seed 2013, whose few heavy owner keys give one of two owners
    /// most of the work under the plain hash of the key.
    #[test]
    fn the_salt_spreads_the_probe_most_evenly_and_is_the_same_every_time() {
        let start = seeded::game(2013, 7, 5482).expect("a game");
        let (salt, probed) = owner_salt(&Martello, &start, 2);
        assert_eq!(probed, PROBE);
        assert_eq!(owner_salt(&Martello, &start, 2), (salt, probed));
        let (counts, _) = probe(&Martello, &start);
        let total: u64 = counts.values().sum();
        assert_eq!(total, PROBE, "every expanded state has a key");
        let best = busiest(&counts, salt, 2);
        for i in 0..SALTS {
            assert!(best <= busiest(&counts, candidate(i), 2), "salt {i}");
        }
        assert!(best * 100 <= total * 55, "{best} of {total}");
        for k in [3, 4] {
            let (salt, _) = owner_salt(&Martello, &start, k);
            let shares = shares(&counts, salt, k);
            assert!(shares.iter().all(|&s| s > 0), "{k} owners: {shares:?}");
        }
    }
}
