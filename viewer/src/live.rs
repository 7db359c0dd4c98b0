//! The live page of a coordinator: the sweeps of its queue, and one of them followed
//! through its `Status`, turned into what the page draws (progress per series, rate, ETA,
//! workers, Figure 8 with Wilson intervals).
//!
//! The viewer does not know how to reach a coordinator (address, TLS, token): the
//! binary hands it a [`CoordinatorSource`], so this crate needs no gRPC client code and
//! the connection options stay those of `hammer status`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hammer_proto::v1::{StatusResponse, SweepInfo, SweepState};
use hammer_stats::wilson;
use serde_json::{Value, json};

/// One call to the coordinator; the error is the text the page shows.
pub type Answer<T> = Pin<Box<dyn Future<Output = Result<T, String>> + Send>>;

/// What the Live page asks a coordinator.
pub trait Coordinator: Send + Sync {
    /// The sweeps of its queue (a coordinator of one sweep lists that one).
    fn sweeps(&self) -> Answer<Vec<SweepInfo>>;
    /// One sweep's status, by name.
    fn status(&self, sweep: &str) -> Answer<StatusResponse>;
}

/// The coordinator the page watches.
pub type CoordinatorSource = Arc<dyn Coordinator>;

/// How long the page waits for the coordinator before saying it does not answer.
pub const STATUS_TIMEOUT: Duration = Duration::from_secs(3);

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

async fn ask<T>(answer: Answer<T>) -> Result<T, String> {
    match tokio::time::timeout(STATUS_TIMEOUT, answer).await {
        Ok(answer) => answer,
        Err(_) => Err(format!("no answer within {} s", STATUS_TIMEOUT.as_secs())),
    }
}

/// The sweep the page follows when the user named none: the first running one, else the
/// first queued, else the newest.
pub fn default_follow(sweeps: &[SweepInfo]) -> Option<&SweepInfo> {
    let first = |states: &[SweepState]| sweeps.iter().find(|s| states.contains(&s.state()));
    first(&[SweepState::Running, SweepState::Stopping])
        .or_else(|| first(&[SweepState::Queued]))
        .or_else(|| sweeps.iter().max_by_key(|s| s.seq))
}

/// Asks the coordinator for its queue and for the status of the sweep `wanted` (else
/// [`default_follow`]'s), and describes both for the page.
pub async fn poll(source: &CoordinatorSource, coordinator: &str, wanted: Option<&str>) -> Value {
    let failed = |error: String| {
        json!({
            "coordinator": coordinator,
            "ok": false,
            "at_ms": now_ms(),
            "error": format!("cannot reach the coordinator at {coordinator}: {error}"),
        })
    };
    let sweeps = match ask(source.sweeps()).await {
        Ok(sweeps) => sweeps,
        Err(error) => return failed(error),
    };
    let follow = match wanted {
        Some(name) => Some(name.to_owned()),
        None => default_follow(&sweeps).map(|s| s.name.clone()),
    };
    let mut value = match &follow {
        Some(name) => match ask(source.status(name)).await {
            Ok(status) => status_json(&status),
            // The queue still answers: the page lists it and says why this one does not.
            Err(error) => json!({ "follow_error": error }),
        },
        None => json!({}),
    };
    value["queue"] = sweeps.iter().map(sweep_json).collect();
    value["following"] = json!(follow);
    value["chosen"] = json!(wanted.is_some());
    value["coordinator"] = json!(coordinator);
    value["ok"] = json!(true);
    value["at_ms"] = json!(now_ms());
    value
}

/// One sweep of the queue, as the page's table shows it.
fn sweep_json(s: &SweepInfo) -> Value {
    let running = matches!(s.state(), SweepState::Running | SweepState::Stopping);
    let left = s.games_total.saturating_sub(s.games_committed);
    let eta = if s.state() == SweepState::Complete {
        Some(0.0)
    } else {
        (running && s.games_per_second > 0.0).then(|| left as f64 / s.games_per_second)
    };
    json!({
        "name": s.name,
        "digest": s.digest,
        "state": s.state().word(),
        "priority": s.priority,
        "weight": finite(s.weight),
        "games_total": s.games_total,
        "games_committed": s.games_committed,
        "games_per_second": finite(s.games_per_second),
        "eta_seconds": eta.map_or(Value::Null, finite),
        "units_leased": s.units_leased,
        "dataset": s.dataset,
        "reason": s.reason,
    })
}

/// Seconds to the end at the recent rate, when there is one.
fn eta_seconds(status: &StatusResponse) -> Option<f64> {
    let left = status.games_total.saturating_sub(status.games_committed);
    if status.complete || left == 0 {
        return Some(0.0);
    }
    (status.games_per_second > 0.0).then(|| left as f64 / status.games_per_second)
}

fn finite(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// The status as the page's JSON.
pub fn status_json(status: &StatusResponse) -> Value {
    let series: Vec<Value> = status
        .experiments
        .iter()
        .map(|s| {
            let p = wilson(s.solvable, s.games_committed);
            json!({
                "experiment": s.experiment,
                "params": s.params,
                "n": s.n,
                "config": s.config,
                "total": s.games_total,
                "committed": s.games_committed,
                "solvable": s.solvable,
                "expansions": s.expansions,
                "ratio": finite(p.value),
                "low": finite(p.low),
                "high": finite(p.high),
            })
        })
        .collect();
    let workers: Vec<Value> = status
        .worker_list
        .iter()
        .map(|w| {
            json!({
                "id": w.id,
                "version": w.version,
                "idle_ms": w.idle_ms,
                "units": w.units.iter().map(|u| json!({
                    "unit": u.unit_id,
                    "experiment": u.experiment,
                    "params": u.params,
                    "config": u.config,
                    "games": u.games,
                    "received": u.received,
                    "renewed_ms": u.renewed_ms,
                    "expansions": u.expansions,
                    "progress_ms": u.progress_ms,
                    "gang_rank": u.gang_rank,
                    "gang_size": u.gang_size,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "sweep": status.sweep_name,
        "state": status.state().word(),
        "dataset": status.dataset,
        "digest": status.sweep_digest,
        "games_total": status.games_total,
        "games_committed": status.games_committed,
        "games_pending": status.games_pending,
        "units_total": status.units_total,
        "units_committed": status.units_committed,
        "units_leased": status.units_leased,
        "workers_active": status.workers,
        "games_per_second": status.games_per_second,
        "eta_seconds": eta_seconds(status).map_or(Value::Null, finite),
        "complete": status.complete,
        "refused": status.refused,
        "duplicates": status.duplicates,
        "series": series,
        "workers": workers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hammer_proto::v1::ExperimentStatus;

    #[test]
    fn eta_and_intervals() {
        let status = StatusResponse {
            games_total: 1000,
            games_committed: 400,
            games_per_second: 60.0,
            experiments: vec![ExperimentStatus {
                experiment: "e".into(),
                n: 6,
                games_total: 1000,
                games_committed: 400,
                solvable: 390,
                ..ExperimentStatus::default()
            }],
            ..StatusResponse::default()
        };
        let v = status_json(&status);
        assert_eq!(v["eta_seconds"], json!(10.0));
        let s = &v["series"][0];
        let (low, high) = (s["low"].as_f64().unwrap(), s["high"].as_f64().unwrap());
        assert!(low < 0.975 && 0.975 < high && high < 1.0, "{s}");
        // A leased unit carries the expansions its worker reported, for long games.
        let status = StatusResponse {
            worker_list: vec![hammer_proto::v1::WorkerStatus {
                id: "w".into(),
                units: vec![hammer_proto::v1::LeasedUnit {
                    unit_id: "u".into(),
                    expansions: 123_456_789,
                    progress_ms: 1500,
                    gang_rank: 1,
                    gang_size: 2,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..StatusResponse::default()
        };
        let unit = &status_json(&status)["workers"][0]["units"][0];
        assert_eq!(unit["expansions"], json!(123_456_789));
        assert_eq!(unit["progress_ms"], json!(1500));
        assert_eq!(
            (&unit["gang_rank"], &unit["gang_size"]),
            (&json!(1), &json!(2))
        );
        let empty = status_json(&StatusResponse::default());
        assert_eq!(empty["eta_seconds"], json!(0.0));
    }

    fn info(name: &str, state: SweepState, seq: u64) -> SweepInfo {
        SweepInfo {
            name: name.into(),
            state: state as i32,
            seq,
            games_total: 100,
            games_committed: 40,
            games_per_second: 6.0,
            ..SweepInfo::default()
        }
    }

    #[test]
    fn the_page_follows_the_running_sweep_else_the_queued_else_the_newest() {
        use SweepState::*;
        let name = |sweeps: &[SweepInfo]| default_follow(sweeps).map(|s| s.name.clone());
        let mut sweeps = vec![
            info("old", Complete, 1),
            info("next", Queued, 3),
            info("now", Running, 2),
        ];
        assert_eq!(name(&sweeps).as_deref(), Some("now"));
        sweeps[2].state = Complete as i32;
        assert_eq!(name(&sweeps).as_deref(), Some("next"));
        sweeps[1].state = Cancelled as i32;
        assert_eq!(name(&sweeps).as_deref(), Some("next"));
        assert_eq!(name(&[]), None);
    }

    #[test]
    fn a_queued_sweep_has_no_eta_and_a_running_one_does() {
        let queued = sweep_json(&info("q", SweepState::Queued, 1));
        assert_eq!(
            (&queued["state"], &queued["eta_seconds"]),
            (&json!("queued"), &Value::Null)
        );
        let running = sweep_json(&info("r", SweepState::Running, 2));
        assert_eq!(running["eta_seconds"], json!(10.0));
        let done = sweep_json(&info("d", SweepState::Complete, 3));
        assert_eq!(done["eta_seconds"], json!(0.0));
    }
}
