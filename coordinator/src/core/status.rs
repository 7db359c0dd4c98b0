//! What `hammer status` and the metrics see: the rate of results and the per-series
//! progress.

use std::time::{Duration, Instant};

use hammer_proto::v1::{ExperimentStatus, LeasedUnit, StatusResponse, WorkerStatus};

use super::Core;

impl Core {
    pub(super) fn sample(&mut self, now: Instant) {
        if self
            .samples
            .back()
            .is_none_or(|&(t, _)| now.duration_since(t) >= Duration::from_millis(250))
        {
            self.samples.push_back((now, self.received_total));
            while self
                .samples
                .front()
                .is_some_and(|&(t, _)| now.duration_since(t) > Duration::from_secs(10))
            {
                self.samples.pop_front();
            }
        }
    }

    /// Results per second over the last ten seconds.
    fn rate(&self) -> f64 {
        let (Some(&(t0, g0)), Some(&(t1, g1))) = (self.samples.front(), self.samples.back()) else {
            return 0.0;
        };
        let now = Instant::now();
        if now.duration_since(t1) > Duration::from_secs(10) {
            return 0.0;
        }
        let span = now.duration_since(t0).as_secs_f64();
        if span <= 0.0 {
            0.0
        } else {
            (g1 - g0) as f64 / span
        }
    }

    pub fn status(&self) -> StatusResponse {
        let experiments = self
            .series
            .iter()
            .map(|(&(e, p, c), s)| {
                let experiment = self.sweep.experiments.get(e as usize);
                let point = experiment.and_then(|x| x.points.get(p as usize));
                ExperimentStatus {
                    experiment: experiment.map(|x| x.name.clone()).unwrap_or_default(),
                    n: match (experiment, point) {
                        (Some(x), Some(p)) => x.family.size(p),
                        _ => 0,
                    },
                    params: point.map(|p| p.to_string()).unwrap_or_default(),
                    config: experiment
                        .and_then(|x| x.configs.get(c as usize))
                        .map(|c| c.id.clone())
                        .unwrap_or_default(),
                    games_total: s.total,
                    games_committed: s.committed,
                    solvable: s.solvable,
                    expansions: s.expansions,
                }
            })
            .collect();
        let recent = self.timing.lease_ttl;
        StatusResponse {
            sweep_name: self.sweep.name.clone(),
            sweep_digest: self.sweep.digest.clone(),
            games_total: self.sweep.total_games(),
            games_committed: self.games_committed,
            games_pending: self.games_pending,
            units_total: self.slots.len() as u32,
            units_committed: self.units_committed,
            units_leased: self.leased.len() as u32,
            workers: self
                .workers
                .values()
                .filter(|w| w.last_seen.elapsed() <= recent && !w.told_complete)
                .count() as u32,
            games_per_second: self.rate(),
            complete: self.is_complete(),
            experiments,
            refused: self.refused,
            duplicates: self.duplicates,
            worker_list: self.worker_list(),
        }
    }

    /// Every worker not yet told the sweep is complete, by id, with its active leases.
    fn worker_list(&self) -> Vec<WorkerStatus> {
        let now = Instant::now();
        let mut list: Vec<WorkerStatus> = self
            .workers
            .values()
            .filter(|w| !w.told_complete)
            .map(|w| WorkerStatus {
                id: w.info.id.clone(),
                version: w.info.version.clone(),
                idle_ms: now.duration_since(w.last_seen).as_millis() as u64,
                units: w
                    .active
                    .iter()
                    .filter_map(|id| self.leases.get(id))
                    .map(|lease| self.leased_unit(lease, now))
                    .collect(),
            })
            .collect();
        list.sort_by(|a, b| a.id.cmp(&b.id));
        list
    }

    fn leased_unit(&self, lease: &super::LeaseRec, now: Instant) -> LeasedUnit {
        let slot = &self.slots[lease.slot as usize];
        let experiment = self.sweep.experiments.get(slot.unit.experiment as usize);
        let left = lease.expires.saturating_duration_since(now);
        LeasedUnit {
            unit_id: slot.id.clone(),
            experiment: experiment.map(|x| x.name.clone()).unwrap_or_default(),
            params: experiment
                .and_then(|x| x.points.get(slot.unit.point as usize))
                .map(|p| p.to_string())
                .unwrap_or_default(),
            config: experiment
                .and_then(|x| x.configs.get(slot.unit.config as usize))
                .map(|c| c.id.clone())
                .unwrap_or_default(),
            games: slot.unit.end - slot.unit.start,
            received: slot.received,
            renewed_ms: self.timing.lease_ttl.saturating_sub(left).as_millis() as u64,
            expansions: lease.expansions,
            progress_ms: now.duration_since(lease.progressed).as_millis() as u64,
        }
    }
}
