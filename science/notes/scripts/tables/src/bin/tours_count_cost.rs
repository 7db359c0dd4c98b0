//! The cost of counting the tours of empty boards two ways: the family's pruned count
//! (`hammer_engine::tours::count_tours`, which expands only states whose bound is 0)
//! and the level-by-level `hammer_solver::count`, which keeps every reachable state.
//! Both must give the same number of tours.
//!
//! ```text
//! cargo run --release --manifest-path science/notes/scripts/tables/Cargo.toml --bin tours_count_cost \
//!     -- [MAX_N [K]]
//! ```
//!
//! Empty boards from 2x2 to MAX_N x MAX_N (default 8), and with K > 0 the first 20
//! seeded boards of `K` random obstacles per side instead (sweep seed 3, the
//! `place = "random"` boards of the tours family), summed.

use std::time::Instant;

use hammer_engine::tours::{Board, Tours, count_tours, seeded_obstacles};
use hammer_solver::{Reduction, count};

/// The boards of one side: the empty board, or 20 seeded boards with `k` obstacles.
fn boards(n: u8, k: u32) -> Vec<Board> {
    let empty = Board::new(n, &[]).expect("an empty board");
    if k == 0 {
        return vec![empty];
    }
    (0..20)
        .filter_map(|i| {
            let cells = seeded_obstacles(empty.free(), n, 3, k, i);
            let numbers: Vec<u32> = cells.iter().map(|c| empty.number(c)).collect();
            Board::new(n, &numbers).ok()
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let max_n: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let k: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    println!("n  boards tours  pruned: nodes  ms    level-by-level: states  ms");
    for n in 2..=max_n {
        let (mut tours, mut nodes, mut states) = (0u128, 0u64, 0u64);
        let (mut pruned_ms, mut levels_ms) = (0.0, 0.0);
        let boards = boards(n, k);
        for board in &boards {
            let t = Instant::now();
            let pruned = count_tours(&board.start());
            pruned_ms += t.elapsed().as_secs_f64() * 1e3;
            let t = Instant::now();
            let levels = count(&Tours, &board.start(), Reduction::None);
            levels_ms += t.elapsed().as_secs_f64() * 1e3;
            let paths = levels.level(0).map_or(0, |l| l.paths);
            assert_eq!(paths, pruned.tours, "the two counts disagree on {board}");
            tours += pruned.tours;
            nodes += pruned.nodes;
            states += levels.states();
        }
        println!(
            "{n:<2} {:<6} {tours:<6} {nodes:>13} {pruned_ms:>6.1} {states:>23} {levels_ms:>6.1}",
            boards.len()
        );
    }
}
