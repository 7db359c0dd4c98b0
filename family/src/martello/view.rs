//! Drawing a Martello state as a board a person can read.

use hammer_engine::State;

const ANSI: [&str; 8] = ["31", "32", "33", "34", "35", "36", "37", "90"];

/// The board with every stone in a cell: the first stone of a row in the left white
/// column, the last in the right one, the others packed after the first. A lone stone
/// is drawn on the left (it may stand on either side). `|` marks the white zone.
pub fn draw(state: &State, colour: bool) -> String {
    let n = state.n() as usize;
    let mut out = String::new();
    for r in 0..n {
        let stones: Vec<_> = state.row(r).collect();
        let mut cells: Vec<Option<hammer_engine::Stone>> = vec![None; n];
        match stones.len() {
            0 => {}
            1 => cells[0] = Some(stones[0]),
            len => {
                for (i, &s) in stones.iter().enumerate().take(len - 1) {
                    cells[i] = Some(s);
                }
                cells[n - 1] = Some(stones[len - 1]);
            }
        }
        let text: Vec<String> = cells
            .iter()
            .map(|cell| match cell {
                None => "··".to_string(),
                Some(s) => {
                    let token = s.to_string(state.n());
                    if colour {
                        format!(
                            "\x1b[1;{}m{token}\x1b[0m",
                            ANSI[s.colour(state.n()) as usize]
                        )
                    } else {
                        token
                    }
                }
            })
            .collect();
        if n == 1 {
            out.push_str(&format!("| {} |\n", text[0]));
        } else {
            let middle = text[1..n - 1].join(" ");
            let middle = if middle.is_empty() {
                String::new()
            } else {
                format!(" {middle} ")
            };
            out.push_str(&format!("| {} |{}| {} |\n", text[0], middle, text[n - 1]));
        }
    }
    out
}
