//! A quick solver benchmark without the CLI's dependencies:
//! `cargo run --release -p hammer-solver --example speed -- GAMES CONFIG...`
//! (CONFIG as ORDER/SCHEDULE, such as random/luby:256). Prints games/s, expansions and a
//! checksum of the minimum stone counts, so that two builds can be compared quickly.

use std::time::Instant;

use hammer_engine::{Martello, seeded};
use hammer_solver::{Config, Solver};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().map_or(1000, |a| a.parse().expect("GAMES"));
    let configs: Vec<String> = args.collect();
    let configs = if configs.is_empty() {
        vec!["standard/exact".to_string()]
    } else {
        configs
    };
    let boards: Vec<_> = (0..games)
        .map(|i| seeded::game(2013, 6, i).expect("game"))
        .collect();
    for text in &configs {
        let (order, schedule) = text.split_once('/').expect("ORDER/SCHEDULE");
        let config = Config {
            order: order
                .parse::<hammer_solver::OrderSpec>()
                .and_then(|spec| spec.load())
                .expect("order"),
            schedule: schedule.parse().expect("schedule"),
            prefix: 0,
            limits: Default::default(),
            cancel: None,
            profile: false,
        };
        let mut solver = Solver::new(Martello);
        let started = Instant::now();
        let (mut expansions, mut exact, mut sum, mut unsolved_exp) = (0u64, 0u64, 0u64, 0u64);
        let mut logs = 0f64;
        for (i, board) in boards.iter().enumerate() {
            let seed = seeded::run_seed(2013, 6, i as u64, 0);
            let out = solver.solve(board, &config, seed);
            expansions += out.counters.expansions;
            logs += (out.counters.expansions as f64 + 1.0).ln();
            exact += out.exhaustive as u64;
            sum = sum.wrapping_mul(31).wrapping_add(out.min_score as u64);
            if out.min_score > 1 {
                unsolved_exp += out.counters.expansions;
            }
        }
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{text}: {:.1} games/s, {:.0} exp/s, mean expansions {:.1}, geometric mean {:.1}, unsolvable share {:.3}, exact {exact}/{games}, checksum {sum:x}",
            games as f64 / secs,
            expansions as f64 / secs,
            expansions as f64 / games as f64,
            (logs / games as f64).exp(),
            unsolved_exp as f64 / expansions.max(1) as f64,
        );
    }
}
