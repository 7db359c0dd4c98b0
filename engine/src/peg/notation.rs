//! The spec's notation: positions (`ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo`), holes
//! (`d4`), jumps (`d2-d4`), and hammer's own notation for a custom board's hole mask.
//!
//! A custom mask is the 7x7 grid as 7 rows of 7 characters joined by `/`, `x` for a hole
//! and `-` for none: the English board is
//! `--xxx--/--xxx--/xxxxxxx/xxxxxxx/xxxxxxx/--xxx--/--xxx--`. A position of a custom board
//! is written like the spec's: 7 rows, each listing only its holes (a row without holes
//! is empty, so `//` may appear).

use super::board::{Bits, Board, BoardKind, ENGLISH_MASK, EUROPEAN_MASK, GRID, SIDE, bit, bits};

/// Why a position, hole, jump or mask was refused. Each message names the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PegError {
    /// The position does not have 7 rows.
    #[error("a position has 7 rows, got {0}")]
    RowCount(usize),
    /// The rows' lengths fit neither named board.
    #[error("row lengths {0:?} match no board")]
    RowLengths(Vec<usize>),
    /// The rows' lengths differ from the board's.
    #[error("row lengths {got:?} do not fit the {board} board, whose rows have {want:?} holes")]
    WrongBoard {
        /// Holes per row in the position.
        got: Vec<usize>,
        /// Holes per row of the board.
        want: Vec<usize>,
        /// The board's name.
        board: String,
    },
    /// A character other than `o` and `.` in a position.
    #[error("bad character '{0}' (use 'o' and '.')")]
    BadChar(char),
    /// A move that is not two holes joined by `-`.
    #[error("bad move '{0}': a move is FROM-TO, such as d2-d4")]
    MoveSyntax(String),
    /// A hole that is not a column letter and a row digit.
    #[error("bad hole '{0}': a hole is a column a-g and a row 1-7, such as d4")]
    CellSyntax(String),
    /// A grid cell that is not a hole of the board.
    #[error("cell {cell} is not a hole of the {board} board")]
    NotAHole {
        /// The cell as written.
        cell: String,
        /// The board's name.
        board: String,
    },
    /// A move whose holes are not two apart in a line.
    #[error("{0} is not a jump on this board")]
    NotAJump(String),
    /// A jump that the pegs do not allow in the position.
    #[error("{0} is not legal here")]
    Illegal(String),
    /// A custom board mask that could not be read.
    #[error("bad board mask '{text}': {reason}")]
    BadMask {
        /// The mask as written.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// The number of holes in each row of `mask`.
pub fn row_lengths(mask: Bits) -> Vec<usize> {
    (0..SIDE)
        .map(|r| ((mask >> (8 * r)) & 0x7f).count_ones() as usize)
        .collect()
}

/// The board's name in messages: `english`, `european` or `custom`.
pub fn board_name(kind: BoardKind) -> &'static str {
    match kind {
        BoardKind::English => "english",
        BoardKind::European => "european",
        BoardKind::Custom(_) => "custom",
    }
}

/// Splits a position into rows and checks the row count.
fn rows(text: &str) -> Result<(Vec<&str>, Vec<usize>), PegError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != SIDE {
        return Err(PegError::RowCount(rows.len()));
    }
    let lengths = rows.iter().map(|r| r.chars().count()).collect();
    Ok((rows, lengths))
}

/// Reads the pegs of rows whose lengths already match `mask`.
fn pegs(rows: &[&str], mask: Bits) -> Result<Bits, PegError> {
    let mut pos = 0;
    for (r, row) in rows.iter().enumerate() {
        let holes = bits((mask >> (8 * r)) & 0x7f);
        for (ch, c) in row.chars().zip(holes) {
            match ch {
                'o' => pos |= bit(r, c as usize),
                '.' => {}
                other => return Err(PegError::BadChar(other)),
            }
        }
    }
    Ok(pos)
}

/// Parses a position of the English or European board, which its row lengths tell.
pub fn parse_any(text: &str) -> Result<(BoardKind, Bits), PegError> {
    let (rows, lengths) = rows(text)?;
    let kind = if lengths == row_lengths(ENGLISH_MASK) {
        BoardKind::English
    } else if lengths == row_lengths(EUROPEAN_MASK) {
        BoardKind::European
    } else {
        return Err(PegError::RowLengths(lengths));
    };
    Ok((kind, pegs(&rows, kind.mask())?))
}

/// Parses a position of `board`.
pub fn parse_position(board: &Board, text: &str) -> Result<Bits, PegError> {
    let (rows, lengths) = rows(text)?;
    let want = row_lengths(board.mask());
    if lengths != want {
        return Err(PegError::WrongBoard {
            got: lengths,
            want,
            board: board_name(board.kind()).to_string(),
        });
    }
    pegs(&rows, board.mask())
}

/// Prints `pos` on `board`: each row's holes, `o` for a peg and `.` for none.
pub fn position_text(board: &Board, pos: Bits) -> String {
    let mut out = String::with_capacity(64);
    for r in 0..SIDE {
        if r > 0 {
            out.push('/');
        }
        for c in bits((board.mask() >> (8 * r)) & 0x7f) {
            out.push(if pos & bit(r, c as usize) != 0 {
                'o'
            } else {
                '.'
            });
        }
    }
    out
}

/// The name of the hole with bit index `h`: column letter, row digit (`d4`).
pub fn cell_name(h: u8) -> String {
    let (r, c) = (h / 8, h % 8);
    format!("{}{}", (b'a' + c) as char, r + 1)
}

/// Parses a hole name of the 7x7 grid into its bit index (not checked against a board).
pub fn parse_cell(text: &str) -> Result<u8, PegError> {
    match text.as_bytes() {
        [col @ b'a'..=b'g', row @ b'1'..=b'7'] => Ok((row - b'1') * 8 + (col - b'a')),
        _ => Err(PegError::CellSyntax(text.to_string())),
    }
}

/// Parses `FROM-TO` into the index of a jump of `board` (not checked for legality).
pub fn parse_jump(board: &Board, text: &str) -> Result<u8, PegError> {
    let (from, to) = text
        .split_once('-')
        .filter(|(a, b)| a.len() == 2 && b.len() == 2)
        .ok_or_else(|| PegError::MoveSyntax(text.to_string()))?;
    let from = parse_cell(from).map_err(|_| PegError::MoveSyntax(text.to_string()))?;
    let to = parse_cell(to).map_err(|_| PegError::MoveSyntax(text.to_string()))?;
    for h in [from, to] {
        if board.mask() >> h & 1 == 0 {
            return Err(PegError::NotAHole {
                cell: cell_name(h),
                board: board_name(board.kind()).to_string(),
            });
        }
    }
    board
        .jump_index(from, to)
        .ok_or_else(|| PegError::NotAJump(text.to_string()))
}

/// The notation of jump `index` of `board` (`d2-d4`).
pub fn jump_text(board: &Board, index: u8) -> String {
    let j = board.jumps()[index as usize];
    format!("{}-{}", cell_name(j.from), cell_name(j.to))
}

/// Parses a hole mask: 7 rows of 7 characters, `x` hole and `-` none, joined by `/`.
pub fn parse_mask(text: &str) -> Result<Bits, PegError> {
    let bad = |reason: String| PegError::BadMask {
        text: text.to_string(),
        reason,
    };
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != SIDE {
        return Err(bad(format!("7 rows joined by '/', got {}", rows.len())));
    }
    let mut mask = 0;
    for (r, row) in rows.iter().enumerate() {
        if row.chars().count() != SIDE {
            return Err(bad(format!(
                "row {} has {} characters, not 7",
                r + 1,
                row.chars().count()
            )));
        }
        for (c, ch) in row.chars().enumerate() {
            match ch {
                'x' => mask |= bit(r, c),
                '-' => {}
                other => return Err(bad(format!("bad character '{other}' (use 'x' and '-')"))),
            }
        }
    }
    if mask == 0 {
        return Err(bad("the board has no holes".to_string()));
    }
    Ok(mask & GRID)
}

/// The mask notation of `mask`.
pub fn mask_text(mask: Bits) -> String {
    let mut out = String::with_capacity(56);
    for r in 0..SIDE {
        if r > 0 {
            out.push('/');
        }
        for c in 0..SIDE {
            out.push(if mask & bit(r, c) != 0 { 'x' } else { '-' });
        }
    }
    out
}

/// Parses a board parameter: `english`, `european`, or a mask.
pub fn parse_board(text: &str) -> Result<BoardKind, PegError> {
    match text {
        "english" => Ok(BoardKind::English),
        "european" => Ok(BoardKind::European),
        mask => Ok(Board::new(BoardKind::Custom(parse_mask(mask)?)).kind()),
    }
}

/// Peg solitaire's notation on one board.
impl crate::Notation for Board {
    type Position = Bits;
    type Move = u8;
    type Error = PegError;

    fn read(&self, text: &str) -> Result<Bits, PegError> {
        parse_position(self, text)
    }

    fn write(&self, pos: &Bits) -> String {
        position_text(self, *pos)
    }

    fn legal(&self, pos: &Bits, out: &mut Vec<u8>) {
        self.legal_jumps(*pos, out);
    }

    fn play(&self, pos: &Bits, mv: u8) -> Bits {
        let j = self.jumps()[mv as usize];
        pos ^ (1 << j.from | 1 << j.over | 1 << j.to)
    }

    /// A jump of the board whose start and middle hold pegs and whose end is empty.
    fn read_move(&self, pos: &Bits, text: &str) -> Result<u8, PegError> {
        let mv = parse_jump(self, text)?;
        let j = self.jumps()[mv as usize];
        if pos >> j.from & 1 == 0 || pos >> j.over & 1 == 0 || pos >> j.to & 1 == 1 {
            return Err(PegError::Illegal(text.to_string()));
        }
        Ok(mv)
    }

    fn write_move(&self, _pos: &Bits, mv: u8) -> String {
        jump_text(self, mv)
    }

    fn score(&self, pos: &Bits) -> u32 {
        pos.count_ones()
    }
}
