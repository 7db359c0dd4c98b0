//! `hammer replay`: check a solution move by move and draw each state.

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use hammer_family::{FamilyRef, Point};
use serde_json::{Value, json};

use crate::batch::batch;
use crate::puzzle::PuzzleArgs;

#[derive(Args)]
pub struct ReplayArgs {
    /// The state to start from, or `-` to read lines of `BOARD MOVE...` from stdin.
    board: String,
    /// Moves in the puzzle's notation (Martello: XxY), in order.
    moves: Vec<String>,
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// Print JSON instead of drawing boards.
    #[arg(long)]
    json: bool,
}

/// Whether to colour the drawing: stdout is a terminal and `NO_COLOR` is unset.
fn use_colour() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// The start and every state after a move; the first illegal move is an error naming it.
fn replay_states(
    family: FamilyRef,
    point: &Point,
    board: &str,
    moves: &[String],
) -> Result<Vec<String>> {
    let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
    let mut states = vec![board.to_string()];
    let after = family.replay(point, board, &texts).map_err(|e| match &e {
        hammer_family::FamilyError::BadMove { index: Some(i), .. } => anyhow::Error::new(e.clone())
            .context(format!("move {} of {} is illegal", i + 1, moves.len())),
        _ => anyhow::Error::new(e),
    })?;
    states.extend(after);
    Ok(states)
}

fn replay_json(args: &PuzzleArgs, board: &str, moves: &[String]) -> Result<Value> {
    let (family, point) = args.point(&[], Some(board))?;
    let states = replay_states(family, &point, board, moves)?;
    let last = states.last().cloned().unwrap_or_else(|| board.to_string());
    let score = family.score(&point, &last)?;
    Ok(json!({
        "puzzle": family.name(),
        "board": board,
        "moves": moves,
        "states": states,
        "final": last,
        "score": score,
        "stones": score,
        "stuck": family.moves(&point, &last)?.is_empty(),
    }))
}

pub fn replay(args: ReplayArgs) -> Result<ExitCode> {
    if args.board == "-" {
        return batch(|line| {
            let mut words = line.split_whitespace();
            let board = words.next().unwrap_or("").to_string();
            let moves: Vec<String> = words.map(str::to_string).collect();
            replay_json(&args.puzzle, &board, &moves)
        });
    }
    let context = || format!("board '{}'", args.board);
    if args.json {
        println!(
            "{}",
            replay_json(&args.puzzle, &args.board, &args.moves).with_context(context)?
        );
        return Ok(ExitCode::SUCCESS);
    }
    let (family, point) = args
        .puzzle
        .point(&[], Some(&args.board))
        .with_context(context)?;
    // Every move is checked before anything is drawn, so that an illegal move is
    // reported without a half-drawn replay above it.
    let states = replay_states(family, &point, &args.board, &args.moves).with_context(context)?;
    let colour = use_colour();
    // "(4 stones)" where the score counts pieces, else "(4 score)".
    let (unit, units) = match family.score_unit() {
        Some(unit) => (format!("{unit}s"), format!("{unit}(s)")),
        None => ("score".to_string(), "score".to_string()),
    };
    for (i, state) in states.iter().enumerate() {
        let score = family.score(&point, state)?;
        if i == 0 {
            println!("start: {state} ({score} {unit})");
        } else {
            println!(
                "\nmove {i}: {} -> {state} ({score} {unit})",
                args.moves[i - 1]
            );
        }
        print!("{}", family.draw(&point, state, colour)?);
    }
    let last = states.last().cloned().unwrap_or_default();
    let left = family.moves(&point, &last)?.len();
    let score = family.score(&point, &last)?;
    if left == 0 {
        println!("\nno legal move left: {score} {units}");
    } else {
        println!("\n{left} legal move(s) left, {score} {units}");
    }
    Ok(ExitCode::SUCCESS)
}
