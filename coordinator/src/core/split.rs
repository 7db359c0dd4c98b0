//! Split games: a game of an experiment with `split = K` is K part units, leased like any
//! unit, and one unit for the whole game that no worker leases. A finished part is
//! journaled with its result (no part file); once every part is in, the parts combine
//! into the game's one row, written and committed like any unit's.
//!
//! The least score any part reached goes to the other parts of the game, with their
//! lease and in every heartbeat, so that they prune against it. A score travels with its
//! solution, and a part reports the better of its own score and the told one with that
//! solution, so every journaled part has a witness for its score, whatever crashes; the
//! game's row is the least of its parts.

use std::sync::Arc;

use hammer_proto::v1::{GameResult, LeaseBest};
use hammer_sweep::SplitMode;
use prost::Message as _;

use super::{Core, SlotState, Stored, WorkerInfo, WriteJob};
use crate::state::{CommitEntry, PartRecord};

/// The parts of one split game received so far, by part index.
pub(super) struct Gather {
    parts: Vec<Option<Stored>>,
    /// The least score a part reached (running or committed), with its solution.
    best: Option<(u32, String)>,
    mode: SplitMode,
}

impl Gather {
    pub(super) fn new(parts: u32, mode: SplitMode) -> Gather {
        Gather {
            parts: (0..parts).map(|_| None).collect(),
            best: None,
            mode,
        }
    }

    /// Whether the parts in settle the game: all of them, or in a race, one that searched
    /// the whole game to the end.
    fn settled(&self) -> bool {
        self.parts.iter().all(Option::is_some)
            || (self.mode == SplitMode::Race
                && self.parts.iter().flatten().any(|p| p.result.exhaustive))
    }

    fn lower(&mut self, score: u32, solution: &str) {
        if self.best.as_ref().is_none_or(|(s, _)| score < *s) {
            self.best = Some((score, solution.to_owned()));
        }
    }
}

impl Core {
    /// The slot of the whole game a part slot belongs to.
    fn whole_of(&self, slot: u32) -> Option<u32> {
        let unit = self.slots.get(slot as usize)?.unit;
        unit.part?;
        self.by_id.get(&unit.whole().id()).copied()
    }

    /// The least score a part of the same game reached, with its solution, for a part
    /// slot.
    pub(super) fn told_best(&self, slot: u32) -> Option<(u32, String)> {
        self.gathers.get(&self.whole_of(slot)?)?.best.clone()
    }

    /// A running part reached `score` by `solution`.
    pub(super) fn part_found(&mut self, slot: u32, score: u32, solution: &str) {
        if let Some(whole) = self.whole_of(slot)
            && let Some(gather) = self.gathers.get_mut(&whole)
        {
            gather.lower(score, solution);
        }
    }

    /// What the worker's part leases among `leases` should prune against.
    pub(super) fn split_bests(&self, worker: &str, leases: &[String]) -> Vec<LeaseBest> {
        leases
            .iter()
            .filter_map(|text| {
                let rec = self.leases.get(&text.parse::<u64>().ok()?)?;
                (rec.worker == worker).then_some(())?;
                let (best, solution) = self.told_best(rec.slot)?;
                Some(LeaseBest {
                    lease_id: text.clone(),
                    best,
                    solution,
                })
            })
            .collect()
    }

    /// Records a committed part; returns the write of its whole game once every part is
    /// in and the game is not committed yet.
    pub(super) fn record_part(&mut self, slot: u32, entry: &CommitEntry) -> Option<WriteJob> {
        let part = entry.part.as_ref()?;
        let index = self.slots[slot as usize].unit.part? as usize;
        let whole = self.whole_of(slot)?;
        let Ok(result) = GameResult::decode(part.result.as_slice()) else {
            tracing::error!(unit = %entry.unit_id, "a journaled part does not decode; it will be searched again");
            return None;
        };
        let stored = Stored {
            result,
            worker: Arc::new(WorkerInfo {
                id: part.worker.clone(),
                version: part.version.clone(),
            }),
        };
        let gather = self.gathers.get_mut(&whole)?;
        gather.lower(stored.result.score, &stored.result.solution);
        if let Some(cell) = gather.parts.get_mut(index) {
            cell.get_or_insert(stored);
        }
        let complete = gather.settled();
        if complete && gather.mode == SplitMode::Race {
            self.settle_rest(whole);
        }
        let slot = &mut self.slots[whole as usize];
        if !complete || slot.state != SlotState::Gathering {
            return None;
        }
        slot.state = SlotState::Writing;
        let results = self
            .gathers
            .get(&whole)?
            .parts
            .iter()
            .flatten()
            .cloned()
            .collect();
        Some(WriteJob {
            slot: whole,
            unit: slot.unit,
            unit_id: slot.id.clone(),
            results,
        })
    }
}

impl Core {
    /// Ends the parts of the race `whole` that are still out: one part settled the game,
    /// so their leases are dropped (the workers hear it at their next heartbeat) and they
    /// are never leased again, here or after a restart (the settling part is journaled).
    fn settle_rest(&mut self, whole: u32) {
        let game = self.slots[whole as usize].unit;
        let parts = self.sweep.experiments[game.experiment as usize]
            .split
            .unwrap_or(0);
        for part in 0..parts {
            let id = hammer_sweep::Unit {
                part: Some(part),
                ..game
            }
            .id();
            if let Some(&slot) = self.by_id.get(&id)
                && self.slots[slot as usize].state == SlotState::Open
            {
                self.settle(slot);
            }
        }
    }
}

/// The journal entry of a finished part: its result and who produced it.
pub(crate) fn part_entry(unit_id: String, part: &Stored) -> CommitEntry {
    CommitEntry {
        unit_id,
        games: 0,
        solvable: 0,
        expansions: 0,
        part: Some(PartRecord {
            worker: part.worker.id.clone(),
            version: part.worker.version.clone(),
            result: part.result.encode_to_vec(),
        }),
    }
}

/// The game's result from its parts' (all of them, in part order): the least score and
/// its solution and worker (the first part that reached it), exhaustive when every part
/// was. Costs add up (expansions, attempts, solving time); the memo is the largest part's.
///
/// Nothing below a part's final pruning score exists in its subtrees, and that score is
/// its own or one a committed part proved, so the least score is exact when every part is
/// exhaustive. When one is not, the bound is the least a capped part proved, and never
/// above the least score.
///
/// In a race (`mode` [`SplitMode::Race`]) every part searched the whole game, so one
/// exhaustive part makes the game exact (its score is the least: a part ends exhaustive
/// only once nothing anywhere beats its score, and every part's score has a witness), and
/// otherwise each part's proved bound holds for the game: the bound is the greatest.
pub(crate) fn combine(parts: &[Stored], mode: SplitMode) -> Option<Stored> {
    let winner = parts
        .iter()
        .enumerate()
        .min_by_key(|(i, p)| (p.result.score, *i))
        .map(|(_, p)| p)?;
    let exhaustive = match mode {
        SplitMode::Subtrees => parts.iter().all(|p| p.result.exhaustive),
        SplitMode::Race => parts.iter().any(|p| p.result.exhaustive),
    };
    let lower_bound = match (exhaustive, mode) {
        (true, SplitMode::Subtrees) => parts.iter().map(|p| p.result.lower_bound).min()?,
        (true, SplitMode::Race) => parts
            .iter()
            .filter(|p| p.result.exhaustive)
            .map(|p| p.result.lower_bound)
            .min()?,
        (false, SplitMode::Subtrees) => parts
            .iter()
            .filter(|p| !p.result.exhaustive)
            .map(|p| p.result.lower_bound)
            .min()?
            .min(winner.result.score),
        (false, SplitMode::Race) => parts
            .iter()
            .map(|p| p.result.lower_bound)
            .max()?
            .min(winner.result.score),
    };
    let capped_by = parts
        .iter()
        .map(|p| p.result.capped_by.clone())
        .find(|c| !c.is_empty() && !exhaustive)
        .unwrap_or_default();
    let sum = |f: fn(&GameResult) -> u64| parts.iter().map(|p| f(&p.result)).sum::<u64>();
    let result = GameResult {
        exhaustive,
        lower_bound,
        capped_by,
        expansions: sum(|r| r.expansions),
        attempts: parts.iter().map(|p| p.result.attempts).sum(),
        wall_ns: sum(|r| r.wall_ns),
        memo_bytes: parts.iter().map(|p| p.result.memo_bytes).max()?,
        ..winner.result.clone()
    };
    Some(Stored {
        result,
        worker: winner.worker.clone(),
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use hammer_sweep::Sweep;

    use super::*;
    use crate::core::Timing;

    const SWEEP: &str = "name = \"t\"\nseed = 1\n\n[[experiment]]\nname = \"e\"\nsizes = [6]\ngames = 2\nsplit = 3\n";

    fn stored(min: u32, exhaustive: bool, lower: u32, capped: &str, worker: &str) -> Stored {
        Stored {
            result: GameResult {
                game_index: 0,
                score: min,
                exhaustive,
                lower_bound: lower,
                capped_by: capped.into(),
                expansions: 10,
                attempts: 1,
                wall_ns: 5,
                memo_bytes: u64::from(min) * 100,
                split_nodes: 48,
                solution: format!("moves to {min}"),
                ..GameResult::default()
            },
            worker: Arc::new(WorkerInfo {
                id: worker.into(),
                version: "v".into(),
            }),
        }
    }

    #[test]
    fn parts_combine_into_the_least_score_with_its_witness() {
        let parts = [
            stored(3, true, 1, "", "a"),
            stored(2, true, 1, "", "b"),
            stored(2, true, 1, "", "c"),
        ];
        let game = combine(&parts, SplitMode::Subtrees).unwrap();
        assert_eq!(game.result.score, 2);
        assert_eq!(game.result.solution, "moves to 2");
        assert_eq!(game.worker.id, "b");
        assert!(game.result.exhaustive);
        assert_eq!(game.result.lower_bound, 1);
        assert_eq!(game.result.expansions, 30);
        assert_eq!(game.result.memo_bytes, 300);
        // One capped part: unknown, bracketed by what that part proved.
        let parts = [
            stored(4, true, 1, "", "a"),
            stored(5, false, 3, "expansions", "b"),
        ];
        let game = combine(&parts, SplitMode::Subtrees).unwrap();
        assert!(!game.result.exhaustive);
        assert_eq!(game.result.capped_by, "expansions");
        assert_eq!((game.result.lower_bound, game.result.score), (3, 4));
        assert!(combine(&[], SplitMode::Subtrees).is_none());
    }

    #[test]
    fn one_exhaustive_racer_makes_the_game_exact() {
        // Both searched the whole game: the exhaustive one decides, its score is the least.
        let parts = [
            stored(3, false, 2, "expansions", "a"),
            stored(2, true, 1, "", "b"),
        ];
        let game = combine(&parts, SplitMode::Race).unwrap();
        assert!(game.result.exhaustive);
        assert_eq!((game.result.score, game.result.lower_bound), (2, 1));
        assert_eq!(game.result.capped_by, "");
        assert_eq!(game.worker.id, "b");
        // No racer exhaustive: each proved bound holds for the whole game, so the
        // greatest does, up to the best score found.
        let parts = [
            stored(4, false, 2, "expansions", "a"),
            stored(5, false, 3, "expansions", "b"),
        ];
        let game = combine(&parts, SplitMode::Race).unwrap();
        assert!(!game.result.exhaustive);
        assert_eq!((game.result.lower_bound, game.result.score), (3, 4));
        assert_eq!(game.result.capped_by, "expansions");
        // The same parts as subtrees: only the least bound holds.
        let game = combine(&parts, SplitMode::Subtrees).unwrap();
        assert_eq!((game.result.lower_bound, game.result.score), (2, 4));
    }

    #[test]
    fn a_race_settled_by_one_part_leases_the_others_no_more() {
        let text = SWEEP.replace("split = 3\n", "split = 3\nsplit_mode = \"race\"\n");
        let sweep = Arc::new(Sweep::parse(&text, "t").unwrap());
        let game = sweep.units()[0];
        let unit = |p: u32| hammer_sweep::Unit {
            part: Some(p),
            ..game
        };
        let entry = |p: u32, min: u32, exhaustive: bool| {
            let capped = if exhaustive { "" } else { "expansions" };
            part_entry(unit(p).id(), &stored(min, exhaustive, 1, capped, "w"))
        };
        // A capped racer settles nothing: the others stay out.
        let core = Core::new(sweep.clone(), Timing::default(), &[entry(0, 3, false)]);
        assert!(core.pending.is_empty());
        assert!(core.available.contains(&core.by_id[&unit(1).id()]));
        // An exhaustive one settles the game: written from the parts in, and the other
        // parts count as done, here as after any restart.
        let journal = [entry(0, 3, false), entry(1, 2, true)];
        let core = Core::new(sweep.clone(), Timing::default(), &journal);
        assert_eq!(core.pending.len(), 1);
        assert_eq!(core.pending[0].unit_id, game.id());
        assert_eq!(core.pending[0].results.len(), 2);
        let third = core.by_id[&unit(2).id()];
        assert!(!core.available.contains(&third));
        assert_eq!(core.slots[third as usize].state, SlotState::Committed);
        assert_eq!(core.units_committed, 3);
        // A late result of a settled racer is not gathered again.
        let late = [entry(0, 3, false), entry(1, 2, true), entry(2, 2, true)];
        let core = Core::new(sweep, Timing::default(), &late);
        assert_eq!(core.pending[0].results.len(), 2);
    }

    #[test]
    fn a_restart_writes_a_game_whose_parts_were_all_journaled() {
        let sweep = Arc::new(Sweep::parse(SWEEP, "t").unwrap());
        let units = sweep.units();
        let game = units[0];
        let part = |p: u32, min: u32| {
            let unit = hammer_sweep::Unit {
                part: Some(p),
                ..game
            };
            part_entry(unit.id(), &stored(min, true, 1, "", "w"))
        };
        // Two of three parts: nothing to write, and the third part is told the best.
        let core = Core::new(sweep.clone(), Timing::default(), &[part(0, 4), part(1, 2)]);
        assert!(core.pending.is_empty());
        let third = core.by_id[&hammer_sweep::Unit {
            part: Some(2),
            ..game
        }
        .id()];
        assert_eq!(core.told_best(third), Some((2, "moves to 2".to_string())));
        assert!(core.available.contains(&third));
        // The whole game is never leased.
        assert!(!core.available.contains(&core.by_id[&game.id()]));
        // All three: the game's write waits for the writer.
        let all = [part(0, 4), part(1, 2), part(2, 3)];
        let core = Core::new(sweep.clone(), Timing::default(), &all);
        assert_eq!(core.pending.len(), 1);
        assert_eq!(core.pending[0].unit_id, game.id());
        assert_eq!(core.pending[0].results.len(), 3);
        // Committed as well: nothing left to write.
        let mut done = all.to_vec();
        done.push(CommitEntry {
            unit_id: game.id(),
            games: 1,
            solvable: 0,
            expansions: 30,
            part: None,
        });
        let core = Core::new(sweep, Timing::default(), &done);
        assert!(core.pending.is_empty());
    }
}
