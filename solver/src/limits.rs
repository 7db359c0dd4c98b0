//! Per-game limits: the most a configuration may spend on one game, and which limit
//! stopped a game that did not finish.
//!
//! A game stopped by a limit is not a guess: the solver reports the best score it found
//! and the lower bound it proved (the least bound of the states left unexplored), so the
//! answer is bracketed. The expansion and memory limits keep results deterministic; the
//! time limit does not (a slower machine stops sooner), which is why a row says which
//! limit stopped it.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// What one game may spend. The default has no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Expansions over all the attempts of the game.
    pub max_expansions: Option<u64>,
    /// Wall time of the search (the prefix aside). Makes results machine-dependent.
    pub max_time: Option<Duration>,
    /// Bytes the memo may hold. At the limit it replaces entries instead of growing, so
    /// results stay exact: a forgotten state is only searched again.
    pub memo_bytes: Option<u64>,
}

/// The limit that stopped a game before its answer was proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cap {
    /// [`Limits::max_expansions`].
    Expansions,
    /// [`Limits::max_time`].
    Time,
    /// The caller's [`Cancel`] was set: the game was given up, not stopped by a limit of
    /// its configuration, so its outcome answers nothing and is not a result.
    Cancelled,
}

impl Cap {
    /// The dataset's `capped_by` value.
    pub fn name(self) -> &'static str {
        match self {
            Cap::Expansions => "expansions",
            Cap::Time => "time",
            Cap::Cancelled => "cancelled",
        }
    }
}

impl Cap {
    /// The cap a [`Cap::name`] names, [`Cap::Cancelled`] included: what a search's record
    /// says stopped it.
    pub fn parse(name: &str) -> Option<Cap> {
        [Cap::Expansions, Cap::Time, Cap::Cancelled]
            .into_iter()
            .find(|c| c.name() == name)
    }

    /// The cap a dataset's `capped_by` may name: a limit of the configuration, never
    /// [`Cap::Cancelled`], whose game is not a result.
    pub fn from_name(name: &str) -> Option<Cap> {
        Cap::parse(name).filter(|c| *c != Cap::Cancelled)
    }
}

impl fmt::Display for Cap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The caller's handle on the games it runs: a flag another thread sets to stop them (a
/// worker that is told to stop, or whose unit was taken away), and a count of the
/// expansions they have spent so far. The search looks at the flag and adds to the
/// count on its slow path, every few thousand expansions, and stops with
/// [`Cap::Cancelled`] once the flag is set. The count is per handle, not per process,
/// so that a process solving several units at once reports each unit's own progress.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<CancelState>);

#[derive(Debug, Default)]
struct CancelState {
    flag: AtomicBool,
    expansions: AtomicU64,
}

/// Two configurations are the same whatever flag they carry: it is not part of their
/// identity.
impl PartialEq for Cancel {
    fn eq(&self, _: &Cancel) -> bool {
        true
    }
}

impl Cancel {
    /// A flag not yet set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Gives up the games that watch this flag.
    pub fn set(&self) {
        self.0.flag.store(true, Ordering::Relaxed);
    }

    /// Whether the flag was set.
    pub fn is_set(&self) -> bool {
        self.0.flag.load(Ordering::Relaxed)
    }

    /// Expansions of the games run with this handle, running games included (added
    /// every 16,384 expansions and in full when an attempt ends). It only grows.
    pub fn expansions(&self) -> u64 {
        self.0.expansions.load(Ordering::Relaxed)
    }

    /// Adds `n` expansions done outside this crate's searches (a gang member's).
    pub fn add_expansions(&self, n: u64) {
        self.0.expansions.fetch_add(n, Ordering::Relaxed);
    }
}
