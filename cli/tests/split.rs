//! One game searched in parts by several workers (issue 17), with real processes: the
//! parts of each game go to whichever worker asks, the coordinator combines them into
//! the game's exact row, and a coordinator killed with `kill -9` between parts loses
//! none of the parts it journaled and searches none of them again.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use hammer_sweep::Sweep;
use support::{Proc, free_port, hammer, ok, path_str, read_checked};

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

/// A coordinator of `dir/sweep.toml` with fast leases and heartbeats, so that a lost
/// worker's parts are leased again within seconds.
fn coordinator(dir: &Path, port: u16, name: &str) -> Proc {
    let (sweep, out, state) = (dir.join("sweep.toml"), dir.join("out"), dir.join("state"));
    support::coordinator(
        dir,
        name,
        &sweep,
        &out,
        port,
        &[
            "--state",
            path_str(&state),
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
    support::worker(dir, name, port, &["--threads", "1"])
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
    one.wait_ok(Duration::from_secs(300));
    two.wait_ok(Duration::from_secs(300));
    second.wait_ok(Duration::from_secs(30));

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
        path_str(&dir.join("whole")),
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

/// Four 7x7 games raced by two parts: game 3484 is unsolvable (two stones, about three
/// million expansions), so one racer has to search it to the end; the others are solvable.
const RACE: &str = r#"
name = "race-test"
seed = 2013

[[experiment]]
name = "race"
sizes = [7]
games = 4
first_game = 3483
orders = ["random"]
schedules = ["luby:256"]
split = 2
split_mode = "race"
"#;

/// A race of two parts on two workers: every game gets its exact answer from the first
/// racer to prove it, each game is committed once, and the parts the winners settled do
/// not hold the sweep open.
#[test]
fn raced_games_are_exact_and_the_sweep_ends() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    std::fs::write(dir.join("sweep.toml"), RACE).unwrap();
    let port = free_port();
    let mut coord = coordinator(dir, port, "coordinator");
    let mut one = worker(dir, "one", port);
    let mut two = worker(dir, "two", port);
    coord.wait_ok(Duration::from_secs(300));
    one.wait_ok(Duration::from_secs(60));
    two.wait_ok(Duration::from_secs(60));
    let journal = journal(dir);
    for ((kind, unit), count) in &journal {
        assert_eq!(*count, 1, "{kind} {unit} journaled {count} times");
    }
    let commits = journal.keys().filter(|(kind, _)| kind == "commit").count();
    assert_eq!(commits, 4, "{journal:?}");
    let sweep = Sweep::parse(RACE, "race").unwrap();
    let mut rows = read_checked(&dir.join("out"), &sweep);
    rows.sort_by_key(|r| r.game_index);
    let scores: Vec<(i64, i32)> = rows.iter().map(|r| (r.game_index, r.score)).collect();
    // The answers of the whole searches (docs/frontier.md's 7x7 run, and `hammer solve`).
    assert_eq!(scores, [(3483, 1), (3484, 2), (3485, 1), (3486, 1)]);
    for row in &rows {
        assert!(row.exhaustive, "{row:?}");
        assert_eq!(row.split_parts, Some(2));
        let stones = row.start.chars().filter(char::is_ascii_uppercase).count();
        assert_eq!(
            stones - row.solution.split_whitespace().count(),
            row.score as usize
        );
    }
}

/// One 8x8 game that takes minutes (game 20 of seed 2013: best two stones after 145
/// million expansions, docs/frontier.md), searched whole.
const LONG: &str = r#"
name = "long-test"
seed = 2013

[[experiment]]
name = "long"
sizes = [8]
games = 1
first_game = 20
orders = ["random"]
schedules = ["luby:256"]
"#;

/// A worker told to stop (SIGTERM) while its game runs gives the game up at once, within
/// a few thousand expansions, instead of finishing it first; nothing of the game is sent
/// or written, and the unit stays for another worker.
#[test]
fn a_stopped_worker_gives_up_its_running_game_and_sends_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    std::fs::write(dir.join("sweep.toml"), LONG).unwrap();
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}");
    let _coordinator = coordinator(dir, port, "coordinator");
    let mut w1 = worker(dir, "w1", port);
    // Wait until the worker reports expansions on its unit: the game is being searched.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let status = hammer(&["status", "--coordinator", &url]);
        let text = String::from_utf8_lossy(&status.stdout).into_owned();
        if text
            .lines()
            .any(|l| l.contains("leased") && l.contains("expansions"))
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the unit was never leased with progress:\n{text}\n{}",
            w1.log_text()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    w1.sigterm();
    // The game alone takes minutes; a worker that waited for it would not exit here.
    w1.wait_ok(Duration::from_secs(30));
    let journal = journal(dir);
    assert!(
        !journal.keys().any(|(kind, _)| kind == "commit"),
        "a game given up was committed: {journal:?}"
    );
    let parts = walkdir(dir.join("out"));
    assert!(parts.is_empty(), "a part file was written: {parts:?}");
}

/// The Parquet files under `dir`, at any depth.
fn walkdir(dir: std::path::PathBuf) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                found.push(path);
            }
        }
    }
    found
}
