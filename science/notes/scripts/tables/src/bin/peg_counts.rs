//! The English centre game counted with `hammer_solver::count_towards`: positions
//! reachable from the start modulo symmetry and without, those from which a lone peg in
//! the centre can still be reached, and the move sequences that leave it there.
//! Published figures: 23,475,688 / 187,636,299 / 1,679,072 / 40,861,647,040,079,968.
//!
//! ```text
//! /usr/bin/time -v cargo run --release --manifest-path science/notes/scripts/tables/Cargo.toml \
//!     --bin peg_counts
//! ```

use std::time::Instant;

use hammer_engine::peg::{Board, Peg, single_vacancy};
use hammer_solver::{Reduction, count_towards};

fn main() {
    let board = Board::english();
    let centre: u64 = 1 << (3 * 8 + 3);
    let Some(start) = single_vacancy(&board, 16) else {
        eprintln!("the English board has no hole 16");
        return;
    };
    let t = Instant::now();
    let counts = count_towards(&Peg::new(board), &start, Reduction::Symmetry, |&pos| {
        pos == centre
    });
    let seconds = t.elapsed().as_secs_f64();
    println!(
        "| pegs | positions mod symmetry | positions | can still finish in the centre | move sequences |"
    );
    println!("|---|---|---|---|---|");
    for level in &counts.levels {
        println!(
            "| {} | {} | {} | {} | {} |",
            level.score,
            level.classes,
            level.states,
            level.alive.unwrap_or(0),
            level.paths
        );
    }
    let centre_paths: u128 = counts
        .lowest
        .iter()
        .filter(|(pos, _)| *pos == centre)
        .map(|(_, paths)| paths)
        .sum();
    println!();
    println!("reachable positions modulo symmetry: {}", counts.classes());
    println!("reachable positions:                 {}", counts.states());
    println!(
        "can still finish in the centre (mod symmetry): {}",
        counts.alive().unwrap_or(0)
    );
    println!("solutions ending in the centre:      {centre_paths}");
    println!("counted in {seconds:.1} s");
}
