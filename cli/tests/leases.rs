//! Several leases in one process over one solver pool: `hammer run --threads 2` holds
//! one lease per thread, and `hammer worker --leases 2` as many as it is told, so that
//! units of one game (continuation sweeps, gangs' games) keep every thread busy. The rows
//! must be those of one lease on one thread, every key once.

mod support;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use hammer_sweep::Sweep;
use support::{free_port, hammer, ok};

/// Units of one game each, with a per-game memo limit so that the pool's memory budget
/// is in play, and an expansion cap so that some games end capped.
const ONE_GAME_UNITS: &str = r#"
name = "leases"
seed = 7

[[experiment]]
name = "one_game_units"
sizes = [7]
games = 16
unit_games = 1
orders = ["random"]
schedules = ["luby:256"]
max_expansions = 50_000
max_memo_mb = 64
"#;

fn rows_of(out: &Path, sweep: &Sweep) -> Vec<hammer_dataset::ResultRow> {
    support::read_checked(out, sweep)
}

fn workers_of(rows: &[hammer_dataset::ResultRow]) -> BTreeSet<String> {
    rows.iter().map(|r| r.worker.clone()).collect()
}

fn run(dir: &Path, sweep: &Path, out: &str, threads: &str) {
    ok(&hammer(&[
        "run",
        sweep.to_str().unwrap(),
        "--out",
        dir.join(out).to_str().unwrap(),
        "--threads",
        threads,
        "--memory-limit",
        "100",
    ]));
}

#[test]
fn one_game_units_fill_every_thread_and_give_the_rows_of_one_thread() {
    let dir = tempfile::tempdir().unwrap();
    let sweep_path = dir.path().join("sweep.toml");
    std::fs::write(&sweep_path, ONE_GAME_UNITS).unwrap();
    let sweep = Sweep::parse(ONE_GAME_UNITS, "test").unwrap();

    run(dir.path(), &sweep_path, "one", "1");
    let one = rows_of(&dir.path().join("one"), &sweep);
    assert_eq!(one.len(), 16);
    assert_eq!(workers_of(&one).len(), 1, "one thread, one lease");
    assert!(
        one.iter().any(|r| !r.exhaustive),
        "the cap should stop some game, or the test shows less than it claims"
    );

    // Two threads under a memory limit that fits one game's memo at a time: two leases,
    // and the games wait for each other's memory rather than exceed the limit.
    run(dir.path(), &sweep_path, "two", "2");
    let two = rows_of(&dir.path().join("two"), &sweep);
    assert_eq!(
        workers_of(&two).len(),
        2,
        "hammer run --threads 2 should hold two leases: {:?}",
        workers_of(&two)
    );
    assert_eq!(support::normalized(two), support::normalized(one.clone()));

    // A coordinator and one worker process with two leases.
    let port = free_port();
    let out = dir.path().join("cluster");
    let mut coordinator = support::coordinator(
        dir.path(),
        "coordinator",
        &sweep_path,
        &out,
        port,
        &["--linger-secs", "5"],
    );
    let mut worker = support::worker(
        dir.path(),
        "pair",
        port,
        &["--threads", "2", "--leases", "2"],
    );
    worker.wait_ok(Duration::from_secs(300));
    coordinator.wait_ok(Duration::from_secs(60));
    let cluster = rows_of(&out, &sweep);
    let names: BTreeSet<String> = workers_of(&cluster);
    assert_eq!(names.len(), 2, "{names:?}");
    let log_text = worker.log_text();
    for name in ["pair-1", "pair-2"] {
        assert!(
            log_text.contains(name),
            "no {name} in the worker's log:\n{log_text}"
        );
    }
    assert_eq!(support::normalized(cluster), support::normalized(one));
}

#[test]
fn a_worker_refuses_zero_leases_by_name() {
    let out = hammer(&[
        "worker",
        "--coordinator",
        "http://127.0.0.1:1",
        "--leases",
        "0",
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--leases"), "{stderr}");
}
