//! The spec's notation: positions (`xox/oxo`, rows from the top joined by `/`, `x`
//! black, `o` white, `.` empty) and moves (`F-T`, plain decimal cell numbers).

use super::board::{Board, MAX_CELLS};
use super::position::{Colour, Move, Position, State};
use super::{Clobber, ClobberError, Rule};

/// Parses a position; its rows give the board.
pub fn parse_position(text: &str) -> Result<(Board, Position), ClobberError> {
    let rows: Vec<&str> = text.split('/').collect();
    let lengths: Vec<usize> = rows.iter().map(|r| r.chars().count()).collect();
    if lengths.iter().any(|&l| l != lengths[0]) {
        return Err(ClobberError::RowLengths(lengths));
    }
    if lengths[0] == 0 {
        return Err(ClobberError::EmptyRow);
    }
    let (m, n) = (rows.len(), lengths[0]);
    if m * n > MAX_CELLS as usize {
        return Err(ClobberError::TooLarge { m, n });
    }
    let board = Board::new(m as u32, n as u32)?;
    let mut pos = Position::default();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let bit = 1u64 << (r * n + c);
            match ch {
                'x' => pos.black |= bit,
                'o' => pos.white |= bit,
                '.' => {}
                other => {
                    return Err(ClobberError::BadChar {
                        ch: other,
                        row: r + 1,
                        column: c + 1,
                    });
                }
            }
        }
    }
    Ok((board, pos))
}

/// The notation of `pos` on `board`.
pub fn position_text(board: &Board, pos: &Position) -> String {
    let (m, n) = (board.m() as usize, board.n() as usize);
    let mut out = String::with_capacity(m * (n + 1));
    for r in 0..m {
        if r > 0 {
            out.push('/');
        }
        for c in 0..n {
            let cell = (r * n + c) as u8;
            out.push(pos.colour_at(cell).map_or('.', |colour| colour.letter()));
        }
    }
    out
}

/// Parses a cell number in plain decimal (no sign, no leading zero) into its bit index
/// on `board`.
pub fn parse_cell(board: &Board, text: &str) -> Result<u8, ClobberError> {
    let plain = !text.is_empty()
        && text.len() <= 20
        && text.bytes().all(|b| b.is_ascii_digit())
        && !text.starts_with('0');
    let number = plain
        .then(|| text.parse::<u64>().ok())
        .flatten()
        .ok_or_else(|| ClobberError::CellNumber(text.to_string()))?;
    if number > u64::from(board.cells()) {
        return Err(ClobberError::OffBoard {
            cell: number,
            m: board.m(),
            n: board.n(),
        });
    }
    Ok((number - 1) as u8)
}

/// Parses `F-T` on `board`: two cell numbers of the board that are neighbours. Whether
/// the move is legal in a position is for the rules to say.
pub fn parse_move(board: &Board, text: &str) -> Result<Move, ClobberError> {
    let mut parts = text.split('-');
    let (Some(from), Some(to), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(ClobberError::MoveSyntax(text.to_string()));
    };
    let (from, to) = (parse_cell(board, from)?, parse_cell(board, to)?);
    if !board.adjacent(from, to) {
        return Err(ClobberError::NotNeighbours(text.to_string()));
    }
    Ok(Move { from, to })
}

/// Clobber's notation of states at one parameter point: a board, a rule and the colour
/// to move first. A state is the position, followed under the partisan rule by `:x`,
/// `:o` or `:any` when its colour to move is not the point's (`xox/oxo:o`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The board and the rule the states are played under.
    pub game: Clobber,
    /// The colour to move of a state written without a suffix.
    pub turn: Option<Colour>,
}

impl crate::Notation for Setup {
    type Position = State;
    type Move = Move;
    type Error = ClobberError;

    fn read(&self, text: &str) -> Result<State, ClobberError> {
        let (pos_text, suffix) = match text.trim().split_once(':') {
            Some((p, s)) => (p, Some(s)),
            None => (text.trim(), None),
        };
        let (board, pos) = parse_position(pos_text)?;
        let want = self.game.board();
        if board != *want {
            return Err(ClobberError::WrongBoard {
                m: board.m(),
                n: board.n(),
                want_m: want.m(),
                want_n: want.n(),
            });
        }
        let turn = match (suffix, self.game.rule()) {
            (None, _) => self.turn,
            (Some(s), Rule::Impartial) => return Err(ClobberError::ImpartialSuffix(s.into())),
            (Some("any"), Rule::Partisan) => None,
            (Some(s), Rule::Partisan) => {
                Some(Colour::from_letter(s).ok_or_else(|| ClobberError::TurnSuffix(s.into()))?)
            }
        };
        Ok(self.game.state(pos, turn))
    }

    fn write(&self, state: &State) -> String {
        let text = position_text(self.game.board(), &state.pos);
        match state.turn {
            turn if turn == self.turn => text,
            None => format!("{text}:any"),
            Some(colour) => format!("{text}:{}", colour.letter()),
        }
    }

    fn legal(&self, state: &State, out: &mut Vec<Move>) {
        crate::Puzzle::moves(&self.game, state, out);
    }

    fn play(&self, state: &State, mv: Move) -> State {
        self.game.play(state, mv)
    }

    fn read_move(&self, state: &State, text: &str) -> Result<Move, ClobberError> {
        let mv = parse_move(self.game.board(), text.trim())?;
        if !self.game.is_legal(state, mv) {
            return Err(ClobberError::NotLegal);
        }
        Ok(mv)
    }

    fn write_move(&self, _state: &State, mv: Move) -> String {
        mv.to_string()
    }

    fn score(&self, state: &State) -> u32 {
        state.pos.count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip() {
        for text in ["xox/oxo", "x", "..../....", "x/o/./o", "xoxoxoxo/oxoxoxox"] {
            let (board, pos) = parse_position(text).unwrap();
            assert_eq!(position_text(&board, &pos), text);
        }
        let (board, pos) = parse_position("xo./..o").unwrap();
        assert_eq!((board.m(), board.n()), (2, 3));
        assert_eq!((pos.black, pos.white), (1, 2 | 32));
    }

    #[test]
    fn bad_positions_name_the_fault() {
        assert_eq!(parse_position(""), Err(ClobberError::EmptyRow));
        assert_eq!(
            parse_position("xox/"),
            Err(ClobberError::RowLengths(vec![3, 0]))
        );
        assert_eq!(
            parse_position("xo./o o"),
            Err(ClobberError::BadChar {
                ch: ' ',
                row: 2,
                column: 2
            })
        );
        assert_eq!(
            parse_position(&"x".repeat(65)),
            Err(ClobberError::TooLarge { m: 1, n: 65 })
        );
    }

    #[test]
    fn moves_are_two_plain_neighbouring_cell_numbers() {
        let (board, _) = parse_position("xox/oxo").unwrap();
        assert_eq!(parse_move(&board, "1-2"), Ok(Move { from: 0, to: 1 }));
        assert_eq!(parse_move(&board, "6-3"), Ok(Move { from: 5, to: 2 }));
        let err = |t: &str| parse_move(&board, t).unwrap_err();
        assert_eq!(err("1-2-3"), ClobberError::MoveSyntax("1-2-3".into()));
        assert_eq!(err("12"), ClobberError::MoveSyntax("12".into()));
        assert_eq!(err("01-2"), ClobberError::CellNumber("01".into()));
        assert_eq!(err("0-1"), ClobberError::CellNumber("0".into()));
        assert_eq!(err("+1-2"), ClobberError::CellNumber("+1".into()));
        assert_eq!(err("1- 2"), ClobberError::CellNumber(" 2".into()));
        assert_eq!(
            err("1-7"),
            ClobberError::OffBoard {
                cell: 7,
                m: 2,
                n: 3
            }
        );
        assert_eq!(
            err("1-99999999999999999999999"),
            ClobberError::CellNumber("99999999999999999999999".into())
        );
        assert_eq!(err("3-4"), ClobberError::NotNeighbours("3-4".into()));
        assert_eq!(err("1-5"), ClobberError::NotNeighbours("1-5".into()));
    }
}
