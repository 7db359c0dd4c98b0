//! States and moves as bytes, for searches whose workers are separate processes.

use crate::Puzzle;

/// A puzzle whose states and moves can travel between processes.
///
/// A search of one game by a gang of processes (`hammer_solver::owners`) sends states to
/// their owners and moves along a solution's path; this is how they are written. The
/// bytes are private to one build of hammer: every member of a gang runs the same one.
pub trait Wire: Puzzle {
    /// Appends `state` to `out`.
    fn put_state(&self, state: &Self::State, out: &mut Vec<u8>);

    /// Reads a state from the front of `input` and advances it past the state; `None`
    /// when the bytes are not a valid state (a peer is never trusted to be well-formed).
    fn take_state(&self, input: &mut &[u8]) -> Option<Self::State>;

    /// Appends `mv` to `out`.
    fn put_move(&self, mv: Self::Move, out: &mut Vec<u8>);

    /// Reads a move from the front of `input`, as [`Wire::take_state`] reads a state.
    /// The move is checked for its shape only; a solution's moves are replayed against
    /// the rules before they are shown.
    fn take_move(&self, input: &mut &[u8]) -> Option<Self::Move>;
}

/// Reads the `N` bytes at the front of `input` and advances it past them.
pub fn take_bytes<const N: usize>(input: &mut &[u8]) -> Option<[u8; N]> {
    let (head, rest) = input.split_first_chunk::<N>()?;
    *input = rest;
    Some(*head)
}
