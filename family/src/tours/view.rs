//! Drawing a position: the board with each visited cell's place in the path, `#` for
//! obstacles, `.` for free cells still to visit; the token's number is marked.

use hammer_engine::tours::GRID;

use super::notation::Position;

/// Several lines: column numbers, one line per row, and a summary.
pub fn draw(pos: &Position, colour: bool) -> String {
    let board = pos.board;
    let n = board.n();
    let width = pos.path.len().max(9).to_string().len() + 1;
    let mut order = vec![0usize; 256];
    for (k, &c) in pos.path.iter().enumerate() {
        order[usize::from(c)] = k + 1;
    }
    let token = pos.state.token;
    let mut out = String::new();
    for r in 0..n {
        for c in 0..n {
            let i = r * GRID + c;
            let text = if board.obstacles().has(i) {
                "#".to_string()
            } else if order[usize::from(i)] > 0 {
                order[usize::from(i)].to_string()
            } else {
                ".".to_string()
            };
            let text = format!("{text:>width$}");
            if token == Some(i) {
                if colour {
                    out.push_str(&format!("\x1b[1;33m{text}\x1b[0m"));
                } else {
                    out.push_str(&text);
                }
                out.push('*');
            } else {
                out.push_str(&text);
                out.push(' ');
            }
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    let open = pos.state.open().count();
    let free = board.free().count();
    match token {
        None => out.push_str(&format!(
            "{free} free cells; the first move places the token\n"
        )),
        Some(t) => out.push_str(&format!(
            "token (*) at cell {}; {} of {free} free cells visited, {open} to go\n",
            board.number(t),
            free - open
        )),
    }
    out
}
