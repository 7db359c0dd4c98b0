//! Measures what a sweep file will cost before a cluster is asked to run it.
//!
//! `cargo run --release -p hammer-sweep --example estimate -- FILE [SAMPLES]` solves
//! SAMPLES rows (default 200) of every experiment, spread evenly over its configurations,
//! sizes and games, on one thread, and extrapolates the CPU time (not wall time, which other jobs on a
//! shared machine inflate) to the whole experiment. Solve times
//! are heavy-tailed, so treat the figure as good to a factor of about two; it is how the
//! example sweeps in `examples/` were sized.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use hammer_family::{Instance, Job};
use hammer_sweep::Sweep;

/// On-CPU time of this thread where Linux tells it (`/proc/thread-self/schedstat`), so
/// that other jobs on a shared machine do not inflate the figures; wall time elsewhere.
enum Clock {
    Cpu(u64),
    Wall(Instant),
}

impl Clock {
    fn cpu_ns() -> Option<u64> {
        let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        text.split_whitespace().next()?.parse().ok()
    }

    fn now() -> Clock {
        match Clock::cpu_ns() {
            Some(ns) => Clock::Cpu(ns),
            None => Clock::Wall(Instant::now()),
        }
    }

    fn elapsed(&self) -> f64 {
        match self {
            Clock::Cpu(start) => {
                Clock::cpu_ns().map_or(0.0, |now| now.saturating_sub(*start) as f64 * 1e-9)
            }
            Clock::Wall(start) => start.elapsed().as_secs_f64(),
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: estimate FILE [SAMPLES]");
        return ExitCode::FAILURE;
    };
    let samples: u64 = match args.get(1).map(|s| s.parse()) {
        None => 200,
        Some(Ok(s)) if s > 0 => s,
        Some(_) => {
            eprintln!("SAMPLES must be a positive whole number");
            return ExitCode::FAILURE;
        }
    };
    let sweep = match Sweep::load(Path::new(file)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{}: {} rows, {} units, digest {}",
        sweep.name,
        sweep.total_games(),
        sweep.units().len(),
        sweep.digest
    );
    let mut total = 0.0;
    let mut model_total = 0.0;
    for e in &sweep.experiments {
        let mut solver = e.family.solver();
        let per_config = e.points.len() as u64 * e.games;
        let rows = e.configs.len() as u64 * per_config;
        let take = samples.min(rows);
        let mut secs = 0.0;
        let mut model = 0.0;
        let mut solved = 0u64;
        let mut exhaustive = 0u64;
        for j in 0..take {
            // Row r of the experiment, ordered config, then size, then game; the
            // multiplier spreads the samples over games rather than the first few.
            let r = (j as u128 * rows as u128 / take as u128) as u64;
            let config = &e.configs[(r / per_config) as usize];
            let within = r % per_config;
            let point = &e.points[(within / e.games) as usize];
            let games = e.games_of(point).max(1);
            let game = e.first_game + (within % e.games * 7919) % games;
            let instance = Instance::Seeded {
                sweep_seed: sweep.seed,
                index: game,
            };
            let seed = config.run_seed(e.family, point, sweep.seed, game);
            let started = Clock::now();
            let job = Job {
                point,
                instance,
                config: &config.solver_config(),
                run_seed: seed,
            };
            let out = match solver.solve(job) {
                Ok(out) => out,
                Err(err) => {
                    eprintln!("{err}");
                    return ExitCode::FAILURE;
                }
            };
            secs += started.elapsed();
            model += e.family.estimated_seconds(point, &config.solver_config());
            solved += u64::from(out.game.score <= e.family.goal(point));
            exhaustive += u64::from(out.game.exhaustive);
        }
        let scale = rows as f64 / take as f64;
        println!(
            "  {:<24} {:>10} rows {:>5} configs: measured {:>9.1} s, cost table {:>9.1} s (sample: {take} rows, {solved} solved, {exhaustive} exhaustive)",
            e.name,
            rows,
            e.configs.len(),
            secs * scale,
            model * scale
        );
        total += secs * scale;
        model_total += model * scale;
    }
    println!(
        "total: measured {:.0} s of one core ({:.1} min on 2 cores), cost table {:.0} s",
        total,
        total / 120.0,
        model_total
    );
    ExitCode::SUCCESS
}
