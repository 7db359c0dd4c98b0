//! Gang leases over real processes and real gRPC: a sweep whose games are searched by
//! gangs of `hammer worker --peer-listen` processes (`gang = K`) writes each
//! game's row exactly once, with the exact minimum of the game searched alone and every
//! member's counts; a member killed with `kill -9` mid-game costs time only.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use hammer_sweep::Sweep;
use support::gang::{check_gang_dataset, check_gang_row, rows_alone};
use support::{Proc, coordinator, free_port, read_checked, worker};

/// Gang games of 6x6 and one 7x7 game of a few seconds, beside plain 5x5 games that a
/// worker without a peer address takes.
const SWEEP: &str = r#"name = "gangs"
seed = 2013

[[experiment]]
name = "small"
sizes = [6]
games = 5
gang = 2

[[experiment]]
name = "deep"
sizes = [7]
first_game = 5482
games = 1
gang = 2

[[experiment]]
name = "plain"
sizes = [5]
games = 10
"#;

/// A worker that takes part in gangs on a free local port.
fn gang_worker(dir: &Path, name: &str, port: u16, extra: &[&str]) -> Proc {
    let listen = format!("127.0.0.1:{}", free_port());
    let mut flags = vec!["--threads", "1", "--peer-listen", &listen];
    flags.extend_from_slice(extra);
    worker(dir, name, port, &flags)
}

#[test]
fn a_shared_sweep_is_searched_by_gangs_of_workers() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gangs.toml");
    std::fs::write(&file, SWEEP).unwrap();
    let out = dir.path().join("out");
    let port = free_port();
    let mut coord = coordinator(
        dir.path(),
        "coordinator",
        &file,
        &out,
        port,
        &["--linger-secs", "2"],
    );
    let mut workers = vec![
        gang_worker(dir.path(), "g1", port, &[]),
        gang_worker(dir.path(), "g2", port, &[]),
        worker(dir.path(), "lone", port, &["--threads", "1"]),
    ];
    for w in &mut workers {
        w.wait_ok(Duration::from_secs(300));
    }
    coord.wait_ok(Duration::from_secs(60));
    let rows = check_gang_dataset(&out, SWEEP, dir.path());
    let sweep = Sweep::parse(SWEEP, "gangs.toml").unwrap();
    // Only the workers with a peer address searched the gangs' games.
    let gang_rows = support::read_checked(&out, &sweep)
        .into_iter()
        .filter(|r| r.gang_size.is_some())
        .count();
    assert_eq!(gang_rows, 6);
    support::python_readers(&out, rows.len());
}

/// One deep 7x7 game (16930 of seed 2013, a few seconds) for a gang of two.
const DEEP: &str = r#"name = "fault"
seed = 2013

[[experiment]]
name = "deep"
sizes = [7]
first_game = 16930
games = 1
gang = 2
"#;

/// A coordinator of [`DEEP`] with short leases, and two gang workers whose gang has
/// formed and is searching: (coordinator, first, second, the coordinator's port).
fn deep_gang_mid_search(dir: &Path, flags: &[&str]) -> (Proc, Proc, Proc, u16) {
    let file = dir.join("fault.toml");
    std::fs::write(&file, DEEP).unwrap();
    let port = free_port();
    let mut all = vec!["--lease-secs", "3", "--heartbeat-secs", "1"];
    all.extend_from_slice(flags);
    let coord = coordinator(dir, "coordinator", &file, &dir.join("out"), port, &all);
    let first = gang_worker(dir, "first", port, &[]);
    let second = gang_worker(dir, "second", port, &[]);
    let deadline = Instant::now() + Duration::from_secs(120);
    while !(first.log_text().contains("members formed")
        && second.log_text().contains("members formed"))
    {
        assert!(
            Instant::now() < deadline,
            "no gang formed:\n{}",
            coord.log_text()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    (coord, first, second, port)
}

/// The one row of [`DEEP`]'s dataset in `dir`, checked against the game searched alone.
fn check_deep_row(dir: &Path) {
    let sweep = Sweep::parse(DEEP, "fault.toml").unwrap();
    let rows = support::normalized(read_checked(&dir.join("out"), &sweep));
    let alone = rows_alone(dir, DEEP);
    assert_eq!(rows.len(), 1);
    check_gang_row(&rows[0], &alone[0], 2);
}

#[test]
fn a_gang_member_killed_mid_game_costs_time_only() {
    let dir = tempfile::tempdir().unwrap();
    let (mut coord, mut first, mut victim, port) =
        deep_gang_mid_search(dir.path(), &["--linger-secs", "2"]);
    victim.kill9();
    // A new worker takes the lost member's place in the game's next gang.
    let mut third = gang_worker(dir.path(), "third", port, &[]);
    first.wait_ok(Duration::from_secs(300));
    third.wait_ok(Duration::from_secs(300));
    coord.wait_ok(Duration::from_secs(60));
    let log = coord.log_text();
    assert!(log.contains("gang dissolved"), "{log}");
    check_deep_row(dir.path());
}

/// A whole gang paused with SIGSTOP past its lease loses the game to a new gang; when it
/// runs again it hears that the game is done and exits cleanly; the game has one row.
#[test]
fn a_stopped_gang_loses_its_lease_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let (mut coord, mut first, mut second, port) =
        deep_gang_mid_search(dir.path(), &["--linger-secs", "10"]);
    let signal = |sig: &str, proc: &Proc| {
        let status = std::process::Command::new("kill")
            .args([sig, &proc.pid().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success());
    };
    signal("-STOP", &first);
    signal("-STOP", &second);
    let mut third = gang_worker(dir.path(), "third", port, &[]);
    let mut fourth = gang_worker(dir.path(), "fourth", port, &[]);
    // The new gang forms once the stopped members' leases have lapsed; the stopped
    // members then run again while the coordinator is still there to tell them.
    let deadline = Instant::now() + Duration::from_secs(120);
    while !(third.log_text().contains("members formed")
        && fourth.log_text().contains("members formed"))
    {
        assert!(
            Instant::now() < deadline,
            "no new gang:\n{}",
            coord.log_text()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    signal("-CONT", &first);
    signal("-CONT", &second);
    for worker in [&mut first, &mut second, &mut third, &mut fourth] {
        worker.wait_ok(Duration::from_secs(300));
    }
    coord.wait_ok(Duration::from_secs(60));
    let log = coord.log_text();
    assert!(log.contains("gang dissolved"), "{log}");
    check_deep_row(dir.path());
}
