//! The frontier's cluster features with real processes: per-game limits that
//! leave honest unknowns, a worker under `--memory-limit`, a second sweep that continues
//! exactly the unknown games, and the progress of a unit whose game runs for seconds,
//! seen in `hammer status` and the metrics while it runs.

mod support;

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use hammer_dataset::{ResultRow, read_dataset};
use hammer_sweep::Sweep;
use support::{Proc, free_port, hammer, http, normalized, ok, path_str, read_checked, worker};

/// Capped 7x7 games: about half of them need more than the cap.
const CAPPED: &str = r#"
name = "frontier-test"
seed = 2013

[[experiment]]
name = "capped"
sizes = [7]
games = 12
orders = ["random"]
schedules = ["luby:256"]
max_expansions = 60_000
max_memo_mb = 1
unit_games = 3
"#;

/// Exactly the unknown games of `capped`, with no cap.
const MORE: &str = r#"
name = "frontier-test-more"
seed = 2013

[[experiment]]
name = "more"
sizes = [7]
orders = ["random"]
schedules = ["luby:256"]
unknown_games = { dataset = "out", experiment = "capped" }
"#;

/// A coordinator of `dir/sweep.toml` with fast heartbeats and leases.
fn coordinator(dir: &Path, port: u16, metrics: Option<SocketAddr>) -> Proc {
    let (sweep, out, state) = (dir.join("sweep.toml"), dir.join("out"), dir.join("state"));
    let metrics = metrics.map(|m| m.to_string());
    let mut flags = vec![
        "--state",
        path_str(&state),
        "--lease-secs",
        "3",
        "--heartbeat-secs",
        "0.3",
        "--speculate-after-secs",
        "2",
        "--linger-secs",
        "5",
    ];
    if let Some(m) = &metrics {
        flags.extend(["--metrics", m]);
    }
    support::coordinator(dir, "coordinator", &sweep, &out, port, &flags)
}

#[test]
fn capped_games_are_unknowns_that_a_second_sweep_continues() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    std::fs::write(dir.join("sweep.toml"), CAPPED).unwrap();
    let port = free_port();
    let mut coordinator = coordinator(dir, port, None);
    // Two threads, but memory for one game at a time (a 1 MiB memo peaks at 1.84 MiB
    // while it grows, + 16 MiB).
    let mut w = worker(
        dir,
        "worker",
        port,
        &["--threads", "2", "--memory-limit", "20"],
    );
    w.wait_ok(Duration::from_secs(300));
    assert_eq!(coordinator.wait(Duration::from_secs(30)), 0);

    let sweep = Sweep::parse(CAPPED, "capped").unwrap();
    let rows = read_checked(&dir.join("out"), &sweep);
    let capped: Vec<&ResultRow> = rows.iter().filter(|r| !r.exhaustive).collect();
    assert!(
        !capped.is_empty() && capped.len() < rows.len(),
        "{} of {} games capped: the test wants both kinds",
        capped.len(),
        rows.len()
    );
    for r in &rows {
        assert!(r.expansions <= 60_000, "{r:?}");
        assert!(r.memo_bytes.is_some_and(|b| b > 0 && b <= 1 << 20), "{r:?}");
        assert!(r.lower_bound <= r.score, "{r:?}");
        if r.exhaustive {
            assert_eq!(r.capped_by, None);
        } else {
            // An unknown, never a guess: the limit is named and the bound is the start's
            // or better.
            assert_eq!(r.capped_by.as_deref(), Some("expansions"), "{r:?}");
            assert!(r.lower_bound >= 1, "{r:?}");
        }
    }
    // The same rows as one process with one thread and no memory limit.
    let reference = dir.join("reference");
    ok(&hammer(&[
        "run",
        path_str(&dir.join("sweep.toml")),
        "--out",
        reference.to_str().unwrap(),
        "--threads",
        "1",
    ]));
    assert_eq!(
        normalized(read_checked(&reference, &sweep)),
        normalized(rows.clone())
    );

    // The analysis counts the capped games as unknown, with the interval they span.
    let exact = (rows.len() - capped.len()) as i64;
    let unknown = table(&dir.join("out"), "fig08_unknown").expect("an unknown-games table");
    assert_eq!(unknown["columns"][1], "exact_games");
    assert_eq!(unknown["rows"][0][0], 7);
    assert_eq!(unknown["rows"][0][1], exact);
    assert_eq!(unknown["rows"][0][2], capped.len() as i64);
    let proved = capped.iter().filter(|r| r.lower_bound > 1).count() as i64;
    assert_eq!(unknown["rows"][0][3], proved);
    let (low, high) = (
        unknown["rows"][0][6].as_f64().unwrap(),
        unknown["rows"][0][8].as_f64().unwrap(),
    );
    assert!(low < high, "{unknown}");
    let ratio = table(&dir.join("out"), "fig08_solvable_ratio").unwrap();
    assert_eq!(ratio["rows"][0][1], exact, "{ratio}");

    // The continuation plays exactly the unknown games, into the same dataset.
    std::fs::write(dir.join("more.toml"), MORE).unwrap();
    ok(&hammer(&[
        "run",
        path_str(&dir.join("more.toml")),
        "--out",
        path_str(&dir.join("out")),
        "--state",
        path_str(&dir.join("more-state")),
    ]));
    let all = read_dataset(&dir.join("out")).unwrap();
    let mut continued: Vec<i64> = all
        .iter()
        .filter(|r| r.experiment == "more")
        .map(|r| {
            assert!(r.exhaustive && r.capped_by.is_none(), "{r:?}");
            let first = capped
                .iter()
                .find(|c| c.game_index == r.game_index)
                .expect("a continued game was unknown");
            assert_eq!(r.board, first.board);
            assert!(
                first.lower_bound <= r.score && r.score <= first.score,
                "{r:?} {first:?}"
            );
            r.game_index
        })
        .collect();
    continued.sort_unstable();
    let mut unknown: Vec<i64> = capped.iter().map(|r| r.game_index).collect();
    unknown.sort_unstable();
    assert_eq!(continued, unknown);
    assert_eq!(all.len(), rows.len() + unknown.len());
    // Now every game has its final answer once: no unknowns, all 12 games in Figure 8.
    assert!(table(&dir.join("out"), "fig08_unknown").is_none());
    let ratio = table(&dir.join("out"), "fig08_solvable_ratio").unwrap();
    assert_eq!(ratio["rows"][0][1], 12, "{ratio}");
}

/// The table `name` of `hammer analyze DIR --format json`, if the report has it.
fn table(dir: &Path, name: &str) -> Option<serde_json::Value> {
    let json = ok(&hammer(&[
        "analyze",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]));
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    report["figures"]
        .as_array()?
        .iter()
        .flat_map(|f| f["tables"].as_array().cloned().unwrap_or_default())
        .find(|t| t["name"] == name)
}

#[test]
fn a_long_game_reports_progress_and_is_not_copied_while_it_moves() {
    // One 8x8 game searched for 6 seconds (a time cap, so the test's length does not
    // depend on the machine's speed), and a second worker with nothing else to do.
    let sweep = r#"
name = "long-game"
seed = 2013

[[experiment]]
name = "long"
sizes = [8]
games = 1
orders = ["standard"]
schedules = ["exact"]
max_seconds = 6
"#;
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    std::fs::write(dir.join("sweep.toml"), sweep).unwrap();
    let port = free_port();
    let metrics = SocketAddr::from(([127, 0, 0, 1], free_port()));
    let mut coordinator = coordinator(dir, port, Some(metrics));
    let mut first = worker(dir, "first", port, &["--threads", "1"]);
    let url = format!("http://127.0.0.1:{port}");
    // Wait until the unit has reported progress twice.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    while seen.len() < 2 {
        assert!(Instant::now() < deadline, "no progress reported: {seen:?}");
        std::thread::sleep(Duration::from_millis(200));
        let out = hammer(&["status", "--coordinator", &url]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        if let Some(line) = text.lines().find(|l| l.contains("expansions, last grew")) {
            let n: u64 = line
                .split("; ")
                .nth(1)
                .and_then(|t| t.split(' ').next())
                .and_then(|n| n.parse().ok())
                .expect("an expansion count");
            if seen.last().is_none_or(|&last| n > last) {
                seen.push(n);
            }
        }
    }
    let scrape = http("GET", metrics, "/metrics").expect("metrics").body;
    let leased: f64 = scrape
        .lines()
        .find_map(|l| l.strip_prefix("hammer_leased_expansions "))
        .and_then(|v| v.parse().ok())
        .expect("hammer_leased_expansions");
    assert!(leased > 0.0, "{scrape}");
    // A worker arriving now finds the unit moving and gets no speculative copy of it.
    let mut second = worker(dir, "second", port, &["--threads", "1"]);
    first.wait_ok(Duration::from_secs(60));
    assert_eq!(second.wait(Duration::from_secs(30)), 0);
    assert_eq!(coordinator.wait(Duration::from_secs(30)), 0);
    let log = coordinator.log_text();
    assert!(!log.contains("speculative copy"), "{log}");
    let rows = read_dataset(&dir.join("out")).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].capped_by.as_deref(), Some("time"), "{:?}", rows[0]);
    assert!(rows[0].worker.contains("first"), "{:?}", rows[0]);
}

#[test]
fn hammer_solve_brackets_a_capped_game_and_refuses_bad_limits() {
    let game = [
        "solve", "--random", "--n", "8", "--seed", "2013", "--index", "0",
    ];
    let limits = ["--max-expansions", "5000", "--max-memo-mb", "1"];
    let json = ok(&hammer(&[&game[..], &limits, &["--json"]].concat()));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["exhaustive"], false, "{v}");
    assert_eq!(v["capped_by"], "expansions", "{v}");
    assert!(v["expansions"].as_u64().unwrap() <= 5000, "{v}");
    assert!(
        v["lower_bound"].as_u64().unwrap() <= v["score"].as_u64().unwrap(),
        "{v}"
    );
    assert!(v["memo_bytes"].as_u64().unwrap() <= 1 << 20, "{v}");
    let text = ok(&hammer(&[&game[..], &limits].concat()));
    assert!(
        text.contains("not proven: the expansions limit stopped it; the answer is at least"),
        "{text}"
    );
    for (flag, value) in [
        ("--max-expansions", "0"),
        ("--max-seconds", "0"),
        ("--max-seconds", "soon"),
        ("--max-memo-mb", "0"),
    ] {
        let out = hammer(&["solve", "--random", "--n", "6", "--index", "0", flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(flag) && err.contains(value),
            "{flag} {value}: {err}"
        );
    }
}
