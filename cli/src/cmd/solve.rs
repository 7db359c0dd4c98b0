//! `hammer solve`: solve one board, a seeded game, or one board per stdin line.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_engine::{Martello, State, seeded};
use hammer_solver::{Config, Order, Schedule, Solver};
use serde_json::{Value, json};

use crate::args::schedule_arg;
use crate::batch::batch;

#[derive(Args)]
pub struct SolveArgs {
    /// A start position such as `A1B2/B1A2`, or `-` to read one per line from stdin.
    #[arg(conflicts_with = "random", required_unless_present = "random")]
    board: Option<String>,
    /// Solve seeded game `--index` of size `--n` under sweep seed `--seed` instead.
    #[arg(long, requires_all = ["n", "index"])]
    random: bool,
    /// Board size of the seeded game (1 to 8).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=8))]
    n: Option<u8>,
    /// Game index of the seeded game.
    #[arg(long)]
    index: Option<u64>,
    /// Sweep seed (with --random) or run seed (with a board): the source of every
    /// random choice.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Try number, as in multi-try sweeps (with --random).
    #[arg(long, default_value_t = 0)]
    trial: u32,
    /// Move order: standard, most-options, monte-carlo[:K,L] or random.
    #[arg(long, default_value = "standard")]
    order: Order,
    /// Restart schedule: exact, paper, luby:U, geometric:B,R, fixed:B, a list such as
    /// 1x10000,40x250,exact, or @FILE for a schedule file (as `hammer tune` writes).
    #[arg(long, default_value = "exact", value_parser = schedule_arg)]
    schedule: Schedule,
    /// Random moves to play before solving.
    #[arg(long, default_value_t = 0)]
    prefix: u32,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

fn notation(moves: &[hammer_engine::Move], n: u8) -> Vec<String> {
    moves.iter().map(|m| m.notation(n)).collect()
}

fn solve_one(solver: &mut Solver<Martello>, board: &State, config: &Config, seed: u64) -> Value {
    let started = Instant::now();
    let out = solver.solve(board, config, seed);
    let wall_ns = started.elapsed().as_nanos() as u64;
    let n = board.n();
    json!({
        "board": board.to_string(),
        "n": n,
        "seed": seed,
        "order": config.order.to_string(),
        "schedule": config.schedule.to_string(),
        "prefix": config.prefix,
        "prefix_moves": notation(&out.prefix_moves, n),
        "start": out.start.to_string(),
        "min_stones": out.min_score,
        "solvable": out.min_score == 1,
        "exhaustive": out.exhaustive,
        "lower_bound": out.lower_bound,
        "solution": notation(&out.solution, n),
        "expansions": out.counters.expansions,
        "attempts": out.counters.attempts,
        "heuristic_steps": out.counters.heuristic_steps,
        "memo_states": out.memo_states,
        "wall_ns": wall_ns,
    })
}

fn print_solve(v: &Value) {
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
    println!("board       {}", v["board"].as_str().unwrap_or(""));
    if v["prefix"].as_u64().unwrap_or(0) > 0 {
        println!("prefix      {}", list("prefix_moves"));
        println!("start       {}", v["start"].as_str().unwrap_or(""));
    }
    let exact = if v["exhaustive"].as_bool() == Some(true) {
        "exact"
    } else {
        "upper bound: the budget ran out"
    };
    println!("min stones  {} ({exact})", v["min_stones"]);
    println!("solution    {}", list("solution"));
    println!(
        "expansions  {} in {} attempt(s)",
        v["expansions"], v["attempts"]
    );
    let ns = v["wall_ns"].as_u64().unwrap_or(0);
    println!("time        {:.3} ms", ns as f64 / 1e6);
}

pub fn solve(args: SolveArgs) -> Result<ExitCode> {
    let config = Config {
        order: args.order,
        schedule: args.schedule,
        prefix: args.prefix,
    };
    let mut solver = Solver::new(Martello);
    let (board, seed) = match (&args.board, args.random) {
        (Some(b), _) if b == "-" => {
            return batch(|line| {
                let board = State::parse_board(line)?;
                Ok(solve_one(&mut solver, &board, &config, args.seed))
            });
        }
        (Some(b), _) => (
            State::parse_board(b).with_context(|| format!("board '{b}'"))?,
            args.seed,
        ),
        (None, true) => {
            let (Some(n), Some(index)) = (args.n, args.index) else {
                bail!("--random needs --n and --index");
            };
            let board = seeded::game(args.seed, n, index)?;
            (board, seeded::run_seed(args.seed, n, index, args.trial))
        }
        (None, false) => bail!("give a board, `-`, or --random"),
    };
    let value = solve_one(&mut solver, &board, &config, seed);
    if args.json {
        println!("{value}");
    } else {
        print_solve(&value);
    }
    Ok(ExitCode::SUCCESS)
}
