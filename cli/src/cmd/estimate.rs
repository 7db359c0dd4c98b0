//! `hammer estimate`: what a sweep file will cost before a cluster is asked to run it.
//!
//! It solves a sample of every experiment's rows, spread evenly over its configurations,
//! points and games, on one thread, and extrapolates the CPU time (not wall time, which
//! other jobs on a shared machine inflate) to the whole experiment, beside the cost
//! table's figure that sizes work units. Solve times are heavy-tailed, so the figure is
//! good to a factor of about two; it is how the example sweeps in `examples/` were sized.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use hammer_family::{Instance, Job};
use hammer_sweep::{Experiment, Sweep};

use crate::cpu_time::ThreadClock;

#[derive(Args)]
pub struct EstimateArgs {
    /// The sweep file (a continuation reads the dataset it names, as `hammer run` does).
    sweep: PathBuf,
    /// Rows solved per experiment (fewer when an experiment has fewer).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
    samples: u64,
}

/// One experiment's sample, extrapolated to all its rows.
struct Estimate {
    rows: u64,
    measured_secs: f64,
    table_secs: f64,
    taken: u64,
    solved: u64,
    exhaustive: u64,
}

pub fn estimate(args: EstimateArgs) -> Result<ExitCode> {
    let sweep = crate::args::load_sweep(&args.sweep)?;
    println!(
        "{}: {} rows, {} units, digest {}",
        sweep.name,
        sweep.total_games(),
        sweep.units().len(),
        sweep.digest
    );
    let (mut total, mut table_total) = (0.0, 0.0);
    for e in &sweep.experiments {
        let est = experiment(&sweep, e, args.samples)?;
        println!(
            "  {:<24} {:>10} rows {:>5} configs: measured {:>9.1} s, cost table {:>9.1} s (sample: {} rows, {} solved, {} exhaustive)",
            e.name,
            est.rows,
            e.configs.len(),
            est.measured_secs,
            est.table_secs,
            est.taken,
            est.solved,
            est.exhaustive
        );
        total += est.measured_secs;
        table_total += est.table_secs;
    }
    println!(
        "total: measured {:.0} s of one core ({:.1} min on 2 cores), cost table {:.0} s",
        total,
        total / 120.0,
        table_total
    );
    Ok(ExitCode::SUCCESS)
}

/// Solves `samples` rows of `e` (all of them when it has fewer) and scales the times up.
fn experiment(sweep: &Sweep, e: &Experiment, samples: u64) -> Result<Estimate> {
    let mut solver = e.family.solver();
    let rows = e.configs.len() as u64 * e.points.len() as u64 * e.games;
    let taken = samples.min(rows);
    let (mut secs, mut table) = (0.0, 0.0);
    let (mut solved, mut exhaustive) = (0u64, 0u64);
    for j in 0..taken {
        let (config, point, game) = sample_row(e, rows, taken, j);
        let config = &e.configs[config];
        let point = &e.points[point];
        let solver_config = config.solver_config();
        let clock = ThreadClock::now();
        let out = solver.solve(Job {
            point,
            instance: Instance::Seeded {
                sweep_seed: sweep.seed,
                index: game,
            },
            config: &solver_config,
            run_seed: config.run_seed(e.family, point, sweep.seed, game),
            program: e.program.as_ref(),
        })?;
        secs += clock.elapsed_secs();
        table += e.family.estimated_seconds(point, &solver_config);
        solved += u64::from(out.game.score <= e.family.goal(point));
        exhaustive += u64::from(out.game.exhaustive);
    }
    let scale = if taken == 0 {
        0.0
    } else {
        rows as f64 / taken as f64
    };
    Ok(Estimate {
        rows,
        measured_secs: secs * scale,
        table_secs: table * scale,
        taken,
        solved,
        exhaustive,
    })
}

/// Sample `j` of `taken` over the experiment's `rows`, ordered configuration, then point,
/// then game: (configuration index, point index, game index). The rows are spread evenly,
/// and a prime multiplier spreads the games within a point over its whole range rather
/// than its first few.
fn sample_row(e: &Experiment, rows: u64, taken: u64, j: u64) -> (usize, usize, u64) {
    let per_config = e.points.len() as u64 * e.games;
    let r = (u128::from(j) * u128::from(rows) / u128::from(taken)) as u64;
    let within = r % per_config;
    let point = (within / e.games) as usize;
    let games = e.games_of(&e.points[point]).max(1);
    let game = e.first_game + (within % e.games * 7919) % games;
    ((r / per_config) as usize, point, game)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn experiment(text: &str) -> Sweep {
        Sweep::parse(text, "test.toml").expect("a valid sweep")
    }

    #[test]
    fn samples_cover_every_configuration_and_stay_within_the_games() {
        let sweep = experiment(
            "name = \"t\"\nseed = 1\n[[experiment]]\nname = \"e\"\nsizes = [4, 5]\n\
             games = 100\nfirst_game = 50\norders = [\"standard\", \"random\"]\n",
        );
        let e = &sweep.experiments[0];
        let rows = 2 * 2 * 100;
        let picks: Vec<_> = (0..8).map(|j| sample_row(e, rows, 8, j)).collect();
        for config in 0..2 {
            for point in 0..2 {
                assert!(picks.iter().any(|&(c, p, _)| (c, p) == (config, point)));
            }
        }
        assert!(
            picks.iter().all(|&(_, _, g)| (50..150).contains(&g)),
            "{picks:?}"
        );
    }

    #[test]
    fn a_sample_as_large_as_the_experiment_takes_every_row_once() {
        let sweep = experiment(
            "name = \"t\"\nseed = 1\n[[experiment]]\nname = \"e\"\nsizes = [3]\ngames = 7\n",
        );
        let e = &sweep.experiments[0];
        let mut games: Vec<u64> = (0..7).map(|j| sample_row(e, 7, 7, j).2).collect();
        games.sort_unstable();
        assert_eq!(games, (0..7).collect::<Vec<_>>());
    }
}
