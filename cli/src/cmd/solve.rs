//! `hammer solve`: solve one position, a seeded instance, or one position per stdin line.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_family::{FamilyRef, GameSolver, Instance, Job, Point};
use hammer_solver::{Config, Limits, OrderSpec, Schedule};

use crate::args::schedule_arg;
use crate::batch::batch;
use crate::cmd::solve_owned::{OwnersArgs, solve_owned};
use crate::cmd::solve_print::Lone;
use crate::puzzle::PuzzleArgs;

#[derive(Args)]
pub struct SolveArgs {
    /// A position such as `A1B2/B1A2` (a start or any later state, such as `A1/B1A2`), or
    /// `-` to read one per line from stdin.
    #[arg(conflicts_with = "random", required_unless_present = "random")]
    board: Option<String>,
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// Solve seeded instance `--index` of the puzzle's point under sweep seed `--seed`
    /// instead (Martello: of size `--n`).
    #[arg(long, requires = "index")]
    random: bool,
    /// Martello's board size (1 to 8); the same as `--param n=N`.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=8))]
    n: Option<u8>,
    /// Instance index of the seeded instance.
    #[arg(long)]
    index: Option<u64>,
    /// Sweep seed (with --random) or run seed (with a board): the source of every
    /// random choice.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Try number, as in multi-try sweeps (with --random).
    #[arg(long, default_value_t = 0)]
    trial: u32,
    /// Move order: standard, most-options, monte-carlo[:K,L], random or learned:KB[,R[,T]]
    /// (a knowledge base from `hammer learn`, radius R, temperature T).
    #[arg(long, default_value = "standard")]
    order: OrderSpec,
    /// Restart schedule: exact, paper, luby:U, geometric:B,R, fixed:B, a list such as
    /// 1x10000,40x250,exact, or @FILE for a schedule file (as `hammer tune` writes).
    #[arg(long, default_value = "exact", value_parser = schedule_arg)]
    schedule: Schedule,
    /// Random moves to play before solving.
    #[arg(long, default_value_t = 0)]
    prefix: u32,
    /// Stop the game after this many expansions (over all attempts); the result then
    /// brackets the answer between the proved bound and the best score found.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_expansions: Option<u64>,
    /// Stop the game after this many seconds of search (a result that depends on the
    /// machine's speed).
    #[arg(long, value_parser = seconds_arg)]
    max_seconds: Option<Duration>,
    /// Limit the memo to this many MiB: at the limit it forgets states instead of growing
    /// (the answer stays exact; forgotten states are searched again).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=(1 << 20)))]
    max_memo_mb: Option<u64>,
    /// Also profile the search: per score (Martello: stones left), the states expanded
    /// and their mean bound, their successors, those the bound pruned and how many of
    /// them the base bound alone prunes (Martello: components before zones), and memo
    /// hits; with memo evictions and the start's bound (docs/search.md).
    #[arg(long)]
    profile: bool,
    #[command(flatten)]
    owners: OwnersArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// A positive number of seconds, fractions allowed (`0.5`).
fn seconds_arg(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 1e9 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("'{text}' is not a positive number of seconds")),
    }
}

/// Solves one instance with `run_seed`; `shown` is the `--seed` and `--trial` given, and
/// `index` the seeded instance's index.
fn solve_one(
    family: FamilyRef,
    point: &Point,
    solver: &mut dyn GameSolver,
    (instance, index): (Instance<'_>, u64),
    config: &Config,
    run_seed: u64,
    shown: (u64, u32),
) -> Result<Lone> {
    let started = Instant::now();
    let mut solved = solver.solve(Job {
        point,
        instance,
        config,
        run_seed,
        program: None,
    })?;
    solved.game.wall_ns = started.elapsed().as_nanos() as u64;
    solved.game.game_index = index;
    Ok(Lone::new(family, point, config, shown, solved))
}

pub fn solve(args: SolveArgs) -> Result<ExitCode> {
    let config = Config {
        order: args.order.load()?.for_schedule(&args.schedule)?,
        schedule: args.schedule.clone(),
        prefix: args.prefix,
        limits: Limits {
            max_expansions: args.max_expansions,
            max_time: args.max_seconds,
            memo_bytes: args.max_memo_mb.map(|mb| mb << 20),
        },
        cancel: None,
        profile: args.profile,
    };
    let extra: Vec<(String, String)> = args
        .n
        .map(|n| ("n".to_string(), n.to_string()))
        .into_iter()
        .collect();
    let family = args.puzzle.family()?;
    if matches!(args.order, OrderSpec::Learned { .. }) && family.learning().is_none() {
        bail!(
            "--order {}: the learned order ranks moves by their transitions, and puzzle {} has none to learn from (puzzles that have them: {})",
            args.order,
            family.name(),
            hammer_family::learning_names()
        );
    }
    if args.owners.wanted() {
        args.owners
            .check(&config, args.board.as_deref() == Some("-"))?;
        let (family, point) = args.puzzle.point(&extra, args.board.as_deref())?;
        let instance = match (&args.board, args.index) {
            (Some(b), _) => Instance::Given(b),
            (None, Some(index)) => Instance::Seeded {
                sweep_seed: args.seed,
                index,
            },
            (None, None) => bail!("give a board, or --random with --index"),
        };
        return solve_owned(&args.owners, family, &point, instance, args.json);
    }
    let mut solver = family.solver();
    let shown = (args.seed, args.trial);
    let lone = match (&args.board, args.random) {
        (Some(b), _) if b == "-" => {
            return batch(|line| {
                let line = line.trim();
                let (family, point) = args.puzzle.point(&extra, Some(line))?;
                let instance = (Instance::Given(line), 0);
                let solver = solver.as_mut();
                let lone = solve_one(family, &point, solver, instance, &config, args.seed, shown)?;
                Ok(lone.json())
            });
        }
        (Some(b), _) => {
            let (family, point) = args.puzzle.point(&extra, Some(b))?;
            let instance = (Instance::Given(b), 0);
            solve_one(
                family,
                &point,
                solver.as_mut(),
                instance,
                &config,
                args.seed,
                shown,
            )
            .with_context(|| format!("board '{b}'"))?
        }
        (None, true) => {
            let Some(index) = args.index else {
                bail!("--random needs --index");
            };
            let (family, point) = args.puzzle.point(&extra, None)?;
            let seed = family.run_seed(&point, args.seed, index, args.trial);
            let instance = Instance::Seeded {
                sweep_seed: args.seed,
                index,
            };
            let instance = (instance, index);
            solve_one(
                family,
                &point,
                solver.as_mut(),
                instance,
                &config,
                seed,
                shown,
            )?
        }
        (None, false) => bail!("give a board, `-`, or --random"),
    };
    if args.json {
        println!("{}", lone.json());
    } else {
        lone.print();
    }
    Ok(ExitCode::SUCCESS)
}
