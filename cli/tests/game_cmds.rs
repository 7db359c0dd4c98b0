//! `hammer solve`, `moves` and `replay` as a user runs them: the real binary, real
//! arguments, real stdin and exit codes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn hammer(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hammer"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hammer runs");
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    child.wait_with_output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn solve_json_has_the_promised_keys_and_a_replayable_solution() {
    let board = "C2A1B3/A3B1C1/B2C3A2";
    let v = json(&hammer(&["solve", board, "--json"], None));
    for key in [
        "board",
        "min_stones",
        "exhaustive",
        "solution",
        "expansions",
    ] {
        assert!(v.get(key).is_some(), "missing {key} in {v}");
    }
    assert_eq!(v["board"], board);
    assert_eq!(v["exhaustive"], true);
    let mut args = vec!["replay", board, "--json"];
    args.extend(v["solution"].as_str().unwrap().split_whitespace());
    let replayed = json(&hammer(&args, None));
    assert_eq!(replayed["stones"], v["min_stones"]);
}

#[test]
fn seeded_solves_reproduce_bit_for_bit() {
    let args = [
        "solve",
        "--random",
        "--n",
        "5",
        "--seed",
        "9",
        "--index",
        "17",
        "--order",
        "random",
        "--schedule",
        "luby:16",
        "--prefix",
        "2",
        "--json",
    ];
    let mut a = json(&hammer(&args, None));
    let mut b = json(&hammer(&args, None));
    a["wall_ns"] = 0.into();
    b["wall_ns"] = 0.into();
    assert_eq!(a, b);
    assert_eq!(a["prefix_moves"].as_str().unwrap().split(' ').count(), 2);
    assert_eq!(a["order"], "random");
    assert_eq!(a["schedule"], "luby:16");
}

/// `--profile` adds a per-score profile whose expansions add up to the game's, and
/// changes nothing else; the table names its columns.
#[test]
fn a_profile_counts_every_expansion_and_changes_nothing() {
    let args = [
        "solve",
        "--random",
        "--n",
        "6",
        "--seed",
        "3",
        "--index",
        "5",
        "--order",
        "random",
        "--schedule",
        "luby:64",
        "--json",
    ];
    let mut plain = json(&hammer(&args, None));
    let mut profiled = json(&hammer(&[&args[..], &["--profile"]].concat(), None));
    assert!(plain.get("profile").is_none());
    let profile = profiled["profile"].take();
    let levels = profile["levels"].as_array().unwrap();
    let expanded: u64 = levels.iter().map(|l| l["expanded"].as_u64().unwrap()).sum();
    assert_eq!(expanded, profiled["expansions"].as_u64().unwrap());
    assert_eq!(profile["start_bound"], 1);
    assert_eq!(profile["memo_evictions"], 0);
    profiled.as_object_mut().unwrap().remove("profile");
    plain["wall_ns"] = 0.into();
    profiled["wall_ns"] = 0.into();
    assert_eq!(plain, profiled);

    let text = hammer(&["solve", "A1B2C3/B1C2A3/C1A2B3", "--profile"], None);
    let text = String::from_utf8_lossy(&text.stdout).to_string();
    assert!(text.contains("start bound 1, memo evictions 0"), "{text}");
    assert!(text.contains("base alone"), "{text}");
}

#[test]
fn batch_mode_answers_each_line_and_names_bad_ones() {
    let input = "A1B2/B1A2\nnot a board\nA1\n";
    let out = hammer(&["solve", "-"], Some(input));
    assert!(
        !out.status.success(),
        "a bad line makes the exit code non-zero"
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["min_stones"], 1);
    assert_eq!(lines[1]["line"], 2);
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("unexpected character 'n'"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2]["min_stones"], 1);

    let out = hammer(&["moves", "-"], Some("B1/B2\n"));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["moves"]["B1xB2"], "/B1");
}

#[test]
fn moves_json_matches_a_conformance_case() {
    let v = json(&hammer(&["moves", "A2B3C1/B2C3A3/C2A1B1", "--json"], None));
    let expected = serde_json::json!({
        "A1xB1": "A2B3C1/B2C3A3/C2A1", "A2xB2": "B3C1/A2C3A3/C2A1B1",
        "A3xC3": "A2B3C1/B2A3/C2A1B1", "B1xA1": "A2B3C1/B2C3A3/C2B1",
        "B2xA2": "B2B3C1/C3A3/C2A1B1", "B2xC2": "A2B3C1/C3A3/B2A1B1",
        "C2xB2": "A2B3C1/C2C3A3/A1B1", "C3xA3": "A2B3C1/B2C3/C2A1B1"});
    assert_eq!(v["moves"], expected);
}

#[test]
fn replay_draws_boards_and_names_an_illegal_move() {
    let out = hammer(&["replay", "A1B2C3/C1/", "C1xC3"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("| A1 | B2 | C3 |"), "{text}");
    assert!(text.contains("move 1: C1xC3 -> A1B2C1//"), "{text}");

    let out = hammer(&["replay", "A1B2C3/B1C2A3/C1A2B3", "A1xA3"], None);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("move 1 of 1") && err.contains("A1xA3") && err.contains("not neighbours"),
        "{err}"
    );
}

/// A later state solves like a start (the viewer's hints rely on it): B1xA1 then B1xB2.
#[test]
fn solve_takes_a_state_after_some_moves() {
    let out = hammer(&["solve", "A1B2/B1", "--json"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["min_stones"], 1, "{v}");
    assert_eq!(v["exhaustive"], true, "{v}");
}

#[test]
fn bad_input_is_named_without_a_panic() {
    for (args, needle) in [
        (vec!["solve", "A1B2B1/A2"], "row 1 has 3 stones"),
        (vec!["solve", "A1B2/B1Z2"], "'Z2'"),
        (vec!["solve", "A1A1/B1B2"], "written twice"),
        (vec!["moves", "A1B2B1/A2"], "row 1 has 3 stones"),
        (
            vec!["moves", "A1B2C3D4/"],
            "'C3' at character 5 is not a stone of a 2x2 board",
        ),
        (
            vec!["solve", "A1", "--schedule", "luby:x"],
            "'x' is not a positive",
        ),
        (
            vec!["solve", "A1", "--order", "smart"],
            "unknown move order 'smart'",
        ),
        (vec!["solve", "--random", "--n", "9", "--index", "0"], "9"),
    ] {
        let out = hammer(&args, None);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = stderr(&out);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
