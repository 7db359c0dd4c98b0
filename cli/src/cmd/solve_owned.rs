//! `hammer solve --owners K` and `hammer solve --peers ... --rank I`: one game searched by
//! owners, threads of this process or the members of a gang of processes.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, bail};
use clap::Args;
use hammer_family::{FamilyRef, Instance, Point, Team};
use hammer_solver::{Config, Limits, Order, Schedule};
use serde_json::json;

use crate::cmd::solve_print::Lone;
use crate::peer_args::{PeerArgs, gang_game};

#[derive(Args)]
pub struct OwnersArgs {
    /// Search the game by K owners, threads of this process: each owns a hash share of
    /// the game's states and alone expands them (docs/frontier.md). The answer is exact;
    /// the expansions and the solution found depend on timing.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024), conflicts_with = "peers")]
    owners: Option<u32>,
    #[command(flatten)]
    pub peer: PeerArgs,
}

impl OwnersArgs {
    /// Whether the game is to be searched by owners.
    pub fn wanted(&self) -> bool {
        self.owners.is_some() || self.peer.peers.is_some()
    }

    /// Refuses the options the owner search does not have.
    pub fn check(&self, config: &Config, stdin: bool) -> Result<()> {
        let flag = if self.owners.is_some() {
            "--owners"
        } else {
            "--peers"
        };
        let other = if stdin {
            Some("a board per stdin line (-)")
        } else if config.order != Order::Standard {
            Some("--order (owners take their deepest state first)")
        } else if config.schedule != Schedule::Exact {
            Some("--schedule (the owner search runs to the end)")
        } else if config.prefix > 0 {
            Some("--prefix")
        } else if config.limits != Limits::default() {
            Some("--max-expansions, --max-seconds or --max-memo-mb")
        } else if config.profile {
            Some("--profile")
        } else {
            None
        };
        match other {
            Some(other) => bail!("{flag} cannot be combined with {other}"),
            None => Ok(()),
        }
    }
}

/// Searches one instance by owners and prints it as `hammer solve` does, with each
/// worker's counts.
pub fn solve_owned(
    args: &OwnersArgs,
    family: FamilyRef,
    point: &Point,
    instance: Instance<'_>,
    json: bool,
) -> Result<ExitCode> {
    let Some(owners) = family.owners() else {
        bail!(
            "puzzle {} has no owner search (its states cannot travel between workers)",
            family.name()
        );
    };
    let start = family.game(point)?.instance(instance)?;
    let started = Instant::now();
    let (out, workers, rank, bytes_sent) = match args.owners {
        Some(k) => (
            owners.solve(point, instance, Team::Threads(k as usize))?,
            k as usize,
            None,
            None,
        ),
        None => {
            let game = gang_game(family, point, &start, "solve");
            let member = args
                .peer
                .as_member(game, |link| owners.solve(point, instance, Team::Gang(link)))?;
            (
                member.out,
                member.size,
                Some(member.rank),
                Some(member.bytes_sent),
            )
        }
    };
    let mut solved = out.solved;
    solved.game.wall_ns = started.elapsed().as_nanos() as u64;
    let mut lone = Lone::new(family, point, &Config::default(), (0, 0), solved);
    lone.order = "owners".to_owned();
    let mut value = lone.json();
    value["owners"] = json!(workers);
    value["rank"] = json!(rank);
    value["expansions_per_owner"] = json!(out.expansions);
    value["table_states_per_owner"] = json!(out.table_states);
    value["table_bytes_per_owner"] = json!(out.table_bytes);
    value["sent"] = json!(out.sent);
    value["probed"] = json!(out.probed);
    value["bytes_sent"] = json!(bytes_sent);
    if json {
        println!("{value}");
    } else {
        lone.print();
        println!(
            "owners      {workers}{}",
            rank.map(|r| format!(" (this is member {r})"))
                .unwrap_or_default()
        );
        println!(
            "per owner   expansions {:?}, table states {:?}",
            out.expansions, out.table_states
        );
        println!("sent        {} states", out.sent);
        println!(
            "probed      {} expansions (choosing the owner hash's salt)",
            out.probed
        );
    }
    Ok(ExitCode::SUCCESS)
}
