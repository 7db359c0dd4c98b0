//! `hammer count`: every position reachable from a start, level by level, in this
//! process or across a gang of processes (`--peers`), each owning a hash share of the
//! positions.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, bail};
use clap::Args;
use hammer_family::{CountTeam, Counted, Instance, Point};
use serde_json::json;

use crate::peer_args::{PeerArgs, gang_game};
use crate::puzzle::PuzzleArgs;

#[derive(Args)]
pub struct CountArgs {
    /// The start, in the puzzle's notation (shared/spec/FAMILY.md); or --index.
    #[arg(conflicts_with = "index", required_unless_present = "index")]
    board: Option<String>,
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// Count from seeded instance INDEX of the puzzle's point (peg: the single-vacancy
    /// start of the INDEX-th hole; 16 is the English board's centre).
    #[arg(long)]
    index: Option<u64>,
    /// Sweep seed of the seeded instance.
    #[arg(long, default_value_t = 0, requires = "index")]
    seed: u64,
    /// Count one position per class of the symmetries that fix the start; the position
    /// counts stay exact.
    #[arg(long)]
    symmetry: bool,
    #[command(flatten)]
    peer: PeerArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn count(args: CountArgs) -> Result<ExitCode> {
    let family = args.puzzle.family()?;
    let Some(counting) = family.counting() else {
        bail!(
            "puzzle {} cannot count its positions (hammer count knows peg)",
            family.name()
        );
    };
    let (_, point) = args.puzzle.point(&[], args.board.as_deref())?;
    let instance = match (&args.board, args.index) {
        (Some(board), _) => Instance::Given(board),
        (None, Some(index)) => Instance::Seeded {
            sweep_seed: args.seed,
            index,
        },
        (None, None) => bail!("give a start position or --index"),
    };
    let started = Instant::now();
    let (counted, members, rank, bytes_sent) = if args.peer.peers.is_some() {
        let start = family.game(&point)?.instance(instance)?;
        let what = if args.symmetry {
            "count-symmetry"
        } else {
            "count"
        };
        let member = args
            .peer
            .as_member(gang_game(family, &point, &start, what), |link| {
                let team = CountTeam::Gang(link);
                counting.count(&point, Instance::Given(&start), args.symmetry, team)
            })?;
        (
            member.out,
            member.size,
            Some(member.rank),
            Some(member.bytes_sent),
        )
    } else {
        let counted = counting.count(&point, instance, args.symmetry, CountTeam::Alone)?;
        (counted, 1, None, None)
    };
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        println!(
            "{}",
            count_json(&counted, &point, members, rank, bytes_sent, seconds)
        );
    } else {
        print_count(&counted, args.symmetry, members, rank, bytes_sent, seconds);
    }
    Ok(ExitCode::SUCCESS)
}

fn count_json(
    counted: &Counted,
    point: &Point,
    members: usize,
    rank: Option<usize>,
    bytes_sent: Option<u64>,
    seconds: f64,
) -> serde_json::Value {
    let levels: Vec<_> = counted
        .levels
        .iter()
        .map(|l| {
            json!({
                "score": l.score,
                "classes": l.classes,
                "states": l.states,
                // Move sequences may pass 2^64: a decimal string.
                "paths": l.paths.to_string(),
            })
        })
        .collect();
    json!({
        "point": point.to_string(),
        "start": counted.start,
        "classes": counted.classes(),
        "states": counted.states(),
        "levels": levels,
        "members": members,
        "rank": rank,
        "entries": counted.member.map(|m| m.entries),
        "peak_entries": counted.member.map(|m| m.peak_entries),
        "sent": counted.member.map(|m| m.sent),
        "bytes_sent": bytes_sent,
        "seconds": seconds,
    })
}

fn print_count(
    counted: &Counted,
    symmetry: bool,
    members: usize,
    rank: Option<usize>,
    bytes_sent: Option<u64>,
    seconds: f64,
) {
    println!("start       {}", counted.start);
    println!(
        "{:>6} {:>14} {:>14} {:>40}",
        "score", "classes", "positions", "move sequences"
    );
    for l in &counted.levels {
        println!(
            "{:>6} {:>14} {:>14} {:>40}",
            l.score, l.classes, l.states, l.paths
        );
    }
    if symmetry {
        println!("classes     {}", counted.classes());
    }
    println!("positions   {}", counted.states());
    if let (Some(rank), Some(member)) = (rank, counted.member) {
        println!(
            "gang        {members} members; this is member {rank}: {} entries owned (at most {} at once), {} sent ({} bytes)",
            member.entries,
            member.peak_entries,
            member.sent,
            bytes_sent.unwrap_or(0)
        );
    }
    println!("seconds     {seconds:.1}");
}
