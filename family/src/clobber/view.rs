//! Drawing a position: the cells in rows with their numbers on the left (a move is
//! written with cell numbers), `x` black, `o` white, `.` empty, and the colour to move.

use hammer_engine::clobber::{Rule, Setup, State};

/// Several lines: one per row, then who moves.
pub fn draw(setup: &Setup, state: &State, colour: bool) -> String {
    let board = setup.game.board();
    let (m, n) = (board.m() as usize, board.n() as usize);
    let width = (m * n).to_string().len();
    let mut out = String::new();
    for r in 0..m {
        out.push_str(&format!("{:>width$} ", r * n + 1));
        for c in 0..n {
            let cell = (r * n + c) as u8;
            let letter = state.pos.colour_at(cell).map_or('.', |c| c.letter());
            out.push(' ');
            match (colour, letter) {
                (true, 'x') => out.push_str("\x1b[1;31mx\x1b[0m"),
                (true, 'o') => out.push_str("\x1b[1;37mo\x1b[0m"),
                _ => out.push(letter),
            }
        }
        out.push('\n');
    }
    out.push_str(match (setup.game.rule(), state.turn) {
        (Rule::Impartial, _) => "any stone moves\n",
        (Rule::Partisan, None) => "either colour moves first\n",
        (Rule::Partisan, Some(c)) if c.letter() == 'x' => "x (black) to move\n",
        (Rule::Partisan, Some(_)) => "o (white) to move\n",
    });
    out
}
