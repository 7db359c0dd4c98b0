//! What users ask of the queue: submit a sweep, list the queue, stop or cancel a sweep.

use std::sync::Arc;
use std::time::Duration;

use hammer_proto::v1::{SubmitSweepRequest, SweepInfo, SweepState};
use hammer_sweep::Sweep;

use super::{Admin, Place, Queue, QueueError};
use crate::sync::lock;
use crate::writer::SweepWriting;

/// What a submission needs next.
pub(crate) enum Admitted {
    /// The same sweep was submitted before: it is resumed if it was stopped or
    /// cancelled, with the priority and weight given now.
    Known(SweepInfo),
    /// A new sweep: open it at this place, then push it.
    New(Box<Sweep>, Place),
}

impl Queue {
    /// Checks a submission and, for a sweep the queue has, applies it.
    pub(crate) fn admit(&mut self, request: &SubmitSweepRequest) -> Result<Admitted, QueueError> {
        if !self.is_standing() {
            return Err(QueueError::OneSweepOnly);
        }
        let origin = if request.origin.is_empty() {
            "<submitted sweep>"
        } else {
            request.origin.as_str()
        };
        let sweep = Sweep::parse(&request.text, origin)
            .map_err(|e| QueueError::BadSweep(hammer_proto::error_chain(&e)))?;
        if sweep.name.starts_with('.') {
            return Err(QueueError::BadSweep(format!(
                "{origin}: sweep name {:?} starts with '.', which a queue keeps for itself",
                sweep.name
            )));
        }
        let weight = match request.weight {
            0.0 => 1.0,
            w if w.is_finite() && w > 0.0 => w,
            w => {
                return Err(QueueError::BadSweep(format!(
                    "weight {w} must be a positive number"
                )));
            }
        };
        let Some(&index) = self.by_name.get(&sweep.name) else {
            let place = Place {
                seq: self.next_seq(),
                priority: request.priority,
                weight,
                admin: Admin::Active,
            };
            return Ok(Admitted::New(Box::new(sweep), place));
        };
        let entry = &mut self.entries[index];
        if entry.sweep.digest != sweep.digest {
            return Err(QueueError::SweepExists {
                name: sweep.name.clone(),
                queued: entry.sweep.digest.clone(),
                submitted: sweep.digest.clone(),
            });
        }
        entry.place.priority = request.priority;
        entry.place.weight = weight;
        if entry.place.admin != Admin::Active {
            tracing::info!(sweep = %entry.sweep.name, "resubmitted: the sweep resumes");
            entry.place.admin = Admin::Active;
            *entry
                .writing
                .cancelled
                .write()
                .unwrap_or_else(|e| e.into_inner()) = false;
        }
        entry
            .save()
            .map_err(|e| QueueError::Persist(hammer_proto::error_chain(&e)))?;
        Ok(Admitted::Known(self.info(index, true)))
    }

    /// `hammer stop`: no new unit of the sweep is leased.
    pub(crate) fn stop(&mut self, name: &str) -> Result<SweepInfo, QueueError> {
        let index = self.find(name)?;
        self.set_admin(index, Admin::Stopped)?;
        Ok(self.info(index, false))
    }

    /// `hammer cancel`, its first half: no new lease, and every lease revoked. Returns the
    /// writer's context, whose `cancelled` flag the caller sets, off the async threads:
    /// setting it waits for the commits under way.
    pub(crate) fn cancel(&mut self, name: &str) -> Result<(usize, Arc<SweepWriting>), QueueError> {
        let index = self.find(name)?;
        self.set_admin(index, Admin::Cancelled)?;
        let entry = &self.entries[index];
        lock(&entry.core).revoke_all();
        Ok((index, entry.writing.clone()))
    }

    fn set_admin(&mut self, index: usize, admin: Admin) -> Result<(), QueueError> {
        let entry = &mut self.entries[index];
        if lock(&entry.core).is_complete() || entry.place.admin == admin {
            return Ok(());
        }
        if entry.place.admin == Admin::Cancelled && admin == Admin::Stopped {
            return Ok(());
        }
        entry.place.admin = admin;
        tracing::info!(sweep = %entry.sweep.name, ?admin, "a user stopped or cancelled the sweep");
        entry
            .save()
            .map_err(|e| QueueError::Persist(hammer_proto::error_chain(&e)))
    }

    /// Every sweep, in submission order.
    pub(crate) fn list(&self) -> Vec<SweepInfo> {
        (0..self.entries.len())
            .map(|i| self.info(i, false))
            .collect()
    }

    /// What `hammer sweeps` shows of sweep `index`.
    pub(crate) fn info(&self, index: usize, known: bool) -> SweepInfo {
        let entry = &self.entries[index];
        let status = lock(&entry.core).status();
        let state = entry.state();
        SweepInfo {
            name: entry.sweep.name.clone(),
            digest: entry.sweep.digest.clone(),
            state: state as i32,
            priority: entry.place.priority,
            weight: entry.place.weight,
            games_total: status.games_total,
            games_committed: status.games_committed,
            games_per_second: status.games_per_second,
            dataset: entry.writing.out.to_string(),
            reason: self.reason(index, state, status.units_leased),
            units_leased: status.units_leased,
            usage: entry.usage,
            known,
            seq: entry.place.seq,
        }
    }

    /// Why sweep `index` has no lease, when it waits for one.
    fn reason(&self, index: usize, state: SweepState, leased: u32) -> String {
        let entry = &self.entries[index];
        match state {
            SweepState::Stopping => {
                return format!("stopped; {leased} leased unit(s) finish");
            }
            SweepState::Queued | SweepState::Running if leased == 0 => {}
            _ => return String::new(),
        }
        if !lock(&entry.core).has_available() {
            return String::new();
        }
        let above = self.entries.iter().find(|e| {
            e.place.priority > entry.place.priority
                && e.leasable()
                && lock(&e.core).active_leases() > 0
        });
        if let Some(above) = above {
            return format!(
                "waits for sweep {} of higher priority {}",
                above.sweep.name, above.place.priority
            );
        }
        let recent = Duration::from_secs(30);
        if !self
            .workers
            .values()
            .any(|w| w.last_seen.elapsed() < recent)
        {
            return "no worker is connected".to_owned();
        }
        format!(
            "waits for a free worker: usage {:.1} thread-seconds per weight, sweeps with less go first",
            self.share_key(index)
        )
    }
}
