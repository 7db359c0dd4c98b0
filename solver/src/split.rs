//! One game split into parts that different workers search at the same time.
//!
//! Every part computes the same frontier: the states a few plies below the start,
//! breadth first in move order with transpositions merged, down to the first level with
//! at least [`NODES_PER_PART`] states per part. Part `i` of `k` searches the subtrees of
//! frontier nodes `i, i + k, i + 2k, ...` (dealt round robin, so that the heavy subtrees
//! of one region spread over the parts), one after the other with one memo, each with the
//! configuration's order and schedule.
//!
//! A part starts from the best score of the levels above the frontier (which every part
//! knows), publishes every better score it reaches with its moves, and prunes against
//! any better score another part reached, as its worker is told ([`SharedBest`]). A told
//! score always comes with its solution, and a part reports the better of its own and
//! the told one with that solution, so every part's score has a witness. Nothing below
//! the score a part ended with exists in its subtrees, so the least score over the parts
//! is exact whatever each part was told and when.
//!
//! In a race ([`SplitMode::Race`]) every part searches the whole game under a random
//! stream of its own, and the first to end exhaustive settles it. Part 0 is exactly the
//! search of the game unsplit (same stream, same start), so a race never needs more
//! expansions than one worker's search of the same run seed, save for what the parts'
//! told scores change; the other parts search all the frontier nodes as one forest.
//! Dividing the frontier does not divide a Martello game's work, because its moves
//! commute: nearly every state below one first move is also reachable below the others,
//! so each part of an unsolvable game costs about as much as the whole search
//! (docs/frontier.md).

use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use hammer_puzzle::Puzzle;

/// Frontier nodes per part the frontier grows to (when the game is deep enough): enough
/// that one heavy subtree does not decide a part's length.
pub const NODES_PER_PART: usize = 16;

/// The deepest frontier: a game with fewer states than that a few plies down is small.
const MAX_DEPTH: u32 = 12;

/// The scores a part and the other parts of its game reached, each with its solution
/// (moves from the start, in the family's notation), between a running search and its
/// worker. The search looks at the told score every few thousand expansions. Equality is
/// identity.
#[derive(Clone)]
pub struct SharedBest(Arc<Shared>);

struct Shared {
    /// The least score told, for the search to prune against (`u32::MAX`: none).
    told_score: AtomicU32,
    told: Mutex<Option<(u32, String)>>,
    /// The least score this part reached itself, published by the family's solver.
    found: Mutex<Option<(u32, String)>>,
}

fn lower(slot: &Mutex<Option<(u32, String)>>, score: u32, solution: &str) -> bool {
    let mut slot = slot.lock().unwrap_or_else(|p| p.into_inner());
    if slot.as_ref().is_some_and(|(s, _)| *s <= score) {
        return false;
    }
    *slot = Some((score, solution.to_owned()));
    true
}

impl SharedBest {
    /// Nothing known yet.
    pub fn new() -> SharedBest {
        SharedBest(Arc::new(Shared {
            told_score: AtomicU32::new(u32::MAX),
            told: Mutex::new(None),
            found: Mutex::new(None),
        }))
    }

    /// Another part reached `score` by `solution`: prune against it from now on.
    pub fn tell(&self, score: u32, solution: &str) {
        if lower(&self.0.told, score, solution) {
            self.0.told_score.fetch_min(score, Ordering::Relaxed);
        }
    }

    /// The least score told (`u32::MAX`: none).
    pub fn get(&self) -> u32 {
        self.0.told_score.load(Ordering::Relaxed)
    }

    /// The least score told, with its solution.
    pub fn told(&self) -> Option<(u32, String)> {
        self.0
            .told
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// This part reached `score` by `solution`.
    pub fn publish(&self, score: u32, solution: &str) {
        lower(&self.0.found, score, solution);
    }

    /// The least score this part reached so far, with its solution.
    pub fn found(&self) -> Option<(u32, String)> {
        self.0
            .found
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

impl Default for SharedBest {
    fn default() -> Self {
        SharedBest::new()
    }
}

impl PartialEq for SharedBest {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl fmt::Debug for SharedBest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SharedBest({})", self.get())
    }
}

/// Which part of a split game to search.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitPart {
    /// This part, `0..count`.
    pub index: u32,
    /// Parts the game is split into (at least 1).
    pub count: u32,
    /// What each part searches.
    pub mode: SplitMode,
    /// Scores other parts proved, as they become known.
    pub shared: SharedBest,
}

/// What the parts of a split game search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SplitMode {
    /// Part `i` of `k` searches frontier nodes `i, i + k, ...`: the parts divide the
    /// search tree. A state reachable from the subtrees of two parts (a transposition) is
    /// searched by both.
    #[default]
    Subtrees,
    /// Every part searches the whole game, under its own random stream (part 0 as the
    /// unsplit search): a race in which the first part to prove the game's answer
    /// settles it (a portfolio). Under a random order the parts sample the tree
    /// independently, so the first of `k` to find a finish that proves itself comes
    /// early.
    Race,
}

impl SplitMode {
    /// The name a sweep file uses (`split_mode`).
    pub fn name(self) -> &'static str {
        match self {
            SplitMode::Subtrees => "subtrees",
            SplitMode::Race => "race",
        }
    }

    /// The mode named `text` in a sweep file.
    pub fn from_name(text: &str) -> Option<SplitMode> {
        match text {
            "subtrees" => Some(SplitMode::Subtrees),
            "race" => Some(SplitMode::Race),
            _ => None,
        }
    }
}

/// How a game was split: the same for every part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitShape {
    /// Frontier nodes over all the parts.
    pub nodes: u32,
    /// Plies from the start to the frontier.
    pub depth: u32,
}

/// One frontier node: the moves from the start and the state they reach.
pub(crate) struct Node<P: Puzzle> {
    pub path: Vec<P::Move>,
    pub state: P::State,
    pub bound: u32,
    pub fp: u128,
}

/// The frontier of a game split into `parts`, and the best score above it.
pub(crate) struct Frontier<P: Puzzle> {
    pub nodes: Vec<Node<P>>,
    pub shape: SplitShape,
    /// The least score of the states above the frontier and on it, and its moves.
    pub best: u32,
    pub best_path: Vec<P::Move>,
    /// Successor lists generated to build it.
    pub expansions: u64,
}

/// The frontier of `start` for `parts` parts (see the module doc). Deterministic: the
/// same on every worker.
pub(crate) fn frontier<P: Puzzle>(puzzle: &P, start: &P::State, parts: u32) -> Frontier<P> {
    let want = NODES_PER_PART * parts.max(1) as usize;
    let mut level: Vec<(Vec<P::Move>, P::State)> = vec![(Vec::new(), *start)];
    let mut best = puzzle.score(start);
    let mut best_path = Vec::new();
    let mut expansions = 0u64;
    let mut depth = 0u32;
    let mut moves = Vec::new();
    while level.len() < want && depth < MAX_DEPTH {
        let mut next = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (path, state) in &level {
            puzzle.moves(state, &mut moves);
            expansions += 1;
            for &mv in &moves {
                let child = puzzle.apply(state, mv);
                if !seen.insert(puzzle.fingerprint(&child)) {
                    continue;
                }
                let mut child_path = path.clone();
                child_path.push(mv);
                let score = puzzle.score(&child);
                if score < best {
                    best = score;
                    best_path.clone_from(&child_path);
                }
                next.push((child_path, child));
            }
        }
        if next.is_empty() {
            // Every state of the level is a dead end: the levels above hold the answer.
            level.clear();
            break;
        }
        level = next;
        depth += 1;
    }
    if depth == 0 {
        // A start with nothing to split is searched whole by part 0.
        level.clear();
        level.push((Vec::new(), *start));
    }
    let nodes: Vec<Node<P>> = level
        .into_iter()
        .map(|(path, state)| Node {
            bound: puzzle.lower_bound(&state),
            fp: puzzle.fingerprint(&state),
            path,
            state,
        })
        .collect();
    Frontier {
        shape: SplitShape {
            nodes: nodes.len() as u32,
            depth,
        },
        nodes,
        best,
        best_path,
        expansions,
    }
}

impl<P: Puzzle> crate::Solver<P> {
    /// Part `part` of the game `board` under `config` (see the module doc). The outcome's
    /// `min_score` is the least score the part reached itself or found above the frontier,
    /// with its moves; `lower_bound` is the start's bound when the part is exhaustive, and
    /// when it is not, the bound it proved on its subtrees (at most `min_score`).
    pub(crate) fn solve_part(
        &mut self,
        board: &P::State,
        config: &crate::Config,
        seed: u64,
        part: &SplitPart,
    ) -> crate::Outcome<P> {
        let (prefix_moves, start) = self.prefix(board, config, seed);
        let puzzle = &self.puzzle;
        let search = &mut self.search;
        search.reset(puzzle, &start, config);
        let frontier = frontier(puzzle, &start, part.count);
        search.shared = Some(part.shared.clone());
        // The first racer is the unsplit search: it neither counts the frontier's
        // expansions nor starts from the scores found above it.
        let unsplit = part.mode == SplitMode::Race && part.index == 0;
        if !unsplit {
            search.counters.expansions += frontier.expansions;
            if frontier.best < search.best {
                search.best = frontier.best;
                search.own_best = frontier.best;
                search.best_path.clone_from(&frontier.best_path);
            }
        }
        if let Some(hook) = &mut search.on_find {
            hook(search.own_best, &search.best_path);
        }
        search.best = search.best.min(part.shared.get());
        let exhaustive = if unsplit {
            crate::run_unsplit(search, puzzle, &start, config, seed)
        } else {
            let (first, count) = match part.mode {
                SplitMode::Subtrees => (part.index as usize, part.count.max(1) as usize),
                SplitMode::Race => (0, 1),
            };
            let mine: Vec<&Node<P>> = frontier.nodes.iter().skip(first).step_by(count).collect();
            let mut rng =
                hammer_puzzle::seeded::fast_stream(seed, "hammer/split", u64::from(part.index));
            crate::run_schedule(search, config, |search, order, budget| {
                search.attempt_forest(puzzle, &mine, order, &mut rng, budget)
            })
        };
        search.shared = None;
        crate::finish(
            search,
            config,
            prefix_moves,
            start,
            exhaustive,
            Some(frontier.shape),
        )
    }
}
