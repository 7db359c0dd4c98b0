//! Taking in result batches: the checks that refuse a batch whole, and the hand-over of
//! a complete unit to the writer.

use std::sync::Arc;
use std::time::Instant;

use hammer_proto::v1::{BatchAck, GameResult, ResultBatch, UnitState, UnitWritten};
use hammer_sweep::{Cap, Unit};

use super::{Core, CoreError, SlotState};
use crate::state::CommitEntry;
use crate::writer::job::{Part, Stored, WorkerInfo, WriteJob};

impl Core {
    /// Takes one batch of results, which `worker` produced. Refuses the whole batch,
    /// writing nothing of it, when any result lies outside the lease or is malformed.
    pub fn ingest(
        &mut self,
        batch: ResultBatch,
        worker: Arc<WorkerInfo>,
    ) -> Result<(BatchAck, Option<WriteJob>), CoreError> {
        let (lease_id, slot_index) = self.check_batch(&batch)?;
        let unit = self.slots[slot_index as usize].unit;

        let now = Instant::now();
        self.renew(lease_id, now);
        let slot = &mut self.slots[slot_index as usize];
        let games = unit.games();
        let mut accepted = 0u32;
        let mut duplicates = 0u32;
        let mut written = None;
        if let Some(part) = batch.written {
            // A part in the store stands for every game; any rows that other workers
            // sent for the unit are dropped with the slot's results.
            if slot.state == SlotState::Open {
                accepted = (games - slot.received) as u32;
                slot.received = games;
                let bytes = part.bytes;
                written = Some((CommitEntry::from(part), bytes));
            } else {
                duplicates = games as u32;
            }
        } else if slot.state == SlotState::Open {
            if slot.results.is_empty() {
                slot.results.resize_with(games as usize, || None);
            }
            for result in batch.results {
                let offset = (result.game_index - unit.start) as usize;
                let entry = &mut slot.results[offset];
                if entry.is_none() {
                    *entry = Some(Stored {
                        result,
                        worker: worker.clone(),
                    });
                    accepted += 1;
                } else {
                    duplicates += 1;
                }
            }
            slot.received += u64::from(accepted);
        } else {
            duplicates = batch.results.len() as u32;
        }
        self.tally.games_pending += u64::from(accepted);
        self.tally.duplicates += u64::from(duplicates);
        self.tally.received_total += u64::from(accepted);
        self.tally.sample(now);

        let slot = &mut self.slots[slot_index as usize];
        let mut job = None;
        if slot.state == SlotState::Open && slot.received == games {
            slot.state = SlotState::Writing;
            let results = std::mem::take(&mut slot.results);
            let part = match written {
                Some((entry, bytes)) => Part::Written(entry, bytes),
                None => Part::Rows(results.into_iter().flatten().collect()),
            };
            job = Some(WriteJob {
                slot: slot_index,
                unit,
                unit_id: slot.id.clone(),
                part,
            });
        }
        let state = match slot.state {
            SlotState::Open => UnitState::Open,
            SlotState::Writing => UnitState::Complete,
            SlotState::Committed => UnitState::Committed,
        };
        let slot_leases = if job.is_some() {
            slot.leases.clone()
        } else {
            Vec::new()
        };
        let ack = BatchAck {
            lease_id: batch.lease_id,
            accepted,
            duplicates,
            unit_received: if slot.state == SlotState::Open {
                slot.received
            } else {
                games
            },
            unit_games: games,
            unit_state: state as i32,
        };
        for lease in slot_leases {
            self.release(lease);
        }
        if job.is_some() {
            self.leased.remove(&slot_index);
            self.available.remove(&slot_index);
        }
        Ok((ack, job))
    }

    /// Checks a batch against its lease before anything of it is kept: the lease is
    /// known and the sender's, the batch names the leased unit, and every result lies in
    /// the unit and looks possible. A refused batch counts its results as refused.
    /// Returns the lease and its slot.
    fn check_batch(&mut self, batch: &ResultBatch) -> Result<(u64, u32), CoreError> {
        let lease_id: u64 = batch.lease_id.parse().map_err(|_| {
            self.tally.refused += batch.results.len() as u64;
            CoreError::MalformedLease(batch.lease_id.clone())
        })?;
        let Some(rec) = self.leases.get(&lease_id) else {
            // Either forgotten after the unit was committed, or from before a restart.
            return Err(CoreError::UnknownLease(lease_id));
        };
        if rec.worker != batch.worker_id {
            self.tally.refused += batch.results.len() as u64;
            return Err(CoreError::NotYourLease {
                lease: lease_id,
                owner: rec.worker.clone(),
                worker: batch.worker_id.clone(),
            });
        }
        let slot_index = rec.slot;
        let (experiment, config, point) = self
            .sweep
            .context_of(&self.slots[slot_index as usize].unit)
            .ok_or(CoreError::UnitOutsideSweep)?;
        let params = point.to_string();
        let columns = experiment.family.columns().len();
        let slot = &self.slots[slot_index as usize];
        let unit = slot.unit;
        if batch.experiment != experiment.name
            || batch.config != config.id
            || batch.n != unit.n
            || batch.params != params
        {
            self.tally.refused += batch.results.len() as u64;
            return Err(CoreError::OutsideLease {
                lease: lease_id,
                sent: format!(
                    "experiment {:?}, config {:?}, {}",
                    batch.experiment, batch.config, batch.params
                ),
                covers: format!(
                    "experiment {:?}, config {:?}, {}, games {}..{} (unit {})",
                    experiment.name, config.id, params, unit.start, unit.end, slot.id
                ),
            });
        }
        for result in &batch.results {
            if let Err(problem) = check_result(result, &unit, columns) {
                self.tally.refused += batch.results.len() as u64;
                return Err(CoreError::ResultRefused {
                    game: result.game_index,
                    lease: lease_id,
                    unit: format!("{}, games {}..{}", slot.id, unit.start, unit.end),
                    problem,
                });
            }
        }
        if let Some(Err(problem)) = batch
            .written
            .as_ref()
            .map(|written| check_written(written, &batch.results, slot))
        {
            return Err(CoreError::PartRefused {
                lease: lease_id,
                unit: format!("{}, games {}..{}", slot.id, unit.start, unit.end),
                problem,
            });
        }
        Ok((lease_id, slot_index))
    }
}

/// A written part's summary must be of the leased unit, whole, and alone in its batch.
fn check_written(
    written: &UnitWritten,
    results: &[GameResult],
    slot: &super::Slot,
) -> Result<(), String> {
    if written.unit_id != slot.id {
        return Err(format!("the part written is of unit {}", written.unit_id));
    }
    if written.games != slot.unit.games() {
        return Err(format!(
            "the part written has {} rows for {} games",
            written.games,
            slot.unit.games()
        ));
    }
    if written.solvable > written.games || !results.is_empty() {
        return Err(
            "a written part's batch carries no results, and no more solvable games than games"
                .into(),
        );
    }
    Ok(())
}

/// Cheap sanity checks of one result: its key lies in the unit, its values are possible
/// for any family (a lower bound above the score, a negative counter, a family column
/// too many), and its strings are of a sane length. (The values themselves are trusted:
/// re-solving would double the cost of the sweep.)
fn check_result(result: &GameResult, unit: &Unit, columns: usize) -> Result<(), String> {
    /// Longer than any position or solution of a registered family by far.
    const MAX_TEXT: usize = 1 << 20;
    if result.game_index < unit.start || result.game_index >= unit.end {
        return Err(format!(
            "game index {} is outside the lease's games {}..{}",
            result.game_index, unit.start, unit.end
        ));
    }
    if result.lower_bound > result.score {
        return Err(format!(
            "lower bound {} is above the score {}",
            result.lower_bound, result.score
        ));
    }
    if result.board.is_empty() || result.board.len() > MAX_TEXT || result.start.len() > MAX_TEXT {
        return Err("the board or start state has an impossible length".into());
    }
    if result.solution.len() > MAX_TEXT || result.prefix_moves.len() > MAX_TEXT {
        return Err("the solution or prefix has an impossible length".into());
    }
    if !result.capped_by.is_empty() && Cap::from_name(&result.capped_by).is_none() {
        return Err(format!(
            "capped_by {:?} names no limit (expected \"expansions\" or \"time\")",
            result.capped_by
        ));
    }
    if !result.capped_by.is_empty() && result.exhaustive {
        return Err("a game stopped by a limit cannot be exhaustive".into());
    }
    if result.extra.len() != columns {
        return Err(format!(
            "{} family column value(s), but the puzzle has {columns}",
            result.extra.len()
        ));
    }
    if result.wall_ns > i64::MAX as u64
        || result.expansions > i64::MAX as u64
        || result.memo_bytes > i64::MAX as u64
        || result.score > i32::MAX as u32
    {
        return Err("a counter is out of range".into());
    }
    Ok(())
}
