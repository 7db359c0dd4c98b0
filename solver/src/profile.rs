//! A search profile: what the search did at each score (Martello: each stone count), to
//! decide where a stronger search should push (docs/search.md).
//!
//! Profiling is off unless [`crate::Config::profile`] asks for it; then the search counts
//! every expansion and every successor it looks at, and computes the puzzle's base bound
//! ([`hammer_puzzle::Puzzle::base_bound`]) of each successor the bound prunes. Expansions
//! and results are the same with and without it.

/// The counts of one score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Level {
    /// States of this score expanded (over all attempts; a state is expanded once per
    /// attempt unless the memo forgot it).
    pub expanded: u64,
    /// The sum of their lower bounds, for the mean gap between score and bound.
    pub bound_sum: u64,
    /// Successors their expansions generated.
    pub children: u64,
    /// Successors skipped because their bound reached the best score when their turn
    /// came.
    pub pruned: u64,
    /// Of `pruned`, those the base bound alone prunes; the rest needed the refinements.
    pub pruned_base: u64,
    /// Successors skipped because the memo holds them.
    pub memo_hits: u64,
}

/// A game's profile: `levels[s]` counts the expanded states of score `s`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// The counts per score, from 0.
    pub levels: Vec<Level>,
    /// The start state's lower bound: the gap to the proved minimum is what the bound
    /// leaves to the search.
    pub start_bound: u32,
    /// Memo entries replaced because the memo was at its limit (`max_memo_mb`).
    pub memo_evictions: u64,
}

impl Profile {
    /// The level of score `score`, made when first needed.
    #[inline]
    pub(crate) fn level(&mut self, score: u32) -> &mut Level {
        let i = score as usize;
        if self.levels.len() <= i {
            self.levels.resize(i + 1, Level::default());
        }
        &mut self.levels[i]
    }

    /// All levels added up.
    pub fn total(&self) -> Level {
        self.levels.iter().fold(Level::default(), |a, l| Level {
            expanded: a.expanded + l.expanded,
            bound_sum: a.bound_sum + l.bound_sum,
            children: a.children + l.children,
            pruned: a.pruned + l.pruned,
            pruned_base: a.pruned_base + l.pruned_base,
            memo_hits: a.memo_hits + l.memo_hits,
        })
    }
}
