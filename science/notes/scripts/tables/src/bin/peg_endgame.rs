//! Sizes and build times of peg endgame tables (docs/peg.md): `cargo run --release
//! --manifest-path science/notes/scripts/tables/Cargo.toml --bin peg_endgame [-- LIMIT]`.
use std::time::Instant;

use hammer_engine::peg::Board;
use hammer_engine::peg::endgame::{Endgame, positions_of_class};

fn main() {
    let limit: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1 << 20);
    for board in [Board::english(), Board::european()] {
        for (what, targets) in [
            ("centre", vec![1u64 << 27]),
            ("c1", vec![1u64 << 2]),
            (
                "class of centre, 1 peg",
                positions_of_class(&board, board.class(1 << 27), 1),
            ),
            (
                "class of full-centre, 2 pegs",
                positions_of_class(&board, board.class(board.mask() & !(1 << 27)), 2),
            ),
        ] {
            if targets.is_empty() {
                println!("{} {what}: no targets", board.kind());
                continue;
            }
            let t = Instant::now();
            let e = Endgame::new(&board, &targets, limit);
            println!(
                "{} {what}: {} targets, top {} pegs, {} positions, {:.2} s",
                board.kind(),
                targets.len(),
                e.top(),
                e.len(),
                t.elapsed().as_secs_f64()
            );
        }
    }
}
