//! Counting instead of solving: every state reachable from a start, level by level (by
//! score), with the number of distinct move sequences that reach each level, optionally
//! modulo the symmetries the puzzle's fingerprint merges.
//!
//! Levels are processed from the highest score down. Every move lowers the score, so
//! when a level is expanded every path into it has been counted already.
//!
//! Modulo symmetry, a level holds one representative per class (states with equal
//! fingerprints). Paths are still counted exactly: the symmetry that maps a state `s`
//! of a class onto the representative `r` maps the moves of `s` one-to-one onto the
//! moves of `r`, and the class of each target with them, so the paths into class `C'`
//! are the sum over classes `C` of (paths into `C`) x (moves of `C`'s representative
//! that land in `C'`). The plain state count is the sum of the classes' sizes.

pub use hammer_puzzle::Countable;
use rustc_hash::FxHashMap;

/// Whether to merge states with equal fingerprints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// Every state on its own.
    None,
    /// One representative per fingerprint class. The state counts are exact only when
    /// the merged symmetries map the reachable set onto itself, as they do when they
    /// fix the start; path counts are exact regardless.
    Symmetry,
}

impl Reduction {
    /// The key `state` is merged under: its own, or its class's fingerprint.
    pub(crate) fn key<P: Countable>(self, puzzle: &P, state: &P::State) -> u128 {
        match self {
            Reduction::None => puzzle.state_key(state),
            Reduction::Symmetry => puzzle.fingerprint(state),
        }
    }

    /// The states an entry of `state` stands for: 1, or its class's size.
    pub(crate) fn weight<P: Countable>(self, puzzle: &P, state: &P::State) -> u64 {
        match self {
            Reduction::None => 1,
            Reduction::Symmetry => puzzle.class_size(state),
        }
    }
}

/// One level of a count: the states of one score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The score of the level's states.
    pub score: u32,
    /// Entries kept: classes modulo symmetry, else states.
    pub classes: u64,
    /// Distinct states (the sum of the classes' sizes).
    pub states: u64,
    /// Distinct move sequences from the start to a state of this level (saturating).
    pub paths: u128,
    /// With a goal: the entries of this level from which a goal state is reachable.
    pub alive: Option<u64>,
}

/// The result of a count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts<S> {
    /// Levels by falling score; the first is the start's.
    pub levels: Vec<Level>,
    /// The lowest score of any reachable state.
    pub min_score: u32,
    /// The entries of the lowest level (representatives modulo symmetry), each with
    /// the move sequences that reach it (its whole class, modulo symmetry).
    pub lowest: Vec<(S, u128)>,
}

impl<S> Counts<S> {
    /// Reachable entries (classes modulo symmetry, else states).
    pub fn classes(&self) -> u64 {
        self.levels.iter().map(|l| l.classes).sum()
    }

    /// Reachable states.
    pub fn states(&self) -> u64 {
        self.levels.iter().map(|l| l.states).sum()
    }

    /// The level of `score`, if any state has it.
    pub fn level(&self, score: u32) -> Option<&Level> {
        self.levels.iter().find(|l| l.score == score)
    }

    /// Entries from which a goal state is reachable, when counted with a goal.
    pub fn alive(&self) -> Option<u64> {
        self.levels.iter().map(|l| l.alive).sum()
    }
}

struct Entry<S> {
    state: S,
    paths: u128,
    alive: bool,
}

type LevelMap<S> = FxHashMap<u128, Entry<S>>;

/// Counts everything reachable from `start`.
pub fn count<P: Countable>(puzzle: &P, start: &P::State, reduction: Reduction) -> Counts<P::State> {
    run(puzzle, start, reduction, None::<fn(&P::State) -> bool>)
}

/// Counts everything reachable from `start`, and per level the entries from which a
/// state satisfying `goal` is reachable. Keeps every level in memory for the backward
/// pass. With [`Reduction::Symmetry`], `goal` must give the same answer on a whole class.
pub fn count_towards<P: Countable>(
    puzzle: &P,
    start: &P::State,
    reduction: Reduction,
    goal: impl Fn(&P::State) -> bool,
) -> Counts<P::State> {
    run(puzzle, start, reduction, Some(goal))
}

fn run<P: Countable>(
    puzzle: &P,
    start: &P::State,
    reduction: Reduction,
    goal: Option<impl Fn(&P::State) -> bool>,
) -> Counts<P::State> {
    let key = |s: &P::State| reduction.key(puzzle, s);
    let size = |s: &P::State| reduction.weight(puzzle, s);
    // Levels by score: every move lowers the score, so no level exceeds the start's.
    let top = puzzle.score(start);
    let mut pending: Vec<LevelMap<P::State>> = (0..=top).map(|_| LevelMap::default()).collect();
    pending[top as usize].insert(
        key(start),
        Entry {
            state: *start,
            paths: 1,
            alive: false,
        },
    );
    let mut done: Vec<(u32, LevelMap<P::State>)> = Vec::new();
    let mut levels = Vec::new();
    let mut moves = Vec::new();
    for score in (0..=top).rev() {
        let level = std::mem::take(&mut pending[score as usize]);
        if level.is_empty() {
            continue;
        }
        let (lower, _) = pending.split_at_mut(score as usize);
        let mut states = 0u64;
        let mut paths = 0u128;
        for entry in level.values() {
            states += size(&entry.state);
            paths = paths.saturating_add(entry.paths);
            puzzle.moves(&entry.state, &mut moves);
            for &mv in &moves {
                let child = puzzle.apply(&entry.state, mv);
                let slot = lower[puzzle.score(&child) as usize]
                    .entry(key(&child))
                    .or_insert(Entry {
                        state: child,
                        paths: 0,
                        alive: false,
                    });
                slot.paths = slot.paths.saturating_add(entry.paths);
            }
        }
        levels.push(Level {
            score,
            classes: level.len() as u64,
            states,
            paths,
            alive: None,
        });
        if goal.is_some() || lower.iter().all(|l| l.is_empty()) {
            done.push((score, level));
        }
    }
    if let Some(goal) = goal {
        // Backward: lowest score first, so every child's flag is final when read.
        for i in (0..done.len()).rev() {
            let mut flags = Vec::with_capacity(done[i].1.len());
            for (k, entry) in done[i].1.iter() {
                let mut alive = goal(&entry.state);
                if !alive {
                    puzzle.moves(&entry.state, &mut moves);
                    alive = moves.iter().any(|&mv| {
                        let child = puzzle.apply(&entry.state, mv);
                        let cs = puzzle.score(&child);
                        done[i + 1..]
                            .iter()
                            .find(|(s, _)| *s == cs)
                            .and_then(|(_, m)| m.get(&key(&child)))
                            .is_some_and(|e| e.alive)
                    });
                }
                flags.push((*k, alive));
            }
            let count = flags.iter().filter(|(_, a)| *a).count() as u64;
            let level = &mut done[i].1;
            for (k, alive) in flags {
                if let Some(e) = level.get_mut(&k) {
                    e.alive = alive;
                }
            }
            levels[i].alive = Some(count);
        }
    }
    let min_score = levels.last().map_or(0, |l| l.score);
    let lowest = done
        .pop()
        .map(|(_, m)| m.into_values().map(|e| (e.state, e.paths)).collect())
        .unwrap_or_default();
    Counts {
        levels,
        min_score,
        lowest,
    }
}
