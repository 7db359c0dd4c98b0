//! The spec's notation: rows top to bottom separated by `/`, each row its stones'
//! two-character tokens (`A1`: colour A, symbol 1) with nothing between them.

use std::fmt;

use super::moves::Move;
use super::state::{MAX_N, State, Stone};

/// Why a state, board or move did not parse. Each variant names the offending token and
/// where it stands, so a user can fix a long line without counting characters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The text is empty.
    #[error("empty input: a state has rows separated by '/'")]
    Empty,
    /// The number of rows is no board side.
    #[error("{rows} rows do not make a square board of side 1 to {max} (a state of an n x n board has n rows separated by '/')", max = MAX_N)]
    RowCount {
        /// Rows in the text.
        rows: usize,
    },
    /// A token that is no stone of the board.
    #[error("row {row}: '{token}' at character {column} is not a stone of a {n}x{n} board (colours A to {last_colour}, symbols 1 to {n})", last_colour = (b'A' + n - 1) as char)]
    BadStone {
        /// The row, from 1.
        row: usize,
        /// The character position in the row, from 1.
        column: usize,
        /// The token as written.
        token: String,
        /// The board side.
        n: u8,
    },
    /// A character that cannot start or end a stone.
    #[error(
        "row {row}: unexpected character '{ch}' at character {column}; a stone is a capital letter and a digit, such as A1"
    )]
    BadChar {
        /// The row, from 1.
        row: usize,
        /// The character position in the row, from 1.
        column: usize,
        /// The offending character.
        ch: char,
    },
    /// A stone written twice.
    #[error("row {row}: stone {token} is written twice (first in row {first_row})")]
    Duplicate {
        /// The row of the second copy, from 1.
        row: usize,
        /// The row of the first copy, from 1.
        first_row: usize,
        /// The stone as written.
        token: String,
    },
    /// A row longer than the board side.
    #[error("row {row} has {len} stones, more than the {n} a row of a {n}x{n} board holds")]
    RowTooLong {
        /// The row, from 1.
        row: usize,
        /// Stones in the row.
        len: usize,
        /// The board side.
        n: u8,
    },
    /// A state must hold at least one stone.
    #[error("the state has no stones")]
    NoStones,
    /// A start position with a row that is not full.
    #[error("row {row} has {len} stones, but a start position has {n} in every row")]
    NotFull {
        /// The row, from 1.
        row: usize,
        /// Stones in the row.
        len: usize,
        /// The board side.
        n: u8,
    },
    /// A move that is not written `XxY`.
    #[error("'{text}' is not a move: a move is written XxY, such as A1xB1")]
    BadMove {
        /// The move as written.
        text: String,
    },
    /// A well-formed move that is not legal in the state.
    #[error("move {text}: {reason}")]
    IllegalMove {
        /// The move as written.
        text: String,
        /// Why the rules forbid it.
        reason: String,
    },
    /// A state of another board side than the puzzle's.
    #[error("a state of a {got}x{got} board, but the puzzle is set to n = {want}")]
    WrongSide {
        /// The side of the state.
        got: u8,
        /// The puzzle's side.
        want: u8,
    },
}

fn parse_stone(token: &str, n: u8) -> Option<Stone> {
    let bytes = token.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let (c, s) = (bytes[0], bytes[1]);
    if !c.is_ascii_uppercase() || !(b'1'..=b'9').contains(&s) {
        return None;
    }
    let (colour, symbol) = (c - b'A', s - b'1');
    (colour < n && symbol < n).then_some(Stone(colour * n + symbol))
}

impl State {
    /// Parses any state of the notation (a start position or a mid-game state).
    pub fn parse(text: &str) -> Result<State, ParseError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ParseError::Empty);
        }
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() > MAX_N as usize {
            return Err(ParseError::RowCount { rows: rows.len() });
        }
        let n = rows.len() as u8;
        let mut parsed: Vec<Vec<Stone>> = Vec::with_capacity(rows.len());
        let mut seen_in_row = [usize::MAX; 64];
        let mut offset = 1; // 1-based character position in the trimmed input
        for (r, row) in rows.iter().enumerate() {
            let mut stones = Vec::new();
            let chars: Vec<char> = row.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let column = offset + i;
                let c = chars[i];
                if !c.is_ascii_uppercase() {
                    return Err(ParseError::BadChar {
                        row: r + 1,
                        column,
                        ch: c,
                    });
                }
                let token: String = chars[i..(i + 2).min(chars.len())].iter().collect();
                let stone = parse_stone(&token, n).ok_or_else(|| ParseError::BadStone {
                    row: r + 1,
                    column,
                    token: token.clone(),
                    n,
                })?;
                if seen_in_row[stone.0 as usize] != usize::MAX {
                    return Err(ParseError::Duplicate {
                        row: r + 1,
                        first_row: seen_in_row[stone.0 as usize] + 1,
                        token,
                    });
                }
                seen_in_row[stone.0 as usize] = r;
                stones.push(stone);
                i += 2;
            }
            if stones.len() > n as usize {
                return Err(ParseError::RowTooLong {
                    row: r + 1,
                    len: stones.len(),
                    n,
                });
            }
            offset += chars.len() + 1;
            parsed.push(stones);
        }
        if parsed.iter().all(Vec::is_empty) {
            return Err(ParseError::NoStones);
        }
        Ok(State::from_rows(n, &parsed))
    }

    /// Parses a start position: a state with `n` stones in every row.
    pub fn parse_board(text: &str) -> Result<State, ParseError> {
        let state = State::parse(text)?;
        let n = state.n();
        for r in 0..n as usize {
            let len = state.row_len(r);
            if len != n as usize {
                return Err(ParseError::NotFull { row: r + 1, len, n });
            }
        }
        Ok(state)
    }

    /// The legal move of this state written `text` (`XxY`), or why there is none.
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let text = text.trim();
        let n = self.n();
        let bad = || ParseError::BadMove {
            text: text.to_string(),
        };
        let (x, y) = text.split_once('x').ok_or_else(bad)?;
        let eater = parse_stone(x, n).ok_or_else(bad)?;
        let eaten = parse_stone(y, n).ok_or_else(bad)?;
        let illegal = |reason: String| ParseError::IllegalMove {
            text: text.to_string(),
            reason,
        };
        let (xt, yt) = (eater.to_string(n), eaten.to_string(n));
        if eater == eaten {
            return Err(illegal("a stone cannot eat itself".into()));
        }
        for (stone, token) in [(eater, &xt), (eaten, &yt)] {
            if self.locate(stone).is_none() {
                return Err(illegal(format!("{token} is not on the board")));
            }
        }
        if !eater.compatible(eaten, n) {
            return Err(illegal(format!(
                "{xt} and {yt} share neither colour nor symbol"
            )));
        }
        let mut moves = Vec::new();
        super::moves::generate(self, &mut moves);
        moves
            .into_iter()
            .find(|m| m.eater == eater && m.eaten == eaten)
            .ok_or_else(|| {
                illegal(format!(
                    "{xt} and {yt} are not neighbours (not next to each other in a row, nor in the same white column one row or one empty white cell apart)"
                ))
            })
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.n();
        for r in 0..n as usize {
            if r > 0 {
                f.write_str("/")?;
            }
            for stone in self.row(r) {
                let [c, s] = stone.token(n);
                write!(f, "{c}{s}")?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for State {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        State::parse(s)
    }
}

/// Martello's notation on the `n x n` board of a parameter point: a state of another
/// side is refused, so that a row never mixes boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side(pub u8);

impl crate::Notation for Side {
    type Position = State;
    type Move = Move;
    type Error = ParseError;

    fn read(&self, text: &str) -> Result<State, ParseError> {
        let state = State::parse(text)?;
        if state.n() != self.0 {
            return Err(ParseError::WrongSide {
                got: state.n(),
                want: self.0,
            });
        }
        Ok(state)
    }

    fn write(&self, pos: &State) -> String {
        pos.to_string()
    }

    fn legal(&self, pos: &State, out: &mut Vec<Move>) {
        crate::Puzzle::moves(&super::Martello, pos, out);
    }

    fn play(&self, pos: &State, mv: Move) -> State {
        pos.apply(mv)
    }

    fn read_move(&self, pos: &State, text: &str) -> Result<Move, ParseError> {
        pos.parse_move(text)
    }

    fn write_move(&self, pos: &State, mv: Move) -> String {
        mv.notation(pos.n())
    }

    fn score(&self, pos: &State) -> u32 {
        pos.stone_count()
    }
}
