//! `hammer learn`: a knowledge base of move transitions from a dataset's solved games,
//! for the learned move order (`--order learned:KB`, docs/learned-order.md).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_engine::martello::signature::{FEATURE_VERSION, MAX_RADIUS};
use hammer_engine::{Martello, State};
use hammer_solver::learned::Learner;

#[derive(Args)]
pub struct LearnArgs {
    /// A result dataset (a `hammer run` output directory).
    dataset: PathBuf,
    /// The longest radius to count transitions at (1 to 12); every shorter one is
    /// counted too.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=MAX_RADIUS as i64))]
    radius: u8,
    /// The board size to learn from (Martello's n); rows of other sizes are skipped.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=8))]
    n: u8,
    /// Use at most this many solved games (in the dataset's order of parts and rows,
    /// distinct start positions only).
    #[arg(long)]
    games: Option<u64>,
    /// The knowledge base file to write.
    #[arg(long)]
    out: PathBuf,
}

pub fn learn(args: LearnArgs) -> Result<ExitCode> {
    let rows = hammer_dataset::read_dataset(&args.dataset)
        .with_context(|| format!("cannot read the dataset {}", args.dataset.display()))?;
    let mut learner = Learner::new(args.n, args.radius as usize, FEATURE_VERSION);
    let mut seen = std::collections::HashSet::new();
    let (mut games, mut skipped) = (0u64, 0u64);
    for row in &rows {
        if args.games.is_some_and(|g| games >= g) {
            break;
        }
        let martello = row.puzzle.is_empty() || row.puzzle == hammer_family::DEFAULT_FAMILY;
        if !martello || row.n != i32::from(args.n) || !row.exhaustive {
            skipped += 1;
            continue;
        }
        // The same game under several configurations counts once.
        if !seen.insert(row.start.clone()) {
            continue;
        }
        let start = State::parse(&row.start)
            .with_context(|| format!("game {} of {}: bad start", row.game_index, row.sweep))?;
        let solution: Vec<&str> = row.solution.split_whitespace().collect();
        let moves = replay(&start, &solution).with_context(|| {
            format!(
                "game {} of sweep {} (experiment {}): bad solution",
                row.game_index, row.sweep, row.experiment
            )
        })?;
        learner
            .game(&Martello, &start, &moves)
            .with_context(|| format!("game {} of sweep {}", row.game_index, row.sweep))?;
        games += 1;
    }
    if games == 0 {
        bail!(
            "{}: no exact {}x{} Martello game with a solution ({} rows skipped)",
            args.dataset.display(),
            args.n,
            args.n,
            skipped
        );
    }
    let kb = learner.finish();
    kb.write(&args.out)?;
    println!(
        "{} games, radius 1..={}, digest {:032x} -> {}",
        games,
        args.radius,
        kb.digest(),
        args.out.display()
    );
    println!("| radius | transitions | taken | not taken |");
    println!("|---|---|---|---|");
    for r in 1..=kb.radius() {
        let (distinct, taken, untaken) = kb.stats(r);
        println!("| {r} | {distinct} | {taken} | {untaken} |");
    }
    Ok(ExitCode::SUCCESS)
}

/// Parses each move in the state it is played from.
fn replay(start: &State, moves: &[&str]) -> Result<Vec<hammer_engine::Move>> {
    let mut state = *start;
    let mut out = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = state
            .parse_move(text)
            .with_context(|| format!("move {} '{text}'", i + 1))?;
        state = state.apply(mv);
        out.push(mv);
    }
    Ok(out)
}
