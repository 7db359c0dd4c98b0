//! One game searched in parts by several workers (issue 17), with real processes: the
//! parts of each game go to whichever worker asks, the coordinator combines them into
//! the game's exact row, and a coordinator killed with `kill -9` between parts loses
//! none of the parts it journaled and searches none of them again.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use hammer_sweep::Sweep;
use support::{HAMMER, Proc, free_port, hammer, ok, read_checked, s};

/// Three 7x7 games, each in four parts: the last one takes a few seconds, so that the
/// sweep is still running when its coordinator is killed.
const SPLIT: &str = r#"
name = "split-test"
seed = 2013

[[experiment]]
name = "split"
sizes = [7]
games = 3
first_game = 3
orders = ["random"]
schedules = ["luby:256"]
split = 4
"#;

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().expect("utf-8 path").to_owned()
}

fn spawn(dir: &Path, name: &str, args: &[&str]) -> Proc {
    Proc::spawn(name, HAMMER, &s(args), &[], dir.join(format!("{name}.log")))
}

fn coordinator(dir: &Path, port: u16, name: &str) -> Proc {
    let listen = format!("127.0.0.1:{port}");
    spawn(
        dir,
        name,
        &[
            "coordinator",
            "--sweep",
            &path(dir, "sweep.toml"),
            "--out",
            &path(dir, "out"),
            "--state",
            &path(dir, "state"),
            "--listen",
            &listen,
            "--lease-secs",
            "3",
            "--heartbeat-secs",
            "0.3",
            "--linger-secs",
            "5",
        ],
    )
}

fn worker(dir: &Path, name: &str, port: u16) -> Proc {
    let url = format!("http://127.0.0.1:{port}");
    spawn(
        dir,
        name,
        &[
            "worker",
            "--coordinator",
            &url,
            "--threads",
            "1",
            "--name",
            name,
            "--give-up-after-secs",
            "60",
        ],
    )
}

/// The journal's lines of each kind, by unit id, counted as written (not deduplicated).
fn journal(dir: &Path) -> BTreeMap<(String, String), usize> {
    let text = std::fs::read_to_string(dir.join("state/journal.log")).unwrap_or_default();
    let mut lines = BTreeMap::new();
    for line in text.lines().skip(1) {
        let mut words = line.split(' ');
        let kind = words.next().unwrap_or_default().to_owned();
        let unit = words.next().unwrap_or_default().to_owned();
        *lines.entry((kind, unit)).or_default() += 1;
    }
    lines
}

#[test]
fn split_games_are_exact_across_workers_and_a_coordinator_crash() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    std::fs::write(dir.join("sweep.toml"), SPLIT).unwrap();
    let port = free_port();
    let mut first = coordinator(dir, port, "coordinator-1");
    let mut one = worker(dir, "one", port);
    // Kill the coordinator as soon as it has journaled a part.
    let deadline = Instant::now() + Duration::from_secs(120);
    while !journal(dir).keys().any(|(kind, _)| kind == "part") {
        assert!(Instant::now() < deadline, "no part journaled");
        std::thread::sleep(Duration::from_millis(10));
    }
    first.kill9();
    let before = journal(dir);
    assert!(
        before.keys().filter(|(kind, _)| kind == "commit").count() < 3,
        "the sweep ended before the crash: {before:?}"
    );
    // A new coordinator on the same state, and a second worker.
    let mut second = coordinator(dir, port, "coordinator-2");
    let mut two = worker(dir, "two", port);
    assert_eq!(one.wait(Duration::from_secs(300)), 0, "{}", one.log_text());
    assert_eq!(two.wait(Duration::from_secs(300)), 0, "{}", two.log_text());
    assert_eq!(
        second.wait(Duration::from_secs(30)),
        0,
        "{}",
        second.log_text()
    );

    // Every part journaled once, so none was searched again after the crash, and every
    // game committed once.
    let after = journal(dir);
    for ((kind, unit), count) in &after {
        assert_eq!(*count, 1, "{kind} {unit} journaled {count} times");
    }
    for key in before.keys() {
        assert!(after.contains_key(key), "{key:?} lost in the crash");
    }
    let sweep = Sweep::parse(SPLIT, "split").unwrap();
    assert_eq!(after.len(), sweep.units().len());

    // The same answers as the games searched whole, on one thread.
    let rows = read_checked(&dir.join("out"), &sweep);
    let whole = dir.join("whole.toml");
    std::fs::write(&whole, SPLIT.replace("split = 4\n", "")).unwrap();
    ok(&hammer(&[
        "run",
        whole.to_str().unwrap(),
        "--out",
        &path(dir, "whole"),
        "--threads",
        "1",
    ]));
    let mut reference = hammer_dataset::read_dataset(&dir.join("whole")).unwrap();
    reference.sort_by_key(|r| r.game_index);
    let mut rows = rows;
    rows.sort_by_key(|r| r.game_index);
    assert_eq!(rows.len(), reference.len());
    for (split, whole) in rows.iter().zip(&reference) {
        assert_eq!(split.game_index, whole.game_index);
        assert_eq!(split.config, whole.config);
        assert_eq!((&split.board, &split.start), (&whole.board, &whole.start));
        assert!(split.exhaustive && whole.exhaustive, "{split:?}");
        assert_eq!(split.score, whole.score, "game {}", split.game_index);
        assert_eq!(split.lower_bound, whole.lower_bound);
        assert_eq!(split.split_parts, Some(4));
        assert!(split.split_nodes.is_some_and(|n| n >= 64), "{split:?}");
        assert_eq!(whole.split_parts, None);
        // The solution is a witness: each move takes one stone.
        let stones = split.start.chars().filter(char::is_ascii_uppercase).count();
        let moves = split.solution.split_whitespace().count();
        assert_eq!(stones - moves, split.score as usize, "{split:?}");
    }
}
