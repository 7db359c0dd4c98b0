//! What `hammer status` and the metrics see: the rate of results and the per-series
//! progress.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use hammer_proto::v1::{ExperimentStatus, LeasedUnit, StatusResponse};
use hammer_sweep::Unit;

use super::Core;
use crate::state::CommitEntry;

/// The games of one (experiment, point, configuration) series.
#[derive(Clone, Copy, Default)]
pub(super) struct SeriesStats {
    total: u64,
    committed: u64,
    solvable: u64,
    expansions: u64,
}

/// The counts of units and games, by state and by series, and the samples of the rate.
#[derive(Default)]
pub(super) struct Tally {
    series: BTreeMap<(u32, u32, u32), SeriesStats>,
    pub units_committed: u32,
    games_committed: u64,
    /// Distinct results held for open units.
    pub games_pending: u64,
    pub refused: u64,
    pub duplicates: u64,
    /// (time, results received so far), for the rate.
    samples: VecDeque<(Instant, u64)>,
    pub received_total: u64,
    /// How long each committed unit took from its first lease, kept sorted so that the
    /// median, which every lease request reads, costs nothing.
    unit_seconds: Vec<f64>,
}

impl Tally {
    /// Counts `unit`'s games in its series.
    pub(super) fn add_games(&mut self, unit: &Unit) {
        self.series
            .entry((unit.experiment, unit.point, unit.config))
            .or_default()
            .total += unit.games();
    }

    /// `unit` was committed as `entry` says, with `pending` of its games held until now,
    /// `took` after its first lease.
    pub(super) fn committed(
        &mut self,
        unit: &Unit,
        entry: &CommitEntry,
        pending: u64,
        took: Option<Duration>,
    ) {
        self.games_pending = self.games_pending.saturating_sub(pending);
        if let Some(took) = took {
            let took = took.as_secs_f64();
            let at = self.unit_seconds.partition_point(|&s| s < took);
            self.unit_seconds.insert(at, took);
        }
        self.games_committed += entry.games;
        let series = self
            .series
            .entry((unit.experiment, unit.point, unit.config))
            .or_default();
        series.committed += entry.games;
        series.solvable += entry.solvable;
        series.expansions += entry.expansions;
    }

    /// The median seconds a committed unit took from its first lease, if any was timed.
    pub(super) fn median_unit_seconds(&self) -> Option<f64> {
        self.unit_seconds.get(self.unit_seconds.len() / 2).copied()
    }

    pub(super) fn sample(&mut self, now: Instant) {
        if self
            .samples
            .back()
            .is_none_or(|&(t, _)| now.duration_since(t) >= Duration::from_millis(250))
        {
            self.samples.push_back((now, self.received_total));
        } else if let Some(last) = self.samples.back_mut() {
            last.1 = self.received_total;
        }
        while self
            .samples
            .front()
            .is_some_and(|&(t, _)| now.duration_since(t) > RATE_HORIZON)
        {
            self.samples.pop_front();
        }
    }

    /// Results per second, over the last ten seconds when they hold twenty results or
    /// more, else over as long as it takes to hold twenty (at most half an hour): so a
    /// sweep of long games shows a rate and an ETA, not zero between its results.
    fn rate(&self) -> f64 {
        rate_at(&self.samples, self.received_total, Instant::now())
    }
}

/// How far back the rate looks at most: a sweep of hour-long games still gets a rate and
/// an ETA from its last results, and a sweep that stalls for this long shows none.
const RATE_HORIZON: Duration = Duration::from_secs(30 * 60);
/// The rate's window is the shortest one ending now that is at least this long and
/// holds [`RATE_RESULTS`] results, so that fast sweeps show the recent rate.
const RATE_WINDOW: Duration = Duration::from_secs(10);
const RATE_RESULTS: u64 = 20;

impl Core {
    pub fn status(&self) -> StatusResponse {
        let experiments = self
            .tally
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
        StatusResponse {
            sweep_name: self.sweep.name.clone(),
            sweep_digest: self.sweep.digest.clone(),
            games_total: self.sweep.total_games(),
            games_committed: self.tally.games_committed,
            games_pending: self.tally.games_pending,
            units_total: self.slots.len() as u32,
            units_committed: self.tally.units_committed,
            units_leased: self.leased.len() as u32,
            games_per_second: self.tally.rate(),
            complete: self.is_complete(),
            experiments,
            refused: self.tally.refused,
            duplicates: self.tally.duplicates,
            // The workers are the queue's: it adds them.
            ..StatusResponse::default()
        }
    }

    /// The units `worker` holds active leases of, as of `now`.
    pub fn leased_units(&self, worker: &str, now: Instant) -> Vec<LeasedUnit> {
        self.leases
            .held(worker)
            .iter()
            .filter_map(|id| self.leases.get(id))
            .map(|lease| self.leased_unit(lease, now))
            .collect()
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
            gang_rank: lease.gang.map_or(0, |g| g.rank),
            gang_size: lease.gang.map_or(0, |g| g.size),
        }
    }
}

/// The rate of `samples` (time, results received so far) at `now`, with `total` results
/// received by then: see [`Core::rate`].
fn rate_at(samples: &VecDeque<(Instant, u64)>, total: u64, now: Instant) -> f64 {
    let recent = samples
        .iter()
        .rev()
        .take_while(|&&(t, _)| now.duration_since(t) <= RATE_HORIZON);
    let mut from = None;
    for &(t, received) in recent {
        from = Some((t, received));
        if now.duration_since(t) >= RATE_WINDOW && total.saturating_sub(received) >= RATE_RESULTS {
            break;
        }
    }
    match from {
        Some((t, received)) => {
            let span = now
                .duration_since(t)
                .as_secs_f64()
                .max(RATE_WINDOW.as_secs_f64());
            total.saturating_sub(received) as f64 / span
        }
        None => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::{RATE_HORIZON, rate_at};
    use std::collections::VecDeque;
    use std::time::{Duration, Instant};

    /// Samples of one result every `every`, the last `ago` before `now`.
    fn every(every: Duration, count: u64, ago: Duration, now: Instant) -> VecDeque<(Instant, u64)> {
        (1..=count)
            .map(|i| (now - ago - every * (count - i) as u32, i))
            .collect()
    }

    #[test]
    fn a_fast_sweep_shows_its_last_ten_seconds() {
        let now = Instant::now() + Duration::from_secs(3600);
        let at = |ago: u64| now - Duration::from_secs(ago);
        // 100 results a second for a minute, then 10 a second for the last 20 s.
        let mut samples: VecDeque<(Instant, u64)> =
            (0..60).map(|i| (at(80 - i), 100 * i)).collect();
        samples.extend((1..=20).map(|j| (at(20 - j), 5_900 + 10 * j)));
        assert_eq!(rate_at(&samples, 6_100, now), 10.0);
    }

    #[test]
    fn a_sweep_of_long_games_has_a_rate_between_its_results() {
        let now = Instant::now() + Duration::from_secs(7200);
        // One result every 30 s, the last 20 s ago: 2 a minute.
        let samples = every(Duration::from_secs(30), 50, Duration::from_secs(20), now);
        let rate = rate_at(&samples, 50, now);
        assert!((rate * 60.0 - 2.0).abs() < 0.2, "{rate}");
    }

    #[test]
    fn no_result_within_the_horizon_is_no_rate() {
        let now = Instant::now() + Duration::from_secs(7200);
        let samples = every(
            Duration::from_secs(30),
            50,
            RATE_HORIZON + Duration::from_secs(1),
            now,
        );
        assert_eq!(rate_at(&samples, 50, now), 0.0);
        assert_eq!(rate_at(&VecDeque::new(), 0, now), 0.0);
    }
}
