//! The family's notation of positions and moves.
//!
//! A position is a board in the spec's notation, optionally followed by `:` and the
//! path so far as comma-separated cell numbers: `#../.../...` before the first move,
//! `#../.../...:2,3,6,9` after two. The path must be a legal partial tour that ends
//! where a slide stops (moves are whole slides). A move is a cell number (the first
//! move: place the token there) or a slide `U`, `L`, `R`, `D`.

use hammer_engine::tours::{Board, Dir, State, Step, ToursError};

use crate::FamilyError;

/// A parsed position: the board, the path so far (grid cells) and the state it leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The board and its obstacles.
    pub board: Board,
    /// The cells visited so far, in order.
    pub path: Vec<u8>,
    /// The search state the path leaves.
    pub state: State,
}

pub(crate) fn bad_state(text: &str, e: impl std::fmt::Display) -> FamilyError {
    FamilyError::BadState {
        text: text.to_string(),
        reason: e.to_string(),
    }
}

impl Position {
    /// The position before the first move.
    pub fn start(board: Board) -> Position {
        Position {
            board,
            path: Vec::new(),
            state: board.start(),
        }
    }

    /// Reads `BOARD` or `BOARD:c1,c2,...`.
    pub fn parse(text: &str) -> Result<Position, FamilyError> {
        let (board_text, path_text) = match text.split_once(':') {
            Some((b, p)) => (b, Some(p)),
            None => (text, None),
        };
        let board = Board::parse(board_text.trim()).map_err(|e| bad_state(text, e))?;
        let Some(path_text) = path_text else {
            return Ok(Position::start(board));
        };
        let numbers = path_text
            .split(',')
            .map(|t| {
                t.trim().parse::<u32>().map_err(|_| {
                    bad_state(
                        text,
                        ToursError::CellRange {
                            cell: format!("'{}'", t.trim()),
                            cells: board.cells(),
                        },
                    )
                })
            })
            .collect::<Result<Vec<u32>, _>>()?;
        let path = board.indices(&numbers).map_err(|e| bad_state(text, e))?;
        Position::from_path(board, path).map_err(|e| bad_state(text, e))
    }

    /// The position after `path` (grid cells), which must be a legal partial tour
    /// ending where a slide stops.
    pub fn from_path(board: Board, path: Vec<u8>) -> Result<Position, String> {
        let (state, arrived) = board.walk(&path).map_err(|e| e.to_string())?;
        if let (Some(d), Some(t)) = (arrived, state.token)
            && d.step(t).is_some_and(|i| !state.blocked.has(i))
        {
            return Err(format!(
                "the token is still sliding at cell {}: a position ends where a slide stops",
                board.number(t)
            ));
        }
        Ok(Position { board, path, state })
    }

    /// Plays `step`, which must be legal here.
    pub fn play(&self, step: Step) -> Position {
        let mut path = self.path.clone();
        let state = self.state.walk(step, &mut path);
        Position {
            board: self.board,
            path,
            state,
        }
    }

    /// The path as cell numbers.
    pub fn numbers(&self) -> Vec<u32> {
        self.path.iter().map(|&i| self.board.number(i)).collect()
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.board)?;
        if !self.path.is_empty() {
            f.write_str(":")?;
            f.write_str(&join(&self.numbers(), ","))?;
        }
        Ok(())
    }
}

/// Numbers joined by `sep`.
pub fn join(numbers: &[u32], sep: &str) -> String {
    numbers
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// A move's text: the start cell's number, or the slide's letter.
pub fn step_text(board: &Board, step: Step) -> String {
    match step {
        Step::Place(c) => board.number(c).to_string(),
        Step::Slide(d) => d.letter().to_string(),
    }
}

/// Reads a move and checks it is legal in `pos`; the error says why not (the caller names
/// the move and the position).
fn parse_step(pos: &Position, text: &str) -> Result<Step, String> {
    let t = text.trim();
    let step = if let Some(d) = Dir::parse(t) {
        Step::Slide(d)
    } else if let Ok(k) = t.parse::<u32>() {
        let cell = pos
            .board
            .index(k)
            .ok_or_else(|| format!("cell {k} out of range 1..{}", pos.board.cells()))?;
        Step::Place(cell)
    } else {
        return Err("a move is a start cell number or a slide U, L, R or D".to_string());
    };
    let mut legal = Vec::new();
    hammer_engine::Puzzle::moves(&hammer_engine::tours::Tours, &pos.state, &mut legal);
    if legal.contains(&step) {
        return Ok(step);
    }
    Err(match (step, pos.state.token) {
        (Step::Place(_), Some(_)) => "the token is already placed: slide U, L, R or D".into(),
        (Step::Place(c), None) => format!("cell {} is an obstacle", pos.board.number(c)),
        (Step::Slide(_), None) => "place the token first: the first move is a cell number".into(),
        (Step::Slide(d), Some(_)) => format!(
            "cannot slide {}: the next cell is off the board, an obstacle or visited",
            d.letter()
        ),
    })
}

/// Slide tours' notation: a position carries its board, so one value serves every point.
#[derive(Clone, Copy, Debug, Default)]
pub struct ToursNotation;

/// The reason of a refused position, without the text it names (the generic adapter
/// names it).
fn reason(e: FamilyError) -> String {
    match e {
        FamilyError::BadState { reason, .. } => reason,
        other => other.to_string(),
    }
}

impl hammer_engine::Notation for ToursNotation {
    type Position = Position;
    type Move = Step;
    type Error = String;

    fn read(&self, text: &str) -> Result<Position, String> {
        Position::parse(text).map_err(reason)
    }

    fn write(&self, pos: &Position) -> String {
        pos.to_string()
    }

    fn legal(&self, pos: &Position, out: &mut Vec<Step>) {
        hammer_engine::Puzzle::moves(&hammer_engine::tours::Tours, &pos.state, out);
    }

    fn play(&self, pos: &Position, mv: Step) -> Position {
        pos.play(mv)
    }

    fn read_move(&self, pos: &Position, text: &str) -> Result<Step, String> {
        parse_step(pos, text)
    }

    fn write_move(&self, pos: &Position, mv: Step) -> String {
        step_text(&pos.board, mv)
    }

    fn score(&self, pos: &Position) -> u32 {
        hammer_engine::Puzzle::score(&hammer_engine::tours::Tours, &pos.state)
    }
}
