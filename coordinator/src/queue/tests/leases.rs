//! The life of a lease (`core/leases.rs`) through the queue: which states a renewal
//! revives.

use std::time::{Duration, Instant};

use hammer_proto::v1::lease_response::Outcome;

use super::{ask, beat, queue_of};
use crate::queue::Queue;
use crate::sync::lock;

/// The wire id of the lease `worker` gets next.
fn lease(queue: &mut Queue, worker: &str) -> String {
    match ask(queue, worker, false) {
        Outcome::Lease(lease) => lease.lease_id,
        other => panic!("expected a lease, got {other:?}"),
    }
}

fn active(queue: &Queue) -> usize {
    lock(&queue.entries[0].core).active_leases()
}

/// A renewal (a heartbeat, as a batch renews too) revives a lapsed lease, whose worker
/// is evidently still at work, but neither a released lease, which its worker let go,
/// nor a revoked one.
#[tokio::test]
async fn a_renewal_revives_a_lapsed_lease_only() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut queue = queue_of(dir.path(), false, 20, &[("one", 0, 1.0)]).await;
    let worker = queue.register("w", "0", "1", "", 1);
    let first = lease(&mut queue, &worker);
    // Lapsed: the clock passes the lease's time (a day, in these tests).
    queue.tick(Instant::now() + Duration::from_secs(86_401));
    assert_eq!(active(&queue), 0);
    let answer = beat(&mut queue, &worker, &[&first]);
    assert!(answer.dropped_lease_ids.is_empty(), "{answer:?}");
    assert_eq!(active(&queue), 1, "a lapsed lease is revived");
    // Released: the worker asks for other work, and a heartbeat still in flight names
    // its old lease.
    let second = lease(&mut queue, &worker);
    assert_eq!(active(&queue), 1);
    beat(&mut queue, &worker, &[&first]);
    assert_eq!(active(&queue), 1, "a released lease stays released");
    // Revoked: the sweep is cancelled; heartbeats tell the worker to drop its lease.
    queue.cancel("").expect("cancel");
    let answer = beat(&mut queue, &worker, &[&second]);
    assert_eq!(answer.dropped_lease_ids, [second]);
    assert_eq!(active(&queue), 0, "a revoked lease stays revoked");
}
