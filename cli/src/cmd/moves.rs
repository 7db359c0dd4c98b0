//! `hammer moves`: the legal moves of a state and the state after each.

use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::{Value, json};

use crate::batch::batch;
use crate::puzzle::PuzzleArgs;

#[derive(Args)]
pub struct MovesArgs {
    /// A state such as `A1B2C3/C1/`, or `-` to read one per line from stdin.
    state: String,
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// Print `{"puzzle": ..., "state": ..., "score": ..., "moves": {MOVE: next_state, ...}}`.
    #[arg(long)]
    json: bool,
}

fn moves_of(args: &PuzzleArgs, state: &str) -> Result<Value> {
    let (family, point) = args.point(&[], Some(state))?;
    let moves = family.moves(&point, state)?;
    let map: serde_json::Map<String, Value> = moves
        .into_iter()
        .map(|(mv, next)| (mv, Value::String(next)))
        .collect();
    Ok(json!({
        "puzzle": family.name(),
        "state": state,
        "score": family.score(&point, state)?,
        "moves": map,
    }))
}

pub fn moves(args: MovesArgs) -> Result<ExitCode> {
    if args.state == "-" {
        return batch(|line| moves_of(&args.puzzle, line.trim()));
    }
    let value =
        moves_of(&args.puzzle, &args.state).with_context(|| format!("state '{}'", args.state))?;
    if args.json {
        println!("{value}");
        return Ok(ExitCode::SUCCESS);
    }
    let map = value["moves"].as_object().cloned().unwrap_or_default();
    println!("{} legal move(s) in {}", map.len(), args.state);
    for (mv, next) in map {
        println!("{mv:7} -> {}", next.as_str().unwrap_or(""));
    }
    Ok(ExitCode::SUCCESS)
}
