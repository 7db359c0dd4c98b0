//! `hammer replay`: check a solution move by move and draw each state.

use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use hammer_engine::{Martello, Puzzle, State};
use serde_json::{Value, json};

use crate::batch::batch;
use crate::board_view;

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
