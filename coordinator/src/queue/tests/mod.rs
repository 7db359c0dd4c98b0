//! The scheduling of the queue on real cores, through the calls the service makes: the
//! rule of `share.rs` (priority, weighted fair share, no starvation among equals) here,
//! gangs in `gang.rs`, the life of a lease in `leases.rs`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use hammer_proto::v1::{HeartbeatRequest, HeartbeatResponse, LeaseRequest, lease_response};
use hammer_store::Store;
use hammer_sweep::Sweep;

use super::{Admin, Home, Opener, Place, Queue, Standing};
use crate::core::Timing;
use crate::state::CommitEntry;
use crate::sync::lock;

mod gang;
mod leases;

fn sweep(name: &str, games: u32) -> Sweep {
    let text = format!(
        "name = \"{name}\"\nseed = 1\n\n[[experiment]]\nname = \"e\"\nsizes = [4]\ngames = {games}\nunit_games = 10\n"
    );
    Sweep::parse(&text, name).expect("sweep parses")
}

/// A standing queue of sweeps `(name, priority, weight)` of 400 games each, in a
/// temporary directory.
async fn queue(dir: &std::path::Path, sweeps: &[(&str, i32, f64)]) -> Queue {
    queue_of(dir, true, 400, sweeps).await
}

async fn queue_of(
    dir: &std::path::Path,
    standing: bool,
    games: u32,
    sweeps: &[(&str, i32, f64)],
) -> Queue {
    let sweeps = sweeps
        .iter()
        .map(|&(name, priority, weight)| (sweep(name, games), priority, weight))
        .collect();
    // The test's clock runs ahead of the real one: no lease lapses on it.
    let timing = Timing {
        lease_ttl: Duration::from_secs(86_400),
        ..Timing::default()
    };
    open_queue(dir, standing, sweeps, timing).await
}

/// A standing queue of `sweeps` (sweep, priority, weight), or the queue of a coordinator
/// of one sweep, opened in `dir` as the coordinator opens them.
pub(super) async fn open_queue(
    dir: &std::path::Path,
    standing: bool,
    sweeps: Vec<(Sweep, i32, f64)>,
    timing: Timing,
) -> Queue {
    let opener = Opener {
        workers_write: false,
        delta_log: false,
        timing,
        counters: Arc::default(),
    };
    let half_life = Duration::from_secs(3600);
    if !standing {
        let [(sweep, priority, weight)] = <[_; 1]>::try_from(sweeps).expect("one sweep");
        let state = dir.join("state");
        let out = Store::local(dir.join(&sweep.name));
        let place = Place {
            seq: 1,
            priority,
            weight,
            admin: Admin::Active,
        };
        let entry = opener.open(sweep, out, Home::Alone(&state), place).await;
        return Queue::one(entry.expect("sweep opens"), half_life);
    }
    let out = Store::local(dir.join("out"));
    let (standing, restored) = Standing::take_root(&out, dir.join("state"), opener)
        .await
        .expect("state root");
    let mut queue = Queue::standing(standing, restored, half_life);
    let standing = queue.standing_opener().expect("a standing queue");
    for (sweep, priority, weight) in sweeps {
        let place = Place {
            seq: queue.next_seq(),
            priority,
            weight,
            admin: Admin::Active,
        };
        queue.push(standing.open(sweep, place).await.expect("sweep opens"));
    }
    queue
}

/// What the queue answers `worker`'s lease request, `gang_failed` or not.
pub(super) fn ask(queue: &mut Queue, worker: &str, gang_failed: bool) -> lease_response::Outcome {
    let request = LeaseRequest {
        worker_id: worker.to_owned(),
        gang_failed,
        ..LeaseRequest::default()
    };
    let (answer, _) = queue.lease(&request).expect("lease");
    answer.outcome.expect("an outcome")
}

/// The queue's answer to `worker`'s heartbeat for `leases`.
pub(super) fn beat(queue: &mut Queue, worker: &str, leases: &[&str]) -> HeartbeatResponse {
    let request = HeartbeatRequest {
        worker_id: worker.to_owned(),
        lease_ids: leases.iter().map(|&l| l.to_owned()).collect(),
        ..HeartbeatRequest::default()
    };
    queue.heartbeat(&request).expect("heartbeat")
}

/// The name of the sweep whose unit `worker` gets next.
fn lease_for(queue: &mut Queue, worker: &str) -> String {
    let request = LeaseRequest {
        worker_id: worker.to_owned(),
        ..LeaseRequest::default()
    };
    match queue.lease(&request).expect("lease").0.outcome {
        Some(lease_response::Outcome::Lease(lease)) => lease.sweep_name,
        other => panic!("expected a lease, got {other:?}"),
    }
}

#[tokio::test]
async fn a_unit_goes_to_the_highest_priority_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut queue = queue(dir.path(), &[("low", 0, 1.0), ("high", 5, 1.0)]).await;
    let worker = queue.register("w", "0", "1", "", 1);
    for _ in 0..10 {
        assert_eq!(lease_for(&mut queue, &worker), "high");
    }
    // Stopped, the high sweep leases nothing: the low one backfills.
    queue.stop("high").expect("stop");
    assert_eq!(lease_for(&mut queue, &worker), "low");
}

/// A lease counts its worker's threads: after a 3-thread worker takes a unit of "a", the
/// next two 1-thread workers' units go to "b" (counting leases alone, the second would
/// go to "a"), and only the fourth lease evens the threads out.
#[tokio::test]
async fn a_lease_costs_its_sweep_the_threads_of_its_worker() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut queue = queue(dir.path(), &[("a", 0, 1.0), ("b", 0, 1.0)]).await;
    let big = queue.register("big", "0", "1", "", 3);
    let small: Vec<String> = (2..5)
        .map(|i| queue.register("small", "0", &format!("{i}"), "", 1))
        .collect();
    assert_eq!(lease_for(&mut queue, &big), "a");
    assert_eq!(lease_for(&mut queue, &small[0]), "b");
    assert_eq!(lease_for(&mut queue, &small[1]), "b");
    assert_eq!(lease_for(&mut queue, &small[2]), "b");
    // 3 threads each now: the tie goes to the earlier submission.
    let fifth = queue.register("small", "0", "5", "", 1);
    assert_eq!(lease_for(&mut queue, &fifth), "a");
}

/// A worker whose last request found nothing to do (its unit was still being committed)
/// is told the sweep is complete on its next request, and counted as told, so a
/// one-sweep coordinator does not wait for it before exiting.
#[tokio::test]
async fn a_worker_idle_when_the_last_unit_commits_is_told_complete() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut queue = queue_of(dir.path(), false, 10, &[("one", 0, 1.0)]).await;
    let busy = queue.register("busy", "0", "1", "", 1);
    let idle = queue.register("idle", "0", "2", "", 1);
    assert_eq!(lease_for(&mut queue, &busy), "one");
    let request = |worker: &str| LeaseRequest {
        worker_id: worker.to_owned(),
        ..LeaseRequest::default()
    };
    let (answer, was_idle) = queue.lease(&request(&idle)).expect("lease");
    assert!(was_idle, "{answer:?}");
    lock(&queue.entries[0].core).mark_committed(
        0,
        &CommitEntry {
            unit_id: "e000".into(),
            games: 10,
            solvable: 0,
            expansions: 0,
        },
    );
    assert_eq!(queue.status("").expect("status").workers, 2);
    let complete = |queue: &mut Queue, worker: &str| {
        let (answer, _) = queue.lease(&request(worker)).expect("lease");
        assert!(
            matches!(answer.outcome, Some(lease_response::Outcome::Complete(_))),
            "{answer:?}"
        );
    };
    complete(&mut queue, &idle);
    assert_eq!(queue.status("").expect("status").workers, 1);
    complete(&mut queue, &busy);
    assert_eq!(queue.status("").expect("status").workers, 0);
    assert!(queue.workers_informed());
}

/// Four workers take turns asking for work while a clock advances; each lease held is
/// charged until its worker asks again. Returns each sweep's share of the lease-seconds.
async fn shares(weights: &[(&str, f64)], rounds: usize) -> Vec<(String, f64)> {
    let dir = tempfile::tempdir().expect("temp dir");
    let sweeps: Vec<(&str, i32, f64)> = weights.iter().map(|&(n, w)| (n, 0, w)).collect();
    let mut queue = queue(dir.path(), &sweeps).await;
    let workers: Vec<String> = (0..4)
        .map(|i| queue.register("w", "0", &format!("{i}"), "", 1))
        .collect();
    let start = Instant::now();
    queue.last_tick = start;
    let step = Duration::from_millis(250);
    let mut held: Vec<Option<String>> = vec![None; workers.len()];
    let mut seconds: std::collections::BTreeMap<String, f64> = Default::default();
    for round in 0..rounds {
        let turn = round % workers.len();
        held[turn] = Some(lease_for(&mut queue, &workers[turn]));
        queue.tick(start + step * (round as u32 + 1));
        for name in held.iter().flatten() {
            *seconds.entry(name.clone()).or_default() += step.as_secs_f64();
        }
    }
    let total: f64 = seconds.values().sum();
    seconds
        .into_iter()
        .map(|(name, s)| (name, s / total))
        .collect()
}

#[tokio::test]
async fn equal_priorities_share_by_weight() {
    let shares = shares(&[("one", 1.0), ("three", 3.0)], 800).await;
    let share = |name: &str| shares.iter().find(|(n, _)| n == name).map_or(0.0, |s| s.1);
    assert!((share("one") - 0.25).abs() < 0.05, "{shares:?}");
    assert!((share("three") - 0.75).abs() < 0.05, "{shares:?}");
}

#[tokio::test]
async fn a_small_weight_is_not_starved() {
    // Submitted second, with a twentieth of the weight: it still gets its 5%.
    let shares = shares(&[("big", 19.0), ("small", 1.0)], 1600).await;
    let small = shares
        .iter()
        .find(|(n, _)| n == "small")
        .map_or(0.0, |s| s.1);
    assert!((small - 0.05).abs() < 0.03, "{shares:?}");
}
