//! `hammer solve`: solve one position, a seeded instance, or one position per stdin line.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_family::{Cell, FamilyRef, GameSolver, Instance, Job, Point, Solved};
use hammer_solver::{Config, Limits, OrderSpec, Schedule};
use serde_json::{Value, json};

use crate::args::schedule_arg;
use crate::batch::batch;
use crate::cmd::solve_owned::{OwnersArgs, solve_owned};
use crate::puzzle::{PuzzleArgs, move_list};

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
    /// Search only part I of the game split in K parts (`I/K`), as a worker searches a
    /// split game's part unit, but alone: no other part tells it a score.
    #[arg(long, value_parser = part_arg, value_name = "I/K")]
    part: Option<(u32, u32)>,
    /// With `--part`: search it as a racer of a race (`split_mode = "race"`), which
    /// searches the whole game under a stream of its own (part 0 is the unsplit search).
    #[arg(long, requires = "part")]
    race: bool,
    /// Also profile the search: per score (Martello: stones left), the states expanded
    /// and their mean bound, their successors, those the bound pruned and how many of
    /// them the base bound alone prunes (Martello: components before zones), and memo
    /// hits; with memo evictions and the start's bound (docs/search.md).
    #[arg(long)]
    profile: bool,
    /// Before expanding each state, ask the puzzle's strong bound too (Martello: stones
    /// that can never move again stay; docs/search.md): fewer expansions on hard games,
    /// each state costlier. The answer is the same.
    #[arg(long)]
    strong_bound: bool,
    #[command(flatten)]
    owners: OwnersArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// `I/K` with `I < K` and `2 <= K <= 1024`: one part of a split game.
fn part_arg(text: &str) -> Result<(u32, u32), String> {
    let parsed = text
        .split_once('/')
        .and_then(|(i, k)| Some((i.trim().parse::<u32>().ok()?, k.trim().parse::<u32>().ok()?)));
    match parsed {
        Some((i, k)) if (2..=1024).contains(&k) && i < k => Ok((i, k)),
        _ => Err(format!(
            "'{text}' is not a part I/K with 2 <= K <= 1024 and 0 <= I < K (such as 0/2)"
        )),
    }
}

/// A positive number of seconds, fractions allowed (`0.5`).
fn seconds_arg(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 1e9 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("'{text}' is not a positive number of seconds")),
    }
}

/// Solves one instance and describes it as JSON: the keys `hammer solve --json` always
/// had, plus `puzzle`, `params`, `score` (`min_stones` is the score under Martello's
/// name) and `columns`, the family's own dataset columns.
fn solve_one(
    family: FamilyRef,
    point: &Point,
    solver: &mut dyn GameSolver,
    instance: Instance<'_>,
    config: &Config,
    seed: u64,
) -> Result<Value> {
    let started = Instant::now();
    let out = solver.solve(Job {
        point,
        instance,
        config,
        run_seed: seed,
    })?;
    let wall_ns = started.elapsed().as_nanos() as u64;
    Ok(solved_json(family, point, &out, config, seed, wall_ns))
}

/// One solved instance as `hammer solve --json` prints it.
pub(crate) fn solved_json(
    family: FamilyRef,
    point: &Point,
    out: &Solved,
    config: &Config,
    seed: u64,
    wall_ns: u64,
) -> Value {
    // The family's own columns (peg's finishes, a tour count), as the dataset has them.
    let columns: serde_json::Map<String, Value> = family
        .columns()
        .iter()
        .zip(&out.extra)
        .map(|(spec, cell)| {
            let value = match cell {
                Cell::Int(v) => json!(v),
                Cell::Text(v) => json!(v),
                Cell::Bool(v) => json!(v),
                Cell::Null => Value::Null,
            };
            (spec.name.to_string(), value)
        })
        .collect();
    let mut value = json!({
        "puzzle": family.name(),
        "params": point.to_string(),
        "board": out.board,
        "n": family.size(point),
        "seed": seed,
        "order": config.order.to_string(),
        "schedule": config.schedule.to_string(),
        "strong_bound": config.strong_bound,
        "prefix": config.prefix,
        "prefix_moves": move_list(&out.prefix_moves),
        "start": out.start,
        "score": out.score,
        "min_stones": out.score,
        "solvable": out.score <= family.goal(point),
        "exhaustive": out.exhaustive,
        "lower_bound": out.lower_bound,
        "capped_by": out.capped_by.map(|c| c.name()),
        "memo_bytes": out.memo_bytes,
        "solution": move_list(&out.solution),
        "expansions": out.expansions,
        "attempts": out.attempts,
        "heuristic_steps": out.heuristic_steps,
        "memo_states": out.memo_states,
        "wall_ns": wall_ns,
        "columns": columns,
    });
    if let Some(profile) = out.profile.as_deref() {
        value["profile"] = profile_json(profile);
    }
    value
}

/// A profile as JSON: the start's bound, memo evictions, and one object per score with
/// any expansion, lowest score first.
fn profile_json(profile: &hammer_solver::Profile) -> Value {
    let levels: Vec<Value> = (profile.levels.iter().enumerate())
        .filter(|(_, l)| l.expanded > 0 || l.strong_pruned > 0)
        .map(|(score, l)| {
            json!({
                "score": score,
                "expanded": l.expanded,
                "bound_sum": l.bound_sum,
                "children": l.children,
                "pruned": l.pruned,
                "pruned_base": l.pruned_base,
                "memo_hits": l.memo_hits,
                "strong_pruned": l.strong_pruned,
            })
        })
        .collect();
    json!({
        "start_bound": profile.start_bound,
        "memo_evictions": profile.memo_evictions,
        "levels": levels,
    })
}

/// The profile of `solve --profile` as a table, highest score (the start) first.
fn print_profile(v: &Value) {
    let Some(levels) = v["levels"].as_array() else {
        return;
    };
    println!(
        "profile     start bound {}, memo evictions {}",
        v["start_bound"], v["memo_evictions"]
    );
    println!(
        "{:>8} {:>12} {:>10} {:>12} {:>12} {:>12} {:>12} {:>12}",
        "score",
        "expanded",
        "mean bound",
        "successors",
        "pruned",
        "base alone",
        "memo hits",
        "strong cut"
    );
    for l in levels.iter().rev() {
        let n = |key: &str| l[key].as_u64().unwrap_or(0);
        let mean = n("bound_sum") as f64 / n("expanded").max(1) as f64;
        println!(
            "{:>8} {:>12} {:>10.2} {:>12} {:>12} {:>12} {:>12} {:>12}",
            n("score"),
            n("expanded"),
            mean,
            n("children"),
            n("pruned"),
            n("pruned_base"),
            n("memo_hits"),
            n("strong_pruned")
        );
    }
}

pub(crate) fn print_solve(family: FamilyRef, v: &Value) {
    let list = |key: &str| -> String {
        let moves: Vec<&str> = v[key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        if moves.is_empty() {
            "(none)".to_string()
        } else {
            moves.join(" ")
        }
    };
    println!(
        "puzzle      {} ({})",
        v["puzzle"].as_str().unwrap_or(""),
        v["params"].as_str().unwrap_or("")
    );
    println!("board       {}", v["board"].as_str().unwrap_or(""));
    if v["prefix"].as_u64().unwrap_or(0) > 0 {
        println!("prefix      {}", list("prefix_moves"));
        println!("start       {}", v["start"].as_str().unwrap_or(""));
    }
    let exact = if v["exhaustive"].as_bool() == Some(true) {
        "exact".to_string()
    } else if let Some(cap) = v["capped_by"].as_str() {
        format!(
            "not proven: the {cap} limit stopped it; the answer is at least {}",
            v["lower_bound"]
        )
    } else {
        "upper bound: the budget ran out".to_string()
    };
    let label = match family.score_unit() {
        Some(unit) => format!("min {unit}s"),
        None => "score".to_string(),
    };
    println!("{label:<10}  {} ({exact})", v["score"]);
    println!("solution    {}", list("solution"));
    println!(
        "expansions  {} in {} attempt(s)",
        v["expansions"], v["attempts"]
    );
    let ns = v["wall_ns"].as_u64().unwrap_or(0);
    println!("time        {:.3} ms", ns as f64 / 1e6);
    if let Some(columns) = v["columns"].as_object() {
        for (name, value) in columns.iter().filter(|(_, value)| !value.is_null()) {
            match value.as_str() {
                Some(text) => println!("{name:<11} {text}"),
                None => println!("{name:<11} {value}"),
            }
        }
    }
    print_profile(&v["profile"]);
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
        split: args.part.map(|(index, count)| hammer_solver::SplitPart {
            index,
            count,
            mode: if args.race {
                hammer_solver::SplitMode::Race
            } else {
                hammer_solver::SplitMode::Subtrees
            },
            shared: hammer_solver::SharedBest::new(),
        }),
        cancel: None,
        profile: args.profile,
        strong_bound: args.strong_bound,
    };
    let extra: Vec<(String, String)> = args
        .n
        .map(|n| ("n".to_string(), n.to_string()))
        .into_iter()
        .collect();
    let family = args.puzzle.family()?;
    if matches!(args.order, OrderSpec::Learned { .. }) && family.learning().is_none() {
        bail!(
            "--order {}: the learned order ranks Martello moves by their transitions, and puzzle {} has none to learn from",
            args.order,
            family.name()
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
    let value = match (&args.board, args.random) {
        (Some(b), _) if b == "-" => {
            return batch(|line| {
                let line = line.trim();
                let (family, point) = args.puzzle.point(&extra, Some(line))?;
                solve_one(
                    family,
                    &point,
                    solver.as_mut(),
                    Instance::Given(line),
                    &config,
                    args.seed,
                )
            });
        }
        (Some(b), _) => {
            let (family, point) = args.puzzle.point(&extra, Some(b))?;
            solve_one(
                family,
                &point,
                solver.as_mut(),
                Instance::Given(b),
                &config,
                args.seed,
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
            solve_one(family, &point, solver.as_mut(), instance, &config, seed)?
        }
        (None, false) => bail!("give a board, `-`, or --random"),
    };
    if args.json {
        println!("{value}");
    } else {
        print_solve(family, &value);
    }
    Ok(ExitCode::SUCCESS)
}
