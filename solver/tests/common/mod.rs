//! What several of the solver's test files share: the configurations they compare, the
//! replay of a solution, a seeded walk into the middle of a game, and a gang's network
//! inside one process.

#![allow(dead_code)] // each test file uses only some of these

use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use hammer_engine::{Martello, Move, Puzzle, State};
use hammer_solver::{Config, GangError, Limits, Link, Order, Schedule};

/// Order, schedule and memo limit (MiB) of the configurations the tests run every game
/// under; the last one's memo is too small for 6x6 games, so it forgets states.
pub const CONFIGS: [(Order, &str, Option<u64>); 3] = [
    (Order::Standard, "exact", None),
    (Order::Random, "luby:64", None),
    (Order::Random, "luby:256", Some(1)),
];

pub fn config(order: Order, schedule: &str, memo_mb: Option<u64>) -> Config {
    Config {
        order,
        schedule: schedule.parse::<Schedule>().unwrap(),
        limits: Limits {
            memo_bytes: memo_mb.map(|mb| mb << 20),
            ..Limits::default()
        },
        ..Config::default()
    }
}

/// The state `moves` reaches from `start`, each move checked legal on the way.
pub fn replay(start: &State, moves: &[Move]) -> State {
    let mut state = *start;
    let mut legal = Vec::new();
    for &mv in moves {
        Martello.moves(&state, &mut legal);
        assert!(legal.contains(&mv), "{mv:?} is not legal in {state}");
        state = Martello.apply(&state, mv);
    }
    state
}

/// The next move of a seeded walk: the generator's next `step` picks among `moves`.
pub fn pick(moves: &[Move], step: &mut u64) -> Move {
    *step = step.wrapping_mul(6364136223846793005).wrapping_add(1);
    moves[(*step >> 33) as usize % moves.len()]
}

/// The state at most `moves` moves of a seeded walk (from `step`) into `state`.
pub fn walk(mut state: State, mut step: u64, moves: u32) -> State {
    let mut buf = Vec::new();
    for _ in 0..moves {
        Martello.moves(&state, &mut buf);
        if buf.is_empty() {
            break;
        }
        state = Martello.apply(&state, pick(&buf, &mut step));
    }
    state
}

/// A gang's network in one process: frames of bytes on channels, in order between any
/// two members, as the gRPC streams carry them.
pub struct Frames {
    /// The last total the member reported through [`Link::expanded`].
    pub expanded: u64,
    rank: usize,
    inbox: Receiver<(usize, Vec<u8>)>,
    peers: Vec<Sender<(usize, Vec<u8>)>>,
}

impl Link for Frames {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.peers.len()
    }

    fn send(&mut self, to: usize, frame: Vec<u8>) -> Result<(), GangError> {
        self.peers[to]
            .send((self.rank, frame))
            .map_err(|_| GangError::Lost {
                peer: to,
                reason: "gone".to_string(),
            })
    }

    fn recv(&mut self, wait: Duration) -> Result<Option<(usize, Vec<u8>)>, GangError> {
        Ok(self
            .inbox
            .recv_timeout(wait.max(Duration::from_micros(1)))
            .ok())
    }

    fn expanded(&mut self, total: u64) {
        assert!(total >= self.expanded, "the expansions reported went down");
        self.expanded = total;
    }
}

/// Runs `member` as each of a gang of `k` threads over [`Frames`]; their results by rank.
pub fn in_gang<T: Send>(k: usize, member: impl Fn(&mut Frames) -> T + Sync) -> Vec<T> {
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..k).map(|_| channel()).unzip();
    std::thread::scope(|scope| {
        let handles: Vec<_> = receivers
            .into_iter()
            .enumerate()
            .map(|(rank, inbox)| {
                let mut link = Frames {
                    expanded: 0,
                    rank,
                    inbox,
                    peers: senders.clone(),
                };
                let member = &member;
                scope.spawn(move || member(&mut link))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a gang member"))
            .collect()
    })
}
