//! `hammer moves`: the legal moves of a state and the state after each.

use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use hammer_engine::{Martello, Puzzle, State};
use serde_json::{Value, json};

use crate::batch::batch;

#[derive(Args)]
pub struct MovesArgs {
    /// A state such as `A1B2C3/C1/`, or `-` to read one per line from stdin.
    state: String,
    /// Print `{"state": ..., "moves": {"XxY": next_state, ...}}`.
    #[arg(long)]
    json: bool,
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
