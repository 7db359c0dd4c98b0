//! The live page of a running sweep: the coordinator's `Status`, turned into what the
//! page draws (progress per series, rate, ETA, workers, Figure 8 with Wilson intervals).
//!
//! The viewer does not know how to reach a coordinator (address, TLS, token): the
//! binary hands it a [`StatusSource`], so this crate needs no gRPC client code and the
//! connection options stay those of `hammer status`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hammer_proto::v1::StatusResponse;
use hammer_stats::wilson;
use serde_json::{Value, json};

/// One call to the coordinator's `Status`; the error is the text the page shows.
pub type StatusFuture = Pin<Box<dyn Future<Output = Result<StatusResponse, String>> + Send>>;

/// Asks the coordinator for its status.
pub type StatusSource = Arc<dyn Fn() -> StatusFuture + Send + Sync>;

/// How long the page waits for the coordinator before saying it does not answer.
pub const STATUS_TIMEOUT: Duration = Duration::from_secs(3);

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Asks `source` once and describes the answer for the page.
pub async fn poll(source: &StatusSource, coordinator: &str) -> Value {
    let answer = match tokio::time::timeout(STATUS_TIMEOUT, source()).await {
        Ok(answer) => answer,
        Err(_) => Err(format!("no answer within {} s", STATUS_TIMEOUT.as_secs())),
    };
    match answer {
        Ok(status) => {
            let mut value = status_json(&status);
            value["coordinator"] = json!(coordinator);
            value["ok"] = json!(true);
            value["at_ms"] = json!(now_ms());
            value
        }
        Err(error) => json!({
            "coordinator": coordinator,
            "ok": false,
            "at_ms": now_ms(),
            "error": format!("cannot reach the coordinator at {coordinator}: {error}"),
        }),
    }
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
}
