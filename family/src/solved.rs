//! What solving one instance gives: the columns every family shares, and the family's
//! own typed columns.

use hammer_proto::v1::{Cell as WireCell, GameResult, cell};

/// The Arrow type of a family column. Family columns are nullable in the dataset (rows
/// of other families leave them empty), so one schema serves a mixed sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    /// A 32-bit integer.
    Int32,
    /// A 64-bit integer.
    Int64,
    /// A string.
    Utf8,
    /// A boolean.
    Boolean,
}

/// One family-specific dataset column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnSpec {
    /// Starts with the family's name and `_` (`peg_finishes`).
    pub name: &'static str,
    /// Its Arrow type.
    pub kind: ColumnKind,
    /// One line for `docs/dataset.md`.
    pub doc: &'static str,
}

/// A family column's value in one row; `Null` where the family has nothing to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// A value of an integer column.
    Int(i64),
    /// A value of a string column.
    Text(String),
    /// A value of a boolean column.
    Bool(bool),
    /// No value.
    Null,
}

/// The result of solving one instance: the game's record as the wire and the dataset row
/// carry it, and what only `hammer solve` prints.
///
/// The record is the wire's [`GameResult`] itself, filled here from the search's outcome,
/// so that a game's values are written once, by the family, and pass unchanged from the
/// worker to the row builder (`hammer_sweep::UnitRows::row`), rather than through a type
/// of their own and a copy into the wire's.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    /// The game's values, with `game_index` and `wall_ns` left 0 for the caller that
    /// knows them; nothing of a gang (`gang_expansions`, ...) but for a gang's game.
    pub game: GameResult,
    /// Successor lists generated to order moves (most-options, Monte-Carlo playouts),
    /// kept apart from `expansions`.
    pub heuristic_steps: u64,
    /// Fully explored states in the memo at the end.
    pub memo_states: u64,
    /// What the search did at each score, when the configuration asked for a profile
    /// (`hammer solve --profile`); never a dataset column.
    pub profile: Option<Box<hammer_solver::Profile>>,
}

impl Solved {
    /// The limit that stopped the search, read back from the record's `capped_by`.
    pub fn capped_by(&self) -> Option<hammer_solver::Cap> {
        hammer_solver::Cap::parse(&self.game.capped_by)
    }

    /// The record of a search's `outcome` from `board`, positions and moves written in
    /// `notation` (the search started after the random prefix), with the family's own
    /// cells `extra`. A family whose solve does more than one search adds its counts.
    pub fn of<N, P>(
        notation: &N,
        board: &N::Position,
        outcome: &hammer_solver::Outcome<P>,
        extra: Vec<Cell>,
    ) -> Solved
    where
        N: hammer_engine::Notation<Move = P::Move>,
        P: hammer_engine::Puzzle,
    {
        let start = notation.after(board, &outcome.prefix_moves);
        Solved {
            game: GameResult {
                board: notation.write(board),
                prefix_moves: notation.write_moves(board, &outcome.prefix_moves),
                start: notation.write(&start),
                score: outcome.min_score,
                exhaustive: outcome.exhaustive,
                expansions: outcome.counters.expansions,
                attempts: outcome.counters.attempts,
                solution: notation.write_moves(&start, &outcome.solution),
                lower_bound: outcome.lower_bound,
                extra: cells_to_wire(extra),
                capped_by: outcome
                    .capped_by
                    .map_or(String::new(), |c| c.name().to_owned()),
                memo_bytes: outcome.memo_bytes,
                ..GameResult::default()
            },
            heuristic_steps: outcome.counters.heuristic_steps,
            memo_states: outcome.memo_states,
            profile: outcome.profile.clone(),
        }
    }
}

/// A family's cells as the wire carries them ([`GameResult::extra`]).
pub fn cells_to_wire(cells: impl IntoIterator<Item = Cell>) -> Vec<WireCell> {
    let value = |c| match c {
        Cell::Int(v) => Some(cell::Value::Int(v)),
        Cell::Text(v) => Some(cell::Value::Text(v)),
        Cell::Bool(v) => Some(cell::Value::Boolean(v)),
        Cell::Null => None,
    };
    cells
        .into_iter()
        .map(|c| WireCell { value: value(c) })
        .collect()
}

/// The family's cells of a [`GameResult`]; the inverse of [`cells_to_wire`].
pub fn cells_from_wire(cells: impl IntoIterator<Item = WireCell>) -> Vec<Cell> {
    cells
        .into_iter()
        .map(|c| match c.value {
            Some(cell::Value::Int(v)) => Cell::Int(v),
            Some(cell::Value::Text(v)) => Cell::Text(v),
            Some(cell::Value::Boolean(v)) => Cell::Bool(v),
            None => Cell::Null,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_cross_the_wire_unchanged() {
        let cells = vec![
            Cell::Int(-3),
            Cell::Text("ab".into()),
            Cell::Bool(true),
            Cell::Null,
        ];
        assert_eq!(cells_from_wire(cells_to_wire(cells.clone())), cells);
    }
}
