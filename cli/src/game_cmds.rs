//! `hammer solve`, `hammer moves` and `hammer replay`: the engine and solvers by hand.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_engine::{Martello, Puzzle, State, seeded};
use hammer_solver::{Config, Order, Schedule, Solver};
use serde_json::{Value, json};

use crate::board_view;

/// `--schedule`: a schedule, or `@FILE` naming a schedule file.
pub fn schedule_arg(text: &str) -> Result<Schedule, String> {
    match text.strip_prefix('@') {
        Some(path) => {
            let body = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the schedule file {path}: {e}"))?;
            Schedule::from_file_text(&body).map_err(|e| format!("{path}: {e}"))
        }
        None => text
            .parse()
            .map_err(|e: hammer_solver::ScheduleError| e.to_string()),
    }
}

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

#[derive(Args)]
pub struct MovesArgs {
    /// A state such as `A1B2C3/C1/`, or `-` to read one per line from stdin.
    state: String,
    /// Print `{"state": ..., "moves": {"XxY": next_state, ...}}`.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// The state to start from, or `-` to read lines of `BOARD MOVE...` from stdin.
    board: String,
    /// Moves written XxY, in order.
    moves: Vec<String>,
    /// Print JSON instead of drawing boards.
    #[arg(long)]
    json: bool,
}

/// Runs `each` on every line of stdin, printing one JSON line per input. A bad line
/// gives a JSON line with its number and the error; the exit code is then non-zero.
fn batch(mut each: impl FnMut(&str) -> Result<Value>) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut failed = false;
    for (i, line) in stdin.lock().lines().enumerate() {
        let line = line.context("reading stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        let value = match each(&line) {
            Ok(v) => v,
            Err(e) => {
                failed = true;
                json!({"line": i + 1, "input": line, "error": format!("{e:#}")})
            }
        };
        writeln!(stdout, "{value}")?;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
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

fn moves_of(state: &State) -> Value {
    let mut buf = Vec::new();
    Martello.moves(state, &mut buf);
    let map: serde_json::Map<String, Value> = buf
        .iter()
        .map(|m| {
            (
                m.notation(state.n()),
                Value::String(state.apply(*m).to_string()),
            )
        })
        .collect();
    json!({"state": state.to_string(), "moves": map})
}

pub fn moves(args: MovesArgs) -> Result<ExitCode> {
    if args.state == "-" {
        return batch(|line| Ok(moves_of(&State::parse(line)?)));
    }
    let state = State::parse(&args.state).with_context(|| format!("state '{}'", args.state))?;
    let value = moves_of(&state);
    if args.json {
        println!("{value}");
        return Ok(ExitCode::SUCCESS);
    }
    let map = value["moves"].as_object().cloned().unwrap_or_default();
    println!("{} legal move(s) in {}", map.len(), state);
    for (mv, next) in map {
        println!("{mv:7} -> {}", next.as_str().unwrap_or(""));
    }
    Ok(ExitCode::SUCCESS)
}

/// Replays `moves` from `board`: the states after each move, or the first illegal one.
fn replay_states(board: &State, moves: &[String]) -> Result<Vec<State>> {
    let mut states = vec![*board];
    let mut state = *board;
    for (i, text) in moves.iter().enumerate() {
        let mv = state.parse_move(text).with_context(|| {
            format!("move {} of {} is illegal in {}", i + 1, moves.len(), state)
        })?;
        state = state.apply(mv);
        states.push(state);
    }
    Ok(states)
}

fn replay_json(board: &State, moves: &[String]) -> Result<Value> {
    let states = replay_states(board, moves)?;
    let last = states.last().copied().unwrap_or(*board);
    let mut buf = Vec::new();
    Martello.moves(&last, &mut buf);
    Ok(json!({
        "board": board.to_string(),
        "moves": moves,
        "states": states.iter().map(State::to_string).collect::<Vec<_>>(),
        "final": last.to_string(),
        "stones": last.stone_count(),
        "stuck": buf.is_empty(),
    }))
}

pub fn replay(args: ReplayArgs) -> Result<ExitCode> {
    if args.board == "-" {
        return batch(|line| {
            let mut words = line.split_whitespace();
            let board = State::parse(words.next().unwrap_or(""))?;
            let moves: Vec<String> = words.map(str::to_string).collect();
            replay_json(&board, &moves)
        });
    }
    let board = State::parse(&args.board).with_context(|| format!("board '{}'", args.board))?;
    if args.json {
        println!("{}", replay_json(&board, &args.moves)?);
        return Ok(ExitCode::SUCCESS);
    }
    let colour = board_view::use_colour();
    println!("start: {} ({} stones)", board, board.stone_count());
    print!("{}", board_view::draw(&board, colour));
    let mut state = board;
    for (i, text) in args.moves.iter().enumerate() {
        let mv = state.parse_move(text).with_context(|| {
            format!(
                "move {} of {} is illegal in {}",
                i + 1,
                args.moves.len(),
                state
            )
        })?;
        state = state.apply(mv);
        println!(
            "\nmove {}: {} -> {} ({} stones)",
            i + 1,
            text,
            state,
            state.stone_count()
        );
        print!("{}", board_view::draw(&state, colour));
    }
    let mut buf = Vec::new();
    Martello.moves(&state, &mut buf);
    if buf.is_empty() {
        println!("\nno legal move left: {} stone(s)", state.stone_count());
    } else {
        println!(
            "\n{} legal move(s) left, {} stone(s)",
            buf.len(),
            state.stone_count()
        );
    }
    Ok(ExitCode::SUCCESS)
}
