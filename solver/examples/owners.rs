//! One game searched by owners against the usual search:
//! `cargo run --release -p hammer-solver --example owners -- N INDEX WORKERS...`
//! (seeded game INDEX of size N under sweep seed 2013). Prints, for the usual
//! `standard/exact` search and for each number of owners, the minimum, the expansions (in
//! total and per worker), the states each worker's table holds, the states sent and the
//! wall time (docs/frontier.md).

use std::time::Instant;

use hammer_engine::{Martello, seeded};
use hammer_solver::{Config, Solver, solve_owned};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, what: &str| -> Result<u64, String> {
        let text = args.get(i).ok_or(format!(
            "missing {what}: the arguments are N INDEX WORKERS..."
        ))?;
        text.parse()
            .map_err(|_| format!("{what} '{text}' is not a whole number"))
    };
    let n = u8::try_from(number(0, "N")?).map_err(|_| "N is at most 8".to_string())?;
    let index = number(1, "INDEX")?;
    let workers = (2..args.len().max(3))
        .map(|i| number(i, "WORKERS").map(|w| w.max(1) as usize))
        .collect::<Result<Vec<_>, _>>()?;
    let start = seeded::game(2013, n, index).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let usual = Solver::new(Martello).solve(&start, &Config::default(), 1);
    println!(
        "usual   min {} expansions {} memo {} time {:.2} s",
        usual.min_score,
        usual.counters.expansions,
        usual.memo_states,
        started.elapsed().as_secs_f64()
    );
    for k in workers {
        let started = Instant::now();
        let owned = solve_owned(&Martello, &start, k);
        let total: u64 = owned.expansions.iter().sum();
        println!(
            "owners {k} min {} expansions {} ({:.3}x) per worker {:?} tables {:?} sent {} time {:.2} s",
            owned.min_score,
            total,
            total as f64 / usual.counters.expansions as f64,
            owned.expansions,
            owned.table_states,
            owned.sent,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
