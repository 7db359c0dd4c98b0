//! Every single-vacancy start of the English and European boards, solved exactly: the
//! fewest pegs left and the holes where a lone peg can remain, as the markdown table of
//! `docs/peg.md`.
//!
//! `cargo run --release -p hammer-family --example peg_table`

use std::time::Instant;

use hammer_engine::peg::notation::cell_name;
use hammer_engine::peg::{Board, Peg, board::bits, single_vacancy};
use hammer_family::peg::solve_with;
use hammer_solver::{Config, Solver};

fn main() {
    let all = Instant::now();
    for board in [Board::english(), Board::european()] {
        let name = board.kind().to_string();
        println!("\n### {name}\n");
        println!("| vacate | min pegs | one-peg finishes | exhaustive | expansions | seconds |");
        println!("|---|---|---|---|---|---|");
        let mut solver = Solver::new(Peg::new(board.clone()));
        let board_start = Instant::now();
        for (i, hole) in bits(board.mask()).enumerate() {
            let Some(pos) = single_vacancy(&board, i as u64) else {
                continue;
            };
            let t = Instant::now();
            let solved = solve_with(&mut solver, &board, pos, &Config::default(), 0);
            let finishes = match &solved.extra[2] {
                hammer_family::Cell::Text(t) if !t.is_empty() => t.clone(),
                _ => "-".to_string(),
            };
            println!(
                "| {} | {} | {} | {} | {} | {:.2} |",
                cell_name(hole),
                solved.score,
                finishes,
                solved.exhaustive,
                solved.expansions,
                t.elapsed().as_secs_f64()
            );
        }
        println!(
            "\n{name}: {} starts in {:.1} s",
            board.holes(),
            board_start.elapsed().as_secs_f64()
        );
    }
    println!("\ntotal {:.1} s", all.elapsed().as_secs_f64());
}
