//! `hammer count` over real processes: a gang of `hammer count --peers` members, each
//! owning a hash share of the positions, counts exactly what one process counts, with
//! and without the symmetry reduction; a family that cannot count is refused by name.

mod support;

use std::time::Duration;

use serde_json::Value;
use support::{Proc, free_port, hammer, last_json, ok, s};

/// The English board with its top arm empty: 528,083 positions, a second or so.
const START: &str = ".../.../......./ooooooo/ooooooo/ooo/ooo";

fn counted(args: &[&str]) -> Value {
    let mut all = vec!["count", "--json", "--puzzle", "peg", START];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(&hammer(&all))).expect("one JSON object")
}

/// Every member's JSON of a gang of `k` counting [`START`] with `extra`.
fn gang(dir: &std::path::Path, k: usize, extra: &[&str]) -> Vec<Value> {
    let peers: Vec<String> = (0..k)
        .map(|_| format!("127.0.0.1:{}", free_port()))
        .collect();
    let peers = peers.join(",");
    let mut members: Vec<Proc> = (0..k)
        .map(|rank| {
            let mut args = s(&["count", "--json", "--puzzle", "peg", START]);
            args.extend(s(&["--peers", &peers, "--rank", &rank.to_string()]));
            args.extend(s(extra));
            let log = dir.join(format!("member{rank}-{k}.log"));
            Proc::spawn(&format!("member {rank}"), support::HAMMER, &args, &[], log)
        })
        .collect();
    for m in &mut members {
        m.wait_ok(Duration::from_secs(120));
    }
    members.iter().map(last_json).collect()
}

#[test]
fn a_gang_of_processes_counts_what_one_process_counts() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (k, extra) in [(2, &[][..]), (3, &["--symmetry"][..])] {
        let alone = counted(extra);
        assert_eq!(alone["states"], 528_083, "{alone}");
        let members = gang(dir.path(), k, extra);
        let mut owned = 0;
        for (rank, member) in members.iter().enumerate() {
            for field in ["levels", "classes", "states", "start"] {
                assert_eq!(member[field], alone[field], "member {rank} of {k}: {field}");
            }
            assert_eq!(member["rank"], rank);
            assert_eq!(member["members"], k);
            assert!(member["sent"].as_u64() > Some(0), "{member}");
            assert!(member["bytes_sent"].as_u64() > Some(0), "{member}");
            owned += member["entries"].as_u64().expect("entries");
        }
        // Each entry had one owner.
        assert_eq!(Some(owned), alone["classes"].as_u64());
    }
}

#[test]
fn a_puzzle_that_cannot_count_is_refused_by_name() {
    let out = hammer(&["count", "--puzzle", "martello", "--index", "0"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("puzzle martello cannot count its positions"),
        "{stderr}"
    );
    let out = hammer(&["count", "--puzzle", "peg", "ooo/ooo"]);
    assert!(!out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}
