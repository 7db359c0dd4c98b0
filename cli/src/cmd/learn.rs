//! `hammer learn`: a knowledge base of move transitions from a dataset's solved games,
//! for the learned move order (`--order learned:KB`, docs/learned-order.md).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_family::FamilyRef;
use hammer_solver::learned::Learner;

use crate::dataset_arg::DatasetArg;

#[derive(Args)]
pub struct LearnArgs {
    /// A result dataset: a `hammer run` output directory, or an object store URL.
    dataset: String,
    /// The puzzle family whose games to learn from; its rules must have transition
    /// features (Martello's do).
    #[arg(long, default_value = hammer_family::DEFAULT_FAMILY)]
    puzzle: String,
    /// The longest radius to count transitions at (1 to the family's longest: 12 for
    /// Martello); every shorter one is counted too.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..))]
    radius: u8,
    /// The size to learn from (the dataset's `n`: Martello's board side); rows of other
    /// sizes are skipped.
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
    let family = FamilyRef::named(&args.puzzle)?;
    let Some(learning) = family.learning() else {
        bail!(
            "puzzle {}: the learned order ranks moves by their transitions, and this puzzle has none to learn from (puzzles that have them: {})",
            family.name(),
            hammer_family::learning_names()
        );
    };
    if usize::from(args.radius) > learning.max_radius() {
        bail!(
            "--radius {}: {}'s transitions are hashed to radius {} at most",
            args.radius,
            family.name(),
            learning.max_radius()
        );
    }
    let dataset = DatasetArg::open(&args.dataset)?;
    let rows = hammer_dataset::read_dataset(dataset.dir())
        .with_context(|| format!("cannot read the dataset {}", dataset.shown()))?;
    let mut learner = Learner::new(args.n, args.radius as usize, learning.feature_version());
    let mut seen = std::collections::HashSet::new();
    let (mut games, mut skipped) = (0u64, 0u64);
    for row in &rows {
        if args.games.is_some_and(|g| games >= g) {
            break;
        }
        // The reader names the family of a row whose file predates them.
        let of_family = FamilyRef::named(&row.puzzle).is_ok_and(|f| f == family);
        if !of_family || row.n != i32::from(args.n) || !row.exhaustive {
            skipped += 1;
            continue;
        }
        // The same game under several configurations counts once.
        if !seen.insert(row.start.clone()) {
            continue;
        }
        let solution: Vec<&str> = row.solution.split_whitespace().collect();
        learning
            .learn_game(&mut learner, &row.start, &solution)
            .with_context(|| {
                format!(
                    "game {} of sweep {} (experiment {})",
                    row.game_index, row.sweep, row.experiment
                )
            })?;
        games += 1;
    }
    if games == 0 {
        bail!(
            "{}: no exact {}x{} {} game with a solution ({} rows skipped)",
            dataset.shown(),
            args.n,
            args.n,
            family.name(),
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
