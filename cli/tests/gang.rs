//! One game searched by a gang of `hammer solve --peers` processes over real gRPC: the
//! exact minimum of the usual search, a solution that replays, each member's counts at
//! the leader; a member with a wrong token refused by name; a member killed with
//! `kill -9` reported lost by the others.

mod support;

use std::time::Duration;

use serde_json::Value;
use support::{Proc, free_port, hammer, last_json, ok, s};

/// `--peers` for `k` members on free local ports.
fn peers(k: usize) -> String {
    (0..k)
        .map(|_| format!("127.0.0.1:{}", free_port()))
        .collect::<Vec<_>>()
        .join(",")
}

/// Starts member `rank` of a gang solving `game`, logging to its own file.
fn member(dir: &std::path::Path, game: &[&str], peers: &str, rank: usize, extra: &[&str]) -> Proc {
    let mut args = s(&[
        "solve",
        "--json",
        "--peers",
        peers,
        "--rank",
        &rank.to_string(),
    ]);
    args.extend(s(game));
    args.extend(s(extra));
    let log = dir.join(format!("member{rank}.log"));
    Proc::spawn(&format!("member {rank}"), support::HAMMER, &args, &[], log)
}

/// Waits until `proc` says its gang formed, so that a fault comes mid-search.
fn formed(proc: &Proc) {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !proc.log_text().contains("members formed") {
        assert!(
            std::time::Instant::now() < deadline,
            "{} never formed its gang:\n{}",
            proc.name,
            proc.log_text()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_gang_of_processes_finds_the_exact_minimum() {
    let dir = tempfile::tempdir().unwrap();
    // A solvable 6x6 game, an unsolvable one, and a 7x7 game of a few seconds.
    let games: [(&[&str], usize); 4] = [
        (&["--random", "--n", "6", "--index", "3"], 2),
        (&["--random", "--n", "6", "--index", "7"], 3),
        (
            &["--random", "--n", "7", "--seed", "2013", "--index", "5482"],
            2,
        ),
        (&["--random", "--n", "5", "--index", "1"], 4),
    ];
    for (game, k) in games {
        let mut args = vec!["solve", "--json"];
        args.extend(game);
        let single: Value = serde_json::from_str(&ok(&hammer(&args))).unwrap();
        let peers = peers(k);
        let mut members: Vec<Proc> = (0..k)
            .map(|r| member(dir.path(), game, &peers, r, &[]))
            .collect();
        for m in &mut members {
            m.wait_ok(Duration::from_secs(300));
        }
        let outs: Vec<Value> = members.iter().map(last_json).collect();
        let what = format!("{game:?} with {k} members");
        let leader = &outs[0];
        assert_eq!(leader["score"], single["score"], "{what}");
        assert_eq!(leader["exhaustive"], true, "{what}");
        let per: Vec<u64> = serde_json::from_value(leader["expansions_per_owner"].clone()).unwrap();
        assert_eq!(per.len(), k, "{what}");
        assert_eq!(
            per.iter().sum::<u64>(),
            leader["expansions"].as_u64().unwrap(),
            "{what}"
        );
        for (rank, out) in outs.iter().enumerate().skip(1) {
            assert_eq!(out["score"], leader["score"], "{what}: member {rank}");
            assert_eq!(out["solution"], leader["solution"], "{what}: member {rank}");
            // A member knows its own counts, which the leader has too.
            assert_eq!(
                out["expansions"].as_u64(),
                Some(per[rank]),
                "{what}: member {rank}"
            );
        }
        // The solution replays to the score, by the rules as `hammer replay` reads them.
        let moves: Vec<&str> = leader["solution"]
            .as_str()
            .unwrap()
            .split_whitespace()
            .collect();
        let mut replay = vec!["replay", "--json", leader["start"].as_str().unwrap()];
        replay.extend(&moves);
        let replayed: Value = serde_json::from_str(&ok(&hammer(&replay))).unwrap();
        assert_eq!(replayed["score"], leader["score"], "{what}: {replayed}");
        if k > 1 && single["expansions"].as_u64() > Some(1000) {
            assert!(
                leader["sent"].as_u64() > Some(0),
                "{what}: nothing was sent"
            );
        }
    }
}

#[test]
fn a_member_with_a_wrong_token_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let (good, bad) = (dir.path().join("good"), dir.path().join("bad"));
    std::fs::write(&good, "right-token\n").unwrap();
    std::fs::write(&bad, "wrong-token\n").unwrap();
    let game = ["--random", "--n", "6", "--index", "3"];
    let peers = peers(2);
    let mut leader = member(
        dir.path(),
        &game,
        &peers,
        0,
        &["--token-file", good.to_str().unwrap()],
    );
    let mut intruder = member(
        dir.path(),
        &game,
        &peers,
        1,
        &["--token-file", bad.to_str().unwrap()],
    );
    assert_ne!(leader.wait(Duration::from_secs(60)), 0);
    assert_ne!(intruder.wait(Duration::from_secs(60)), 0);
    // Each names the other and the token: the one it refused, or the one that refused it
    // (which comes first depends on timing).
    let (l, i) = (leader.log_text(), intruder.log_text());
    let names = |text: &str, who: &str| {
        text.contains(&format!(
            "gang member {who} showed a wrong or missing shared token"
        )) || text.contains(&format!(
            "gang member {who} refused this member: wrong or missing shared token"
        ))
    };
    assert!(names(&l, "1"), "leader:\n{l}");
    assert!(names(&i, "0"), "member 1:\n{i}");
    assert!(!l.contains("panicked") && !i.contains("panicked"));
}

/// A gang of two in the middle of a long game (7x7 game 5399: 7.8 million states, far
/// longer than the moment before a fault), both members past forming the gang.
fn gang_mid_search(dir: &std::path::Path) -> (Proc, Proc) {
    let game = ["--random", "--n", "7", "--seed", "2013", "--index", "5399"];
    let peers = peers(2);
    let leader = member(dir, &game, &peers, 0, &[]);
    let other = member(dir, &game, &peers, 1, &[]);
    formed(&leader);
    formed(&other);
    std::thread::sleep(Duration::from_millis(500));
    (leader, other)
}

#[test]
fn a_killed_member_is_reported_lost() {
    let dir = tempfile::tempdir().unwrap();
    let (mut leader, mut other) = gang_mid_search(dir.path());
    other.kill9();
    assert_ne!(leader.wait(Duration::from_secs(60)), 0);
    let text = leader.log_text();
    assert!(text.contains("gang member 1 was lost"), "leader:\n{text}");
}

#[test]
fn owner_options_that_do_not_fit_are_refused_by_name() {
    let refused = |args: &[&str], says: &str| {
        let out = hammer(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} was taken");
        assert!(err.contains(says), "{args:?} said:\n{err}");
        assert!(!err.contains("panicked"), "{args:?}:\n{err}");
    };
    let game = ["solve", "--random", "--n", "5", "--index", "1"];
    let with = |extra: &[&str]| -> Vec<String> {
        game.iter().chain(extra).map(|a| a.to_string()).collect()
    };
    let run = |extra: &[&str], says: &str| {
        let args = with(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, says);
    };
    run(
        &["--owners", "2", "--prefix", "3"],
        "--owners cannot be combined with --prefix",
    );
    run(
        &["--owners", "2", "--schedule", "luby:64"],
        "--owners cannot be combined with --schedule",
    );
    run(&["--owners", "0"], "--owners");
    run(
        &["--peers", "127.0.0.1:1", "--rank", "0"],
        "a gang needs at least 2 members, got 1",
    );
    run(
        &["--peers", "127.0.0.1:1,127.0.0.1:2", "--rank", "2"],
        "--rank 2: --peers lists only 2 members",
    );
    run(
        &["--peers", "127.0.0.1:1,nowhere", "--rank", "1"],
        "--peers entry 1 'nowhere' is not HOST:PORT",
    );
    refused(
        &[
            "solve", "--puzzle", "peg", "--random", "--index", "0", "--owners", "2",
        ],
        "puzzle peg has no owner search",
    );
}

#[test]
fn a_stopped_member_is_reported_lost() {
    let dir = tempfile::tempdir().unwrap();
    let (mut leader, mut other) = gang_mid_search(dir.path());
    let signal = |sig: &str| {
        let status = std::process::Command::new("kill")
            .args([sig, &other.pid().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success());
    };
    // A paused process keeps its connections open but answers no keepalive ping.
    signal("-STOP");
    let code = leader.wait(Duration::from_secs(60));
    signal("-CONT");
    other.kill9();
    assert_ne!(code, 0);
    let text = leader.log_text();
    assert!(text.contains("gang member 1 was lost"), "leader:\n{text}");
}
