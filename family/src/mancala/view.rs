//! Drawing a position: the opponent's row on top (hole `2h` next to the store, then
//! down to `h+1`), the player's row below (hole `h` on the right, down to hole 1 next to
//! the store), the store on the left. Stones travel right to left along the bottom,
//! into the store, then left to right along the top: the order of a sowing.

use hammer_engine::mancala::State;

/// Several lines: hole numbers, the two rows, the store, and whether the turn is over.
pub fn draw(state: &State, colour: bool) -> String {
    let rules = state.rules();
    let h = usize::from(rules.h());
    let n = 2 * h;
    let holes = state.holes();
    let cell = |x: u16| {
        let text = format!("[{x:>3}]");
        if colour && x > 0 {
            format!("\x1b[1;33m{text}\x1b[0m")
        } else {
            text
        }
    };
    let numbers = |range: Vec<usize>| range.iter().map(|p| format!("{p:>4} ")).collect::<String>();
    let top: Vec<usize> = (h + 1..=n).rev().collect();
    let bottom: Vec<usize> = (1..=h).collect();
    let row = |ps: &[usize]| ps.iter().map(|&p| cell(holes[p - 1])).collect::<String>();
    let store = format!("[{:>3}]", state.home());
    let store = if colour {
        format!("\x1b[1;32m{store}\x1b[0m")
    } else {
        store
    };
    let pad = "      ";
    let mut out = String::new();
    out.push_str(&format!("hole  {}\n", numbers(top.clone()).trim_end()));
    out.push_str(&format!("{pad}{}\n", row(&top)));
    out.push_str(&format!("store {store}\n"));
    out.push_str(&format!("{pad}{}\n", row(&bottom)));
    out.push_str(&format!("hole  {}\n", numbers(bottom).trim_end()));
    out.push_str(if state.ended() {
        "turn over\n"
    } else if state.has_pick() {
        "to pick\n"
    } else {
        "no pick left\n"
    });
    out
}
