//! `hammer bench`: solver speed on a fixed set of seeded games.
//!
//! Benchmarks are a command, not timed tests: this machine is shared and noisy, so
//! figures are compared as ratios measured in one run (see docs/benchmarks.md).

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_family::{Family, Instance, Job, Point};
use hammer_solver::{Config, OrderSpec};

use crate::puzzle::PuzzleArgs;

#[derive(Args)]
pub struct BenchArgs {
    /// Number of games: seeded instances 0..GAMES of the point under --seed (fewer when
    /// the point has fewer instances).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// Martello's board size; the same as `--param n=N`. With neither, the puzzle's
    /// default point (Martello: 6x6).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=8))]
    n: Option<u8>,
    /// Sweep seed of the games.
    #[arg(long, default_value_t = 2013)]
    seed: u64,
    /// Solver configurations as ORDER/SCHEDULE; repeat the flag for several.
    #[arg(long = "config", default_values_t = ["standard/exact".to_string(), "random/paper".to_string()])]
    configs: Vec<String>,
    /// Also write every game's expansions and time to this CSV file (config, game,
    /// expansions, score, exact, ns), for paired comparisons of configurations.
    #[arg(long)]
    per_game: Option<std::path::PathBuf>,
}

struct Row {
    name: String,
    secs: f64,
    expansions: u64,
    exhaustive: u64,
    solvable: u64,
    max_memo_states: u64,
    max_memo_bytes: u64,
    hardest: (u64, u64),
    mins: Vec<u32>,
    /// Per game: expansions, exact, nanoseconds.
    each: Vec<(u64, bool, u64)>,
}

fn parse_config(text: &str) -> Result<Config> {
    // A learned order names a file, whose path may hold slashes: split at the last one.
    let split = if text.starts_with("learned:") {
        text.rsplit_once('/')
    } else {
        text.split_once('/')
    };
    let (order, schedule) = split
        .with_context(|| format!("config '{text}' is not ORDER/SCHEDULE, such as random/paper"))?;
    let schedule = crate::args::schedule_arg(schedule).map_err(anyhow::Error::msg)?;
    let order = order
        .parse::<OrderSpec>()?
        .load()?
        .for_schedule(&schedule)?;
    Ok(Config {
        order,
        schedule,
        prefix: 0,
        limits: Default::default(),
        cancel: None,
        profile: false,
    })
}

pub fn run(args: BenchArgs) -> Result<ExitCode> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let family = args.puzzle.family()?;
    let point = bench_point(&args, &*family)?;
    let games = family
        .instance_count(&point)
        .map_or(args.games, |c| c.min(args.games));
    // The instances are made before the clock starts, as the boards always were.
    let boards: Vec<String> = (0..games)
        .map(|index| {
            let sweep_seed = args.seed;
            family.instance(&point, Instance::Seeded { sweep_seed, index })
        })
        .collect::<Result<_, _>>()?;
    let rows = args
        .configs
        .iter()
        .map(|text| run_config(text, &*family, &point, &boards, args.seed))
        .collect::<Result<Vec<_>>>()?;
    println!(
        "{games} {} games ({point}) under seed {}, one thread\n",
        family.name(),
        args.seed
    );
    print_table(&rows, games);
    compare(&rows, games)?;
    if let Some(path) = &args.per_game {
        write_per_game(path, &rows)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The point of `--param` (or `--n`), else the puzzle's default point.
fn bench_point(args: &BenchArgs, family: &dyn Family) -> Result<Point> {
    // `--n` counts only where no `--param` is given.
    let n = args.n.filter(|_| args.puzzle.params.is_empty());
    Ok(match (n, family.default_point()) {
        (None, Some(point)) if args.puzzle.params.is_empty() => point,
        (n, _) => {
            let extra: Vec<(String, String)> = n
                .map(|n| ("n".to_string(), n.to_string()))
                .into_iter()
                .collect();
            args.puzzle.point(&extra, None)?.1
        }
    })
}

/// Solves every board under one configuration, on this thread, timed as a whole.
fn run_config(
    text: &str,
    family: &dyn Family,
    point: &Point,
    boards: &[String],
    sweep_seed: u64,
) -> Result<Row> {
    let config = parse_config(text)?;
    let mut solver = family.solver();
    let mut row = Row {
        name: text.to_string(),
        secs: 0.0,
        expansions: 0,
        exhaustive: 0,
        solvable: 0,
        max_memo_states: 0,
        max_memo_bytes: 0,
        hardest: (0, 0),
        mins: Vec::with_capacity(boards.len()),
        each: Vec::with_capacity(boards.len()),
    };
    let started = Instant::now();
    for (i, board) in boards.iter().enumerate() {
        let seed = family.run_seed(point, sweep_seed, i as u64, 0);
        let game_started = Instant::now();
        let solved = solver.solve(Job {
            point,
            instance: Instance::Given(board),
            config: &config,
            run_seed: seed,
            program: None,
        })?;
        let out = &solved.game;
        let ns = game_started.elapsed().as_nanos() as u64;
        row.each.push((out.expansions, out.exhaustive, ns));
        row.expansions += out.expansions;
        row.exhaustive += out.exhaustive as u64;
        row.solvable += (out.score <= family.goal(point)) as u64;
        if solved.memo_states > row.max_memo_states {
            row.max_memo_states = solved.memo_states;
            row.max_memo_bytes = out.memo_bytes;
        }
        if out.expansions > row.hardest.1 {
            row.hardest = (i as u64, out.expansions);
        }
        row.mins.push(out.score);
    }
    row.secs = started.elapsed().as_secs_f64();
    Ok(row)
}

fn print_table(rows: &[Row], games: u64) {
    println!(
        "| config | games/s | expansions/s | mean expansions | exact | solvable | largest memo (states, bytes/state) | hardest game (index, expansions) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for r in rows {
        println!(
            "| {} | {:.1} | {:.0} | {:.0} | {}/{} | {} | {}, {:.1} | {}, {} |",
            r.name,
            games as f64 / r.secs,
            r.expansions as f64 / r.secs,
            r.expansions as f64 / games as f64,
            r.exhaustive,
            games,
            r.solvable,
            r.max_memo_states,
            if r.max_memo_states > 0 {
                r.max_memo_bytes as f64 / r.max_memo_states as f64
            } else {
                0.0
            },
            r.hardest.0,
            r.hardest.1,
        );
    }
}

/// Each configuration's expansions against the first's; an error where two that both
/// settled every game disagree on a score.
fn compare(rows: &[Row], games: u64) -> Result<()> {
    let Some(first) = rows.first() else {
        return Ok(());
    };
    for r in &rows[1..] {
        let ratio = r.expansions as f64 / first.expansions.max(1) as f64;
        println!(
            "\n{} vs {}: mean expansions {:.1}% {} ({:.3}x)",
            r.name,
            first.name,
            (1.0 - ratio).abs() * 100.0,
            if ratio <= 1.0 { "lower" } else { "higher" },
            ratio
        );
        let both_exact = first.exhaustive == games && r.exhaustive == games;
        if both_exact && r.mins != first.mins {
            bail!("{} and {} disagree on a proven score", r.name, first.name);
        }
    }
    Ok(())
}

fn write_per_game(path: &std::path::Path, rows: &[Row]) -> Result<()> {
    let mut text = String::from("config,game,expansions,score,exact,ns\n");
    for r in rows {
        for (i, (&(exp, exact, ns), score)) in r.each.iter().zip(&r.mins).enumerate() {
            text.push_str(&format!("\"{}\",{i},{exp},{score},{exact},{ns}\n", r.name));
        }
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}
