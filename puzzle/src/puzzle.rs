/// A successor as the search keeps it: the move, the child's lower bound and its
/// fingerprint. The child state itself is rebuilt with [`Puzzle::apply`] only when the
/// search visits it, which is rare: most successors are pruned or found in the memo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Successor<M> {
    /// The move from the parent.
    pub mv: M,
    /// The child's lower bound on the score.
    pub bound: u32,
    /// The child's fingerprint, the memo's key.
    pub fp: u128,
}

/// What a solver needs to know about a one-person elimination puzzle.
///
/// Solvers are generic over this trait and monomorphised, so the rules cost nothing
/// extra at run time. A puzzle's score is what the solver minimises (stones left for
/// Martello), and [`Puzzle::lower_bound`] must never exceed the best score reachable
/// from a state: solvers prune on it and stop as soon as they reach it, so an unsound
/// bound would silently turn exact results into wrong ones.
pub trait Puzzle: Sync {
    /// States and moves are plain values that threads pass one another (a game searched
    /// by several owners sends states between them).
    type State: Copy + Eq + std::fmt::Debug + Send + Sync;
    /// A move from one state to the next.
    type Move: Copy + Eq + std::fmt::Debug + Send + Sync;
    /// What the learned move order knows of the puzzle's moves; [`NoFeatures`] for a
    /// puzzle without transition features.
    type Features: MoveFeatures<Self>;

    /// Clears `out` and pushes the legal moves of `state`, each at most once, in the
    /// puzzle's standard order.
    fn moves(&self, state: &Self::State, out: &mut Vec<Self::Move>);

    /// The state after `mv`, which must be one of `moves(state)`.
    fn apply(&self, state: &Self::State, mv: Self::Move) -> Self::State;

    /// The quantity to minimise; it falls by at least one with every move.
    fn score(&self, state: &Self::State) -> u32;

    /// A sound lower bound on the score of every state reachable from `state`.
    fn lower_bound(&self, state: &Self::State) -> u32;

    /// The lower bound without its refinements, for search profiles: a profile counts
    /// the successors this alone prunes, so that it tells what the refinements add
    /// (Martello: the components of the whole board, before zones). At most
    /// [`Puzzle::lower_bound`]; the default is the bound itself. Searches call it only
    /// when profiling.
    fn base_bound(&self, state: &Self::State) -> u32 {
        self.lower_bound(state)
    }

    /// The lower bound of `child`, the state after `mv` from `parent` whose bound is
    /// `parent_bound`. Puzzles whose bound changes little from move to move override
    /// this with an incremental version; it must equal `lower_bound(child)`.
    #[inline]
    fn child_lower_bound(
        &self,
        parent: &Self::State,
        parent_bound: u32,
        mv: Self::Move,
        child: &Self::State,
    ) -> u32 {
        let _ = (parent, parent_bound, mv);
        self.lower_bound(child)
    }

    /// A 128-bit fingerprint of the state for memo tables. Equal states must give
    /// equal fingerprints; distinct states collide with probability about 2^-128.
    fn fingerprint(&self, state: &Self::State) -> u128;

    /// The fingerprint of `child`, the state after `mv` from `parent` whose fingerprint
    /// is `parent_fp`; it must equal `fingerprint(child)`. Override it when a move
    /// changes little of the state.
    #[inline]
    fn child_fingerprint(
        &self,
        parent: &Self::State,
        parent_fp: u128,
        mv: Self::Move,
        child: &Self::State,
    ) -> u128 {
        let _ = (parent, parent_fp, mv);
        self.fingerprint(child)
    }

    /// A coarse key of the state for a search of one game shared by several workers, in
    /// which every state has one owner: states of one key have one owner. A key that
    /// few moves change keeps most successors with their parent's owner, so that they
    /// are not sent (abstract Zobrist hashing, Jinnai and Fukunaga, 2016). A puzzle gives
    /// a key for every state or for none; `None`, the default, lets the fingerprint pick
    /// the owner, and about (K - 1) / K of the successors go to another worker.
    #[inline]
    fn owner_key(&self, state: &Self::State) -> Option<u64> {
        let _ = state;
        None
    }

    /// [`Puzzle::owner_key`] of the state after `mv` from `state`; it must equal
    /// `owner_key(&apply(state, mv))`. Override it to skip building the child.
    #[inline]
    fn child_owner_key(&self, state: &Self::State, mv: Self::Move) -> Option<u64> {
        self.owner_key(state)
            .and_then(|_| self.owner_key(&self.apply(state, mv)))
    }

    /// Whether [`Puzzle::undo_code`] and [`Puzzle::undo`] work. A search of one game
    /// shared by several workers then keeps, per state, a 104-bit fingerprint and the
    /// state's undo code in one 16-byte slot, instead of the fingerprint, its parent's
    /// and the move (40 bytes for Martello), and traces the best path back by undoing
    /// moves. The default: no.
    const UNDOES: bool = false;

    /// A code, below 2^24 - 1, from which [`Puzzle::undo`] rebuilds `parent` and `mv`
    /// out of the state after `mv`. Only called when [`Puzzle::UNDOES`].
    fn undo_code(&self, parent: &Self::State, mv: Self::Move) -> u32 {
        let _ = (parent, mv);
        0
    }

    /// The state before, and the move to, `child`, from the move's
    /// [`Puzzle::undo_code`]; `None` when the code does not fit `child` (Martello: the
    /// eaten stone is on the board, or the eater is not where the move leaves it).
    fn undo(&self, child: &Self::State, code: u32) -> Option<(Self::State, Self::Move)> {
        let _ = (child, code);
        None
    }

    /// Clears `out` and pushes every successor of `state` (whose lower bound is `bound`
    /// and fingerprint `fp`), in the order of [`Puzzle::moves`], each with the child's
    /// lower bound and fingerprint. A successor whose bound is `cutoff` or more will be
    /// pruned, so its fingerprint is never read and is left 0: a fingerprint can cost
    /// more than the rest (peg solitaire's hashes eight symmetry images). It must
    /// otherwise agree with `moves`, `apply`, `child_lower_bound` and `child_fingerprint`,
    /// which is what the default does; puzzles override it to share work between the
    /// successors of one state.
    #[inline]
    fn successors(
        &self,
        state: &Self::State,
        bound: u32,
        fp: u128,
        cutoff: u32,
        moves: &mut Vec<Self::Move>,
        out: &mut Vec<Successor<Self::Move>>,
    ) {
        self.moves(state, moves);
        out.clear();
        for &mv in moves.iter() {
            let child = self.apply(state, mv);
            let child_bound = self.child_lower_bound(state, bound, mv, &child);
            let child_fp = if child_bound >= cutoff {
                0
            } else {
                self.child_fingerprint(state, fp, mv, &child)
            };
            out.push(Successor {
                mv,
                bound: child_bound,
                fp: child_fp,
            });
        }
    }
}

/// The learned move order's view of a puzzle's moves (`hammer_solver::learned`): for each
/// move of a state, hashes of its transition cut at radius 1 ..= R, which say how alike
/// two moves are, so that moves like those taken on solution paths can be tried first.
///
/// A value holds what the moves of one state share (its pieces' signatures, say), so
/// that the search can keep one per depth and reuse it. [`MoveFeatures::of_child`] lets
/// a puzzle compute a child's features from its parent's and the move instead of from
/// scratch; the solver is monomorphised on the type, so none of this costs a virtual
/// call or an allocation per expansion.
pub trait MoveFeatures<P: Puzzle + ?Sized>: Default {
    /// The version of the features: a knowledge base records the version it was learned
    /// with, and is refused by a build whose version differs. `None`: the puzzle has no
    /// features, and the learned order keeps the standard order.
    const VERSION: Option<u32>;

    /// The longest radius [`MoveFeatures::transition_keys`] hashes to.
    const MAX_RADIUS: usize;

    /// Makes this the features of `state`.
    fn of_state(&mut self, puzzle: &P, state: &P::State);

    /// Makes this the features of `child`, the state after `mv` from `parent`, whose
    /// features are `from`. It must agree with `of_state(child)`, which is what the
    /// default does; a puzzle whose features change little from move to move overrides
    /// it with an incremental version.
    #[inline]
    fn of_child(
        &mut self,
        puzzle: &P,
        from: &Self,
        parent: &P::State,
        mv: P::Move,
        child: &P::State,
    ) {
        let _ = (from, parent, mv);
        self.of_state(puzzle, child);
    }

    /// Clears `out` and appends, for each successor of `state` in turn, `radius` hashes
    /// of its move's transition cut at radius 1 ..= `radius` (at most
    /// [`MoveFeatures::MAX_RADIUS`]). These must be the features of `state`
    /// ([`MoveFeatures::of_state`]). Returns false, leaving the order alone, when the
    /// puzzle has no features.
    fn transition_keys(
        &mut self,
        puzzle: &P,
        state: &P::State,
        succ: &[Successor<P::Move>],
        radius: usize,
        out: &mut Vec<u64>,
    ) -> bool;
}

/// The features of a puzzle without any: a learned order keeps the standard order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoFeatures;

impl<P: Puzzle + ?Sized> MoveFeatures<P> for NoFeatures {
    const VERSION: Option<u32> = None;
    const MAX_RADIUS: usize = 0;

    #[inline]
    fn of_state(&mut self, _puzzle: &P, _state: &P::State) {}

    #[inline]
    fn transition_keys(
        &mut self,
        _puzzle: &P,
        _state: &P::State,
        _succ: &[Successor<P::Move>],
        _radius: usize,
        _out: &mut Vec<u64>,
    ) -> bool {
        false
    }
}

/// What counting needs beyond [`Puzzle`]: a key of the state itself, and the size of a
/// fingerprint class. A puzzle whose fingerprint merges no states implements it with
/// `fingerprint` and 1.
/// (It lives here, next to [`Puzzle`], so that a family's rules can implement it; the
/// counting itself is `hammer_solver::count`.)
pub trait Countable: Puzzle {
    /// A 128-bit key of the state itself (no symmetry): equal keys exactly for equal
    /// states, up to the fingerprint's negligible collision chance.
    fn state_key(&self, state: &Self::State) -> u128;

    /// How many states share `state`'s fingerprint (its orbit under the symmetries the
    /// fingerprint merges).
    fn class_size(&self, state: &Self::State) -> u64;
}
