//! Gangs (`core/gang.rs`) through the queue: a gang forms from workers with peers, and
//! lives or dies whole.

use std::time::{Duration, Instant};

use hammer_proto::v1::lease_response::Outcome;
use hammer_sweep::Sweep;

use super::{ask, beat, open_queue};
use crate::core::Timing;
use crate::queue::Queue;

const SWEEP: &str =
    "name = \"g\"\nseed = 1\n\n[[experiment]]\nname = \"e\"\nsizes = [5]\ngames = 2\ngang = 2\n";

/// A coordinator's queue of the one gang sweep, whose leases lapse after `ttl_ms`.
async fn queue(dir: &std::path::Path, ttl_ms: u64) -> Queue {
    let sweep = Sweep::parse(SWEEP, "test").expect("sweep parses");
    let timing = Timing {
        lease_ttl: Duration::from_millis(ttl_ms),
        ..Timing::default()
    };
    open_queue(dir, false, vec![(sweep, 0, 1.0)], timing).await
}

/// (lease id, rank, peers, gang name, unit) of a gang lease; panics on anything else.
fn gang_lease(outcome: Outcome) -> (String, u32, Vec<String>, String, String) {
    let Outcome::Lease(lease) = outcome else {
        panic!("expected a lease, got {outcome:?}");
    };
    let gang = lease.gang.expect("a gang lease");
    let unit = lease.unit.expect("a unit").unit_id;
    (lease.lease_id, gang.rank, gang.peers, gang.game, unit)
}

fn waits(outcome: Outcome) -> bool {
    matches!(outcome, Outcome::WaitMs(_))
}

#[tokio::test]
async fn a_gang_forms_from_workers_with_peers_and_dissolves_whole() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut queue = queue(dir.path(), 30_000).await;
    let a = queue.register("a", "v", "1", "a:7001", 1);
    let b = queue.register("b", "v", "2", "b:7002", 1);
    let lone = queue.register("lone", "v", "3", "", 1);
    // A worker without a peer address is never given a gang's game.
    assert!(waits(ask(&mut queue, &lone, false)));
    assert!(waits(ask(&mut queue, &a, false)));
    // The second completes the gang and gets its lease at once; the first at its
    // next ask, with the same members and name.
    let (_, rank_b, peers, name, unit) = gang_lease(ask(&mut queue, &b, false));
    assert_eq!(rank_b, 1);
    assert_eq!(peers, ["a:7001", "b:7002"]);
    let (lease_a, rank_a, peers_a, name_a, unit_a) = gang_lease(ask(&mut queue, &a, false));
    assert_eq!(
        (rank_a, &peers_a, &name_a, &unit_a),
        (0, &peers, &name, &unit)
    );
    let status = queue.status("").expect("status");
    let leased: Vec<(u32, u32)> = status
        .worker_list
        .iter()
        .flat_map(|w| &w.units)
        .map(|u| (u.gang_rank, u.gang_size))
        .collect();
    assert_eq!(leased.len(), 2, "{leased:?}");
    assert!(leased.contains(&(0, 2)) && leased.contains(&(1, 2)));
    // Member b reports that its gang broke: a's lease is dropped, and the game
    // goes to a new gang under a new name.
    assert!(waits(ask(&mut queue, &b, true)));
    let answer = beat(&mut queue, &a, &[&lease_a]);
    assert_eq!(answer.dropped_lease_ids, [lease_a]);
    let (_, _, _, renamed, again) = gang_lease(ask(&mut queue, &a, false));
    assert_eq!(again, unit);
    assert_ne!(renamed, name);
}

/// A gang whose only fetched member lets go of the game before the others fetched
/// their leases is over: the others get no lease of it, and wait for a new gang.
#[tokio::test]
async fn a_gang_no_member_holds_is_over() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut queue = queue(dir.path(), 30_000).await;
    let a = queue.register("a", "v", "1", "a:7001", 1);
    let b = queue.register("b", "v", "2", "b:7002", 1);
    assert!(waits(ask(&mut queue, &a, false)));
    let (_, _, _, name, _) = gang_lease(ask(&mut queue, &b, false));
    assert!(waits(ask(&mut queue, &b, false)));
    let (_, _, _, renamed, _) = gang_lease(ask(&mut queue, &a, false));
    assert_ne!(renamed, name);
}

#[tokio::test]
async fn a_lapsed_member_dissolves_its_gang() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut queue = queue(dir.path(), 100).await;
    let a = queue.register("a", "v", "1", "a:7001", 1);
    let b = queue.register("b", "v", "2", "b:7002", 1);
    assert!(waits(ask(&mut queue, &a, false)));
    let (lease_b, ..) = gang_lease(ask(&mut queue, &b, false));
    let (lease_a, ..) = gang_lease(ask(&mut queue, &a, false));
    // a keeps its lease alive; b goes silent past the lease's time.
    for _ in 0..4 {
        std::thread::sleep(Duration::from_millis(40));
        let answer = beat(&mut queue, &a, &[&lease_a]);
        assert!(answer.dropped_lease_ids.is_empty());
    }
    queue.tick(Instant::now());
    let answer = beat(&mut queue, &a, &[&lease_a]);
    assert_eq!(answer.dropped_lease_ids, [lease_a]);
    // b's late heartbeat does not revive its lease.
    let answer = beat(&mut queue, &b, &[&lease_b]);
    assert_eq!(answer.dropped_lease_ids, [lease_b]);
}
